#!/usr/bin/env bash
# Depth and nodes a Toguz Kumalak search reaches in a fixed time, on the ten
# PlayOK positions of docs/toguz.md ("Search speed": the position after 20
# plies of every 123rd game of ../shared/data/toguz/playok-games.pgn).
#   scripts/toguz-depth.sh [SECONDS] [SOLVER...]
# SECONDS defaults to 0.3; each SOLVER (default target/release/solver) is run
# on every position in turn, so builds given together are interleaved and
# share the machine's state. One thread, a fresh 64 MiB table per search, no
# endgame tables. Prints one line per position and build, then the means.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_PER_MOVE=${1:-0.3}
shift || true
SOLVERS=("$@")
[ ${#SOLVERS[@]} -gt 0 ] || SOLVERS=("$REPO/target/release/solver")
RECORD=${RECORD:-$REPO/../shared/data/toguz/playok-games.pgn}
mapfile -t POSITIONS < <("${SOLVERS[0]}" toguz replay "$RECORD" --positions-at 20 --every 123)
[ ${#POSITIONS[@]} -eq 10 ] || { echo "expected 10 positions, got ${#POSITIONS[@]}" >&2; exit 1; }
printf '%-3s %-40s %6s %10s %8s\n' pos build depth nodes Mn/s
declare -A DEPTH NODES SECS
for i in "${!POSITIONS[@]}"; do
    for s in "${SOLVERS[@]}"; do
        json=$("$s" toguz search "${POSITIONS[$i]}" --time "$SECONDS_PER_MOVE" --threads 1 --no-tables --json)
        read -r depth nodes secs < <(python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print(r["depth"], r["nodes"], r["seconds"])' <<< "$json")
        DEPTH[$s]=$(( ${DEPTH[$s]:-0} + depth ))
        NODES[$s]=$(( ${NODES[$s]:-0} + nodes ))
        SECS[$s]=$(python3 -c "print(${SECS[$s]:-0} + $secs)")
        printf '%-3s %-40s %6s %10s %8.2f\n' $((i + 1)) "$s" "$depth" "$nodes" \
            "$(python3 -c "print($nodes / $secs / 1e6)")"
    done
done
for s in "${SOLVERS[@]}"; do
    python3 -c "print(f'mean {\"$s\"}: depth {${DEPTH[$s]} / 10:.1f}, {${NODES[$s]} / 10:,.0f} nodes, {${NODES[$s]} / ${SECS[$s]} / 1e6:.2f} M nodes/s')"
done
