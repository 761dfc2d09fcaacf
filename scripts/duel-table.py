#!/usr/bin/env python3
"""Run `solver <game> duel` for every policy and opponent and print a
Markdown table of the scores with their 95 % intervals (docs/results.md).

    scripts/duel-table.py six --dir six-tables --games 10000
    scripts/duel-table.py nine --dir /path/to/full --games 2000 --policies random,fast,ultra,secval --malom ../shared/data/malom

Each cell is one `duel --json` run; the JSON documents are appended to
--log (one per line) so that an interrupted run can be resumed: cells
already in the log are not played again.
"""
import argparse
import json
import os
import subprocess
import sys

OPPONENTS = "epsilon=0.05,epsilon=0.1,epsilon=0.2,softmax=0.25,softmax=0.5"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("game", choices=["three", "six", "nine", "lasker", "morabaraba"])
    ap.add_argument("--dir")
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policies", default="random,fast,ultra")
    ap.add_argument("--opponents", default=OPPONENTS)
    ap.add_argument("--solver", default="target/release/solver")
    ap.add_argument("--log", default=None, help="JSON lines of finished cells")
    # Anything else (e.g. `--stones 5 --malom DIR`) goes to the duel verb.
    a, extra = ap.parse_known_args()
    a.extra = [x for x in extra if x != "--"]
    log = a.log or f"duel-{a.game}.jsonl"
    done = {}
    if os.path.exists(log):
        for line in open(log):
            r = json.loads(line)
            done[(r["policy"], r["opponent"], r["games"], r["seed"])] = r
    policies = a.policies.split(",")
    opponents = a.opponents.split(",")
    for p in policies:
        for o in opponents:
            key = (p, o, a.games, a.seed)
            if key in done:
                continue
            cmd = [a.solver, a.game, "duel", "--policy", p, "--opponent", o,
                   "--games", str(a.games), "--seed", str(a.seed), "--json"] + a.extra
            if a.dir:
                cmd += ["--dir", a.dir]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            r = json.loads(out)
            r["policy"] = p  # the text asked for (the report prints the default model in full)
            with open(log, "a") as f:
                f.write(json.dumps(r) + "\n")
            done[key] = r
            print(f"{a.game} {p} {o}: {r['score']:.4f} ({r['seconds']:.0f} s)", file=sys.stderr)
    print("| policy | " + " | ".join(opponents) + " |")
    print("|---|" + "---|" * len(opponents))
    for p in policies:
        cells = []
        for o in opponents:
            r = done[(p, o, a.games, a.seed)]
            lo, hi = r["interval"]
            cells.append(f"{r['score']:.3f} ({lo:.3f}–{hi:.3f})")
        print(f"| {p} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
