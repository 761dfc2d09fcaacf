#!/usr/bin/env bash
# Interleaved speed A/B of two `solver` binaries on the mill engine's
# workloads (issue 24): Nine's subspaces up to 9 stones from empty, Six's
# whole game, the 5-stone Nine game's placement sectors. One thread each;
# prints user+system CPU seconds and wall seconds per run.
#
# Usage: scripts/ab-speed.sh BASE_BINARY NEW_BINARY [ROUNDS (3)] [WORKDIR (/tmp/ab-speed)]
# Example: build each commit with `cargo build --release -p solver`, copy
# target/release/solver aside, then compare the two copies.
set -euo pipefail
base=${1:?base binary}; new=${2:?new binary}; rounds=${3:-3}; work=${4:-/tmp/ab-speed}
mkdir -p "$work"
measure() {
    /usr/bin/time -f "%U %S %e" "$@" 2>&1 >/dev/null | tail -1 |
        awk '{printf "cpu %.1f wall %.1f", $1 + $2, $3}'
}
for round in $(seq "$rounds"); do
    for tag in base new; do
        bin=$base; [ "$tag" = new ] && bin=$new
        rm -rf "$work/nine-$tag" "$work/six-$tag"
        a=$(measure "$bin" nine generate --max-stones 9 --threads 1 --dir "$work/nine-$tag" --quiet)
        b=$(measure "$bin" six generate --threads 1 --dir "$work/six-$tag" --quiet)
        c=$(measure "$bin" nine generate --stones 5 --placement --threads 1 --dir "$work/nine-$tag" --quiet)
        echo "round $round $tag | nine9 $a | six $b | placement5 $c"
    done
done
