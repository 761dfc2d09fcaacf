#!/usr/bin/env bash
# The Snakemake workflow (scripts/workflow/Snakefile) on small games, locally
# or through a profile, against a plain `generate`: the same files, byte for
# byte. Usage:
#   scripts/workflow-test.sh [WORKDIR]            # local: --cores 2
#   PROFILE=scripts/workflow/profiles/slurm scripts/workflow-test.sh [WORKDIR]
# Needs `snakemake` on PATH (or SNAKEMAKE=path) and the release binary
# (SOLVER=path, default target/release/solver). GAMES picks the games:
# default "nine toguz morabaraba" (the graphs with many jobs, small: about
# 100 s on the loaded 2-core machine); also six (one job: the whole game),
# lasker (the 3-stone game, 10 pairs), nine7 (Nine's subspaces up to 7 stones),
# nine5 (the whole 5-stone game with its placement sectors, 70 jobs) and
# lasker4 (the 4-stone Lasker game, 45 pairs).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-$(mktemp -d)}
SOLVER=${SOLVER:-$REPO/target/release/solver}
SNAKEMAKE=${SNAKEMAKE:-snakemake}
GAMES=${GAMES:-nine toguz morabaraba}
mkdir -p "$WORK"
cd "$WORK"
if [ -n "${PROFILE:-}" ]; then
    RUN=(--profile "$REPO/$PROFILE")
else
    RUN=(--cores 2)
fi

# game, size options of `generate`, the same as --config
check() {
    local game=$1 gen=$2 conf=$3
    local name="$game${gen// /}"
    local plain="$WORK/$name-plain" flow="$WORK/$name-flow"
    rm -rf "$plain" "$flow"
    local t0=$SECONDS
    # shellcheck disable=SC2086
    "$SOLVER" $game generate --dir "$plain" --quiet --threads 2 $gen > /dev/null
    local t1=$SECONDS
    # shellcheck disable=SC2086
    "$SNAKEMAKE" -s "$REPO/scripts/workflow/Snakefile" "${RUN[@]}" --quiet rules \
        --config game=$game dir="$flow" solver="$SOLVER" logs="$WORK/logs-$name" $conf \
        > "$WORK/snakemake-$name.log" 2>&1 || { tail -30 "$WORK/snakemake-$name.log"; exit 1; }
    local t2=$SECONDS
    local a b
    a=$(cd "$plain" && ls | sort)
    b=$(cd "$flow" && ls | sort)
    if [ "$a" != "$b" ]; then
        echo "FAIL $game $gen: the workflow wrote other files than generate"; exit 1
    fi
    for f in $a; do
        cmp "$plain/$f" "$flow/$f" || { echo "FAIL $game $gen: $f differs"; exit 1; }
    done
    echo "ok   $game $gen: $(echo "$a" | wc -w) files identical (generate $((t1 - t0)) s, workflow $((t2 - t1)) s)"
}

for game in $GAMES; do
    case $game in
        nine) check nine "--stones 4 --placement" "stones=4 placement=1" ;;
        six) check six "" "" ;;
        toguz) check toguz "--max-stones 6" "stones=6" ;;
        morabaraba) check morabaraba "--stones 4" "stones=4" ;;
        lasker) check lasker "--stones 3" "stones=3" ;;
        nine7) check nine "--max-stones 7" "opts=--max-stones=7" ;;
        nine5) check nine "--stones 5 --placement" "stones=5 placement=1" ;;
        lasker4) check lasker "--stones 4" "stones=4" ;;
        *) echo "unknown game $game"; exit 2 ;;
    esac
done
echo "workflow test passed in $SECONDS s ($WORK)"
