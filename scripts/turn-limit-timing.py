#!/usr/bin/env python3
"""Cost of the exact values under OpenSpiel's turn limit
(``Tablebases.probe_within``, ``mill::horizon``) at every turn from 150 to
199 (docs/python.md, "Values and the 200-turn limit").

States: moving-phase positions of random OpenSpiel ``nine_mens_morris``
games (mills taken nine times in ten, so games reach few stones) whose
subspaces the tables hold; each is searched with the turns left of each
turn of ``--turns`` (default every turn from 150 to 199), for every move's
value (``probe_within``, what ``action_values`` needs) and for the best
move alone (``best_within``, what ``PerfectBot`` plays). Prints, per turn,
the median, 90th percentile and largest time per state (tables loaded
beforehand), the positions expanded, how many states' values the limit
changes, and budget errors.

    scripts/turn-limit-timing.py --tables DIR [--states 60] [--max-stones 11] [--seed 1] [--turns 150,160,199]
"""

import argparse
import random
import statistics
import time

import pyspiel

import mill_solver as ms
from mill_solver.openspiel import MAX_TURNS, Snapshot


def sample(rng: random.Random, game, max_stones: int):
    state = game.new_initial_state()
    while not state.is_terminal():
        snap = Snapshot.from_state(state)
        p = snap.position
        if snap.pending is None and not p.placing and sum(p.stones) <= max_stones and rng.random() < 0.3:
            return p
        actions = state.legal_actions()
        mills = []
        if snap.pending is None:
            mills = [a for a in actions if any(m.removal is not None for m in snap.moves_for_action(a))]
        state.apply_action(rng.choice(mills) if mills and rng.random() < 0.9 else rng.choice(actions))
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", required=True)
    ap.add_argument("--states", type=int, default=60)
    ap.add_argument("--max-stones", type=int, default=11)
    ap.add_argument("--turns", default=",".join(map(str, range(150, MAX_TURNS))))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=int, default=None)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    game = pyspiel.load_game("nine_mens_morris")
    tb = ms.Tablebases(args.tables)
    states = []
    while len(states) < args.states:
        p = sample(rng, game, args.max_stones)
        if p is None or p.game_over():
            continue
        if tb.probe(p).value == "draw":
            continue  # a draw is a draw under any limit: no search
        states.append(p)
    for p in states:  # load the tables first
        tb.probe_within(p, 1)
    print(f"{len(states)} decisive states (tables' value), <= {args.max_stones} stones, seed {args.seed}")
    print(
        "| turn | turns left | all moves: median ms | p90 ms | max ms | max nodes | budget errors "
        "| best move: median ms | p90 ms | max ms | max nodes | budget errors | values changed by the limit |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for turn in map(int, args.turns.split(",")):
        left = MAX_TURNS - turn
        row = [str(turn), str(left)]
        changed = 0
        for probe in (tb.probe_within, tb.best_within):
            times, nodes, errors = [], [], 0
            for p in states:
                started = time.perf_counter()
                try:
                    a = probe(p, left, budget=args.budget)
                except ms.BudgetError:
                    errors += 1
                    continue
                times.append(1000 * (time.perf_counter() - started))
                nodes.append(a["nodes"])
                if probe == tb.best_within:
                    changed += a["value"] != tb.probe(p).value
            times.sort()
            if times:
                row += [
                    f"{statistics.median(times):.2f}",
                    f"{times[int(0.9 * (len(times) - 1))]:.2f}",
                    f"{times[-1]:.1f}",
                    str(max(nodes)),
                ]
            else:
                row += ["", "", "", ""]
            row.append(str(errors))
        row.append(str(changed))
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
