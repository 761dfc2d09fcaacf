//! Toguz Kumalak benchmarks: perft (copy-make and make/unmake), search to
//! fixed depths from the start and from PlayOK positions, 1 and 2 threads.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use toguz::search::{Config, Engine, Limits};
use toguz::{perft, pgn, Board};

fn perft_bench(c: &mut Criterion) {
    let b = Board::start();
    let mut g = c.benchmark_group("toguz/perft");
    g.sample_size(10);
    for depth in [6u32, 7] {
        let leaves = perft::perft(&b, depth);
        g.throughput(Throughput::Elements(leaves));
        g.bench_with_input(BenchmarkId::new("copy-make", depth), &depth, |bn, &d| {
            bn.iter(|| perft::perft(black_box(&b), d))
        });
        g.bench_with_input(BenchmarkId::new("make-unmake", depth), &depth, |bn, &d| {
            bn.iter(|| perft::perft_unmake(&mut black_box(b), d))
        });
    }
    g.finish();
}

/// Ten positions from the PlayOK games (ply 20 of every 123rd game: 1, 124, 247, ...), or
/// none when the shared data is absent.
pub fn playok_positions() -> Vec<Board> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/data/toguz/playok-games.pgn"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("skipping PlayOK positions: {path} not found");
        return Vec::new();
    };
    let Ok(games) = pgn::parse(&text) else {
        return Vec::new();
    };
    games
        .iter()
        .step_by(123)
        .filter_map(|g| {
            let mut b = Board::start();
            for mv in g.moves.iter().take(20) {
                b.make(mv.as_bytes()[0] - b'1');
            }
            b.outcome().is_none().then_some(b)
        })
        .take(10)
        .collect()
}

fn search_once(b: &Board, depth: i32, threads: usize) -> u64 {
    search_with(Config::default(), b, depth, threads)
}

fn search_with(config: Config, b: &Board, depth: i32, threads: usize) -> u64 {
    let mut e = Engine::new(config);
    let limits = Limits {
        depth: Some(depth),
        threads,
        ..Limits::default()
    };
    e.search(b, &limits, &mut |_| {}).nodes
}

fn search_bench(c: &mut Criterion) {
    let start = Board::start();
    let mut g = c.benchmark_group("toguz/search-start");
    g.sample_size(10);
    for depth in [12, 14] {
        for threads in [1usize, 2] {
            g.bench_with_input(
                BenchmarkId::new(format!("depth{depth}"), format!("{threads}t")),
                &threads,
                |bn, &t| bn.iter(|| search_once(&start, depth, t)),
            );
        }
    }
    g.finish();
    let positions = playok_positions();
    if positions.is_empty() {
        return;
    }
    let mut g = c.benchmark_group("toguz/search-playok10");
    g.sample_size(10);
    for threads in [1usize, 2] {
        g.bench_with_input(
            BenchmarkId::new("depth12", format!("{threads}t")),
            &threads,
            |bn, &t| bn.iter(|| positions.iter().map(|p| search_once(p, 12, t)).sum::<u64>()),
        );
    }
    // The same search with the hand-set evaluation (the engine before the
    // learned one): nodes per second before and after.
    let hand = Config {
        learned: None,
        nnue: None,
        ..Config::default()
    };
    let nodes: u64 = positions.iter().map(|p| search_with(hand, p, 12, 1)).sum();
    g.throughput(Throughput::Elements(nodes));
    g.bench_function(BenchmarkId::new("depth12-hand-eval", "1t"), |bn| {
        bn.iter(|| {
            positions
                .iter()
                .map(|p| search_with(hand, p, 12, 1))
                .sum::<u64>()
        })
    });
    let nodes: u64 = positions.iter().map(|p| search_once(p, 12, 1)).sum();
    g.throughput(Throughput::Elements(nodes));
    g.bench_function(BenchmarkId::new("depth12-default-eval", "1t"), |bn| {
        bn.iter(|| positions.iter().map(|p| search_once(p, 12, 1)).sum::<u64>())
    });
    g.finish();
}

/// The neural evaluation of a child position: its accumulator from scratch
/// or from the parent's by the changed inputs, then the output; and the
/// linear evaluation for scale. 2,000 (parent, child) pairs from seeded
/// random games.
fn nnue_bench(c: &mut Criterion) {
    use toguz::nnue::{self, Accumulator};
    let Ok(net) = nnue::builtin() else { return };
    let mut pairs = Vec::new();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    while pairs.len() < 2000 {
        let mut b = Board::start();
        while b.outcome().is_none() && pairs.len() < 2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mask = b.legal_mask();
            let mut mm = mask;
            for _ in 0..(x % u64::from(mask.count_ones())) {
                mm &= mm - 1;
            }
            let child = b.after(mm.trailing_zeros() as u8);
            if child.outcome().is_none() {
                pairs.push((b, Accumulator::refresh(net, &b), child));
            }
            b = child;
        }
    }
    let out = |a: &Accumulator, b: &Board| {
        let me = b.side.index();
        net.output(a, me, i32::from(b.kazan[me]) - i32::from(b.kazan[1 - me]))
    };
    let mut g = c.benchmark_group("toguz/eval");
    g.throughput(Throughput::Elements(pairs.len() as u64));
    g.bench_function("nnue-refresh", |bn| {
        bn.iter(|| {
            pairs
                .iter()
                .map(|(_, _, ch)| out(&Accumulator::refresh(net, black_box(ch)), ch))
                .sum::<i32>()
        })
    });
    g.bench_function("nnue-update-from-parent", |bn| {
        bn.iter(|| {
            pairs
                .iter()
                .map(|(p, a, ch)| {
                    let mut a = *a;
                    a.update(net, p, black_box(ch));
                    out(&a, ch)
                })
                .sum::<i32>()
        })
    });
    g.bench_function("nnue-output-only", |bn| {
        bn.iter(|| {
            pairs
                .iter()
                .map(|(p, a, _)| out(black_box(a), p))
                .sum::<i32>()
        })
    });
    let lin = toguz::linear::builtin();
    g.bench_function("linear", |bn| {
        bn.iter(|| {
            pairs
                .iter()
                .map(|(_, _, ch)| lin.evaluate(black_box(ch)))
                .sum::<i32>()
        })
    });
    g.finish();
}

criterion_group!(benches, perft_bench, search_bench, nnue_bench);
criterion_main!(benches);
