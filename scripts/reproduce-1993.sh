#!/usr/bin/env bash
# Reproduce Gasser's 1993 result: Nine Men's Morris is a draw.
#
# 1. Generates all 49 moving-phase subspaces into DIR (default ./tablebases).
#    Resumable: run it again after an interruption and it continues with the
#    first pair that is not complete on disk.
# 2. Verifies stored values against their successors: 200,000 random slots
#    of every subspace (minutes); VERIFY=full checks every slot (about 3
#    hours), VERIFY=0 skips the check.
# 3. Runs the placement search from the empty board over the tablebases.
#
# Usage: scripts/reproduce-1993.sh [DIR] [extra generate options, e.g. --threads 2]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-tablebases}
shift || true
cargo build --release -p solver
solver=target/release/solver
"$solver" nine generate --dir "$dir" "$@"
"$solver" nine stats --dir "$dir"
case "${VERIFY:-sample}" in
    0) ;;
    full) "$solver" nine verify --dir "$dir" ;;
    *) "$solver" nine verify --dir "$dir" --sample 200000 ;;
esac
"$solver" nine start --dir "$dir"
