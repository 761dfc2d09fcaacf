//! Criterion benchmarks of the tablebase machinery: canonicalisation and
//! indexing, the retrograde engine on the 3-3 subspace, and random probes
//! with a warm block cache.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use mill::games::nine::files::{generate, GenerateObserver};
use mill::index::nine::NineIndex;
use mill::index::nine::{self, Subspace};
use mill::probe::nine::Tablebases;
use mill::rules::board::Nine;
use mill::rules::variant::RuleSet;
use mill::tables::pair::MovingPair;
use tablebase::retro::{solve, Observer, Silent};
use tablebase::Value;

struct Quiet;
impl Observer for Quiet {}
impl GenerateObserver for Quiet {}

/// Fixed pseudo-random moving-phase positions of the given subspaces.
fn positions(subs: &[Subspace], n: usize) -> Vec<(u32, u32)> {
    positions_from(subs, n, 0x9E37_79B9_7F4A_7C15)
}

fn positions_from(subs: &[Subspace], n: usize, seed: u64) -> Vec<(u32, u32)> {
    sample(subs, n, seed, |&sub, x| {
        nine::position(sub, x % nine::size(sub))
    })
}

/// `n` items drawn by `pick(table, random)` from random tables, retrying
/// where it gives `None` (an unused slot).
fn sample<T, P>(tables: &[T], n: usize, seed: u64, pick: impl Fn(&T, u64) -> Option<P>) -> Vec<P> {
    let mut x = seed;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if let Some(p) = pick(&tables[(x % tables.len() as u64) as usize], x >> 8) {
            out.push(p);
        }
    }
    out
}

fn bench_index(c: &mut Criterion) {
    nine::warm_up();
    let subs: Vec<Subspace> = (3..=9)
        .flat_map(|w| (3..=9).map(move |b| Subspace::new(w, b)))
        .collect();
    let ps = positions(&subs, 4096);
    let mut g = c.benchmark_group("index");
    g.throughput(Throughput::Elements(ps.len() as u64));
    g.bench_function("canonicalise+index", |b| {
        b.iter(|| {
            ps.iter()
                .map(|&(u, t)| nine::index(black_box(u), black_box(t)))
                .sum::<u64>()
        })
    });
    let slots: Vec<(Subspace, u64)> = ps
        .iter()
        .map(|&(u, t)| (Subspace::of(u, t), nine::index(u, t)))
        .collect();
    g.bench_function("slot→position", |b| {
        b.iter(|| {
            slots
                .iter()
                .filter_map(|&(s, i)| nine::position(s, black_box(i)))
                .count()
        })
    });
    g.finish();
}

fn bench_retro(c: &mut Criterion) {
    nine::warm_up();
    let mut g = c.benchmark_group("retro");
    g.sample_size(10);
    let sub = Subspace::new(3, 3);
    g.throughput(Throughput::Elements(nine::positions(sub)));
    let none: Vec<Value> = Vec::new();
    g.bench_function("solve 3-3", |b| {
        b.iter(|| {
            let pair =
                MovingPair::<Nine, NineIndex, Vec<Value>>::new(RuleSet::nine(true), sub, |_| {
                    Some(&none)
                })
                .unwrap();
            solve(&pair, &Silent).unwrap().0.len()
        })
    });
    g.finish();
}

fn bench_probe(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("bench-probe-{}", std::process::id()));
    generate(&dir, RuleSet::nine(true), 7, &Quiet).unwrap();
    let tb = Tablebases::open(&dir, RuleSet::nine(true)).unwrap();
    let subs = [
        Subspace::new(3, 3),
        Subspace::new(3, 4),
        Subspace::new(4, 3),
    ];
    let ps = positions(&subs, 4096);
    // Warm the caches: every block of the three tables (they are small).
    for &(u, t) in &ps {
        tb.probe_bits(u, t).unwrap();
    }
    let mut g = c.benchmark_group("probe");
    g.throughput(Throughput::Elements(1));
    let mut i = 0;
    g.bench_function("random probe, warm cache", |b| {
        b.iter_batched(
            || {
                i = (i + 1) % ps.len();
                ps[i]
            },
            |(u, t)| tb.probe_bits(u, t).unwrap(),
            BatchSize::SmallInput,
        )
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(full) = std::env::var_os("NINE_TABLEBASES") {
        bench_full_tables(c, full.as_ref());
    }
}

/// With `NINE_TABLEBASES=DIR` (all 49 subspaces): probes spread over every
/// subspace, through the block caches (warm: about 200 positions a table,
/// so their blocks stay cached; cold: 200,000 positions, nearly every
/// probe decompresses a block) and through the two-bit tables in memory.
fn bench_full_tables(c: &mut Criterion, dir: &std::path::Path) {
    let subs: Vec<Subspace> = (3..=9)
        .flat_map(|w| (3..=9).map(move |b| Subspace::new(w, b)))
        .collect();
    let tb = Tablebases::open(dir, RuleSet::nine(true)).unwrap();
    let warm = positions(&subs, 200 * subs.len());
    for &(u, t) in &warm {
        tb.probe_bits(u, t).unwrap();
    }
    let cold = positions_from(&subs, 200_000, 0x1234_5678_9ABC_DEF1);
    let wdl = Tablebases::open(dir, RuleSet::nine(true))
        .unwrap()
        .in_memory_wdl();
    wdl.preload(&subs).unwrap();
    let mut g = c.benchmark_group("probe all 49");
    g.throughput(Throughput::Elements(1));
    for (name, ps, in_memory) in [
        ("random probe, warm block cache", &warm, false),
        ("random probe, cold (block decompressed)", &cold, false),
        (
            "random outcome probe, two-bit tables in memory",
            &cold,
            true,
        ),
    ] {
        let mut i = 0;
        g.bench_function(name, |b| {
            b.iter_batched(
                || {
                    i = (i + 1) % ps.len();
                    ps[i]
                },
                |(u, t)| {
                    if in_memory {
                        black_box(wdl.probe_outcome(u, t).unwrap());
                    } else {
                        black_box(tb.probe_bits(u, t).unwrap());
                    }
                },
                BatchSize::SmallInput,
            )
        });
    }
    g.finish();
}

/// The placement search: a late placement position over the tables of up
/// to 8 stones (always), and with `NINE_TABLEBASES=DIR` the proof that
/// the game with eight stones each is a draw (16 plies, about 24 M nodes).
fn bench_placement(c: &mut Criterion) {
    use mill::rules::position::Position;
    use mill::search::PlacementSearch;
    let dir = std::env::temp_dir().join(format!("bench-placement-{}", std::process::id()));
    generate(&dir, RuleSet::nine(true), 8, &Quiet).unwrap();
    let tb = Tablebases::open(&dir, RuleSet::nine(true))
        .unwrap()
        .in_memory_wdl();
    let pos: Position = "W................B...... w 3 3".parse().unwrap();
    tb.preload(&Tablebases::reachable(&pos)).unwrap();
    let mut g = c.benchmark_group("placement");
    g.sample_size(10);
    g.bench_function("1+1 on the board, 3 each in hand, 1 thread", |b| {
        b.iter(|| {
            let mut s = PlacementSearch::with_table_mib(&tb, 16);
            black_box(s.value(&pos).unwrap())
        })
    });
    if let Some(full) = std::env::var_os("NINE_TABLEBASES") {
        let tb = Tablebases::open(full.as_ref(), RuleSet::nine(true))
            .unwrap()
            .in_memory_wdl();
        let pos: Position = "........................ w 8 8".parse().unwrap();
        tb.preload(&Tablebases::reachable(&pos)).unwrap();
        for threads in [1, 2] {
            g.bench_function(format!("8-8 game proof, {threads} thread(s)"), |b| {
                b.iter(|| {
                    let mut s = PlacementSearch::with_table_mib(&tb, 1024)
                        .with_threads(threads)
                        .unwrap();
                    black_box(s.value(&pos).unwrap())
                })
            });
        }
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Placement positions drawn at random from every sector of `sectors`
/// (used slots only).
fn sector_positions(
    sectors: &[mill::tables::keys::Sector],
    n: usize,
) -> Vec<mill::rules::position::Position> {
    sample(sectors, n, 0x2545_F491_4F6C_DD1D, |s, x| {
        nine::position(s.subspace(), x % nine::size(s.subspace()))
            .map(|(us, them)| s.position(us, them))
    })
}

/// Probes of placement positions from the placement tables: the whole
/// 4-stone game (always), or with `NINE_TABLEBASES=DIR` holding placement
/// tables, every sector of the standard game. Warm: the block caches hold
/// the blocks probed (a few thousand positions); cold (full set only):
/// 200,000 positions, nearly every probe decompresses a block; the two-bit
/// tables in memory; the values of all 24 opening moves of the empty board.
fn bench_placement_tables(c: &mut Criterion) {
    use mill::games::nine::files::generate_pairs;
    use mill::games::nine::placement::{self, SectorObserver};
    use mill::rules::position::Position;
    use mill::tables::keys::Sector;
    struct Q;
    impl Observer for Q {}
    impl GenerateObserver for Q {}
    impl SectorObserver for Q {}
    let tmp = std::env::temp_dir().join(format!("bench-sectors-{}", std::process::id()));
    let (dir, stones) = match std::env::var_os("NINE_TABLEBASES") {
        Some(d)
            if Tablebases::open(d.as_ref(), RuleSet::nine(true))
                .and_then(|tb| tb.sector_table(Sector::new(0, 0, 9, 9)))
                .is_ok_and(|t| t.is_some()) =>
        {
            (std::path::PathBuf::from(d), 9)
        }
        _ => {
            let pairs: Vec<Subspace> = mill::games::nine::files::pairs(8)
                .into_iter()
                .filter(|p| p.us <= 4 && p.them <= 4)
                .collect();
            generate_pairs(&tmp, RuleSet::nine(true), &pairs, &Q).unwrap();
            placement::generate(&tmp, RuleSet::nine(true), 4, &Q).unwrap();
            (tmp.clone(), 4)
        }
    };
    let sectors = Sector::all(stones);
    let ps = sector_positions(&sectors, 4096);
    let tb = Tablebases::open(&dir, RuleSet::nine(true)).unwrap();
    let wdl = Tablebases::open(&dir, RuleSet::nine(true))
        .unwrap()
        .in_memory_wdl();
    for p in &ps {
        tb.outcome(p).unwrap();
        wdl.outcome(p).unwrap();
    }
    let mut g = c.benchmark_group(format!("placement tables, {stones}-stone game"));
    g.throughput(Throughput::Elements(1));
    // Cold: over the whole game's sectors, 200,000 positions spread so
    // that nearly every probe decompresses a block (the small game's
    // tables fit the caches, so only the full set has a cold figure).
    let cold = if stones == 9 {
        sector_positions(&sectors, 200_000)
    } else {
        Vec::new()
    };
    for (name, t, ps) in [
        ("random placement probe, warm block cache", &tb, &ps),
        (
            "random placement probe, cold (block decompressed)",
            &tb,
            &cold,
        ),
        (
            "random placement probe, two-bit tables in memory",
            &wdl,
            &ps,
        ),
    ] {
        if ps.is_empty() {
            continue;
        }
        let mut i = 0;
        g.bench_function(name, |b| {
            b.iter_batched(
                || {
                    i = (i + 1) % ps.len();
                    ps[i]
                },
                |p| black_box(t.outcome(&p).unwrap()),
                BatchSize::SmallInput,
            )
        });
    }
    let empty: Position = format!("{} w {stones} {stones}", ".".repeat(24))
        .parse()
        .unwrap();
    tb.move_outcomes(&empty).unwrap();
    g.bench_function("all 24 opening moves of the empty board", |b| {
        b.iter(|| black_box(tb.move_outcomes(&empty).unwrap()))
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&tmp);
}

criterion_group!(
    benches,
    bench_index,
    bench_retro,
    bench_probe,
    bench_placement,
    bench_placement_tables
);
criterion_main!(benches);
