//! Three Men's Morris: the whole in-memory solve (index, retrograde
//! analysis) on one core, and the totals over reachable positions.

use criterion::{criterion_group, criterion_main, Criterion};
use mill::games::three::solve::Solution;

fn solve(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let mut group = c.benchmark_group("three");
    group.bench_function("solve on one core", |b| {
        b.iter(|| pool.install(|| Solution::solve().expect("solves")))
    });
    let sol = Solution::solve().expect("solves");
    group.bench_function("reachable totals", |b| b.iter(|| sol.reachable()));
    group.finish();
}

criterion_group!(benches, solve);
criterion_main!(benches);
