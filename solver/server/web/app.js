// The web board of `solver serve`: every mill game (Nine Men's Morris with
// and without flying, Six and Three Men's Morris, Morabaraba, Lasker
// Morris) against its tables, Toguz Kumalak against the engine, and the
// tablebase charts.
// Plain JavaScript, no build step. Every value shown comes from the JSON API
// (docs/api.md); the page only applies moves the server listed as legal.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
// The start positions and point orders; those of the games served from
// `/api/games` (Six, Lasker, Morabaraba) are replaced by the server's (the
// game its tables cover, e.g. 4 stones a side) when the page loads.
const START = {
  nine: "........................ w 9 9",
  "nine-noflying": "........................ w 9 9",
  three: "......... w 3 3",
  six: "................ w 6 6",
  lasker: "........................ w 10 10",
  morabaraba: "........................ w 12 12",
  toguz: "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 w 0,0 -,-",
};
const NINE_READING = ["a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4",
  "e4", "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1"];
const READING = {
  nine: NINE_READING,
  "nine-noflying": NINE_READING,
  three: ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"],
  six: ["a5", "c5", "e5", "b4", "c4", "d4", "a3", "b3", "d3", "e3", "b2", "c2", "d2",
    "a1", "c1", "e1"],
  lasker: NINE_READING,
  morabaraba: NINE_READING,
};
/** The mill games on the board view. */
const MILLS = ["nine", "nine-noflying", "six", "morabaraba", "lasker", "three"];
const COLOUR = { win: "#1f9d45", draw: "#8c8f96", loss: "#d2383a" };
const NAME = {
  nine: "Nine Men's Morris",
  "nine-noflying": "Nine Men's Morris without flying",
  six: "Six Men's Morris",
  morabaraba: "Morabaraba",
  lasker: "Lasker Morris",
  three: "Three Men's Morris",
  toguz: "Toguz Kumalak",
  stats: "the statistics",
};
/** The count rule's limit in plies of each game the server also serves
 * under it (`/api/games`' `quiet_limit`; `solver serve --quiet-limit`). */
const LIMIT = {};
/** The label of a value the count rule changed (`probe`'s `label`). */
const LABEL = { "cursed-win": "cursed win", "blessed-loss": "blessed loss" };

/** Stones on the board and in hand of a position text (`board side
 * white_hand black_hand`): a move that keeps them is quiet. */
function stonesOf(position) {
  const [board, , ...hands] = position.trim().split(/\s+/);
  return `${board.replace(/\./g, "").length} ${hands.join(" ")}`;
}

/** Quiet plies (without a removal or a placement) before `history[index]`
 * since the last one, counted from the game's first position (taken as
 * the count's start). */
function quietPlies(history, index) {
  let plies = 0;
  for (let i = 1; i <= index; i++) {
    plies = stonesOf(history[i]) === stonesOf(history[i - 1]) ? plies + 1 : 0;
  }
  return plies;
}

/** The games whose perfect player has a style (`policy` on `best`). */
const STYLES = ["nine", "nine-noflying", "three", "six", "lasker"];
/** Error kinds that mean "no tables for this position", not a fault. */
const NO_TABLES = ["missing-table", "no-tables"];

// `body[data-busy]` is "1" while any request is pending (the tests wait on
// it); the visible indicator appears once one has taken 200 ms.
// From a second on it counts the seconds the page has been waiting.
let busy = 0;
let busyTimer = null;
let busyClock = null;
function setBusy(delta) {
  busy += delta;
  document.body.dataset.busy = busy > 0 ? "1" : "0";
  if (busy > 0 && busyTimer === null && $("busy").hidden) {
    busyTimer = setTimeout(() => {
      busyTimer = null;
      if (busy === 0) return;
      $("busy").hidden = false;
      const since = Date.now() - 200;
      $("busy-text").textContent = "Working…";
      busyClock = setInterval(() => {
        const seconds = Math.floor((Date.now() - since) / 1000);
        if (seconds >= 1) $("busy-text").textContent = `Working… ${seconds} s`;
      }, 250);
    }, 200);
  } else if (busy === 0) {
    clearTimeout(busyTimer);
    clearInterval(busyClock);
    busyTimer = null;
    busyClock = null;
    $("busy").hidden = true;
  }
}

/** A message above the boards (a bad link, say); empty hides it. */
function notice(text) {
  $("notice").textContent = text || "";
  $("notice").hidden = !text;
}

/** GET an API path; resolves to the JSON body, rejects with its `error`.
 * An aborted request (`signal`) rejects too, and closes its connection: a
 * queued placement search whose request is gone is skipped by the server. */
async function api(path, params, signal) {
  const query = new URLSearchParams(params).toString();
  setBusy(1);
  try {
    const response = await fetch(`/api/${path}${query ? "?" + query : ""}`, { signal });
    const type = response.headers.get("content-type") || "";
    if (!type.includes("json")) {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return await response.text();
    }
    const body = await response.json();
    if (!response.ok) {
      const e = new Error(body.error || `HTTP ${response.status}`);
      e.kind = body.kind;
      throw e;
    }
    return body;
  } finally {
    setBusy(-1);
  }
}

function describe(value, dtc) {
  if (value === "draw") return "draw";
  return dtc === null || dtc === undefined ? value : `${value} in ${dtc}`;
}

/** A record's text as its tags (`[Name "value"]`) and its move tokens
 * (move numbers and a result left out). */
function readRecord(text) {
  const tags = {};
  const moves = [];
  let result = null;
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    const tag = t.match(/^\[(\w+)\s+"(.*)"\]$/);
    if (tag) {
      tags[tag[1]] = tag[2];
      continue;
    }
    for (const token of t.replace(/\{[^}]*\}/g, " ").split(/\s+/)) {
      if (!token || /^\d+\.+$/.test(token)) continue;
      if (/^(1-0|0-1|1\/2-1\/2|\*)$/.test(token)) result = token;
      else moves.push(token.replace(/^\d+\.+/, ""));
    }
  }
  return { tags, moves, result };
}

/** Moves numbered in pairs (`1. a b 2. c d`; from a position with Black
 * to move `1... b 2. c d`), about 72 characters a line: the page's record
 * numbers them the same way (`pairs`). */
function numbered(moves, blackFirst) {
  const lines = [];
  let line = "";
  for (const pair of pairs(moves, blackFirst)) {
    pair.plies.forEach((ply, k) => {
      const word = k === 0 ? `${pair.number}${pair.black ? "..." : "."} ${ply.move}` : ply.move;
      if (line && line.length + word.length + 1 > 72) {
        lines.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    });
  }
  if (line) lines.push(line);
  return lines.join("\n");
}

/** The moves as numbered pairs: `{number, black, plies: [{move, ply}]}`
 * (`ply` the index in `moves`; `black`: the pair starts with Black's move,
 * the first of a game that starts with Black to move). */
function pairs(moves, blackFirst) {
  const out = [];
  moves.forEach((move, ply) => {
    const k = ply + (blackFirst ? 1 : 0);
    if (k % 2 === 0 || out.length === 0) {
      out.push({ number: Math.floor(k / 2) + 1, black: k % 2 === 1, plies: [] });
    }
    out[out.length - 1].plies.push({ move, ply });
  });
  return out;
}

/** A game record into the list `ol`, numbered as the export numbers it:
 * an item per move pair (`1. d6 d2`), each move a keyboard stop (class
 * `ply`, `data-ply` its index) that `go(ply)` goes to the position after;
 * the move leading to the position shown (`index`) marked `current`. */
function renderRecord(ol, moves, index, blackFirst, go) {
  ol.innerHTML = "";
  for (const pair of pairs(moves, blackFirst)) {
    const li = document.createElement("li");
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = `${pair.number}${pair.black ? "..." : "."}`;
    li.appendChild(num);
    for (const { move, ply } of pair.plies) {
      li.appendChild(document.createTextNode(" "));
      const span = document.createElement("span");
      span.className = ply === index - 1 ? "ply current" : "ply";
      span.dataset.ply = String(ply);
      span.textContent = move;
      span.tabIndex = 0;
      const who = (ply + (blackFirst ? 1 : 0)) % 2 === 0 ? "White" : "Black";
      span.setAttribute("aria-label", `go to the position after move ${pair.number}, ${who}'s ${move}`);
      span.addEventListener("click", () => go(ply + 1));
      span.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          go(ply + 1);
        }
      });
      li.appendChild(span);
    }
    ol.appendChild(li);
  }
}

/** Does a position text have Black to move (a mill game's ` b `, a Toguz
 * position's ` b `)? */
function blackToMove(position) {
  return (position || "").trim().split(/\s+/)[1] === "b";
}

/** Show the record box of a panel with `text` in it (selected, for copying). */
function recordBox(prefix, text, note) {
  const field = $(`${prefix}-record-text`);
  const box = field.parentElement;
  box.hidden = false;
  if (text !== null) field.value = text;
  box.querySelector(".share-note").textContent = note || "";
  field.focus();
  if (text !== null) field.select();
}

/** The record box and the copy field of a panel (`m`, `t`) closed and
 * emptied: their text and message were about another game. */
function closeRecordBox(prefix) {
  const field = $(`${prefix}-record-text`);
  field.value = "";
  field.parentElement.querySelector(".share-note").textContent = "";
  field.parentElement.hidden = true;
  $(`${prefix}-share`).parentElement.hidden = true;
}

/** A whole number for the perfect player's random choices. */
function newSeed() {
  return String(Math.floor(Math.random() * 4294967296));
}

/** Copy `text` to the clipboard. Where the page has no clipboard access
 * (plain HTTP from another machine is not a secure context), the text is
 * shown selected in `field` for the user's own Ctrl+C. */
async function copy(text, field) {
  const row = field.parentElement;
  const note = row.querySelector(".share-note");
  row.hidden = false;
  field.value = text;
  let done = false;
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      done = true;
    } catch (e) {
      done = false;
    }
  }
  field.focus();
  field.select();
  if (!done) {
    try {
      done = document.execCommand("copy");
    } catch (e) {
      done = false;
    }
  }
  note.textContent = done ? "Copied." : "Selected: press Ctrl+C (⌘C) to copy.";
}

/** Make an SVG element a keyboard-usable button with a label. */
function pressable(el, label, action) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      action();
    }
  });
}

// ---------------------------------------------------------------- routing

let view = null;

/** Are the perfect-play values shown (the "Show values" box)? */
function showValues() {
  return $("m-values").checked;
}

/** When set, the next `setHash` replaces the URL's entry instead of
 * adding one (a link's position that gave way to another). */
let replaceHash = false;

/** Put the position in the URL. A position that follows another of the
 * same board (a move, undo, redo, a record entry) is a new history entry,
 * so that Back and Forward walk the game; otherwise (a tab's bare `#six`,
 * another board's URL) the entry is replaced. */
function setHash(game, position) {
  const hash = position ? `#${game}/${encodeURIComponent(position)}` : `#${game}`;
  const replace = replaceHash;
  replaceHash = false;
  if (location.hash === hash) return;
  if (!replace && location.hash.startsWith(`#${game}/`)) history.pushState(null, "", hash);
  else history.replaceState(null, "", hash);
}

/** Each board's game (positions, moves, cursor, mode), kept for the
 * browser tab's life in sessionStorage: a tab switch, Statistics and back,
 * or a reload finds it again. */
const Kept = {
  get(game) {
    try {
      const v = JSON.parse(sessionStorage.getItem(`game:${game}`));
      const ok = v && Array.isArray(v.history) && Array.isArray(v.record) &&
        v.history.length === v.record.length + 1 && Number.isInteger(v.index) &&
        v.index >= 0 && v.index < v.history.length &&
        v.history.every((p) => typeof p === "string") && v.record.every((m) => typeof m === "string");
      return ok ? v : null;
    } catch (e) {
      return null;
    }
  },
  set(game, v) {
    try {
      sessionStorage.setItem(`game:${game}`, JSON.stringify(v));
    } catch (e) {
      // No storage (a private window's quota): the URL still holds the position.
    }
  },
};

/** The index of `position` in `history` nearest to `index`, or -1. */
function nearest(history, position, index) {
  let best = -1;
  history.forEach((p, i) => {
    if (p === position && (best < 0 || Math.abs(i - index) < Math.abs(best - index))) best = i;
  });
  return best;
}

/** The view and position of the URL's fragment (`#nine/<position>`). A
 * fragment the page cannot use says why and shows a usable board. */
function route() {
  let hash = location.hash.slice(1);
  let problem = null;
  try {
    hash = decodeURIComponent(hash);
  } catch (e) {
    problem = "The link's position could not be read (its %-encoding is broken)";
    hash = hash.split("/")[0];
  }
  const slash = hash.indexOf("/");
  let game = (slash < 0 ? hash : hash.slice(0, slash)) || "nine";
  let position = slash < 0 ? null : hash.slice(slash + 1);
  if (!(game in NAME)) {
    problem = `There is no page “${game.slice(0, 40)}” here (the pages are ${Object.keys(NAME).join(", ")})`;
    game = "nine";
    position = null;
  }
  if (problem) {
    // Without a position the board's game as it was left is shown, if any.
    const kept = game === "toguz" ? !!Toguz.show : MILLS.includes(game) && !!Kept.get(game);
    const from = game === "stats" ? "" : kept ? " as you left it" : " from the start";
    notice(`${problem}; showing ${NAME[game]}${from}.`);
    history.replaceState(null, "", `#${game}`);
  } else if (view !== null) {
    notice("");
  }
  for (const a of document.querySelectorAll("#tabs a")) {
    a.classList.toggle("active", a.dataset.view === game);
  }
  $("morris-view").hidden = !MILLS.includes(game);
  $("toguz-view").hidden = game !== "toguz";
  $("stats-view").hidden = game !== "stats";
  if (MILLS.includes(game)) {
    Morris.show(game, position, view === game);
  } else if (game === "toguz") {
    Toguz.showGame(position, view === game);
  } else if (game === "stats") {
    Stats.show();
  }
  view = game;
}

// ------------------------------------------------------------ mill games

/** A move text (`d6`, `d6-d5`, `d6-d5xg7`, `d6xg7`) as its parts. */
function parseMove(text) {
  const [main, remove] = text.split("x");
  const [a, b] = main.split("-");
  return b === undefined
    ? { text, from: null, to: a, remove: remove || null }
    : { text, from: a, to: b, remove: remove || null };
}

/** The position after a legal move, from the position text alone. */
function applyMove(game, position, move) {
  const [board, side, w, b] = position.trim().split(/\s+/);
  const points = READING[game];
  const cells = board.split("");
  const me = side === "w" ? "W" : "B";
  const hand = [Number(w), Number(b)];
  if (move.from) cells[points.indexOf(move.from)] = ".";
  else hand[side === "w" ? 0 : 1] -= 1;
  cells[points.indexOf(move.to)] = me;
  if (move.remove) cells[points.indexOf(move.remove)] = ".";
  return `${cells.join("")} ${side === "w" ? "b" : "w"} ${hand[0]} ${hand[1]}`;
}

/** Nine's smaller games: the stone count of a new game on Nine's two
 * boards, and the largest game the server's tables cover (every
 * moving-phase subspace of it: `nine generate --max-stones 9` covers the
 * 4-stone game). */
const NineStones = {
  covered: {}, // board -> stones a side of the largest game covered (0: none)

  /** Learn what the tables cover from `stats` (the page works without). */
  async learn() {
    for (const game of ["nine", "nine-noflying"]) {
      try {
        const s = await api(`${game}/stats`, {});
        const have = new Set(
          s.tables.filter((r) => r.kind === "moving" && !r.error).map((r) => `${r.white}-${r.black}`),
        );
        let k = 0;
        for (let n = 3; n <= 9; n++) {
          let all = true;
          for (let w = 3; w <= n; w++) for (let b = 3; b <= n; b++) all = all && have.has(`${w}-${b}`);
          if (!all) break;
          k = n;
        }
        this.covered[game] = k;
      } catch (e) {
        this.covered[game] = 0;
      }
    }
  },

  /** The stone count of a new game: the one chosen, else the largest
   * game the tables cover, else 9. */
  chosen(game) {
    let k = 0;
    try {
      k = Number(sessionStorage.getItem(`stones:${game}`));
    } catch (e) {
      k = 0;
    }
    if (Number.isInteger(k) && k >= 3 && k <= 9) return k;
    const c = this.covered[game];
    return c >= 3 ? c : 9;
  },

  /** The stone count of the game `position` belongs to (at least): its
   * larger side's stones on the board and in hand (3..9), or null for a
   * text that is not a position. */
  size(position) {
    const [board, , w, b] = (position || "").trim().split(/\s+/);
    if (!board || board.length !== 24 || !/^\d+$/.test(w) || !/^\d+$/.test(b)) return null;
    const on = (c) => board.split("").filter((x) => x === c).length;
    return Math.min(9, Math.max(3, on("W") + Number(w), on("B") + Number(b)));
  },

  /** The stone count of the game shown on `game`'s board (of its start),
   * else the count a new game takes. */
  shown(game) {
    return (Morris.shown && Morris.game === game && this.size(Morris.history[0])) || this.chosen(game);
  },

  /** Choose `k` stones a side: a new game of that size. */
  choose(game, k) {
    try {
      sessionStorage.setItem(`stones:${game}`, String(k));
    } catch (e) {
      // Without storage the choice lasts until the page is left.
    }
    const mode = Morris.mode();
    Morris.start(game, `........................ w ${k} ${k}`);
    $("m-mode").value = mode;
    Morris.load(true);
  },

  /** The choice and the line on what larger tables add (Nine's boards only). */
  render(game) {
    const nine = game === "nine" || game === "nine-noflying";
    $("m-stones-row").hidden = !nine;
    $("m-tables").hidden = !nine;
    if (!nine) return;
    const c = this.covered[game] || 0;
    const select = $("m-stones");
    select.innerHTML = "";
    for (let k = 3; k <= 9; k++) {
      const o = document.createElement("option");
      o.value = String(k);
      o.textContent = `${k} stones${k === 9 ? " (the full game)" : ""}${k <= c ? ": every value" : ""}`;
      select.appendChild(o);
    }
    // The game on the board (a link's 3-3 position is of the 3-stone game).
    select.value = String(this.size(Morris.history[0]) || this.chosen(game));
    const flag = game === "nine-noflying" ? " --no-flying" : "";
    let line;
    if (c >= 9) {
      line = "";
    } else if (c >= 3) {
      line = `The server's tables cover the games up to ${c} stones a side; larger games have values ` +
        `once they reach ${2 * c} stones or fewer. \`solver nine generate${flag}\` (all 49 subspaces, ` +
        "about 55 min, 1.5 GB) adds the 9-stone game's moving phase, `--placement` its placement phase.";
    } else {
      line = `The server has no tables of this game: \`solver nine generate${flag} --max-stones 9\` ` +
        "(seconds) gives every value of the games up to 4 stones a side, " +
        `\`solver nine generate${flag}\` (about 55 min) the 9-stone game's moving phase.`;
    }
    $("m-tables").textContent = line;
    $("m-tables").hidden = !line;
  },
};

$("m-stones").addEventListener("change", () => NineStones.choose(Morris.game, Number($("m-stones").value)));

/** The status line of a finished game: `Game over: White wins — Black
 * has no legal move.` (`ending`: `result`, the winner or the draw, and
 * `why`, or none). */
function overText(ending) {
  return `Game over: ${ending.result}${ending.why ? ` — ${ending.why}` : ""}.`;
}

/** The other side's name. */
function otherSide(side) {
  return side === "White" ? "Black" : "White";
}

/** How a mill game at `position` ended, from the server's `game_over`
 * (what the side to move has: "no legal move", "fewer than 3 stones
 * left"; what its opponent has: Three's "the opponent has three in a
 * row"; or "the board is full: a draw"), or null when it goes on. */
function millEnding(gameOver, position) {
  if (!gameOver) return null;
  const mover = blackToMove(position) ? "Black" : "White";
  const winner = otherSide(mover);
  if (/a draw$/.test(gameOver)) return { result: "a draw", why: gameOver.replace(/: a draw$/, "") };
  const theirs = /^the opponent (.*)$/.exec(gameOver);
  return { result: `${winner} wins`, why: theirs ? `${winner} ${theirs[1]}` : `${mover} has ${gameOver}` };
}

/** Moves best first (the server's ranking), those of equal value (and
 * distance) in the order of their text. */
function byValue(moves, values) {
  const v = (m) => values[m.text] || { value: "", dtc: null, rank: Infinity };
  const key = (m) => `${v(m).value} ${v(m).dtc}`;
  const first = new Map();
  for (const m of moves) {
    const k = key(m);
    if (!first.has(k) || v(m).rank < first.get(k)) first.set(k, v(m).rank);
  }
  return [...moves].sort((a, b) =>
    first.get(key(a)) - first.get(key(b)) || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
}

const Morris = {
  game: "nine",
  history: [START.nine], // positions; history[index] is shown
  record: [], // record[i] leads from history[i] to history[i + 1]
  index: 0,
  legal: [], // parsed legal moves of the shown position
  values: null, // move text -> {value, dtc, rank} when known
  info: null, // probe answer (value of the position), or null
  over: null, // why the game is over, or null
  sel: { from: null, to: null },
  token: 0,

  position() {
    return this.history[this.index];
  },

  /** The start of a new game on `game`'s board: the served game's, on
   * Nine's boards the stone count of the game shown (else the one chosen). */
  landing(game) {
    if (game === "nine" || game === "nine-noflying") {
      const k = NineStones.shown(game);
      return `........................ w ${k} ${k}`;
    }
    return START[game];
  },

  /** Show `game` at `position` (from the URL; null: the board's game as
   * it was left). A position of the game on screen, or of the board's
   * kept game, moves its cursor there (Back and Forward); another starts
   * a new game from it. */
  show(game, position, onScreen) {
    if (onScreen && this.game === game && this.shown) {
      if (!position || position === this.position()) {
        setHash(game, this.position());
        return;
      }
      const i = nearest(this.history, position, this.index);
      if (i >= 0) {
        this.index = i;
        this.load(false);
        return;
      }
    }
    const kept = Kept.get(game);
    const at = kept && position ? nearest(kept.history, position, kept.index) : -1;
    if (kept && (!position || at >= 0)) {
      this.previous = null;
      this.shown = false;
      this.game = game;
      $("m-style-row").hidden = !STYLES.includes(game);
      this.history = kept.history;
      this.record = kept.record;
      this.index = at >= 0 ? at : kept.index;
      $("m-mode").value = ["analyse", "white", "black"].includes(kept.mode) ? kept.mode : "analyse";
      closeRecordBox("m");
      this.load(false);
      return;
    }
    this.start(game, position || this.landing(game));
  },

  start(game, position) {
    // What was shown, so that a position that turns out invalid can give
    // way to it (or, from a link, to the start position).
    this.previous = this.shown && this.game === game
      ? { history: this.history, record: this.record, index: this.index }
      : null;
    this.shown = false;
    this.game = game;
    $("m-style-row").hidden = !STYLES.includes(game);
    this.history = [position];
    this.record = [];
    this.index = 0;
    $("m-mode").value = "analyse";
    closeRecordBox("m");
    this.load();
  },

  mode() {
    return $("m-mode").value;
  },

  /** The count rule's parameter of a `probe` or `best` request: the
   * quiet plies of the shown position when the rule is on ({} when off). */
  count() {
    if (!LIMIT[this.game] || !$("m-count").checked) return {};
    return { quiet_plies: Math.min(quietPlies(this.history, this.index), LIMIT[this.game]) };
  },

  engineToMove() {
    const side = this.position().trim().split(/\s+/)[1];
    const mode = this.mode();
    return (mode === "white" && side === "b") || (mode === "black" && side === "w");
  },

  /** Fetch everything about the shown position, then draw it. */
  async load(thenEngine) {
    const token = ++this.token;
    // Requests about the position shown before are no longer wanted.
    if (this.abort) this.abort.abort();
    this.abort = new AbortController();
    const signal = this.abort.signal;
    const game = this.game;
    const position = this.position();
    setHash(game, position);
    Kept.set(game, { history: this.history, record: this.record, index: this.index, mode: this.mode() });
    NineStones.render(game);
    $("m-text").value = position;
    $("m-error").textContent = "";
    $("m-notice").textContent = "";
    this.sel = { from: null, to: null };
    this.legal = [];
    this.values = null;
    this.info = null;
    this.over = null;
    this.hintMove = null;
    setBusy(1);
    try {
      let svg;
      let show = null;
      let probe = null;
      let probeError = null;
      const counted = this.count();
      $("m-count-row").hidden = !LIMIT[game];
      $("m-count-limit").textContent = LIMIT[game] || "";
      $("m-count-legend").hidden = counted.quiet_plies === undefined;
      $("m-count-line").textContent = counted.quiet_plies === undefined ? "" :
        `Count: ${counted.quiet_plies} of ${LIMIT[game]} quiet plies played.`;
      const probing = api(`${game}/probe`, { position, ...counted }, signal).then(
        (p) => { probe = p; },
        (e) => { probeError = e; },
      );
      [svg, show] = await Promise.all([
        api(`${game}/svg`, { position }, signal),
        api(`${game}/show`, { position }, signal),
        probing,
      ]);
      if (token !== this.token) return;
      this.shown = true;
      $("board").innerHTML = svg;
      $("board").setAttribute("aria-label", `${NAME[game]} board`);
      for (const g of $("board").querySelectorAll("g.pt")) {
        g.addEventListener("click", () => this.click(g.dataset.point));
        pressable(g, g.dataset.point, () => this.click(g.dataset.point));
      }
      if (probe) {
        this.info = probe;
        this.values = {};
        probe.moves.forEach((m, rank) => {
          this.values[m.move] = { value: m.value, dtc: m.dtc ?? m.plies ?? null, rank, label: m.label };
        });
      }
      this.legal = show.moves.map(parseMove);
      this.over = millEnding(show.game_over, position);
      if (!this.over && probe && probe.source === "game-over" && probe.quiet_limit !== undefined &&
          probe.quiet_plies >= probe.quiet_limit) {
        this.over = { result: "a draw by the count rule",
          why: `${probe.quiet_limit} plies in a row without a removal or a placement` };
      }
      // Threefold repetition (docs/rules.md): in play against the perfect
      // player a draw; in analysis a note.
      const seen = this.history.slice(0, this.index + 1).filter((p) => p === position).length;
      if (!this.over && seen >= 3 && this.mode() !== "analyse") {
        this.over = { result: "a draw by threefold repetition", why: "this position has occurred three times" };
      } else if (!this.over && seen >= 3) {
        $("m-notice").textContent = "This position has occurred three times: in a game between " +
          "players that is a draw by repetition.";
      }
      if (probeError && NO_TABLES.includes(probeError.kind)) {
        // Partial tables: not a fault. Say what is missing; the moves
        // (from `show`) can still be played.
        $("m-notice").textContent = `No perfect-play values for this position: ${probeError.message}. ` +
          "Its legal moves are listed and can be played; values appear once the game reaches " +
          "positions the server's tables cover.";
      } else if (probeError && probeError.name !== "AbortError") {
        $("m-error").textContent = probeError.message;
      }
      this.render();
      if (thenEngine && this.engineToMove() && !this.over) this.engineMove(token);
    } catch (e) {
      if (token !== this.token || e.name === "AbortError") return;
      if (e.kind === "bad-request" && this.history.length === 1) {
        // A position that is not valid (from a link or the text field):
        // back to what was shown before, or the start position.
        const message = `“${position.slice(0, 80)}” is not a valid ${NAME[game]} position: ${e.message}`;
        replaceHash = true;
        if (this.previous) {
          Object.assign(this, this.previous);
          this.previous = null;
          this.load(false).then(() => { $("m-error").textContent = message; });
        } else {
          notice(`${message}. Showing the start position instead.`);
          this.history = [this.landing(game)];
          this.load(false);
        }
        return;
      }
      $("m-error").textContent = e.message;
      $("board").innerHTML = "";
      this.render();
    } finally {
      setBusy(-1);
    }
  },

  /** The `best` request's style parameters (none for `fast`). */
  style() {
    const style = $("m-style").value;
    return STYLES.includes(this.game) && style !== "fast" ? { policy: style, seed: newSeed() } : {};
  },

  async engineMove(token) {
    const position = this.position();
    $("m-hint").textContent = "The perfect player is thinking…";
    try {
      const answer = await api(`${this.game}/best`, { position, ...this.style(), ...this.count() },
        this.abort.signal);
      if (token !== this.token || !answer.best) return;
      this.play(answer.best.move, false);
    } catch (e) {
      if (token !== this.token || e.name === "AbortError") return;
      // No dead end: without an answer the user plays both sides.
      const side = this.mode() === "white" ? "Black" : "White";
      $("m-mode").value = "analyse";
      $("m-notice").textContent = `The perfect player cannot move here: ${e.message.replace(/\.$/, "")}. ` +
        `You play both sides now: make ${side}'s move yourself, or choose a mode again later.`;
      if (!NO_TABLES.includes(e.kind)) $("m-error").textContent = e.message;
      this.renderPanel();
    }
  },

  /** Play a legal move; `human` lets the perfect player answer. */
  play(text, human) {
    notice("");
    const move = parseMove(text);
    const next = applyMove(this.game, this.position(), move);
    this.history = this.history.slice(0, this.index + 1);
    this.record = this.record.slice(0, this.index);
    this.history.push(next);
    this.record.push(text);
    this.index += 1;
    this.load(human !== false || this.engineToMove());
  },

  /** The perfect player's move for the side to move, marked on the board. */
  async hint() {
    if (this.over || !this.abort) return;
    const token = this.token;
    try {
      const answer = await api(`${this.game}/best`,
        { position: this.position(), ...this.style(), ...this.count() }, this.abort.signal);
      if (token !== this.token || !answer.best) return;
      this.hintMove = parseMove(answer.best.move);
      this.render();
      $("m-hint").textContent = `Hint: ${answer.best.move} (${describe(answer.best.value, answer.best.dtc ?? answer.best.plies)}).`;
    } catch (e) {
      if (token !== this.token || e.name === "AbortError") return;
      $("m-hint").textContent = `No hint here: ${e.message}`;
    }
  },

  /** The record as text: the game, the start position, the moves. */
  exportText() {
    return `[Game "${NAME[this.game]}"]\n[Position "${this.history[0]}"]\n\n${numbered(this.record, blackToMove(this.history[0]))}\n`;
  },

  /** Load a record (our move list, with or without tags and numbers). */
  async importText(text) {
    const { tags, moves } = readRecord(text);
    const named = tags.Game && Object.keys(NAME).find((id) => NAME[id] === tags.Game);
    if (named && named !== this.game) {
      recordBox("m", null, `This is a record of ${tags.Game}: open its tab and load it there.`);
      return;
    }
    const start = tags.Position || this.landing(this.game);
    try {
      const r = await api(`${this.game}/replay`, { position: start, moves: moves.join(" ") });
      this.history = r.positions;
      this.record = r.moves;
      this.index = r.moves.length;
      $("m-mode").value = "analyse";
      recordBox("m", null, `Loaded ${r.moves.length} moves.`);
      await this.load(false);
    } catch (e) {
      recordBox("m", null, `Not loaded: ${e.message}`);
    }
  },

  click(point) {
    if (this.over || (this.mode() !== "analyse" && this.engineToMove())) return;
    const sel = this.sel;
    const legal = this.legal;
    if (sel.to) {
      const done = legal.find((m) => m.from === sel.from && m.to === sel.to && m.remove === point);
      if (done) return this.play(done.text, true);
      this.sel = { from: null, to: null };
      return this.render();
    }
    if (sel.from) {
      const to = legal.filter((m) => m.from === sel.from && m.to === point);
      if (to.length) {
        if (to.every((m) => m.remove)) {
          this.sel = { from: sel.from, to: point };
          return this.render();
        }
        return this.play(to.find((m) => !m.remove).text, true);
      }
    }
    if (legal.some((m) => m.from === point)) {
      this.sel = { from: point, to: null };
      return this.render();
    }
    const place = legal.filter((m) => m.from === null && m.to === point);
    if (place.length) {
      if (place.every((m) => m.remove)) {
        this.sel = { from: null, to: point };
        return this.render();
      }
      return this.play(place.find((m) => !m.remove).text, true);
    }
    this.sel = { from: null, to: null };
    this.render();
  },

  /** The best-ranked value among `moves`, or null when not known. */
  best(moves) {
    if (!this.values) return null;
    let best = null;
    for (const m of moves) {
      const v = this.values[m.text];
      if (v && (!best || v.rank < best.rank)) best = v;
    }
    return best;
  },

  /** Markers on the points the next click can choose, coloured by value. */
  markers() {
    const sel = this.sel;
    const groups = new Map();
    const add = (point, move) => {
      if (!groups.has(point)) groups.set(point, []);
      groups.get(point).push(move);
    };
    for (const m of this.legal) {
      if (sel.to) {
        if (m.from === sel.from && m.to === sel.to && m.remove) add(m.remove, m);
      } else if (sel.from) {
        if (m.from === sel.from) add(m.to, m);
      } else if (m.from) {
        add(m.from, m);
      } else {
        add(m.to, m);
      }
    }
    return groups;
  },

  /** The move being completed (its removal still to choose) drawn: its
   * stone on the point it goes to, the point it left shown faint. */
  drawPending(svg) {
    for (const old of svg.querySelectorAll("circle.stone.pending")) old.remove();
    for (const s of svg.querySelectorAll("circle.stone.lifted")) s.classList.remove("lifted");
    if (!this.sel.to) return;
    const colour = this.position().trim().split(/\s+/)[1] === "w" ? "white" : "black";
    const from = this.sel.from && svg.querySelector(`g.pt[data-point="${this.sel.from}"] circle.stone`);
    const g = svg.querySelector(`g.pt[data-point="${this.sel.to}"]`);
    const model = svg.querySelector(`circle.stone.${colour}`);
    if (!g || !model || g.querySelector("circle.stone")) return;
    if (from) from.classList.add("lifted");
    const stone = model.cloneNode(false);
    stone.classList.remove("lifted");
    stone.classList.add("pending");
    g.insertBefore(stone, g.querySelector("circle.hit"));
  },

  /** The stones in hand beside the board (a placement being completed, its
   * removal still to choose, has left its hand), with the side to move marked. */
  renderHands() {
    const [, side, w, b] = this.position().trim().split(/\s+/);
    const hand = { white: Number(w) || 0, black: Number(b) || 0 };
    const mover = side === "w" ? "white" : "black";
    if (this.sel.to && !this.sel.from && !this.over) hand[mover] -= 1;
    for (const colour of ["white", "black"]) {
      const el = $(`m-hand-${colour}`);
      const n = Math.max(0, hand[colour]);
      el.dataset.count = String(n);
      el.classList.toggle("to-move", colour === mover && !this.over);
      el.innerHTML = "";
      const label = document.createElement("span");
      label.className = "hand-label";
      const name = colour === "white" ? "White" : "Black";
      label.textContent = n ? `${name}: ${n} in hand` : `${name}: none in hand`;
      el.appendChild(label);
      if (n) {
        const svg = document.createElementNS(SVG_NS, "svg");
        const step = 20;
        svg.setAttribute("viewBox", `0 0 ${n * step} ${step}`);
        svg.setAttribute("width", String(n * step));
        svg.setAttribute("height", String(step));
        svg.setAttribute("aria-hidden", "true");
        for (let i = 0; i < n; i++) {
          const c = document.createElementNS(SVG_NS, "circle");
          c.setAttribute("class", `stone ${colour}`);
          c.setAttribute("cx", String(i * step + step / 2));
          c.setAttribute("cy", String(step / 2));
          c.setAttribute("r", String(step / 2 - 2));
          // The board's stone colours (mill::svg), as the board may hold no stone to copy.
          c.setAttribute("fill", colour === "white" ? "#fbfbf6" : "#1d1d1d");
          c.setAttribute("stroke", colour === "white" ? "#222" : "#000");
          c.setAttribute("stroke-width", "1.5");
          svg.appendChild(c);
        }
        el.appendChild(svg);
      }
    }
  },

  render() {
    const svg = $("board").querySelector("svg");
    this.renderHands();
    if (svg) {
      this.drawPending(svg);
      for (const old of svg.querySelectorAll(".mark")) old.remove();
      const hint = this.hintMove;
      for (const g of svg.querySelectorAll("g.pt")) {
        g.classList.toggle("selected", g.dataset.point === this.sel.from || g.dataset.point === this.sel.to);
        const p = g.dataset.point;
        g.classList.toggle("hint", !!hint && (p === hint.from || p === hint.to || p === hint.remove));
        delete g.dataset.best;
      }
      const large = this.game === "three";
      for (const [point, moves] of this.markers()) {
        const g = svg.querySelector(`g.pt[data-point="${point}"]`);
        if (!g) continue;
        const best = showValues() ? this.best(moves) : null;
        const colour = best ? COLOUR[best.value] : "#1f6fd2";
        const onStone = g.querySelector("circle.stone");
        const ring = document.createElementNS(SVG_NS, "circle");
        ring.setAttribute("class", `mark ${best ? best.value : "legal"}`);
        ring.dataset.value = best ? best.value : "";
        if (onStone) {
          ring.setAttribute("r", large ? 48 : 27);
          ring.setAttribute("fill", "none");
          ring.setAttribute("stroke", colour);
          ring.setAttribute("stroke-width", large ? 7 : 5);
        } else {
          ring.setAttribute("r", large ? 24 : 13);
          ring.setAttribute("fill", colour);
          ring.setAttribute("opacity", "0.9");
        }
        g.insertBefore(ring, g.querySelector("circle.hit"));
        g.dataset.best = best ? describe(best.value, best.dtc) : "legal";
        if (best && best.dtc !== null && best.value !== "draw") {
          const text = document.createElementNS(SVG_NS, "text");
          text.setAttribute("class", "mark mark-text");
          text.setAttribute("text-anchor", "middle");
          if (onStone) {
            // Inside the stone, in the value's colour.
            text.setAttribute("y", large ? 9 : 6);
            // Through the CSSOM: the CSP allows no style attributes.
            text.style.fill = colour;
            text.style.fontSize = `${large ? 26 : 17}px`;
          } else {
            text.setAttribute("y", 5);
          }
          text.textContent = best.dtc;
          g.insertBefore(text, g.querySelector("circle.hit"));
        }
      }
    }
    if (svg) {
      for (const g of svg.querySelectorAll("g.pt")) {
        const stone = g.querySelector("circle.stone:not(.lifted)");
        const what = stone ? (stone.classList.contains("white") ? "white stone" : "black stone") : "empty";
        const choice = g.dataset.best ? `, can be chosen (${g.dataset.best})` : "";
        const selected = g.classList.contains("selected") ? ", selected" : "";
        g.setAttribute("aria-label", `${g.dataset.point}: ${what}${selected}${choice}`);
      }
    }
    this.renderPanel();
  },

  renderPanel() {
    const position = this.position();
    const side = position.trim().split(/\s+/)[1] === "w" ? "White" : "Black";
    let status;
    if (this.over) {
      status = overText(this.over);
    } else if (this.info && showValues()) {
      status = `${side} to move: ${describe(this.info.value, this.info.dtc ?? this.info.plies)} with perfect play`;
      if (LABEL[this.info.label]) {
        status += ` (a ${LABEL[this.info.label]}: a ${this.info.plain_value} without the count rule)`;
      }
    } else {
      status = `${side} to move`;
    }
    const statusEl = $("m-status");
    statusEl.textContent = status;
    statusEl.dataset.label = this.info && showValues() && this.info.label ? this.info.label : "";
    statusEl.dataset.over = this.over ? "1" : "0";
    statusEl.dataset.toMove = side.toLowerCase();
    const sel = this.sel;
    if (this.hintMove && !sel.from && !sel.to) return this.renderLists();
    $("m-hint").textContent = this.over ? "" : sel.to ? "Click the stone to remove." :
      sel.from ? `Click where ${sel.from} goes.` :
      this.mode() !== "analyse" && this.engineToMove() ? "The perfect player is thinking…" :
      "Click a point to place, or a stone and then its destination.";
    this.renderLists();
  },

  /** The move list and the game record. */
  renderLists() {
    const body = $("m-moves").querySelector("tbody");
    body.innerHTML = "";
    const values = showValues() ? this.values : null;
    const rows = values ? byValue(this.legal, values) : this.legal;
    for (const m of rows) {
      const v = values ? values[m.text] : null;
      const tr = document.createElement("tr");
      tr.dataset.move = m.text;
      if (v) {
        tr.className = v.value;
        tr.dataset.value = v.value;
        tr.dataset.dtc = v.dtc === null ? "" : String(v.dtc);
        if (LABEL[v.label]) tr.dataset.label = v.label;
      }
      tr.innerHTML = `<td class="m"></td><td class="v"></td>`;
      tr.children[0].textContent = m.text;
      tr.children[1].textContent = v ? describe(v.value, v.dtc) +
        (LABEL[v.label] ? ` (${LABEL[v.label].split(" ")[0]})` : "") : "";
      const choose = () => {
        if (!this.over && !(this.mode() !== "analyse" && this.engineToMove())) this.play(m.text, true);
      };
      tr.addEventListener("click", choose);
      tr.tabIndex = 0;
      tr.setAttribute("aria-label", `play ${m.text}${v ? ": " + describe(v.value, v.dtc) : ""}` +
        (v && LABEL[v.label] ? `, a ${LABEL[v.label]}` : ""));
      tr.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          choose();
        }
      });
      body.appendChild(tr);
    }
    renderRecord($("m-record"), this.record, this.index, blackToMove(this.history[0]), (ply) => {
      this.index = ply;
      this.load(false);
    });
  },

  undo() {
    if (this.index === 0) return;
    this.index -= 1;
    while (this.index > 0 && this.mode() !== "analyse" && this.engineToMove()) this.index -= 1;
    this.load(false);
  },

  redo() {
    if (this.index >= this.record.length) return;
    this.index += 1;
    this.load(false);
  },
};

$("m-mode").addEventListener("change", () => Morris.load(true));
$("m-new").addEventListener("click", () => {
  const mode = Morris.mode();
  Morris.start(Morris.game, Morris.landing(Morris.game));
  $("m-mode").value = mode;
  Morris.load(true);
});
$("m-undo").addEventListener("click", () => Morris.undo());
$("m-hint-button").addEventListener("click", () => Morris.hint());
$("m-values").addEventListener("change", () => Morris.render());
$("m-count").addEventListener("change", () => Morris.load(false));
$("m-export").addEventListener("click", () => recordBox("m", Morris.exportText(),
  "Our move list: copy it, or edit it and load it."));
$("m-import").addEventListener("click", () => recordBox("m", "",
  "Paste a move list (e.g. d6 d2 b4), with [Position \"…\"] when it does not start from the start."));
$("m-import-go").addEventListener("click", () => Morris.importText($("m-record-text").value));
$("m-record-close").addEventListener("click", () => { $("m-record-text").parentElement.hidden = true; });
$("m-redo").addEventListener("click", () => Morris.redo());
$("m-load").addEventListener("click", () => Morris.start(Morris.game, $("m-text").value.trim()));
$("m-text").addEventListener("keydown", (e) => {
  if (e.key === "Enter") Morris.start(Morris.game, $("m-text").value.trim());
});
$("m-copy").addEventListener("click", () => copy(Morris.position(), $("m-share")));
$("m-copy-link").addEventListener("click", () => copy(location.href, $("m-share")));

// ---------------------------------------------------------- Toguz Kumalak

/** A score (centi-stones for the side to move; beyond ±29,000 a won
 * game) from White's side. */
function scoreText(score, toMove) {
  const white = toMove === "white" ? score : -score;
  if (white > 29000) return `White wins in ${30000 - white}`;
  if (white < -29000) return `Black wins in ${30000 + white}`;
  return `${white >= 0 ? "+" : ""}${(white / 100).toFixed(2)} for White`;
}

/** An exact result for the side to move as a result of the game. */
function exactText(result, toMove) {
  if (result === "draw") return "a draw";
  const mover = toMove === "white" ? "White" : "Black";
  const other = toMove === "white" ? "Black" : "White";
  return `${result === "win" ? mover : other} wins`;
}

const ENGINE_HINT = "Press Analyse for the engine's score, depth and principal variation " +
  "(and, with “Every hole's value”, each hole's score).";

/** A result as a record writes it. */
const RESULT = { white: "1-0", black: "0-1", draw: "1/2-1/2" };

/** A value for the side to move as centi-stones (`won`: a won or lost
 * game), from White's view, short (`+2.35`, `White wins`), shortest (a
 * phone's hole: `+2.4`, `1-0`) or long. */
function holeText(v, toMove, short, shortest) {
  const white = toMove === "white" ? v.centi : -v.centi;
  if (v.won || Math.abs(white) > 29000) {
    if (shortest) return white > 0 ? RESULT.white : RESULT.black;
    const winner = white > 0 ? "White" : "Black";
    if (short || v.won) return `${winner} wins`;
    return scoreText(v.centi, toMove);
  }
  const sign = white >= 0 ? "+" : "";
  if (shortest) return `${sign}${(white / 100).toFixed(1)}`;
  return short ? `${sign}${(white / 100).toFixed(2)}` : scoreText(v.centi, toMove);
}

/** How a finished Toguz Kumalak game (`/api/toguz/show`) ended: the
 * result with the final kazans, and why (a kazan of 82 or more, else
 * atsyrau: the side to move has no stone to sow). */
function toguzEnding(s) {
  const [w, b] = s.final_kazans;
  const result = s.result === "draw" ? `a draw, ${w}–${b}` : `${s.result === "white" ? "White" : "Black"} wins ${w}–${b}`;
  const full = [0, 1].find((i) => s.kazans[i] >= 82);
  const mover = s.to_move === "white" ? "White" : "Black";
  const why = full !== undefined
    ? `${full ? "Black" : "White"}'s kazan holds ${s.kazans[full]}, more than half the stones`
    : `${mover} has no stone to sow, so each side keeps the stones in its holes`;
  return { result, why };
}

const Toguz = {
  history: [START.toguz],
  record: [],
  index: 0,
  show: null,
  token: 0,
  values: null, // the engine's value of every hole: [{hole, centi}], or null
  hintHole: null,
  review: null, // the answer of /api/toguz/review, or null
  abort: null, // aborts the requests about the position shown
  tags: {}, // White, Black, Date, Result of an imported record

  position() {
    return this.history[this.index];
  },

  /** Show `position` (from the URL; null: the game as it was left): a
   * position of the game shown moves its cursor there (Back, Forward). */
  showGame(position, onScreen) {
    if (onScreen && this.show) {
      if (!position || position === this.position()) {
        setHash("toguz", this.position());
        return;
      }
      const i = nearest(this.history, position, this.index);
      if (i >= 0) {
        this.goTo(i);
        return;
      }
    }
    if (!position && this.show) {
      this.load(false);
      return;
    }
    this.start(position || START.toguz);
  },

  start(position) {
    this.previous = this.show
      ? { history: this.history, record: this.record, index: this.index }
      : null;
    this.history = [position];
    this.record = [];
    this.index = 0;
    this.tags = {};
    $("t-mode").value = "analyse";
    closeRecordBox("t");
    this.clearEngine();
    this.load(false);
  },

  /** The engine's text and values no longer describe the shown position. */
  clearEngine() {
    $("t-analysis").textContent = ENGINE_HINT;
    delete $("t-analysis").dataset.best;
    this.values = null;
    this.hintHole = null;
  },

  mode() {
    return $("t-mode").value;
  },

  engineToMove() {
    if (!this.show) return false;
    const mode = this.mode();
    return (mode === "white" && this.show.to_move === "black") ||
      (mode === "black" && this.show.to_move === "white");
  },

  async load(thenEngine) {
    const token = ++this.token;
    // A search of the position shown before is no longer wanted: its
    // request ends now, and with it the busy indicator.
    if (this.abort) this.abort.abort();
    this.abort = new AbortController();
    const position = this.position();
    setHash("toguz", position);
    $("t-text").value = position;
    $("t-error").textContent = "";
    try {
      this.show = await api("toguz/show", { position }, this.abort.signal);
      if (token !== this.token) return;
      // The server's spelling (`start` is the start position's text).
      this.history[this.index] = this.show.position;
      this.render();
      if (thenEngine && this.engineToMove() && !this.show.result) this.engine(token, true);
    } catch (e) {
      if (token !== this.token) return;
      if (e.kind === "bad-request" && this.history.length === 1) {
        const message = `“${position.slice(0, 80)}” is not a valid Toguz Kumalak position: ${e.message}`;
        if (this.previous) {
          Object.assign(this, this.previous);
          this.previous = null;
          this.load(false).then(() => { $("t-error").textContent = message; });
        } else {
          notice(`${message}. Showing the start position instead.`);
          this.history = [START.toguz];
          this.load(false);
        }
        return;
      }
      this.show = null;
      $("t-error").textContent = e.message;
      $("t-board").innerHTML = "";
    }
  },

  /** Search the shown position: `play` plays the engine's move; otherwise
   * the analysis is shown, with every hole's value when asked. */
  async engine(token, play) {
    const position = this.position();
    $("t-analysis").textContent = "Searching…";
    const every = !play && $("t-multipv").checked;
    try {
      const toMove = this.show ? this.show.to_move : "white";
      const params = { position, time: $("t-time").value };
      if (every) params.multipv = "all";
      const r = await api("toguz/search", params, this.abort.signal);
      if (token !== this.token) return;
      const pv = r.pv.join(" ");
      $("t-analysis").textContent =
        `best hole ${r.best}  score ${scoreText(r.score, toMove)}  depth ${r.depth}\n` +
        `pv ${pv}\n${r.nodes} nodes in ${r.seconds.toFixed(2)} s` +
        (r.exact ? `\nexact: ${exactText(r.exact.result, toMove)} with best play (endgame solved)` : "");
      $("t-analysis").dataset.best = String(r.best);
      if (play && r.best) {
        const m = this.show.moves.find((x) => x.hole === r.best);
        if (m) this.play(m, false);
        return;
      }
      if (every) {
        const lines = r.lines && r.lines.length ? r.lines : [{ hole: r.best, score: r.score }];
        this.values = lines.map((l) => ({ hole: l.hole, centi: l.score }));
        this.render();
      }
    } catch (e) {
      if (token === this.token && e.name !== "AbortError") $("t-analysis").textContent = e.message;
    }
  },

  /** The engine's move, marked on the board. */
  async hint() {
    if (!this.show || this.show.result) return;
    const token = this.token;
    $("t-analysis").textContent = "Searching for a hint…";
    try {
      const r = await api("toguz/search", { position: this.position(), time: $("t-time").value },
        this.abort.signal);
      if (token !== this.token || !r.best) return;
      this.hintHole = r.best;
      this.render();
      const m = this.show.moves.find((x) => x.hole === r.best);
      $("t-analysis").textContent = `Hint: hole ${r.best} (${m ? m.move : "?"}), ` +
        `score ${scoreText(r.score, this.show.to_move)} at depth ${r.depth}.`;
    } catch (e) {
      if (token === this.token && e.name !== "AbortError") $("t-analysis").textContent = e.message;
    }
  },

  play(move, human) {
    notice("");
    this.history = this.history.slice(0, this.index + 1);
    this.record = this.record.slice(0, this.index);
    this.history.push(move.after);
    this.record.push(move.move);
    this.index += 1;
    this.clearEngine();
    this.load(human !== false || this.engineToMove());
  },

  /** Show the position after `ply` plies of the record. */
  goTo(ply) {
    if (ply < 0 || ply >= this.history.length || ply === this.index) return;
    this.index = ply;
    this.clearEngine();
    this.load(false);
  },

  /** Does the review describe the game shown (the same start and moves)? */
  reviewed() {
    const r = this.review;
    if (!r) return false;
    const n = Math.min(r.positions.length, this.history.length);
    for (let i = 0; i < n; i++) if (r.positions[i] !== this.history[i]) return i > 0 ? i : false;
    return n;
  },

  /** Every hole's value here: the engine's, or the review's. */
  holeValues() {
    if (this.values) return this.values;
    const upTo = this.reviewed();
    if (upTo && this.index < upTo && this.index < this.review.moves.length) {
      const holes = this.review.moves[this.index].holes || [];
      return holes
        .map((v, i) => (v === null ? null : { hole: i + 1, centi: Math.round(v * 100), won: Math.abs(v) >= 100 }))
        .filter((v) => v);
    }
    return null;
  },

  render() {
    const s = this.show;
    const W = 74;
    const M = 40;
    const width = 9 * W + 2 * M;
    const height = 380;
    // The board shrinks to a narrow screen (a phone): its text grows in
    // the drawing to stay at least 12.5 px on the screen, and the
    // tuzdyks, hole values and results are said more shortly.
    const k = Math.max(1, width / ($("toguz-view").clientWidth || width));
    const narrow = k > 1.3;
    const px = (size) => Math.max(size, 12.5 * k).toFixed(1);
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("width", width);
    svg.setAttribute("height", height);
    svg.setAttribute("class", "board board-toguz");
    const el = (name, attrs, parent, text) => {
      const e = document.createElementNS(SVG_NS, name);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      (parent || svg).appendChild(e);
      return e;
    };
    el("rect", { width, height, fill: "#c98f4e", rx: 18 });
    const legal = new Set(s.moves.map((m) => m.hole));
    const values = s.result ? null : this.holeValues();
    const value = new Map((values || []).map((v) => [v.hole, v]));
    const top = values && values.length ? Math.max(...values.map((v) => v.centi)) : null;
    // Black's holes 9..1 on top, White's 1..9 below (sowing runs anticlockwise).
    for (let i = 0; i < 18; i++) {
      const white = i < 9;
      const n = (i % 9) + 1;
      const x = M + (white ? n - 1 : 9 - n) * W;
      const y = white ? 250 : 30;
      const mine = (white ? "white" : "black") === s.to_move;
      const g = el("g", { class: "hole", "data-hole": n, "data-side": white ? "white" : "black" });
      if (mine && legal.has(n) && !s.result) g.classList.add("legal");
      if (mine && this.hintHole === n) g.classList.add("hint");
      const owner = s.tuzdyks.indexOf(i);
      el("rect", { x: x + 5, y, width: W - 10, height: 100, rx: 30,
        fill: owner >= 0 ? "#5c2d0c" : "#8a5526", stroke: "#3b2a14", "stroke-width": 2 }, g);
      el("text", { x: x + W / 2, y: y + 56, "text-anchor": "middle", "font-size": px(28),
        "font-weight": "bold", fill: "#fff7e6", class: "hole-stones" }, g, owner >= 0 ? "X" : s.holes[i]);
      const tuzdyk = `${n} · tuzdyk of ${owner ? "Black" : "White"}`;
      el("text", { x: x + W / 2, y: white ? y + 122 : y - 8, "text-anchor": "middle",
        "font-size": px(13), fill: "#3b2a14", class: "hole-number" }, g, owner >= 0 && !narrow ? tuzdyk : n);
      const v = mine ? value.get(n) : undefined;
      if (v) {
        g.dataset.value = String(v.centi);
        el("text", { x: x + W / 2, y: y + (narrow ? 88 : 84), "text-anchor": "middle", "font-size": px(13),
          "font-weight": v.centi === top ? "bold" : "normal",
          fill: v.centi === top ? "#b6f5b6" : "#fff7e6", class: "hole-value" }, g,
        holeText(v, s.to_move, true, narrow));
      }
      if (g.classList.contains("legal")) {
        const m = s.moves.find((x) => x.hole === n);
        const choose = () => {
          if (!(this.mode() !== "analyse" && this.engineToMove())) this.play(m, true);
        };
        g.addEventListener("click", choose);
        const said = v ? `, ${holeText(v, s.to_move, false)}` : "";
        pressable(g, `play ${white ? "White" : "Black"}'s hole ${n}: ${s.holes[i]} stones (${m.move})${said}`, choose);
      }
    }
    // Kazans: Black's above, White's below, across the middle.
    // On a narrow board each kazan's line names its side's tuzdyk.
    for (const [side, y] of [[1, 150], [0, 196]]) {
      el("rect", { x: M + 5, y, width: 9 * W - 10, height: 36, rx: 18, fill: "#6e3f16" });
      const name = side ? "Black" : "White";
      const hole = s.tuzdyks[side];
      const tuzdyk = narrow && hole !== null && hole >= 0
        ? ` · tuzdyk: ${side ? "White" : "Black"}'s ${(hole % 9) + 1}` : "";
      el("text", { x: M + 24, y: y + 26, "font-size": px(17), fill: "#fff7e6", class: "kazan",
        "data-side": side ? "black" : "white" }, svg, `${name}'s kazan: ${s.kazans[side]}${tuzdyk}`);
    }
    $("t-board").innerHTML = "";
    $("t-board").appendChild(svg);
    let status;
    if (s.result) {
      status = overText(toguzEnding(s));
    } else {
      status = `${s.to_move === "white" ? "White" : "Black"} to move`;
    }
    $("t-status").textContent = status;
    this.renderValues(values);
    if (values && !this.values && $("t-analysis").textContent === ENGINE_HINT) {
      // The review's values: what it says of the move played here.
      const m = this.review.moves[this.index];
      const best = m.side === "White" ? m.best_score : -m.best_score;
      $("t-analysis").textContent = `Review: ${m.side} played ${m.move}, ${m.label}, ` +
        `losing ${m.loss.toFixed(2)} stones. The engine's move: ${m.best_move}, ` +
        `${scoreText(Math.round(best * 100), "white")}. Every hole's value from the review's search ` +
        `(depth ${m.depth}), from White's view.`;
    }
    renderRecord($("t-record"), this.record, this.index, blackToMove(this.history[0]), (ply) => this.goTo(ply));
    this.renderReview();
  },

  /** Every hole's value as a list, best first for the side to move (equal
   * values by hole number). */
  renderValues(values) {
    const body = $("t-moves").querySelector("tbody");
    body.innerHTML = "";
    if (!values || !this.show) return;
    const s = this.show;
    // Equal values in the order of the holes.
    for (const v of [...values].sort((a, b) => b.centi - a.centi || a.hole - b.hole)) {
      const m = s.moves.find((x) => x.hole === v.hole);
      if (!m) continue;
      const tr = document.createElement("tr");
      tr.dataset.hole = String(v.hole);
      tr.innerHTML = `<td class="m"></td><td class="tv"></td>`;
      tr.children[0].textContent = `hole ${v.hole} (${m.move})`;
      tr.children[1].textContent = holeText(v, s.to_move, false);
      const choose = () => {
        if (!(this.mode() !== "analyse" && this.engineToMove())) this.play(m, true);
      };
      tr.addEventListener("click", choose);
      tr.tabIndex = 0;
      tr.setAttribute("aria-label", `play hole ${v.hole}, ${m.move}: ${holeText(v, s.to_move, false)}`);
      tr.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          choose();
        }
      });
      body.appendChild(tr);
    }
  },

  /** The result of the game shown, as a record writes it. */
  result() {
    if (this.index === this.record.length && this.show && this.show.result) return RESULT[this.show.result];
    return this.tags.Result || "*";
  },

  /** The record in PlayOK's form (our start position in a tag when it is
   * not the start). */
  exportText() {
    const result = this.result();
    const tags = [["Site", "solver serve"], ["White", this.tags.White || "?"],
      ["Black", this.tags.Black || "?"], ["Result", result]];
    if (this.tags.Date) tags.splice(1, 0, ["Date", this.tags.Date]);
    if (this.history[0] !== START.toguz) tags.push(["Position", this.history[0]]);
    const head = tags.map(([k, v]) => `[${k} "${v}"]`).join("\n");
    return `${head}\n\n${numbered(this.record, blackToMove(this.history[0]))} ${result}\n`;
  },

  /** Load a PlayOK record (or a list of moves or holes). */
  async importText(text) {
    const { tags, moves, result } = readRecord(text);
    const start = tags.Position || START.toguz;
    // Long records go as holes alone (the server then checks legality only).
    let sent = moves.join(" ");
    if (encodeURIComponent(sent).length > 1700) sent = moves.map((m) => m[0]).join(" ");
    try {
      const r = await api("toguz/replay", { record: sent, position: start });
      this.history = r.positions;
      this.record = r.moves.map((m) => m.move);
      this.index = r.moves.length;
      this.tags = { ...tags, Result: tags.Result || result || undefined };
      $("t-mode").value = "analyse";
      this.clearEngine();
      recordBox("t", null, `Loaded ${r.moves.length} moves.`);
      await this.load(false);
    } catch (e) {
      recordBox("t", null, `Not loaded: ${e.message}`);
    }
  },

  /** Review the game shown: every move scored, the graph, every hole's
   * value at each position. */
  async reviewGame() {
    if (!this.record.length) {
      $("t-error").textContent = "Play or import a game first: the review needs its moves.";
      return;
    }
    const time = $("t-review-time").value;
    const n = this.record.length;
    $("t-review").hidden = false;
    $("t-graph").innerHTML = "";
    $("t-review-moves").querySelector("tbody").innerHTML = "";
    $("t-review-summary").textContent =
      `Reviewing ${n} moves at ${time} s a position: about ${Math.ceil(n * Number(time))} s…`;
    const token = this.token;
    const moves = this.record.map((m) => m[0]).join(" ");
    let record = moves;
    for (const k of ["White", "Black", "Date"]) {
      if (this.tags[k]) record = `[${k} "${this.tags[k]}"]\n${record}`;
    }
    record += ` ${this.result()}`;
    try {
      this.review = await api("toguz/review", { record, position: this.history[0], time });
      this.graphDrawn = false;
      if (token === this.token) this.render();
      else this.renderReview();
    } catch (e) {
      $("t-review-summary").textContent = `No review: ${e.message}`;
    }
  },

  /** The review's graph (a line at the shown position), summary and moves. */
  renderReview() {
    const r = this.review;
    const upTo = this.reviewed();
    if (!r || !upTo) {
      if (r) $("t-review").hidden = true;
      return;
    }
    $("t-review").hidden = false;
    if (!this.graphDrawn) {
      $("t-graph").innerHTML = r.svg;
      this.graphDrawn = true;
      const p = r.players.map((pl, i) => {
        const side = i ? "Black" : "White";
        const counts = ["best", "good", "inaccuracy", "mistake", "blunder"]
          .map((l, k) => `${l} ${pl.labels[k]}`).join(", ");
        return `${side}${pl.name && pl.name !== "?" ? " (" + pl.name + ")" : ""}: ${counts}; ` +
          `mean loss ${pl.mean_loss.toFixed(2)} stones`;
      });
      $("t-review-summary").textContent = `${p.join(". ")}. Choose a move or a point of the graph to see ` +
        "that position with every hole's value.";
      const body = $("t-review-moves").querySelector("tbody");
      body.innerHTML = "";
      for (const m of r.moves) {
        const tr = document.createElement("tr");
        tr.dataset.ply = String(m.ply);
        tr.innerHTML = `<td></td><td class="m"></td><td></td><td></td><td class="m"></td>`;
        tr.children[0].textContent = `${m.ply} ${m.side === "White" ? "W" : "B"}`;
        tr.children[1].textContent = m.move;
        tr.children[2].textContent = m.label;
        tr.children[2].className = `label-${m.label}`;
        tr.children[3].textContent = m.loss.toFixed(2);
        // The review's scores are the mover's; the page's are White's.
        const best = m.side === "White" ? m.best_score : -m.best_score;
        tr.children[4].textContent = `${m.best_move} (${best >= 0 ? "+" : ""}${best.toFixed(2)})`;
        const go = () => this.goTo(m.ply - 1);
        tr.addEventListener("click", go);
        tr.tabIndex = 0;
        tr.setAttribute("aria-label", `ply ${m.ply}, ${m.side} played ${m.move}: ${m.label}, ` +
          `${m.loss.toFixed(2)} stones lost; the engine's move ${m.best_move}. Go to the position before it`);
        tr.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            go();
          }
        });
        body.appendChild(tr);
      }
      const svg = $("t-graph").querySelector("svg");
      if (svg) {
        svg.addEventListener("click", (e) => {
          const [left, , width, , n] = (svg.dataset.plot || "").split(" ").map(Number);
          const box = svg.getBoundingClientRect();
          const x = ((e.clientX - box.left) * svg.viewBox.baseVal.width) / box.width;
          const ply = Math.round(((x - left) / width) * n);
          this.goTo(Math.max(0, Math.min(ply, this.history.length - 1)));
        });
      }
    }
    for (const tr of $("t-review-moves").querySelectorAll("tbody tr")) {
      tr.classList.toggle("current", Number(tr.dataset.ply) === this.index + 1);
    }
    const svg = $("t-graph").querySelector("svg");
    if (svg && svg.dataset.plot) {
      const [left, top, width, height, n] = svg.dataset.plot.split(" ").map(Number);
      let line = svg.querySelector("line.cursor");
      if (!line) {
        line = document.createElementNS(SVG_NS, "line");
        line.setAttribute("class", "cursor");
        line.setAttribute("stroke", "#d2383a");
        line.setAttribute("stroke-width", "2");
        line.setAttribute("stroke-dasharray", "4 3");
        svg.appendChild(line);
      }
      const x = left + (width * Math.min(this.index, n)) / Math.max(n, 1);
      line.setAttribute("x1", x.toFixed(1));
      line.setAttribute("x2", x.toFixed(1));
      line.setAttribute("y1", String(top));
      line.setAttribute("y2", String(top + height));
    }
  },

  undo() {
    if (this.index === 0) return;
    this.index -= 1;
    this.clearEngine();
    this.load(false).then(() => {
      if (this.index > 0 && this.mode() !== "analyse" && this.engineToMove()) this.undo();
    });
  },

  redo() {
    if (this.index >= this.record.length) return;
    this.index += 1;
    this.clearEngine();
    this.load(false);
  },
};

$("t-mode").addEventListener("change", () => Toguz.load(true));
$("t-analyse").addEventListener("click", () => Toguz.engine(Toguz.token, false));
$("t-hint").addEventListener("click", () => Toguz.hint());
$("t-new").addEventListener("click", () => {
  const mode = Toguz.mode();
  Toguz.start(START.toguz);
  $("t-mode").value = mode;
  Toguz.load(true);
});
$("t-undo").addEventListener("click", () => Toguz.undo());
$("t-redo").addEventListener("click", () => Toguz.redo());
$("t-load").addEventListener("click", () => Toguz.start($("t-text").value.trim()));
$("t-text").addEventListener("keydown", (e) => {
  if (e.key === "Enter") Toguz.start($("t-text").value.trim());
});
$("t-copy").addEventListener("click", () => copy(Toguz.position(), $("t-share")));
$("t-copy-link").addEventListener("click", () => copy(location.href, $("t-share")));
$("t-export").addEventListener("click", () => recordBox("t", Toguz.exportText(),
  "The game in PlayOK's notation: copy it, or edit it and load it."));
$("t-import").addEventListener("click", () => recordBox("t", "",
  "Paste a PlayOK record (tags and numbered moves such as 1. 76(10) 87(2)) or holes alone (7 8 9)."));
$("t-import-go").addEventListener("click", () => Toguz.importText($("t-record-text").value));
$("t-record-close").addEventListener("click", () => { $("t-record-text").parentElement.hidden = true; });
$("t-review-go").addEventListener("click", () => Toguz.reviewGame());
// The board's text is sized for the width it is drawn at (a phone turned).
window.addEventListener("resize", () => {
  if (view === "toguz" && Toguz.show) Toguz.render();
});


// ------------------------------------------------------------- statistics

/** The width in px of `text` at `size` px in the page's font (margins
 * that fit their labels). */
function textWidth(text, size) {
  textWidth.canvas = textWidth.canvas || document.createElement("canvas");
  const ctx = textWidth.canvas.getContext("2d");
  ctx.font = `${size}px ${getComputedStyle(document.body).fontFamily}`;
  return ctx.measureText(String(text)).width;
}

/** Labels without the part that all of them share up to a `/`
 * (`six/flying-3/3-3`, `six/flying-3/2-3-1-0` → `3-3`, `2-3-1-0`), and
 * that part (`six/flying-3/`; empty when they share none). */
function shortLabels(labels) {
  let prefix = labels.length > 1 ? labels[0].slice(0, labels[0].lastIndexOf("/") + 1) : "";
  while (prefix && !labels.every((l) => l.startsWith(prefix) && l.length > prefix.length)) {
    prefix = prefix.slice(0, prefix.slice(0, -1).lastIndexOf("/") + 1);
  }
  return { prefix, labels: labels.map((l) => l.slice(prefix.length)) };
}

/** A step of 1, 2 or 5 times a power of ten giving at most 5 steps up to
 * `max`. */
function tickStep(max) {
  for (let unit = 1; ; unit *= 10) {
    for (const k of [1, 2, 5]) if (max / (k * unit) <= 5) return k * unit;
  }
}

const Stats = {
  /** A chart box with a title and a caption (both wrap in the box), holding
   * an SVG drawn at the given size: a box narrower than it (a phone)
   * scrolls sideways instead of shrinking the drawing. */
  chart(parent, title, width, height, caption) {
    const box = document.createElement("div");
    box.className = "chart";
    const h = document.createElement("h3");
    h.textContent = title;
    box.appendChild(h);
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("width", width);
    svg.setAttribute("height", height);
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    box.appendChild(svg);
    if (caption) {
      const p = document.createElement("p");
      p.className = "caption";
      p.textContent = caption;
      box.appendChild(p);
    }
    parent.appendChild(box);
    const el = (name, attrs, text) => {
      const e = document.createElementNS(SVG_NS, name);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      svg.appendChild(e);
      return e;
    };
    return el;
  },

  /** The width a chart's drawing has in `parent` (its box's padding and
   * border taken off), at most `most`. */
  room(parent, most) {
    const width = parent.clientWidth ? parent.clientWidth - 18 : most;
    return Math.min(most, width);
  },

  /** Horizontal bars split into win/draw/loss shares, one per row, the
   * labels' margin as wide as the longest (their shared start, such as
   * `six/flying-3/`, said once in the caption); as wide as the box allows,
   * up to 520 px. */
  shares(parent, title, rows) {
    // Many rows (Lasker's sectors) closer together.
    const rowH = rows.length > 24 ? 14 : 18;
    const size = rows.length > 24 ? 11 : 12;
    const { prefix, labels } = shortLabels(rows.map((r) => r.label));
    const left = Math.ceil(Math.max(0, ...labels.map((l) => textWidth(l, size)))) + 12;
    const width = Math.max(left + 100, this.room(parent, 520));
    const caption = "Share of wins, draws and losses for the side to move." +
      (prefix ? ` Tables ${prefix}…` : "");
    const el = this.chart(parent, title, width, rows.length * rowH + 4, caption);
    rows.forEach((r, i) => {
      const y = 4 + i * rowH;
      el("text", { x: left - 6, y: y + rowH - 5, "text-anchor": "end", "font-size": size }, labels[i]);
      let x = left;
      const total = r.wins + r.draws + r.losses || 1;
      for (const [key, n] of [["win", r.wins], ["draw", r.draws], ["loss", r.losses]]) {
        const w = ((width - left - 4) * n) / total;
        const rect = el("rect", { x, y, width: Math.max(w, 0), height: rowH - 3, fill: COLOUR[key] });
        const t = document.createElementNS(SVG_NS, "title");
        t.textContent = `${r.label}: ${n.toLocaleString()} ${key}s (${((100 * n) / total).toFixed(1)} %)`;
        rect.appendChild(t);
        x += w;
      }
    });
  },

  /** Vertical bars of longest wins and losses per table (`label`,
   * `max_win`, `max_loss`): the labels across when they fit under their
   * bars, else turned upright under narrower bars (Lasker's many sectors);
   * the left margin as wide as the axis' numbers. */
  longest(parent, rows, what = "subspace") {
    const size = 10;
    const { prefix, labels } = shortLabels(rows.map((r) => r.label));
    const max = Math.max(1, ...rows.map((r) => Math.max(r.max_win, r.max_loss)));
    const step = tickStep(max);
    const top = Math.ceil(max / step) * step;
    const left = Math.ceil(textWidth(top, size)) + 12;
    const labelW = Math.ceil(Math.max(0, ...labels.map((l) => textWidth(l, size))));
    const across = Math.max(22, labelW + 6);
    const flat = left + rows.length * across + 10 <= Math.max(520, this.room(parent, 1200));
    const group = flat ? across : 16;
    const bar = (group - 4) / 2;
    const plot = 180;
    const base = 10 + plot;
    const height = base + (flat ? 18 : labelW + 10);
    const width = Math.max(left + rows.length * group + 10, 200);
    const caption = `Per ${what}${prefix ? ` (${prefix}…)` : ""}: green the longest win, red the longest loss.`;
    const el = this.chart(parent, `Longest win and loss (plies to conversion) per ${what}`, width, height, caption);
    const scale = plot / top;
    for (let v = 0; v <= top; v += step) {
      const y = base - v * scale;
      el("line", { x1: left - 3, x2: width - 6, y1: y, y2: y, stroke: v ? "#ece4d4" : "#8c8f96" });
      el("text", { x: left - 6, y: y + 4, "text-anchor": "end", "font-size": size }, v);
    }
    rows.forEach((r, i) => {
      const x = left + i * group + 2;
      const cx = x + bar;
      for (const [key, n, at] of [["win", r.max_win, x], ["loss", r.max_loss, cx]]) {
        const rect = el("rect", { x: at, y: base - n * scale, width: bar, height: n * scale, fill: COLOUR[key] });
        const t = document.createElementNS(SVG_NS, "title");
        t.textContent = `${r.label}: longest ${key} ${n} plies`;
        rect.appendChild(t);
      }
      if (flat) {
        el("text", { x: cx, y: base + 14, "text-anchor": "middle", "font-size": size, class: "x-label" }, labels[i]);
      } else {
        const y = base + 6;
        el("text", { x: cx + size * 0.35, y, "text-anchor": "end", "font-size": size, class: "x-label",
          transform: `rotate(-90 ${cx + size * 0.35} ${y})` }, labels[i]);
      }
    });
  },

  /** The summary line of a board's statistics (every board's `stats`
   * shape: totals, `by_kind`, `tables`). */
  summary(s) {
    const kinds = Object.entries(s.by_kind || {})
      .map(([kind, k]) => `${k.tables} ${kind === "moving" ? "moving-phase" : kind} tables`)
      .join(", ");
    const p = document.createElement("p");
    p.textContent = `${kinds || "no tables"} (${s.stones} stones a side, flying ${s.flying ? "on" : "off"}), ` +
      `${s.positions.toLocaleString()} positions: ${s.wins.toLocaleString()} wins, ` +
      `${s.draws.toLocaleString()} draws, ${s.losses.toLocaleString()} losses for the side to move; ` +
      `${(s.bytes / 1e6).toFixed(1)} MB on disk.`;
    return p;
  },

  /** A board's statistics (`nine/stats`, `six/stats`, …: one row per
   * table file) into `box`: the summary, the files that did not open, the
   * charts of the moving-phase tables (Lasker's sectors, which mix the
   * phases, all of them) and of the placement sectors (outcomes only). */
  board(box, s) {
    box.innerHTML = "";
    box.appendChild(this.summary(s));
    // A table that does not open is its row's error, not a failed page.
    for (const r of s.tables.filter((r) => r.error)) {
      const e = document.createElement("p");
      e.className = "error";
      e.textContent = `Not counted: ${r.error}`;
      box.appendChild(e);
    }
    const label = (r) => r.kind === "moving" ? `${r.white}-${r.black}` :
      `${r.white}-${r.black}-${r.white_hand}-${r.black_hand}`;
    const rows = (kinds) => s.tables
      .filter((r) => !r.error && kinds.includes(r.kind))
      .map((r) => ({ ...r, label: label(r), max_win: r.longest_win ?? 0, max_loss: r.longest_loss ?? 0 }));
    const moving = rows(["moving", "sector"]);
    const what = s.variant === "lasker" ? "sector (White-Black on the board, in hand)" :
      "subspace (White-Black stones, White to move)";
    if (moving.length) {
      this.shares(box, `Win / draw / loss per ${what}`, moving);
      this.longest(box, moving, what);
    }
    // Placement sectors, summed by the stones still in hand (one row per
    // ply of the placement phase: a handful of rows, not hundreds).
    const byHand = new Map();
    for (const r of rows(["placement"])) {
      const key = `${r.white_hand}-${r.black_hand}`;
      const sum = byHand.get(key) || { label: key, wins: 0, draws: 0, losses: 0, hand: r.white_hand + r.black_hand };
      sum.wins += r.wins;
      sum.draws += r.draws;
      sum.losses += r.losses;
      byHand.set(key, sum);
    }
    const placement = [...byHand.values()].sort((a, b) => b.hand - a.hand);
    if (placement.length) {
      this.shares(box, "Win / draw / loss of the placement sectors, by stones in hand (White-Black, White to move)",
        placement);
    }
  },

  async show() {
    const nine = $("s-nine");
    const three = $("s-three");
    nine.textContent = "Loading…";
    three.textContent = "Loading…";
    try {
      this.board(nine, await api("nine/stats", {}));
    } catch (e) {
      nine.textContent = e.message;
    }
    try {
      const s = await api("three/stats", {});
      three.innerHTML = "";
      this.shares(three, "Reachable positions and symmetry classes", [
        { label: "positions", wins: s.wins, draws: s.draws, losses: s.losses },
        { label: "classes", wins: s.classes.wins, draws: s.classes.draws, losses: s.classes.losses },
      ]);
      const el = this.chart(three, `White's first moves (empty board: ${describe(s.value, s.plies)})`, 260, 260);
      for (const [move, value] of Object.entries(s.first_moves)) {
        const f = move.charCodeAt(0) - 97;
        const r = Number(move[1]) - 1;
        const x = 20 + f * 75;
        const y = 20 + (2 - r) * 75;
        el("rect", { x, y, width: 70, height: 70, fill: COLOUR[value] });
        el("text", { x: x + 35, y: y + 32, "text-anchor": "middle", fill: "white", "font-size": 16 }, move);
        el("text", { x: x + 35, y: y + 52, "text-anchor": "middle", fill: "white", "font-size": 12 },
          describe(value, s.first_move_plies[move]));
      }
    } catch (e) {
      three.textContent = e.message;
    }
    // The other boards, each from its own tables (or the reason it has none).
    const family = $("s-family");
    family.innerHTML = "";
    for (const [id, title] of [
      ["nine-noflying", "Nine Men's Morris without flying"],
      ["six", "Six Men's Morris"],
      ["morabaraba", "Morabaraba"],
      ["lasker", "Lasker Morris"],
    ]) {
      const h = document.createElement("h2");
      h.textContent = title;
      const box = document.createElement("div");
      box.className = "charts";
      box.id = `s-${id}`;
      box.textContent = "Loading…";
      family.append(h, box);
      try {
        const s = await api(`${id}/stats`, {});
        this.board(box, s);
      } catch (e) {
        box.textContent = e.message;
      }
    }
  },
};

/** The games the server serves from their tables (`/api/games`): their
 * start positions (the game the tables cover) and point orders. The page
 * works without it, with each variant's own start. */
async function servedGames() {
  try {
    for (const g of await api("games", {})) {
      START[g.id] = g.start;
      READING[g.id] = g.reading;
      if (g.quiet_limit) LIMIT[g.id] = g.quiet_limit;
    }
  } catch (e) {
    // An older server, or none: the built-in starts stand.
  }
}

window.addEventListener("hashchange", route);
// Back and Forward between entries `setHash` added.
window.addEventListener("popstate", route);
// The active tab keeps its game (a click would drop the position from the URL).
for (const a of document.querySelectorAll("#tabs a")) {
  a.addEventListener("click", (e) => {
    if (a.dataset.view === view && view !== "stats") e.preventDefault();
  });
}
Promise.all([servedGames(), NineStones.learn()]).then(route);
