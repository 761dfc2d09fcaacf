//! Toguz Kumalak endgame share tables: probing (blocks cached after the
//! first touch) and generating the tables up to 4 stones.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use toguz::egtb::database::{generate, positions_up_to, Quiet};
use toguz::egtb::Tables;
use toguz::{Board, Side};

/// Positions with 1..=5 stones spread pseudo-randomly, no tuzdyks or one each.
fn positions(count: usize) -> Vec<Board> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let stones = 1 + (x % 5) as u32;
        let tuzdyks = if x >> 60 & 1 == 0 {
            [u8::MAX; 2]
        } else {
            [11, 6]
        };
        let mut holes = [0u8; 18];
        for s in 0..stones {
            let h = ((x >> (8 + 5 * s)) % 18) as usize;
            if tuzdyks.contains(&(h as u8)) {
                continue;
            }
            holes[h] += 1;
        }
        let on = holes.iter().map(|&h| h as u32).sum::<u32>();
        let k = (162 - on) / 2;
        let side = if x >> 61 & 1 == 0 {
            Side::White
        } else {
            Side::Black
        };
        out.push(Board::from_parts(
            holes,
            [k as u8, (162 - on - k) as u8],
            tuzdyks,
            side,
        ));
    }
    out
}

fn egtb_bench(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("toguz-egtb-bench-{}", std::process::id()));
    generate(&dir, 5, &Quiet).expect("generate tables up to 5 stones");
    let tables = Tables::open(&dir).expect("open tables");
    let boards = positions(1000);
    let mut g = c.benchmark_group("toguz/egtb");
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.bench_function("probe-1000", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|p| tables.share(black_box(p)).unwrap().unwrap().mover as u32)
                .sum::<u32>()
        })
    });
    g.sample_size(10);
    g.throughput(Throughput::Elements(positions_up_to(4)));
    g.bench_function("generate-4", |b| {
        b.iter(|| {
            let d = dir.join("gen4");
            let _ = std::fs::remove_dir_all(&d);
            generate(&d, 4, &Quiet).unwrap();
        })
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, egtb_bench);
criterion_main!(benches);
