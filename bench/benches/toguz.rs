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

criterion_group!(benches, perft_bench, search_bench);
criterion_main!(benches);
