//! Nine Men's Morris move generation: forward moves (with removals) and
//! unmoves over a fixed set of random moving-phase positions, reported per
//! position; perft from the start for the full rules layer.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use mill::rules::board::Nine;
use mill::rules::geometry::Bits;
use mill::rules::moving::{for_each_move, for_each_unmove};
use mill::rules::perft;
use mill::rules::position::Position;
use mill::rules::variant::RuleSet;

/// 4,096 random moving-phase positions, 3..=9 stones a side (fixed seed).
fn positions() -> Vec<(Bits, Bits)> {
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut out = Vec::new();
    while out.len() < 4096 {
        let (w, b) = (3 + next() % 7, 3 + next() % 7);
        let (mut us, mut them): (Bits, Bits) = (0, 0);
        while (us.count_ones() as u64) < w {
            us |= 1 << (next() % 24);
        }
        while (them.count_ones() as u64) < b {
            let p = 1 << (next() % 24);
            if us & p == 0 {
                them |= p;
            }
        }
        out.push((us, them));
    }
    out
}

fn movegen(c: &mut Criterion) {
    let set = positions();
    let mut group = c.benchmark_group("morris");
    group.throughput(Throughput::Elements(set.len() as u64));
    group.bench_function("forward moves per position", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for &(us, them) in &set {
                for_each_move(black_box(us), black_box(them), true, |m| {
                    n += m.to as u64;
                });
            }
            n
        })
    });
    group.bench_function("unmoves per position", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for &(us, them) in &set {
                for_each_unmove(black_box(us), black_box(them), true, |p| {
                    n += p as u64;
                });
            }
            n
        })
    });
    group.finish();
    let mut group = c.benchmark_group("morris perft");
    group.sample_size(10);
    group.bench_function("start depth 5", |b| {
        b.iter(|| {
            perft::<Nine>(
                &Position::start(RuleSet::nine(true)),
                RuleSet::nine(true),
                black_box(5),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
