#!/usr/bin/env bash
# Reproduce Gasser's 1993 result: Nine Men's Morris is a draw, and store
# the value of every position of the game.
#
# 1. Generates all 49 moving-phase subspaces, then (in a second process)
#    every placement sector (455 sectors: every position with stones in
#    hand) into DIR (default ./tablebases). Resumable: run it again after an interruption and it
#    continues with the first table that is not complete on disk.
#    PLACEMENT=0 builds the moving phase only (the search then answers the
#    placement phase).
# 2. Verifies stored values against their successors: 200,000 random slots
#    of every table (minutes); VERIFY=full checks every slot (hours),
#    VERIFY=0 skips the check.
# 3. Prints the start position's value from the tables, then proves it by
#    the placement search over the moving-phase tables (both must agree);
#    with the placement tables, also the empty boards of the 3..8-stone
#    games (the tables hold them too), each read and proved by search.
#
# Usage: scripts/reproduce-1993.sh [DIR] [extra generate options, e.g. --threads 2]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-tablebases}
shift || true
cargo build --release -p solver
solver=target/release/solver
# The moving phase, then the placement phase in a process of its own: run
# in the same process after the moving phase, the largest equal-stone
# sectors (7-7-1-0, 8-8-1-0) took twice their time (docs/results.md, "The
# placement phase in its own process").
"$solver" nine generate --dir "$dir" "$@"
if [ "${PLACEMENT:-1}" != 0 ]; then
    "$solver" nine generate --dir "$dir" --placement "$@"
fi
"$solver" nine stats --dir "$dir"
case "${VERIFY:-sample}" in
    0) ;;
    full) "$solver" nine verify --dir "$dir" ;;
    *) "$solver" nine verify --dir "$dir" --sample 200000 ;;
esac
if [ "${PLACEMENT:-1}" != 0 ]; then
    "$solver" nine start --dir "$dir"
    for k in 3 4 5 6 7 8; do
        "$solver" nine start --dir "$dir" --quiet --search \
            --position "........................ w $k $k"
    done
fi
"$solver" nine start --dir "$dir" --search
