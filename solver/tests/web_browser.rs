//! The web board in a real browser: headless Chromium driven through
//! WebDriver (Debian's `chromium` and `chromium-driver`) opens the landing
//! page over tables that cover the 4-stone game (as the README's `nine
//! generate --max-stones 9` does: that game's empty board with every move
//! valued), chooses 9 stones a side (no error, the missing table named,
//! play goes on with both sides when the perfect player cannot move),
//! survives malformed URL fragments, plays a complete Three Men's Morris
//! game against the perfect player (in the `ultra` style) by clicking on
//! the board, checks that the move values a Nine Men's Morris position
//! shows equal the API's, plays a capture by clicks (the moved stone
//! drawn on its new point while the removal is chosen), plays a 3-3
//! game against the perfect player into a threefold repetition (a draw),
//! plays the 4-stone
//! game on Nine's board from the empty board to its end against the
//! perfect player (placements, mills of both sides, removals, flying; the
//! hint, "Show values", the record exported, imported, clicked, and an
//! illegal one refused), plays Toguz Kumalak against the engine (with the
//! busy indicator showing during a search), imports a PlayOK record, shows
//! every hole's value and a hint, reviews the game (graph, moves, each
//! hole's value at a position chosen in the review) and exports it again,
//! opens the tabs of Nine without flying (its help naming `--no-flying`),
//! Six Men's Morris, Morabaraba and Lasker Morris (each board drawn from
//! its geometry, its start the served game's, its move values the API's;
//! a Morabaraba removal with the placed stone on the board and out of the
//! hand),
//! plays a game on Six that Back and Forward step through and that
//! survives Statistics and back and a reload, opens its copied link in a
//! new tab, switches the count rule on and off on a cursed win of Six
//! (the count shown, the cursed win marked, a quiet move counted), and
//! checks the phone layout
//! at 390 px. It saves screenshots (into `$SCREENSHOTS_DIR`, default the
//! target's temporary directory; `scripts/screenshots.sh` writes them into
//! `docs/img/`) and a screenshot on failure.
//!
//! Without `chromedriver` on the PATH the test prints why and passes, except
//! under `CI=true`, where it fails (`.ci/run` installs the packages).

mod web;

use fantoccini::{Client, ClientBuilder, Locator};
use mill::games::three;
use serde_json::{json, Value as Json};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use web::{get_position, STD};

/// A 3-3 moving-phase position where White closes a mill at once.
const NINE: &str = "W.W..B...B.W....B....... w 0 0";

type Result<T> = std::result::Result<T, String>;

fn chromedriver() -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("chromedriver"))
            .find(|p| p.is_file())
    })
}

/// Kills the chromedriver it holds when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn screenshots() -> PathBuf {
    let dir = std::env::var_os("SCREENSHOTS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots"));
    std::fs::create_dir_all(&dir).expect("screenshot directory");
    dir
}

#[test]
fn browser_plays_and_shows_the_api_values() {
    let Some(driver) = chromedriver() else {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("chromedriver is not on the PATH under CI=true (apt-get install chromium chromium-driver)");
        }
        eprintln!(
            "skipped: no chromedriver on the PATH (apt-get install chromium chromium-driver)"
        );
        return;
    };
    let addr = web::start(boards_config());
    let port = free_port();
    let _driver = Driver(
        Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "chromedriver does not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let profile = std::env::temp_dir().join(format!("web-chromium-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let shots = screenshots();
    runtime.block_on(async {
        let client = connect(port, &profile).await;
        let result = run(&client, addr, &shots).await;
        if let Err(e) = &result {
            let file = shots.join("failure.png");
            if let Ok(png) = client.screenshot().await {
                let _ = std::fs::write(&file, png);
                eprintln!("screenshot of the failure: {}", file.display());
            }
            eprintln!("browser test failed: {e}");
        }
        let _ = client.close().await;
        let _ = std::fs::remove_dir_all(&profile);
        result.unwrap();
    });
}

async fn connect(port: u16, profile: &std::path::Path) -> Client {
    let mut args = vec![
        "--headless=new".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--no-first-run".into(),
        "--window-size=1280,900".into(),
    ];
    args.push(format!("--user-data-dir={}", profile.display()));
    let mut options = json!({ "args": args });
    for binary in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] {
        if std::path::Path::new(binary).is_file() {
            options["binary"] = json!(binary);
            break;
        }
    }
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert("goog:chromeOptions".into(), options);
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session")
}

/// Evaluate a JavaScript expression in the page.
async fn eval(client: &Client, expr: &str) -> Result<Json> {
    client
        .execute(&format!("return ({expr});"), vec![])
        .await
        .map_err(|e| format!("script `{expr}`: {e}"))
}

/// Wait until the page is idle and `expr` is truthy; its value.
async fn wait(client: &Client, expr: &str) -> Result<Json> {
    let started = Instant::now();
    loop {
        let v = eval(
            client,
            &format!("document.body.dataset.busy === '0' && ({expr})"),
        )
        .await?;
        if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
            return Ok(v);
        }
        if started.elapsed() > Duration::from_secs(60) {
            return Err(format!("timed out waiting for `{expr}`"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn click_id(client: &Client, id: &str) -> Result<()> {
    client
        .find(Locator::Id(id))
        .await
        .map_err(|e| format!("{id}: {e}"))?
        .click()
        .await
        .map_err(|e| format!("click {id}: {e}"))
}

/// Type `text` into the field `id` (replacing what is there).
async fn type_into(client: &Client, id: &str, text: &str) -> Result<()> {
    client
        .execute(
            "const f = document.getElementById(arguments[0]); f.value = arguments[1];",
            vec![json!(id), json!(text)],
        )
        .await
        .map(|_| ())
        .map_err(|e| format!("{id}: {e}"))
}

async fn click_point(client: &Client, point: &str) -> Result<()> {
    client
        .find(Locator::Css(&format!(
            "#board g.pt[data-point='{point}'] circle.hit"
        )))
        .await
        .map_err(|e| format!("point {point}: {e}"))?
        .click()
        .await
        .map_err(|e| format!("click {point}: {e}"))
}

/// Click a move on the board: the stone, the destination, the removal.
async fn click_move(client: &Client, text: &str) -> Result<()> {
    let (main, removal) = match text.split_once('x') {
        Some((m, r)) => (m, Some(r)),
        None => (text, None),
    };
    for point in main.split('-').chain(removal) {
        click_point(client, point).await?;
    }
    Ok(())
}

async fn shot(client: &Client, file: PathBuf) -> Result<()> {
    let png = client.screenshot().await.map_err(|e| e.to_string())?;
    std::fs::write(&file, png).map_err(|e| format!("{}: {e}", file.display()))
}

/// The mill games' tabs.
const MILLS: [&str; 6] = [
    "nine",
    "nine-noflying",
    "six",
    "morabaraba",
    "lasker",
    "three",
];

const ROWS: &str = "[...document.querySelectorAll('#m-moves tr[data-move]')]";

async fn run(client: &Client, addr: SocketAddr, shots: &std::path::Path) -> Result<()> {
    let base = format!("http://{addr}/");
    landing_with_partial_tables(client, addr, &base, shots).await?;
    fragments(client, addr, &base).await?;
    nine_values(client, addr, &base, shots).await?;
    repetition(client, addr, &base).await?;
    nine_game(client, addr, &base, shots).await?;
    three_game(client, addr, &base, shots).await?;
    toguz_game(client, &base, shots).await?;
    toguz_review(client, addr, &base, shots).await?;
    for (game, position, points, lines) in BOARDS {
        board_tab(client, addr, &base, game, position, points, lines)
            .await
            .map_err(|e| format!("#{game}: {e}"))?;
    }
    morabaraba_removal(client, addr, &base)
        .await
        .map_err(|e| format!("a removal on Morabaraba: {e}"))?;
    six_kept(client, addr, &base)
        .await
        .map_err(|e| format!("a kept game on Six: {e}"))?;
    count_rule(client, addr, &base, shots)
        .await
        .map_err(|e| format!("the count rule on Six: {e}"))?;
    panel_edges(client, &base)
        .await
        .map_err(|e| format!("the panel at 1366 px: {e}"))?;
    client
        .goto(&format!("{base}#stats"))
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        "document.querySelectorAll('#s-nine svg rect').length > 0",
    )
    .await?;
    // Nine's placement sectors charted beside its subspaces.
    wait(
        client,
        "document.getElementById('s-nine').textContent.includes('placement sectors')",
    )
    .await
    .map_err(|e| format!("Nine's placement sectors in the statistics: {e}"))?;
    // Every board's tables charted, from its own stats.
    for game in ["nine-noflying", "six", "morabaraba", "lasker"] {
        wait(
            client,
            &format!("document.querySelectorAll('#s-{game} svg rect').length > 0"),
        )
        .await
        .map_err(|e| format!("statistics of {game}: {e}"))?;
    }
    charts_readable(client)
        .await
        .map_err(|e| format!("the charts at 1280 px: {e}"))?;
    shot(client, shots.join("stats.png")).await?;
    phone(client, &base, shots).await
}

/// At 1366 × 900 the panel beside the board starts at the same x on
/// every board's tab (the board column has one width), the board drawn
/// inside its column; then back to the test's 1280 × 900.
async fn panel_edges(client: &Client, base: &str) -> Result<()> {
    client
        .set_window_size(1366, 900)
        .await
        .map_err(|e| e.to_string())?;
    let mut edges = Vec::new();
    for game in MILLS.iter().chain(&["toguz"]) {
        client
            .goto(&format!("{base}#{game}"))
            .await
            .map_err(|e| e.to_string())?;
        let drawn = if *game == "toguz" {
            "document.querySelectorAll('#t-board g.hole').length === 18"
        } else {
            "document.querySelectorAll('#board g.pt').length > 0"
        };
        wait(client, drawn)
            .await
            .map_err(|e| format!("#{game}: {e}"))?;
        let at = eval(
            client,
            "(() => { const s = document.querySelector('main > section:not([hidden])'); \
             const p = s.querySelector('.panel').getBoundingClientRect(); \
             const c = s.querySelector('.board-column').getBoundingClientRect(); \
             const b = s.querySelector('.board-column svg').getBoundingClientRect(); \
             return [p.left, p.top, c.left <= b.left + 0.5 && b.right <= c.right + 0.5]; })()",
        )
        .await?;
        edges.push((game.to_string(), at));
    }
    let first = edges[0].1.clone();
    if edges
        .iter()
        .any(|(_, at)| at[0] != first[0] || at[1] != first[1] || at[2] != json!(true))
    {
        return Err(format!(
            "[left, top, board inside its column] of the panel per tab: {edges:?}"
        ));
    }
    client
        .set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())
}

/// What is wrong with the statistics charts as drawn: a box outside the
/// page, a drawing shrunk (its text unreadable) or wider than its box
/// without a scroll bar, a label sticking out of its drawing, x labels
/// printed over each other.
const CHART_PROBLEMS: &str = r#"(() => {
  const out = [];
  const page = document.documentElement.clientWidth;
  for (const box of document.querySelectorAll('#stats-view .chart')) {
    const title = box.querySelector('h3').textContent;
    const b = box.getBoundingClientRect();
    if (b.left < -0.5 || b.right > page + 0.5) out.push(`${title}: its box spans ${b.left}..${b.right} of ${page} px`);
    const svg = box.querySelector('svg');
    const s = svg.getBoundingClientRect();
    const w = svg.viewBox.baseVal.width;
    if (Math.abs(s.width - w) > 0.5) out.push(`${title}: drawn ${s.width} px wide for ${w}`);
    if (s.width > box.clientWidth + 0.5 && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) {
      out.push(`${title}: ${s.width} px in a box of ${box.clientWidth} px that does not scroll`);
    }
    for (const t of svg.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (r.left < s.left - 0.5 || r.right > s.right + 0.5 || r.top < s.top - 0.5 || r.bottom > s.bottom + 0.5) {
        out.push(`${title}: the label ${t.textContent} sticks out of the drawing`);
      }
    }
    const xs = [...svg.querySelectorAll('text.x-label')].map((t) => [t.textContent, t.getBoundingClientRect()]);
    for (let i = 1; i < xs.length; i++) {
      if (xs[i][1].left < xs[i - 1][1].right - 0.5) out.push(`${title}: ${xs[i - 1][0]} and ${xs[i][0]} overlap`);
    }
  }
  return out;
})()"#;

/// The statistics charts are readable as drawn ([`CHART_PROBLEMS`] finds
/// nothing), Lasker's among them.
async fn charts_readable(client: &Client) -> Result<()> {
    let problems = eval(client, CHART_PROBLEMS).await?;
    let lasker = eval(
        client,
        "document.querySelectorAll('#s-lasker .chart text.x-label').length",
    )
    .await?;
    if lasker.as_u64().unwrap_or(0) < 2 {
        return Err(format!("Lasker's chart has {lasker} x labels"));
    }
    if problems != json!([]) {
        return Err(format!("{problems}"));
    }
    Ok(())
}

/// The text of an element.
async fn text(client: &Client, id: &str) -> Result<String> {
    let v = eval(
        client,
        &format!("document.getElementById('{id}').textContent"),
    )
    .await?;
    Ok(v.as_str().unwrap_or("").to_string())
}

async fn select(client: &Client, id: &str, value: &str) -> Result<()> {
    client
        .find(Locator::Id(id))
        .await
        .map_err(|e| format!("{id}: {e}"))?
        .select_by_value(value)
        .await
        .map_err(|e| format!("{id} = {value}: {e}"))
}

/// The stones a side of the largest game on Nine's board `game`
/// (`nine`, `nine-noflying`) whose moving-phase subspaces the server's
/// tables all hold (from `/api/{game}/stats`; 0: none).
fn covered(addr: SocketAddr, game: &str) -> u8 {
    let stats = web::get(addr, &format!("/api/{game}/stats")).json();
    let have: std::collections::HashSet<(u64, u64)> = stats["tables"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .filter(|r| r["error"].is_null() && r["kind"] == "moving")
                .filter_map(|r| Some((r["white"].as_u64()?, r["black"].as_u64()?)))
                .collect()
        })
        .unwrap_or_default();
    let mut k = 0;
    for n in 3..=9u64 {
        if !(3..=n).all(|w| (3..=n).all(|b| have.contains(&(w, b)))) {
            break;
        }
        k = n as u8;
    }
    k
}

/// The position a new game on Nine's board `game` starts from: the empty
/// board of the largest game the tables cover, else of the 9-stone game.
fn nine_landing(addr: SocketAddr, game: &str) -> String {
    let k = match covered(addr, game) {
        0 => 9,
        k => k,
    };
    format!("........................ w {k} {k}")
}

/// The moves the page lists, with their values: `[move, value, dtc]`.
async fn page_rows(client: &Client) -> Result<Json> {
    eval(
        client,
        &format!("{ROWS}.map(tr => [tr.dataset.move, tr.dataset.value, tr.dataset.dtc])"),
    )
    .await
}

/// The moves `/api/{game}/probe` lists for `position`, as [`page_rows`]:
/// in the API's order, the moves of one value and distance in the order
/// of their text (as the page lists them).
fn api_rows(addr: SocketAddr, game: &str, position: &str) -> Result<Json> {
    let api = get_position(addr, &format!("/api/{game}/probe"), position).json();
    let rows: Vec<(String, Json, String)> = api["moves"]
        .as_array()
        .ok_or_else(|| format!("the API says {api}"))?
        .iter()
        .map(|m| {
            let dtc = if m["dtc"].is_null() {
                String::new()
            } else {
                m["dtc"].to_string()
            };
            let text = m["move"].as_str().unwrap_or("").to_string();
            (text, m["value"].clone(), dtc)
        })
        .collect();
    // A value's rank: the place of its first move in the API's order.
    let rank = |r: &(String, Json, String)| {
        rows.iter()
            .position(|x| (&x.1, &x.2) == (&r.1, &r.2))
            .unwrap_or(0)
    };
    let mut sorted = rows.clone();
    sorted.sort_by_cached_key(|r| (rank(r), r.0.clone()));
    let sorted: Vec<Json> = sorted
        .into_iter()
        .map(|(m, v, d)| json!([m, v, d]))
        .collect();
    Ok(json!(sorted))
}

/// The page's record: the moves it lists.
async fn record(client: &Client) -> Result<Json> {
    eval(
        client,
        "[...document.querySelectorAll('#m-record .ply')].map(li => li.textContent)",
    )
    .await
}

/// Open `url` in a new tab (its own sessionStorage, as a link opened by a
/// player) and close the one shown.
async fn fresh_tab(client: &Client, url: &str) -> Result<()> {
    let tab = client.new_window(true).await.map_err(|e| e.to_string())?;
    client.close_window().await.map_err(|e| e.to_string())?;
    client
        .switch_to_window(tab.handle)
        .await
        .map_err(|e| e.to_string())?;
    client.goto(url).await.map_err(|e| e.to_string())
}

/// The landing page over the test's tables, which cover the 4-stone game
/// as the README's `nine generate --max-stones 9` does: that game's empty
/// board with every move valued (the API's values), no error, no note.
/// Then 9 stones chosen in "Stones a side": the 9-stone start (the empty
/// board needs tables the server lacks), no red error, a note naming the
/// missing table; playing White against the perfect player falls back to
/// both sides when it cannot move, instead of thinking forever.
async fn landing_with_partial_tables(
    client: &Client,
    addr: SocketAddr,
    base: &str,
    shots: &std::path::Path,
) -> Result<()> {
    let k = covered(addr, "nine");
    if k != 4 {
        return Err(format!(
            "the test's tables cover the {k}-stone game, the README's the 4-stone game"
        ));
    }
    let start = nine_landing(addr, "nine");
    client.goto(base).await.map_err(|e| e.to_string())?;
    wait(
        client,
        &format!(
            "document.getElementById('m-text').value === {} && {ROWS}.length === 24 && {ROWS}.every(tr => tr.dataset.value)",
            json!(start)
        ),
    )
    .await
    .map_err(|e| format!("the landing page: {e}"))?;
    let shown = page_rows(client).await?;
    let expected = api_rows(addr, "nine", &start)?;
    if shown != expected {
        return Err(format!(
            "the landing page shows {shown}, the API says {expected}"
        ));
    }
    for id in ["m-error", "m-notice"] {
        let said = text(client, id).await?;
        if !said.is_empty() {
            return Err(format!("the landing page says in {id}: {said}"));
        }
    }
    let chosen = eval(client, "document.getElementById('m-stones').value").await?;
    if chosen != json!(k.to_string()) {
        return Err(format!("the stone count shown is {chosen}"));
    }
    // The stones in hand, drawn beside the board.
    let hands = eval(
        client,
        "['white', 'black'].map(c => [document.getElementById(`m-hand-${c}`).dataset.count, document.querySelectorAll(`#m-hand-${c} circle.stone`).length])",
    )
    .await?;
    if hands != json!([[k.to_string(), k], [k.to_string(), k]]) {
        return Err(format!("the stones in hand shown: {hands}"));
    }
    let tables = text(client, "m-tables").await?;
    if !tables.contains("`solver nine generate`") {
        return Err(format!("the line on larger tables says: {tables}"));
    }
    // Every point is a labelled keyboard stop.
    let labelled = eval(
        client,
        "[...document.querySelectorAll('#board g.pt')].every(g => g.getAttribute('tabindex') === '0' && /^[a-g][1-7]: empty/.test(g.getAttribute('aria-label')))",
    )
    .await?;
    if labelled != json!(true) {
        return Err("the board's points are not labelled keyboard stops".into());
    }
    shot(client, shots.join("nine-landing.png")).await?;
    // The 9-stone game: its legal moves, a note on the missing table.
    select(client, "m-stones", "9").await?;
    wait(
        client,
        &format!(
            "document.getElementById('m-text').value === {} && {ROWS}.length === 24",
            json!("........................ w 9 9")
        ),
    )
    .await?;
    let error = text(client, "m-error").await?;
    if !error.is_empty() {
        return Err(format!("the 9-stone start shows an error: {error}"));
    }
    let note = text(client, "m-notice").await?;
    if !(note.contains("nine-flying-") && note.contains("can be played")) {
        return Err(format!(
            "the 9-stone start does not say what is missing: {note}"
        ));
    }
    shot(client, shots.join("nine-partial.png")).await?;
    select(client, "m-mode", "white").await?;
    wait(client, &format!("{ROWS}.length === 24")).await?;
    click_point(client, "d6").await?;
    wait(
        client,
        "document.getElementById('m-mode').value === 'analyse' && document.getElementById('m-notice').textContent.includes('cannot move here')",
    )
    .await?;
    let hint = text(client, "m-hint").await?;
    if hint.contains("thinking") {
        return Err(format!("still thinking: {hint}"));
    }
    // The user makes Black's move, then White's: the game goes on.
    click_point(client, "d2").await?;
    wait(
        client,
        "document.querySelectorAll('#m-record .ply').length === 2",
    )
    .await?;
    click_point(client, "b4").await?;
    wait(
        client,
        "document.querySelectorAll('#m-record .ply').length === 3",
    )
    .await?;
    Ok(())
}

/// Morabaraba's diagonal mill by clicks (a7 d7 b6 f6 c5): while the
/// removal is chosen, the stone placed stands on c5 and has left White's
/// hand (the hands drawn beside the board); the removal of d7 gives the
/// position the API's replay does.
async fn morabaraba_removal(client: &Client, addr: SocketAddr, base: &str) -> Result<()> {
    let games = web::get(addr, "/api/games").json();
    let start = games
        .as_array()
        .and_then(|g| g.iter().find(|g| g["id"] == "morabaraba"))
        .and_then(|g| g["start"].as_str())
        .ok_or_else(|| format!("/api/games: {games}"))?
        .to_string();
    let hand: Vec<u64> = start
        .split_whitespace()
        .skip(2)
        .filter_map(|n| n.parse().ok())
        .collect();
    if hand.len() != 2 || hand[0] < 3 {
        return Err(format!(
            "the start {start} has not 3 stones a side to place"
        ));
    }
    client
        .goto(&format!("{base}#morabaraba/{}", web::encode(&start)))
        .await
        .map_err(|e| e.to_string())?;
    for (i, point) in ["a7", "d7", "b6", "f6"].iter().enumerate() {
        wait(
            client,
            &format!(
                "document.querySelectorAll('#m-record .ply').length === {i} && {ROWS}.length > 0"
            ),
        )
        .await?;
        click_point(client, point).await?;
    }
    wait(
        client,
        &format!("document.querySelectorAll('#m-record .ply').length === 4 && {ROWS}.length > 0"),
    )
    .await?;
    click_point(client, "c5").await?;
    let state = wait(
        client,
        "document.getElementById('m-hint').textContent.includes('remove') && \
         [!!document.querySelector(\"#board g.pt[data-point='c5'] circle.stone.white\"), \
          document.getElementById('m-hand-white').dataset.count, \
          document.getElementById('m-hand-black').dataset.count]",
    )
    .await?;
    let want = json!([true, (hand[0] - 3).to_string(), (hand[1] - 2).to_string()]);
    if state != want {
        return Err(format!(
            "during the removal [c5 has White's stone, White's hand, Black's hand] = {state}, not {want}"
        ));
    }
    top(client).await?;
    shot(client, screenshots().join("morabaraba-removal.png")).await?;
    click_point(client, "d7").await?;
    let replay = web::get(
        addr,
        &format!(
            "/api/morabaraba/replay?position={}&moves={}",
            web::encode(&start),
            web::encode("a7 d7 b6 f6 c5xd7")
        ),
    )
    .json();
    wait(
        client,
        &format!(
            "document.getElementById('m-text').value === {}",
            replay["positions"][5]
        ),
    )
    .await?;
    Ok(())
}

/// A game played on Six by clicks: Back and Forward step through its
/// moves; it survives Statistics and back (by the tabs) and a reload;
/// "Copy link" of its position reproduces the position in a new tab.
async fn six_kept(client: &Client, addr: SocketAddr, base: &str) -> Result<()> {
    let games = web::get(addr, "/api/games").json();
    let start = games
        .as_array()
        .and_then(|g| g.iter().find(|g| g["id"] == "six"))
        .and_then(|g| g["start"].as_str())
        .ok_or_else(|| format!("/api/games: {games}"))?
        .to_string();
    client
        .goto(&format!("{base}#six"))
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        "document.querySelectorAll('#board g.pt').length === 16",
    )
    .await?;
    click_id(client, "m-new").await?;
    wait(
        client,
        &format!(
            "document.getElementById('m-text').value === {} && document.querySelectorAll('#m-record .ply').length === 0 && {ROWS}.length > 0",
            json!(start)
        ),
    )
    .await?;
    let mut moves = Vec::new();
    for i in 0..3 {
        let mv = wait(
            client,
            &format!("{ROWS}.length > 0 && {ROWS}[0].dataset.move"),
        )
        .await?;
        let mv = mv.as_str().ok_or("no move")?.to_string();
        click_move(client, &mv).await?;
        wait(
            client,
            &format!(
                "document.querySelectorAll('#m-record .ply').length === {} && {ROWS}.length > 0",
                i + 1
            ),
        )
        .await?;
        moves.push(mv);
    }
    let replay = web::get(
        addr,
        &format!(
            "/api/six/replay?position={}&moves={}",
            web::encode(&start),
            web::encode(&moves.join(" "))
        ),
    )
    .json();
    let positions: Vec<String> = replay["positions"]
        .as_array()
        .ok_or_else(|| format!("replay: {replay}"))?
        .iter()
        .map(|p| p.as_str().unwrap_or("").to_string())
        .collect();
    if positions.len() != 4 {
        return Err(format!("replay: {replay}"));
    }
    // The position after a ply, the record whole, its move marked.
    let at = |ply: usize| {
        format!(
            "document.getElementById('m-text').value === {} && \
             decodeURIComponent(location.hash) === {} && \
             document.querySelectorAll('#m-record .ply').length === 3 && \
             [...document.querySelectorAll('#m-record .ply')].findIndex(li => li.classList.contains('current')) === {}",
            json!(positions[ply]),
            json!(format!("#six/{}", positions[ply])),
            ply as i64 - 1
        )
    };
    wait(client, &at(3)).await?;
    // Back and Forward walk the game.
    for (step, ply) in [("back", 2), ("back", 1), ("forward", 2), ("forward", 3)] {
        if step == "back" {
            client.back().await
        } else {
            client.forward().await
        }
        .map_err(|e| e.to_string())?;
        wait(client, &at(ply))
            .await
            .map_err(|e| format!("{step} to ply {ply}: {e}"))?;
    }
    // Statistics and back by the tabs, then a reload: the same game.
    client
        .find(Locator::Css("#tabs a[data-view='stats']"))
        .await
        .map_err(|e| e.to_string())?
        .click()
        .await
        .map_err(|e| e.to_string())?;
    wait(client, "!document.getElementById('stats-view').hidden").await?;
    client
        .find(Locator::Css("#tabs a[data-view='six']"))
        .await
        .map_err(|e| e.to_string())?
        .click()
        .await
        .map_err(|e| e.to_string())?;
    wait(client, &at(3))
        .await
        .map_err(|e| format!("after Statistics and back: {e}"))?;
    if record(client).await? != json!(moves) {
        return Err(format!(
            "the record after Statistics: {}",
            record(client).await?
        ));
    }
    client.refresh().await.map_err(|e| e.to_string())?;
    wait(client, &at(3))
        .await
        .map_err(|e| format!("after a reload: {e}"))?;
    if record(client).await? != json!(moves) {
        return Err(format!(
            "the record after a reload: {}",
            record(client).await?
        ));
    }
    // The copied link, opened in a new tab, shows the position and its values.
    click_id(client, "m-copy-link").await?;
    let link = wait(client, "document.getElementById('m-share').value").await?;
    let link = link.as_str().unwrap_or("").to_string();
    let here = eval(client, "location.href").await?;
    if json!(link) != here || !link.starts_with(&format!("{base}#six/")) {
        return Err(format!("Copy link gives {link}, the page is at {here}"));
    }
    fresh_tab(client, &link).await?;
    wait(
        client,
        &format!(
            "document.getElementById('m-text').value === {} && document.querySelectorAll('#m-record .ply').length === 0 && {ROWS}.length > 0 && {ROWS}.every(tr => tr.dataset.value)",
            json!(positions[3])
        ),
    )
    .await
    .map_err(|e| format!("the copied link {link}: {e}"))?;
    let shown = page_rows(client).await?;
    let expected = api_rows(addr, "six", &positions[3])?;
    if shown != expected {
        return Err(format!("the link shows {shown}, the API says {expected}"));
    }
    Ok(())
}

/// The tabs of the other boards: game, a moving-phase position its small
/// tables hold, its points and lines.
const BOARDS: [(&str, &str, usize, usize); 4] = [
    ("nine-noflying", NINE, 24, 32),
    ("six", "W.W.B....B.W..B. w 0 0", 16, 20),
    ("lasker", NINE, 24, 32),
    ("morabaraba", "W..W...W............B.BB w 0 0", 24, 40),
];

/// The server of the test: Nine's tables up to 6 stones (both rule sets)
/// and every position of its 4-stone game (`--stones 4 --placement`), the
/// 3-stone games of Six and Lasker, Morabaraba's 3-stone subspace.
fn boards_config() -> server::Config {
    let nine = web::tables(6);
    let boards = std::env::temp_dir().join(format!("web-browser-boards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&boards);
    for (args, dir) in [
        (
            &["nine", "generate", "--no-flying", "--max-stones", "6"][..],
            nine,
        ),
        (&["nine", "generate", "--stones", "4", "--placement"], nine),
        (&["six", "generate", "--stones", "3"], &boards),
        (
            &["six", "generate", "--stones", "3", "--quiet-limit", "4"],
            &boards,
        ),
        (&["lasker", "generate", "--stones", "3"], &boards),
        (&["morabaraba", "generate", "--stones", "3"], &boards),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_solver"))
            .args(args)
            .arg("--dir")
            .arg(dir)
            .arg("--quiet")
            .output()
            .expect("run solver");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    server::Config {
        six_dir: boards.clone(),
        lasker_dir: boards.clone(),
        morabaraba_dir: boards,
        quiet_limit: Some(COUNT_LIMIT),
        ..web::config(nine)
    }
}

/// The count rule the browser test's server also serves (Six's tables
/// only: the other boards' are missing, and say so when asked).
const COUNT_LIMIT: u16 = 4;

/// A moving-phase position of Six's served game that the count rule of
/// [`COUNT_LIMIT`] plies turns from a win into a draw (a cursed win),
/// found by a walk from the start over the API.
fn cursed_six(addr: SocketAddr) -> Result<String> {
    let start = web::get(addr, "/api/games").json();
    let start = start
        .as_array()
        .and_then(|g| g.iter().find(|g| g["id"] == "six"))
        .and_then(|g| g["start"].as_str())
        .ok_or("no Six in /api/games")?
        .to_string();
    let mut queue = std::collections::VecDeque::from([start]);
    let mut seen = std::collections::HashSet::new();
    while let Some(pos) = queue.pop_front() {
        let probe = get_position(addr, "/api/six/probe", &pos).json();
        let a = web::get(
            addr,
            &format!(
                "/api/six/probe?position={}&quiet_plies=0",
                web::encode(&pos)
            ),
        )
        .json();
        if a["label"] == "cursed-win" && a["source"] == "tables" {
            return Ok(pos);
        }
        for m in probe["moves"].as_array().ok_or("no moves")?.iter().take(6) {
            let r = web::get(
                addr,
                &format!(
                    "/api/six/replay?position={}&moves={}",
                    web::encode(&pos),
                    web::encode(m["move"].as_str().unwrap_or(""))
                ),
            )
            .json();
            let next = r["positions"][1].as_str().ok_or("replay")?.to_string();
            if seen.insert(next.clone()) && seen.len() < 5000 {
                queue.push_back(next);
            }
        }
    }
    Err("no cursed win on Six's board".into())
}

/// The count rule on Six's board: off by default (its row shown, since
/// the server serves the rule); switched on, the count is shown, a cursed
/// win is marked in the status and on the moves the rule draws; a quiet
/// move counts one ply more; switched off, the win without the rule.
async fn count_rule(
    client: &Client,
    addr: SocketAddr,
    base: &str,
    shots: &std::path::Path,
) -> Result<()> {
    let pos = cursed_six(addr)?;
    client
        .goto(&format!("{base}#six/{}", web::encode(&pos)))
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        &format!(
            "document.getElementById('m-text').value === {} && {ROWS}.length > 0",
            json!(pos)
        ),
    )
    .await?;
    wait(client, "!document.getElementById('m-count-row').hidden").await?;
    let off = text(client, "m-status").await?;
    if !off.contains("win") || off.contains("cursed") {
        return Err(format!("without the rule the status is `{off}`"));
    }
    click_id(client, "m-count").await?;
    wait(
        client,
        "document.getElementById('m-status').dataset.label === 'cursed-win'",
    )
    .await?;
    let on = text(client, "m-status").await?;
    if !on.contains("draw") || !on.contains("cursed win") {
        return Err(format!("under the rule the status is `{on}`"));
    }
    let line = text(client, "m-count-line").await?;
    if !line.contains(&format!("0 of {COUNT_LIMIT}")) {
        return Err(format!("the count line is `{line}`"));
    }
    let labelled = wait(
        client,
        &format!("{ROWS}.filter((r) => r.dataset.label === 'cursed-win').length"),
    )
    .await?;
    if labelled == json!(0) {
        return Err("no move marked as a cursed win".into());
    }
    shot(client, shots.join("count-rule.png")).await?;
    // A quiet move (no removal) counts one ply.
    let quiet = eval(
        client,
        &format!("({ROWS}.find((r) => !r.dataset.move.includes('x')) || {{}}).dataset.move"),
    )
    .await?;
    let quiet = quiet.as_str().ok_or("no quiet move")?.to_string();
    click_move(client, &quiet).await?;
    wait(
        client,
        &format!(
            "document.getElementById('m-count-line').textContent.includes('1 of {COUNT_LIMIT}') && {ROWS}.length > 0"
        ),
    )
    .await?;
    // Off again: the values without the rule.
    click_id(client, "m-count").await?;
    wait(
        client,
        "document.getElementById('m-count-line').textContent === '' && document.getElementById('m-status').dataset.label === ''",
    )
    .await?;
    Ok(())
}

/// A board's tab: its start is the served game's (`/api/games`; on Nine
/// without flying the largest game its tables cover, its help naming
/// `--no-flying`), its board is drawn from its geometry (points and lines,
/// Morabaraba's diagonals), and the values of a position's moves are the
/// API's.
async fn board_tab(
    client: &Client,
    addr: SocketAddr,
    base: &str,
    game: &str,
    position: &str,
    points: usize,
    lines: usize,
) -> Result<()> {
    client
        .goto(&format!("{base}#{game}"))
        .await
        .map_err(|e| e.to_string())?;
    // Nine's boards start from the largest game their tables cover.
    let start = if game.starts_with("nine") {
        json!(nine_landing(addr, game))
    } else {
        let games = web::get(addr, "/api/games").json();
        games
            .as_array()
            .and_then(|g| g.iter().find(|g| g["id"] == game))
            .map(|g| g["start"].clone())
            .ok_or_else(|| format!("{game} is not in /api/games: {games}"))?
    };
    wait(
        client,
        &format!(
            "document.getElementById('m-text').value === {start} && document.querySelectorAll('#board g.pt').length === {points}"
        ),
    )
    .await?;
    let active = eval(
        client,
        "document.querySelector('#tabs a.active').dataset.view",
    )
    .await?;
    if active != json!(game) {
        return Err(format!("the active tab is {active}"));
    }
    if game == "nine-noflying" {
        // Its help names the rule set's own command.
        let tables = text(client, "m-tables").await?;
        if !tables.contains("solver nine generate --no-flying") {
            return Err(format!("the line on larger tables says: {tables}"));
        }
        select(client, "m-stones", "9").await?;
        wait(
            client,
            &format!(
                "document.getElementById('m-text').value === {} && {ROWS}.length === 24 && document.getElementById('m-notice').textContent",
                json!("........................ w 9 9")
            ),
        )
        .await?;
        let note = text(client, "m-notice").await?;
        if !(note.contains("nine-noflying-") && note.contains("solver nine generate --no-flying")) {
            return Err(format!("the missing-table note says: {note}"));
        }
    }
    client
        .goto(&format!("{base}#{game}/{}", web::encode(position)))
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        &format!(
            "document.getElementById('m-text').value === {} && {ROWS}.length > 0 && {ROWS}.every(tr => tr.dataset.value)",
            json!(position)
        ),
    )
    .await?;
    let drawn = eval(
        client,
        "[document.querySelectorAll('#board g.pt').length, document.querySelectorAll('#board line').length]",
    )
    .await?;
    if drawn != json!([points, lines]) {
        return Err(format!("the board has [points, lines] {drawn}"));
    }
    let shown = page_rows(client).await?;
    let expected = api_rows(addr, game, position)?;
    if shown != expected {
        return Err(format!("page shows {shown}, the API says {expected}"));
    }
    shot(client, screenshots().join(format!("{game}.png"))).await
}

/// Malformed fragments: a message and the start position (the landing
/// game's) on a usable board, never a blank page or another position.
/// Each is opened in a new tab, as a link is (no game kept there).
async fn fragments(client: &Client, addr: SocketAddr, base: &str) -> Result<()> {
    let start = json!(nine_landing(addr, "nine"));
    for (fragment, says) in [
        ("#nine/%E0%A4%A", "could not be read"),
        ("#seven", "no page"),
        ("#nine/garbage", "not a valid"),
        ("#toguz/9,9", "not a valid"),
    ] {
        fresh_tab(client, &format!("{base}{fragment}")).await?;
        let ready = if fragment.starts_with("#toguz") {
            "document.querySelectorAll('#t-board g.hole.legal').length === 9".to_string()
        } else {
            format!(
                "document.querySelectorAll('#board g.pt').length === 24 && document.getElementById('m-text').value === {start}"
            )
        };
        wait(
            client,
            &format!("!document.getElementById('notice').hidden && {ready}"),
        )
        .await
        .map_err(|e| format!("{fragment}: {e}"))?;
        let note = text(client, "notice").await?;
        if !note.contains(says) {
            return Err(format!("{fragment}: the message is `{note}`"));
        }
    }
    Ok(())
}

/// A 390 px wide phone: nothing wider than the screen, tabs on one line
/// each; screenshots of the board and the charts.
async fn phone(client: &Client, base: &str, shots: &std::path::Path) -> Result<()> {
    client
        .set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    let fits = "document.documentElement.scrollWidth <= window.innerWidth && \
        [...document.querySelectorAll('#tabs a')].every(a => a.getClientRects().length === 1 && a.offsetHeight < 40)";
    client
        .goto(&format!("{base}#nine/{}", web::encode(NINE)))
        .await
        .map_err(|e| e.to_string())?;
    wait(client, &format!("{ROWS}.length > 0")).await?;
    let width = eval(client, "window.innerWidth").await?;
    if width.as_u64().unwrap_or(0) > 420 {
        return Err(format!("the window is {width} px wide"));
    }
    wait(client, fits)
        .await
        .map_err(|e| format!("the board at 390 px: {e}"))?;
    shot(client, shots.join("nine-phone.png")).await?;
    client
        .goto(&format!("{base}#stats"))
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        "document.querySelectorAll('#s-nine svg rect').length > 0",
    )
    .await?;
    wait(
        client,
        "document.querySelectorAll('#s-lasker svg rect').length > 0",
    )
    .await?;
    wait(client, fits)
        .await
        .map_err(|e| format!("the charts at 390 px: {e}"))?;
    charts_readable(client)
        .await
        .map_err(|e| format!("the charts at 390 px: {e}"))?;
    shot(client, shots.join("stats-phone.png")).await?;
    // A Toguz review on the phone: the board, the graph and the moves fit.
    client
        .goto(&format!("{base}#toguz"))
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        "document.querySelectorAll('#t-board g.hole.legal').length > 0",
    )
    .await?;
    click_id(client, "t-import").await?;
    type_into(client, "t-record-text", PLAYOK).await?;
    click_id(client, "t-import-go").await?;
    wait(
        client,
        "document.querySelectorAll('#t-record .ply').length === 12",
    )
    .await?;
    select(client, "t-review-time", "0.02").await?;
    click_id(client, "t-review-go").await?;
    wait(
        client,
        "document.querySelectorAll('#t-review-moves tbody tr').length === 12",
    )
    .await?;
    client
        .find(Locator::Css("#t-review-moves tbody tr[data-ply='5']"))
        .await
        .map_err(|e| e.to_string())?
        .click()
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        "document.querySelector('#t-review-moves tr.current') && document.querySelectorAll('#t-board g.hole.legal[data-value]').length > 0",
    )
    .await?;
    wait(client, fits)
        .await
        .map_err(|e| format!("the Toguz review at 390 px: {e}"))?;
    // Every text of the board (hole numbers, stones, values, kazans) at
    // least 12 px on the screen: its font size times the drawing's scale.
    let sizes = eval(
        client,
        "[...document.querySelectorAll('#t-board svg text')].map(t => [t.getAttribute('class') || '', t.textContent, \
         parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a])",
    )
    .await?;
    let sizes = sizes.as_array().cloned().unwrap_or_default();
    let numbers = sizes.iter().filter(|t| t[0] == "hole-number").count();
    let small: Vec<&Json> = sizes
        .iter()
        .filter(|t| t[2].as_f64().unwrap_or(0.0) < 12.0)
        .collect();
    if numbers != 18 || sizes.len() < 18 + 18 + 2 || !small.is_empty() {
        return Err(format!(
            "the Toguz board at 390 px: {numbers} hole numbers, {} texts; smaller than 12 px: {small:?}",
            sizes.len()
        ));
    }
    top(client).await?;
    shot(client, shots.join("toguz-phone.png")).await
}

/// Scroll the page to its top (for a screenshot after clicks further down).
async fn top(client: &Client) -> Result<()> {
    client
        .execute("window.scrollTo(0, 0);", vec![])
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The values on the page are the API's; a capture played by clicks.
async fn nine_values(
    client: &Client,
    addr: SocketAddr,
    base: &str,
    shots: &std::path::Path,
) -> Result<()> {
    let url = format!("{base}#nine/{}", web::encode(NINE));
    client.goto(&url).await.map_err(|e| e.to_string())?;
    wait(client, &format!("{ROWS}.length > 0")).await?;
    let shown = eval(
        client,
        &format!("{ROWS}.map(tr => [tr.dataset.move, tr.dataset.value, tr.dataset.dtc])"),
    )
    .await?;
    let api = get_position(addr, "/api/nine/probe", NINE).json();
    let expected = api_rows(addr, "nine", NINE)?;
    if shown != expected {
        return Err(format!("page shows {shown}, the API says {expected}"));
    }
    // The marker on each movable stone has the best value of its moves.
    let marks = eval(
        client,
        "[...document.querySelectorAll('#board g.pt')].filter(g => g.querySelector('circle.mark')).map(g => [g.dataset.point, g.querySelector('circle.mark').dataset.value])",
    )
    .await?;
    let pos: mill::rules::position::Position = NINE.parse().unwrap();
    let mut best = std::collections::BTreeMap::new();
    for m in api["moves"].as_array().unwrap() {
        let from = m["move"]
            .as_str()
            .unwrap()
            .split('-')
            .next()
            .unwrap()
            .to_string();
        best.entry(from).or_insert_with(|| m["value"].clone());
    }
    let mut marked: Vec<(String, Json)> = marks
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m[0].as_str().unwrap().to_string(), m[1].clone()))
        .collect();
    marked.sort_by(|a, b| a.0.cmp(&b.0));
    let expected: Vec<(String, Json)> = best.into_iter().collect();
    if marked != expected {
        return Err(format!("stone markers {marked:?}, expected {expected:?}"));
    }
    // Select c4: its destinations are marked; the screenshot shows them.
    click_point(client, "c4").await?;
    wait(
        client,
        "document.querySelector(\"#board g.pt.selected[data-point='c4']\")",
    )
    .await?;
    shot(client, shots.join("nine.png")).await?;
    // d7 closes a mill: the page asks for the removal; a4 is removed.
    click_point(client, "d7").await?;
    // While the removal is chosen, the stone stands on d7, not on c4.
    let drawn = eval(
        client,
        "[!!document.querySelector(\"#board g.pt[data-point='d7'] circle.stone.white\"), \
          !!document.querySelector(\"#board g.pt[data-point='c4'] circle.stone:not(.lifted)\")]",
    )
    .await?;
    if drawn != json!([true, false]) {
        return Err(format!(
            "during the removal [d7 has the stone, c4 has it] = {drawn}"
        ));
    }
    click_point(client, "a4").await?;
    let mv = mill::rules::notation::parse_move::<mill::rules::board::Nine>(&pos, STD, "c4-d7xa4")
        .unwrap();
    let after = pos.apply(mv).to_string();
    wait(
        client,
        &format!(
            "document.getElementById('m-text').value === {}",
            json!(after)
        ),
    )
    .await?;
    // Numbered as the export numbers it: moves in pairs.
    let record = eval(client, "document.getElementById('m-record').textContent").await?;
    if record != json!("1. c4-d7xa4") {
        return Err(format!("record {record}"));
    }
    // The URL holds the position, so a link reproduces it.
    let hash = eval(client, "decodeURIComponent(location.hash)").await?;
    if hash != json!(format!("#nine/{after}")) {
        return Err(format!("the URL does not hold the position: {hash}"));
    }
    client
        .find(Locator::Id("m-undo"))
        .await
        .map_err(|e| e.to_string())?
        .click()
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        &format!(
            "document.getElementById('m-text').value === {}",
            json!(NINE)
        ),
    )
    .await?;
    Ok(())
}

/// A whole Three Men's Morris game: White (the page's user, clicking the
/// best move the page shows) against the perfect player.
async fn three_game(
    client: &Client,
    addr: SocketAddr,
    base: &str,
    shots: &std::path::Path,
) -> Result<()> {
    client
        .goto(&format!("{base}#three"))
        .await
        .map_err(|e| e.to_string())?;
    wait(client, &format!("{ROWS}.length === 9")).await?;
    // The perfect player (Black) in the `ultra` style: every move of it
    // is still checked to be a best move below.
    select(client, "m-style", "ultra").await?;
    client
        .find(Locator::Id("m-mode"))
        .await
        .map_err(|e| e.to_string())?
        .select_by_value("white")
        .await
        .map_err(|e| e.to_string())?;
    let mut plies = 0;
    loop {
        let state = wait(
            client,
            &format!(
                "(document.getElementById('m-status').dataset.over === '1' || \
                 (document.getElementById('m-status').dataset.toMove === 'white' && {ROWS}.length > 0)) && \
                 [document.getElementById('m-status').dataset.over, {ROWS}.length ? {ROWS}[0].dataset.move : null]"
            ),
        )
        .await?;
        if state[0] == "1" {
            break;
        }
        let best = state[1].as_str().ok_or("no move shown")?.to_string();
        click_move(client, &best).await?;
        plies += 1;
        if plies == 3 {
            wait(
                client,
                "document.getElementById('m-status').dataset.toMove === 'white'",
            )
            .await?;
            shot(client, shots.join("three.png")).await?;
        }
        if plies > 30 {
            return Err("the game does not end".into());
        }
    }
    // The ending said as a sentence: who won and why.
    let status = text(client, "m-status").await?;
    if ![
        "Game over: White wins — White has three in a row.",
        "Game over: White wins — Black has no legal move.",
    ]
    .contains(&status.as_str())
    {
        return Err(format!("status at the end: {status}"));
    }
    // Replay the record: every move legal, White's winning (the API's
    // value), Black's the perfect player's, and the game over at the end.
    let record = eval(
        client,
        "[...document.querySelectorAll('#m-record .ply')].map(li => li.textContent)",
    )
    .await?;
    let moves: Vec<&str> = record
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let mut pos = three::Position::start();
    for (i, text) in moves.iter().enumerate() {
        let probe = get_position(addr, "/api/three/probe", &pos.to_string()).json();
        let listed = probe["moves"].as_array().unwrap();
        let entry = listed
            .iter()
            .find(|m| m["move"] == *text)
            .ok_or_else(|| format!("ply {}: {text} is not a legal move", i + 1))?;
        if entry["value"] != listed[0]["value"] || entry["plies"] != listed[0]["plies"] {
            return Err(format!(
                "ply {}: {text} is not a best move ({entry})",
                i + 1
            ));
        }
        if i & 1 == 0 && entry["value"] != "win" {
            return Err(format!("ply {}: White's {text} does not win", i + 1));
        }
        let m = three::parse_move(&pos, text).map_err(|e| e.to_string())?;
        pos = pos.play(m);
    }
    if !pos.finished() || moves.len() & 1 == 0 {
        return Err(format!(
            "the record {moves:?} does not end with White's win"
        ));
    }
    Ok(())
}

/// Toguz Kumalak: the engine's analysis, then one move each against it.
async fn toguz_game(client: &Client, base: &str, shots: &std::path::Path) -> Result<()> {
    client
        .goto(&format!("{base}#toguz"))
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        "document.querySelectorAll('#t-board g.hole.legal').length === 9",
    )
    .await?;
    client
        .find(Locator::Id("t-time"))
        .await
        .map_err(|e| e.to_string())?
        .select_by_value("0.2")
        .await
        .map_err(|e| e.to_string())?;
    client
        .find(Locator::Id("t-mode"))
        .await
        .map_err(|e| e.to_string())?
        .select_by_value("white")
        .await
        .map_err(|e| e.to_string())?;
    for hole in ["7", "3"] {
        wait(
            client,
            "document.getElementById('t-status').textContent === 'White to move'",
        )
        .await?;
        let before = eval(client, "document.querySelectorAll('#t-record .ply').length").await?;
        client
            .find(Locator::Css(&format!(
                "#t-board g.hole.legal[data-side='white'][data-hole='{hole}']"
            )))
            .await
            .map_err(|e| format!("hole {hole}: {e}"))?
            .click()
            .await
            .map_err(|e| e.to_string())?;
        let want = before.as_u64().unwrap_or(0) + 2;
        wait(
            client,
            &format!("document.querySelectorAll('#t-record .ply').length === {want}"),
        )
        .await?;
    }
    // A 1 s search: the busy indicator shows while it runs (after 200 ms)
    // and goes when it is done.
    select(client, "t-time", "1").await?;
    client
        .find(Locator::Id("t-analyse"))
        .await
        .map_err(|e| e.to_string())?
        .click()
        .await
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    loop {
        let shown = eval(
            client,
            "!document.getElementById('busy').hidden && document.body.dataset.busy === '1'",
        )
        .await?;
        if shown == json!(true) {
            break;
        }
        if started.elapsed() > Duration::from_secs(5) {
            return Err("no busy indicator during a search".into());
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    wait(
        client,
        "document.getElementById('t-analysis').textContent.startsWith('best hole') && document.getElementById('busy').hidden",
    )
    .await?;
    let analysis = text(client, "t-analysis").await?;
    if !analysis.contains("for White") && !analysis.contains("wins in") {
        return Err(format!("the score is not from White's side: {analysis}"));
    }
    shot(client, shots.join("toguz.png")).await?;
    // Undo: the engine's text no longer stands for the shown position.
    client
        .find(Locator::Id("t-undo"))
        .await
        .map_err(|e| e.to_string())?
        .click()
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        "document.getElementById('t-analysis').textContent.startsWith('Press Analyse')",
    )
    .await?;
    toguz_abandoned(client)
        .await
        .map_err(|e| format!("a search abandoned by a move back: {e}"))?;
    // A finished game says who won, by how much and why.
    let over = "0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 w 82,79 -,-";
    type_into(client, "t-text", over).await?;
    click_id(client, "t-load").await?;
    wait(
        client,
        &format!(
            "document.getElementById('t-text').value === {}",
            json!(over)
        ),
    )
    .await?;
    let status = text(client, "t-status").await?;
    if status != "Game over: White wins 82–80 — White's kazan holds 82, more than half the stones."
    {
        return Err(format!("the finished game's status: {status}"));
    }
    Ok(())
}

/// A 2 s search (the test server's longest) and a hint, each followed by
/// a move back 300 ms later: each request is aborted at once (the busy
/// indicator ends long before the search would have), and no result ever
/// lands on the position shown (the engine's text stays its invitation,
/// no hole gets a value or a hint), even after the search's time.
async fn toguz_abandoned(client: &Client) -> Result<()> {
    select(client, "t-mode", "analyse").await?;
    select(client, "t-time", "2").await?;
    for (button, searching) in [
        ("t-analyse", "Searching…"),
        ("t-hint", "Searching for a hint…"),
    ] {
        click_id(client, "t-redo").await?;
        wait(
            client,
            "document.getElementById('t-analysis').textContent.startsWith('Press Analyse')",
        )
        .await?;
        let position = text(client, "t-text").await?;
        click_id(client, button).await?;
        let started = Instant::now();
        loop {
            let state = eval(
                client,
                "[document.body.dataset.busy, document.getElementById('t-analysis').textContent]",
            )
            .await?;
            if state == json!(["1", searching]) {
                break;
            }
            if started.elapsed() > Duration::from_secs(1) {
                return Err(format!("{button}: no search under way: {state}"));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        click_id(client, "t-undo").await?;
        wait(
            client,
            &format!(
                "document.getElementById('t-text').value !== {} && document.getElementById('busy').hidden",
                json!(position)
            ),
        )
        .await?;
        let after = started.elapsed();
        if after > Duration::from_millis(1300) {
            return Err(format!("{button}: the page was busy for {after:?}"));
        }
        tokio::time::sleep(Duration::from_millis(2200)).await;
        let stale = eval(
            client,
            "[document.body.dataset.busy, document.getElementById('t-analysis').textContent.startsWith('Press Analyse'), \
             document.querySelectorAll('#t-board g.hole[data-value], #t-board g.hole.hint, #t-moves tr').length]",
        )
        .await?;
        if stale != json!(["0", true, 0]) {
            return Err(format!(
                "{button}: after the search's time [busy, the invitation shown, holes valued or hinted] are {stale}"
            ));
        }
    }
    Ok(())
}

/// The 4-stone game on Nine Men's Morris's board (`--stones 4`: every
/// position in the tables, the README's small tables plus seconds),
/// played from the empty board to its end against the perfect player by
/// clicks: the user (White) closes a mill whenever one of its moves does,
/// else plays its worst move, so the game has placements, mills of both
/// sides, removals and flying, and ends with the perfect player's win.
/// Along the way: the hint, the "Show values" box, the record exported,
/// imported again and clicked.
async fn nine_game(
    client: &Client,
    addr: SocketAddr,
    base: &str,
    shots: &std::path::Path,
) -> Result<()> {
    let start = "........................ w 4 4";
    client
        .goto(&format!("{base}#nine/{}", web::encode(start)))
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        &format!("{ROWS}.length === 24 && {ROWS}.every(tr => tr.dataset.value)"),
    )
    .await?;
    // The hint is the perfect player's move (the `fast` style's).
    click_id(client, "m-hint-button").await?;
    let hint = wait(
        client,
        "document.getElementById('m-hint').textContent.startsWith('Hint:') && document.getElementById('m-hint').textContent",
    )
    .await?;
    let best = get_position(addr, "/api/nine/best", start).json();
    let best_move = best["best"]["move"].as_str().unwrap_or("?").to_string();
    if !hint
        .as_str()
        .unwrap_or("")
        .contains(&format!("Hint: {best_move} "))
    {
        return Err(format!(
            "hint `{hint}`, the perfect player plays {best_move}"
        ));
    }
    let marked = eval(
        client,
        "[...document.querySelectorAll('#board g.pt.hint')].map(g => g.dataset.point)",
    )
    .await?;
    if marked != json!([best_move]) {
        return Err(format!("the hint marks {marked}"));
    }
    // Without values: no value in the list; with them again, every one.
    click_id(client, "m-values").await?;
    wait(
        client,
        &format!("{ROWS}.length === 24 && {ROWS}.every(tr => !tr.dataset.value)"),
    )
    .await?;
    click_id(client, "m-values").await?;
    wait(client, &format!("{ROWS}.every(tr => tr.dataset.value)")).await?;
    select(client, "m-mode", "white").await?;
    let mut plies = 0;
    loop {
        let state = wait(
            client,
            &format!(
                "(document.getElementById('m-status').dataset.over === '1' || \
                 (document.getElementById('m-status').dataset.toMove === 'white' && {ROWS}.length > 0 && {ROWS}.every(tr => tr.dataset.value))) && \
                 [document.getElementById('m-status').dataset.over, {ROWS}.map(tr => tr.dataset.move)]"
            ),
        )
        .await?;
        if state[0] == "1" {
            break;
        }
        let rows: Vec<&str> = state[1]
            .as_array()
            .ok_or("no moves")?
            .iter()
            .filter_map(|m| m.as_str())
            .collect();
        let mv = rows
            .iter()
            .find(|m| m.contains('x'))
            .or(rows.last())
            .ok_or("no move shown")?
            .to_string();
        let before = eval(client, "document.querySelectorAll('#m-record .ply').length").await?;
        click_move(client, &mv).await?;
        wait(
            client,
            &format!(
                "document.querySelectorAll('#m-record .ply').length > {before} && \
                 (document.getElementById('m-status').dataset.over === '1' || \
                  document.getElementById('m-status').dataset.toMove === 'white') && \
                 document.getElementById('m-hint').textContent.indexOf('thinking') < 0"
            ),
        )
        .await?;
        plies += 1;
        if plies == 6 {
            shot(client, shots.join("nine-game.png")).await?;
        }
        if plies > 60 {
            return Err("the game does not end".into());
        }
    }
    let status = text(client, "m-status").await?;
    if ![
        "Game over: Black wins — White has fewer than 3 stones left.",
        "Game over: Black wins — White has no legal move.",
    ]
    .contains(&status.as_str())
    {
        return Err(format!("status at the end: {status}"));
    }
    let record = eval(
        client,
        "[...document.querySelectorAll('#m-record .ply')].map(li => li.textContent)",
    )
    .await?;
    let moves: Vec<String> = record
        .as_array()
        .ok_or("no record")?
        .iter()
        .map(|m| m.as_str().unwrap_or("").to_string())
        .collect();
    // Replayed here by the rules: every move legal; White's and Black's
    // mills, and a move only flying allows (illegal without flying).
    let flying = mill::rules::variant::RuleSet::nine(true);
    let sliding = mill::rules::variant::RuleSet::nine(false);
    let mut pos: mill::rules::position::Position = start.parse().unwrap();
    let (mut mills, mut flown) = ([0, 0], 0);
    for (i, text) in moves.iter().enumerate() {
        let m = mill::rules::notation::parse_move::<mill::rules::board::Nine>(&pos, flying, text)
            .map_err(|e| format!("ply {}: {text}: {e}", i + 1))?;
        if text.contains('x') {
            mills[i % 2] += 1;
        }
        if text.contains('-')
            && mill::rules::notation::parse_move::<mill::rules::board::Nine>(&pos, sliding, text)
                .is_err()
        {
            flown += 1;
        }
        pos = pos.apply(m);
    }
    if mill::rules::ending::<mill::rules::board::Nine>(&pos, flying).is_none()
        || !moves.len().is_multiple_of(2)
    {
        return Err(format!(
            "the record {moves:?} does not end with Black's win"
        ));
    }
    if mills[0] == 0 || mills[1] == 0 || flown == 0 {
        return Err(format!(
            "the game {moves:?} lacks a mill of each side or a flying move"
        ));
    }
    if !moves.iter().take(8).all(|m| !m.contains('-')) {
        return Err(format!(
            "the game does not start with placements: {moves:?}"
        ));
    }
    // Export, a new game, import: the same record and position; a click
    // on its fifth move shows the position after it.
    click_id(client, "m-export").await?;
    let exported = wait(client, "document.getElementById('m-record-text').value").await?;
    let exported = exported.as_str().unwrap_or("").to_string();
    if !exported.contains(&format!("[Position \"{start}\"]")) || !exported.contains(&moves[4]) {
        return Err(format!("exported: {exported}"));
    }
    // One numbering: the page's record lists the moves in the export's
    // numbered pairs (`1. a b`, `2. c d`, …), an item a pair.
    let page = eval(
        client,
        "[...document.querySelectorAll('#m-record li')].map(li => li.textContent.trim().split(/\\s+/).join(' '))",
    )
    .await?;
    let page: Vec<&str> = page
        .as_array()
        .ok_or("no record")?
        .iter()
        .filter_map(|l| l.as_str())
        .collect();
    let pairs: Vec<String> = moves
        .chunks(2)
        .enumerate()
        .map(|(i, p)| format!("{}. {}", i + 1, p.join(" ")))
        .collect();
    let body = exported
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let body = body.split_whitespace().collect::<Vec<_>>().join(" ");
    if page != pairs || body != pairs.join(" ") {
        return Err(format!(
            "the page numbers the record {page:?}, the export {body:?}, in pairs {pairs:?}"
        ));
    }
    let last = pos.to_string();
    click_id(client, "m-new").await?;
    wait(
        client,
        &format!(
            "{ROWS}.length === 24 && document.querySelectorAll('#m-record .ply').length === 0"
        ),
    )
    .await?;
    click_id(client, "m-import").await?;
    type_into(client, "m-record-text", &exported).await?;
    click_id(client, "m-import-go").await?;
    wait(
        client,
        &format!(
            "document.getElementById('m-text').value === {} && document.querySelectorAll('#m-record .ply').length === {}",
            json!(last),
            moves.len()
        ),
    )
    .await?;
    let fifth = nine_after(start, &moves[..5]);
    client
        .find(Locator::Css("#m-record .ply[data-ply='4']"))
        .await
        .map_err(|e| e.to_string())?
        .click()
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        &format!(
            "document.getElementById('m-text').value === {}",
            json!(fifth)
        ),
    )
    .await?;
    // A record that is not legal is refused with its move named.
    type_into(client, "m-record-text", "d6 d6").await?;
    click_id(client, "m-import-go").await?;
    wait(
        client,
        "document.querySelector('.record-io .share-note').textContent.includes('move 2')",
    )
    .await?;
    Ok(())
}

/// A 3-3 position, Black to move, that White wins.
const REPEAT: &str = "W.W..B...B.W....B....... b 0 0";

/// Threefold repetition in play against the perfect player: the user
/// (White) plays a winning move, one back to a position already seen
/// when it can, else the slowest win; the perfect player's answers
/// repeat too, and when a position occurs the third time the game is over
/// as a draw (the record replayed by the rules shows the repetition).
async fn repetition(client: &Client, addr: SocketAddr, base: &str) -> Result<()> {
    let probe = get_position(addr, "/api/nine/probe", REPEAT).json();
    if probe["value"] != "loss" {
        return Err(format!("{REPEAT} is not lost for Black: {probe}"));
    }
    client
        .goto(&format!("{base}#nine/{}", web::encode(REPEAT)))
        .await
        .map_err(|e| e.to_string())?;
    wait(client, &format!("{ROWS}.length > 0")).await?;
    select(client, "m-mode", "white").await?;
    let mut seen = vec![REPEAT.to_string()];
    let mut plies = 0;
    loop {
        let state = wait(
            client,
            &format!(
                "(document.getElementById('m-status').dataset.over === '1' || \
                 (document.getElementById('m-status').dataset.toMove === 'white' && {ROWS}.length > 0 && {ROWS}.every(tr => tr.dataset.value))) && \
                 [document.getElementById('m-status').dataset.over, document.getElementById('m-text').value, {ROWS}.map(tr => [tr.dataset.move, tr.dataset.value])]"
            ),
        )
        .await?;
        let position = state[1].as_str().unwrap_or("").to_string();
        if seen.last() != Some(&position) {
            seen.push(position.clone());
        }
        if state[0] == "1" {
            break;
        }
        let pos: mill::rules::position::Position =
            position.parse().map_err(|e| format!("{e:?}"))?;
        let rows = state[2].as_array().ok_or("no moves")?;
        let best: Vec<&str> = rows
            .iter()
            .filter(|r| r[1] == rows[0][1])
            .filter_map(|r| r[0].as_str())
            .collect();
        let after = |m: &str| {
            mill::rules::notation::parse_move::<mill::rules::board::Nine>(&pos, STD, m)
                .map(|mv| pos.apply(mv).to_string())
                .unwrap_or_default()
        };
        let mv = best
            .iter()
            .find(|m| seen.contains(&after(m)))
            .or(best.last())
            .ok_or("no move")?
            .to_string();
        seen.push(after(&mv));
        click_move(client, &mv).await?;
        plies += 1;
        if plies > 30 {
            return Err(format!("no repetition ends the game: {seen:?}"));
        }
    }
    // A game from a position with Black to move: its first pair is `1... m`.
    let first = eval(
        client,
        "document.querySelector('#m-record li').textContent.trim().split(/\\s+/)",
    )
    .await?;
    if first.get(0) != Some(&json!("1...")) || first.as_array().map(|a| a.len()) != Some(2) {
        return Err(format!("the record's first item, Black to move: {first}"));
    }
    let status = text(client, "m-status").await?;
    if status
        != "Game over: a draw by threefold repetition — this position has occurred three times."
    {
        return Err(format!("status at the end: {status}"));
    }
    // The record, replayed by the rules: its last position is its third.
    let moves: Vec<String> = record(client)
        .await?
        .as_array()
        .ok_or("no record")?
        .iter()
        .map(|m| m.as_str().unwrap_or("").to_string())
        .collect();
    let mut pos: mill::rules::position::Position = REPEAT.parse().unwrap();
    let mut positions = vec![pos.to_string()];
    for m in &moves {
        let mv = mill::rules::notation::parse_move::<mill::rules::board::Nine>(&pos, STD, m)
            .map_err(|e| format!("{m}: {e}"))?;
        pos = pos.apply(mv);
        positions.push(pos.to_string());
    }
    let last = positions.last().unwrap();
    let times = positions.iter().filter(|p| *p == last).count();
    // No position occurred a third time before the last.
    let earlier = (0..positions.len() - 1).any(|i| {
        positions[..=i]
            .iter()
            .filter(|p| **p == positions[i])
            .count()
            >= 3
    });
    if times != 3 || earlier || mill::rules::ending::<mill::rules::board::Nine>(&pos, STD).is_some()
    {
        return Err(format!(
            "the game {moves:?} does not end at a position's third occurrence"
        ));
    }
    // In analysis the position is only noted; the game goes on.
    select(client, "m-mode", "analyse").await?;
    wait(
        client,
        "document.getElementById('m-status').dataset.over === '0' && document.getElementById('m-notice').textContent.includes('three times')",
    )
    .await?;
    Ok(())
}

/// The position after `moves` from `start` (Nine Men's Morris, flying).
fn nine_after(start: &str, moves: &[String]) -> String {
    let mut pos: mill::rules::position::Position = start.parse().unwrap();
    for m in moves {
        let mv =
            mill::rules::notation::parse_move::<mill::rules::board::Nine>(&pos, STD, m).unwrap();
        pos = pos.apply(mv);
    }
    pos.to_string()
}

/// The first 12 plies of a PlayOK game (`../shared/data/toguz/`, game 1):
/// captures and both tuzdyks.
const PLAYOK: &str = "[White \"argenby\"]\n[Black \"sportt\"]\n\n1. 76(10) 87(2) 2. 99 91 3. 78 91(14) 4. 45(22) 77(16) 5.\n58(26) 15(18) 6. 25X 27X *\n";

/// Toguz Kumalak: a PlayOK record imported (the positions the library's
/// replay gives), a record entry clicked, every hole's value, the hint,
/// the review (graph, moves, each hole's value at a position chosen in
/// it), the export.
async fn toguz_review(
    client: &Client,
    addr: SocketAddr,
    base: &str,
    shots: &std::path::Path,
) -> Result<()> {
    client
        .goto("about:blank")
        .await
        .map_err(|e| e.to_string())?;
    client
        .goto(&format!("{base}#toguz"))
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        "document.querySelectorAll('#t-board g.hole.legal').length === 9",
    )
    .await?;
    let game = toguz::pgn::parse(PLAYOK).unwrap().remove(0);
    let end = toguz::pgn::replay(&game).unwrap().board.to_string();
    click_id(client, "t-import").await?;
    type_into(client, "t-record-text", PLAYOK).await?;
    click_id(client, "t-import-go").await?;
    wait(
        client,
        &format!(
            "document.getElementById('t-text').value === {} && document.querySelectorAll('#t-record .ply').length === 12",
            json!(end)
        ),
    )
    .await?;
    let shown = eval(
        client,
        "[...document.querySelectorAll('#t-record .ply')].map(li => li.textContent)",
    )
    .await?;
    if shown != json!(game.moves) {
        return Err(format!("the record shows {shown}"));
    }
    // The fourth entry: the position after four plies.
    let replay = web::get(
        addr,
        &format!(
            "/api/toguz/replay?record={}",
            web::encode(&game.moves.join(" "))
        ),
    )
    .json();
    client
        .find(Locator::Css("#t-record .ply[data-ply='3']"))
        .await
        .map_err(|e| e.to_string())?
        .click()
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        &format!(
            "document.getElementById('t-text').value === {}",
            replay["positions"][4]
        ),
    )
    .await?;
    // Every hole's value: one row and one label per legal hole.
    select(client, "t-time", "0.2").await?;
    click_id(client, "t-analyse").await?;
    wait(
        client,
        "document.getElementById('t-analysis').textContent.startsWith('best hole') && \
         document.querySelectorAll('#t-moves tr').length === document.querySelectorAll('#t-board g.hole.legal').length && \
         document.querySelectorAll('#t-board g.hole.legal[data-value]').length === document.querySelectorAll('#t-board g.hole.legal').length",
    )
    .await?;
    // The hint marks one of the mover's holes.
    click_id(client, "t-hint").await?;
    wait(
        client,
        "document.getElementById('t-analysis').textContent.startsWith('Hint: hole') && \
         document.querySelectorAll('#t-board g.hole.legal.hint').length === 1",
    )
    .await?;
    // The review of the 12 plies: a graph, a row per move, and at the
    // position of the row chosen every legal hole's value.
    select(client, "t-review-time", "0.05").await?;
    click_id(client, "t-review-go").await?;
    wait(
        client,
        "document.querySelectorAll('#t-graph svg polyline').length > 0 && \
         document.querySelectorAll('#t-review-moves tbody tr').length === 12",
    )
    .await?;
    client
        .find(Locator::Css("#t-review-moves tbody tr[data-ply='7']"))
        .await
        .map_err(|e| e.to_string())?
        .click()
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        &format!(
            "document.getElementById('t-text').value === {} && \
             document.querySelector('#t-review-moves tr.current').dataset.ply === '7' && \
             document.querySelectorAll('#t-board g.hole.legal[data-value]').length === document.querySelectorAll('#t-board g.hole.legal').length && \
             document.querySelector('#t-graph line.cursor')",
            replay["positions"][6]
        ),
    )
    .await?;
    let labels = eval(
        client,
        "[...document.querySelectorAll('#t-review-moves tbody tr')].map(tr => tr.children[2].textContent)",
    )
    .await?;
    let known = ["best", "good", "inaccuracy", "mistake", "blunder"];
    if !labels
        .as_array()
        .is_some_and(|l| l.iter().all(|x| known.contains(&x.as_str().unwrap_or(""))))
    {
        return Err(format!("review labels {labels}"));
    }
    top(client).await?;
    shot(client, shots.join("toguz-review.png")).await?;
    // A click on the graph's left end goes to the start.
    client
        .execute(
            "const svg = document.querySelector('#t-graph svg'); const b = svg.getBoundingClientRect(); \
             const [left] = svg.dataset.plot.split(' ').map(Number); \
             svg.dispatchEvent(new MouseEvent('click', {clientX: b.left + left * b.width / 900 + 1, clientY: b.top + b.height / 2, bubbles: true}));",
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    wait(
        client,
        &format!(
            "document.getElementById('t-text').value === {}",
            json!(toguz::Board::start().to_string())
        ),
    )
    .await?;
    // The export is PlayOK's record of the same moves.
    click_id(client, "t-export").await?;
    let exported = wait(client, "document.getElementById('t-record-text').value").await?;
    let again = toguz::pgn::parse(exported.as_str().unwrap_or("")).map_err(|e| e.to_string())?;
    if again.len() != 1 || again[0].moves != game.moves || again[0].tag("White") != Some("argenby")
    {
        return Err(format!("exported: {exported}"));
    }
    // A record that does not load says why; a new game then closes and
    // empties the record box and the copy field (they were about the game before).
    click_id(client, "t-copy").await?;
    click_id(client, "t-import").await?;
    type_into(client, "t-record-text", "1. 99(1) 99(1)").await?;
    click_id(client, "t-import-go").await?;
    wait(
        client,
        "document.querySelector('#t-record-text ~ .buttons .share-note').textContent.startsWith('Not loaded')",
    )
    .await?;
    click_id(client, "t-new").await?;
    wait(
        client,
        "document.querySelectorAll('#t-record .ply').length === 0",
    )
    .await?;
    let boxes = eval(
        client,
        "[document.getElementById('t-record-text').parentElement.hidden, document.getElementById('t-record-text').value, \
         document.querySelector('#t-record-text ~ .buttons .share-note').textContent, document.getElementById('t-share').parentElement.hidden]",
    )
    .await?;
    if boxes != json!([true, "", "", true]) {
        return Err(format!(
            "after a new game [record box hidden, its text, its message, copy field hidden]: {boxes}"
        ));
    }
    Ok(())
}
