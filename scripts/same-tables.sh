#!/usr/bin/env bash
# Byte-identity of the table files two `solver` builds write (issue 44: a
# refactoring of the generation drivers must not change one byte). Each
# build generates, into its own directory: Nine's moving-phase tables up
# to 9 stones (both sides together) and the 5-stone game's placement
# sectors, Six's whole game, Morabaraba's 5-stone game with its placement
# sectors, Lasker's 5-stone game and Toguz's share tables up to 7 stones;
# then every file is compared with `cmp`. Prints one line per game (files,
# bytes, differing files) and exits non-zero on any difference or on a
# file only one build wrote. About 2 minutes of CPU per build.
#
# Usage: scripts/same-tables.sh BASE_BINARY NEW_BINARY [WORKDIR (/tmp/same-tables)] [THREADS (2)]
set -euo pipefail
base=${1:?base binary}; new=${2:?new binary}; work=${3:-/tmp/same-tables}; threads=${4:-2}
games=(nine six morabaraba lasker toguz)
generate() {
    local bin=$1 dir=$2
    rm -rf "$dir"; mkdir -p "$dir"
    "$bin" nine generate --max-stones 9 --threads "$threads" --dir "$dir/nine" --quiet
    "$bin" nine generate --stones 5 --placement --threads "$threads" --dir "$dir/nine" --quiet
    "$bin" six generate --threads "$threads" --dir "$dir/six" --quiet
    "$bin" morabaraba generate --placement --stones 5 --threads "$threads" --dir "$dir/morabaraba" --quiet
    "$bin" lasker generate --stones 5 --threads "$threads" --dir "$dir/lasker" --quiet
    "$bin" toguz generate --max-stones 7 --dir "$dir/toguz" >/dev/null
}
generate "$base" "$work/base"
generate "$new" "$work/new"
status=0
for g in "${games[@]}"; do
    a="$work/base/$g"; b="$work/new/$g"
    only=$(diff <(cd "$a" && find . -type f | sort) <(cd "$b" && find . -type f | sort) || true)
    files=0; bytes=0; differ=0
    while read -r f; do
        files=$((files + 1)); bytes=$((bytes + $(stat -c %s "$a/$f")))
        cmp -s "$a/$f" "$b/$f" || { differ=$((differ + 1)); echo "  differs: $g/$f"; }
    done < <(cd "$a" && find . -type f | sort)
    echo "$g: $files files, $bytes bytes, $differ differ"
    if [ -n "$only" ]; then echo "  files of only one build:"; echo "$only" | sed 's/^/    /'; status=1; fi
    [ "$differ" -eq 0 ] || status=1
done
exit $status
