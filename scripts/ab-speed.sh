#!/usr/bin/env bash
# Interleaved speed A/B of two `solver` binaries on the mill engine's
# workloads (issues 24 and 44): Nine's subspaces up to 9 stones from empty,
# Six's whole game, the 5-stone Nine game's placement sectors, Lasker's
# 5-stone game, Morabaraba's 5-stone game with its placement sectors, and
# Toguz search speed (nodes per second to depth 14 from the start). With FULL=DIR (a
# directory holding Nine's moving-phase tables up to 12 stones, e.g. from
# `solver nine generate --max-stones 12`) also the 6-6 moving pair, solved
# alone over links to the other finished tables. One thread each; prints
# user+system CPU seconds and wall seconds per run.
#
# Usage: [FULL=DIR] scripts/ab-speed.sh BASE_BINARY NEW_BINARY [ROUNDS (3)] [WORKDIR (/tmp/ab-speed)]
# Example: build each commit with `cargo build --release -p solver`, copy
# target/release/solver aside, then compare the two copies. Run it on an
# idle machine: the rounds interleave the binaries so that drift in load
# hits both alike, but only an idle machine gives figures within ±3 %.
set -euo pipefail
base=${1:?base binary}; new=${2:?new binary}; rounds=${3:-3}; work=${4:-/tmp/ab-speed}
mkdir -p "$work"
measure() {
    /usr/bin/time -f "%U %S %e" "$@" 2>&1 >/dev/null | tail -1 |
        awk '{printf "cpu %.1f wall %.1f", $1 + $2, $3}'
}
# A directory of links to every finished table of FULL but the one solved.
links() {
    local dir=$1 skip=$2
    rm -rf "$dir"; mkdir -p "$dir"
    for f in "$FULL"/*.tb; do
        case "$(basename "$f")" in "$skip") ;; *) ln -s "$f" "$dir/" ;; esac
    done
}
for round in $(seq "$rounds"); do
    for tag in base new; do
        bin=$base; [ "$tag" = new ] && bin=$new
        rm -rf "$work/nine-$tag" "$work/six-$tag" "$work/lasker-$tag" "$work/mora-$tag"
        a=$(measure "$bin" nine generate --max-stones 9 --threads 1 --dir "$work/nine-$tag" --quiet)
        b=$(measure "$bin" six generate --threads 1 --dir "$work/six-$tag" --quiet)
        c=$(measure "$bin" nine generate --stones 5 --placement --threads 1 --dir "$work/nine-$tag" --quiet)
        l=$(measure "$bin" lasker generate --stones 5 --threads 1 --dir "$work/lasker-$tag" --quiet)
        m=$(measure "$bin" morabaraba generate --placement --stones 5 --threads 1 --dir "$work/mora-$tag" --quiet)
        t=$("$bin" toguz search --depth 14 --no-tables --json 2>/dev/null |
            python3 -c 'import json,sys; d=json.load(sys.stdin); print("nodes %d nps %.0f" % (d["nodes"], d["nps"]))')
        line="round $round $tag | nine9 $a | six $b | placement5 $c | lasker5 $l | morabaraba5 $m | toguz $t"
        if [ -n "${FULL:-}" ]; then
            links "$work/pair-$tag" nine-flying-6-6.tb
            p=$(measure "$bin" nine generate --max-stones 12 --threads 1 --dir "$work/pair-$tag" --quiet)
            line="$line | pair6-6 $p"
        fi
        echo "$line"
    done
done
