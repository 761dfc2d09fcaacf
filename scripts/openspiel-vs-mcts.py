#!/usr/bin/env python3
"""The long check of the OpenSpiel bot (docs/python.md): mill_solver's
PerfectBot against OpenSpiel's MCTS bot in nine_mens_morris from the empty
board, both colours, with the full tables (all 49 subspaces; for a policy
the 455 placement sectors too). The bot must never lose; the exit status
is 1 if it did.

    pip install ./solver/python open_spiel
    scripts/openspiel-vs-mcts.py --tables DIR [--games 100] [--simulations 1000]

Each game prints one line (result for the bot, turns, seconds); the summary
gives wins, draws and losses with a 95% interval of the bot's score (the
interval `solver <game> duel` prints). With every table of the game
(`solver nine generate --placement`) and `--budget 100000` a game takes
about 10 s on one core (docs/results.md: 200 games a policy, `ultra` 0.998
against `fast` 0.855); with the moving phase only, the placement phase
goes through the placement search: tens of seconds for the bot's first
moves, minutes a game.
"""

import argparse
import math
import sys
import time

import pyspiel

import mill_solver as ms
from mill_solver.openspiel import PerfectBot


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", required=True, help="directory with all 49 subspaces")
    parser.add_argument("--games", type=int, default=100, help="games, half with each colour (default 100)")
    parser.add_argument("--simulations", type=int, default=1000, help="MCTS simulations a move (default 1000)")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts per MCTS leaf (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the MCTS bot")
    parser.add_argument("--threads", type=int, default=None, help="placement search threads (default all cores)")
    parser.add_argument(
        "--policy",
        default=None,
        help="the bot's choice among its best moves: fast, random, ultra (docs/policies.md; "
        "needs the placement tables, `solver nine generate --placement`)",
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=None,
        help="positions the bot's exact search under the turn limit may visit a move; past it the bot "
        "ranks by the tables' distance to conversion (default: no bound; a move can then take minutes)",
    )
    parser.add_argument(
        "--memory",
        default="outcomes",
        choices=["mapped", "outcomes", "values"],
        help="how the tables are held (mill_solver.Tablebases; default outcomes)",
    )
    args = parser.parse_args()

    game = pyspiel.load_game("nine_mens_morris")
    tables = ms.Tablebases(args.tables, memory=args.memory, threads=args.threads)
    score = {1.0: 0, 0.0: 0, -1.0: 0}
    started = time.time()
    for n in range(args.games):
        bot_player = n % 2
        evaluator = pyspiel.RandomRolloutEvaluator(args.rollouts, args.seed + n)
        mcts = pyspiel.MCTSBot(game, evaluator, 2.0, args.simulations, 1000, True, args.seed + n, False)
        bots = {bot_player: PerfectBot(tables, bot_player, policy=args.policy, seed=args.seed + n, budget=args.budget), 1 - bot_player: mcts}
        state = game.new_initial_state()
        t = time.time()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        result = state.returns()[bot_player]
        score[result] += 1
        colour = "White" if bot_player == 0 else "Black"
        name = {1.0: "win", 0.0: "draw", -1.0: "LOSS"}[result]
        print(
            f"game {n + 1:3}: bot {colour}: {name} after {len(state.history())} actions, {time.time() - t:.0f} s",
            flush=True,
        )
    games = sum(score.values())
    mean = (score[1.0] + 0.5 * score[0.0]) / games
    low, high = score_interval(score[1.0], score[0.0], score[-1.0])
    print(
        f"{games} games in {time.time() - started:.0f} s: {score[1.0]} wins, {score[0.0]} draws, "
        f"{score[-1.0]} losses for the bot; score {mean:.3f} ({low:.3f}-{high:.3f}, 95%)"
    )
    return 1 if score[-1.0] else 0


def score_interval(wins: int, draws: int, losses: int, z: float = 1.96) -> tuple:
    """The 95% interval of a score of 1, 1/2 or 0 points a game, as `solver
    <game> duel` prints it (mill::duel::score_interval): Agresti and Coull's
    interval extended to draws, z^2/2 won and z^2/2 lost games added; it
    does not shrink to a point when every game is won."""
    n = wins + draws + losses + z * z
    p = (wins + 0.5 * draws + z * z / 2) / n
    d = draws / n
    half = z * math.sqrt(max(p * (1 - p) - d / 4, 0.0) / n)
    return max(p - half, 0.0), min(p + half, 1.0)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ms.SolverError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
