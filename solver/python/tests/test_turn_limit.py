"""Values under OpenSpiel's 200-turn limit (``Tablebases.probe_within``,
``action_values``, ``PerfectBot``): the position of issue 30, late states of
random OpenSpiel games against a plain minimax over OpenSpiel's own game
(its rules, its turn counter and its returns: no code of ours), and the bot
against itself from late states."""

import random

import pyspiel
import pytest

import mill_solver as ms
from mill_solver.openspiel import MAX_TURNS, PerfectBot, Snapshot, action_values

from conftest import cli_json

GAME = pyspiel.load_game("nine_mens_morris")
ISSUE = ".W....WB.......W.B..B..B w 0 0"


def test_the_issues_position(tables, tables_dir, solver_bin):
    # Turn 182: 18 turns left. All four mill closings are "win in 1" by the
    # tables; only the removal on e3 wins before the limit.
    a = tables.probe_within(ISSUE, 18)
    assert (a["value"], a["table_value"], a["dtc"], a["plies"]) == ("win", "win", 1, 18)
    wins = [m["move"] for m in a["moves"] if m["value"] == "win"]
    assert wins == ["d7-c4xe3"]
    g1 = next(m for m in a["moves"] if m["move"] == "d7-c4xg1")
    assert (g1["value"], g1["table_value"], g1["dtc"]) == ("draw", "win", 1)
    # The best move alone, as the bot plays it.
    best = tables.best_within(ISSUE, 18)
    assert (best["move"], best["value"], best["table_value"], best["dtc"]) == ("d7-c4xe3", "win", "win", 1)
    assert tables.best_within(ISSUE, 0) is None
    # With more turns every mill closing wins, as the tables say.
    more = tables.probe_within(ISSUE, 60)
    assert {m["move"] for m in more["moves"] if m["value"] == "win"} >= {"d7-c4xe3", "d7-c4xg1"}
    # The command line gives the same object.
    doc = cli_json(solver_bin, "nine", "probe", "--dir", tables_dir, ISSUE, "--turns-left", 18, "--json")
    doc.pop("seconds")
    assert doc == a


def test_probe_within_errors(tables):
    with pytest.raises(ms.BudgetError, match="budget"):
        tables.probe_within(ISSUE, 18, budget=5)
    with pytest.raises(ms.PositionError):
        tables.probe_within("........................ w 9 9", 18)
    with pytest.raises(ValueError, match="turns_left"):
        tables.probe_within(ISSUE, -1)
    with pytest.raises(TypeError, match="turns_left"):
        tables.probe_within(ISSUE, 1.5)
    with pytest.raises(ValueError, match="budget"):
        tables.probe_within(ISSUE, 18, budget=0)
    assert issubclass(ms.BudgetError, ms.SolverError)
    # A finished game is lost, also with no turn left; no turn left: a draw.
    assert tables.probe_within(ISSUE, 0)["value"] == "draw"
    assert tables.probe_within(ISSUE, 0)["moves"] == []


def late_state(rng, turn, max_stones=8):
    """A moving-phase state with at most `max_stones` stones at `turn`:
    random play taking mills nine times in ten until few stones remain, then
    random moves that avoid closing mills (mostly) until `turn`; None when
    the game ends first."""
    state = GAME.new_initial_state()
    while not state.is_terminal():
        snap = Snapshot.from_state(state)
        p = snap.position
        few = snap.pending is None and not p.placing and sum(p.stones) <= max_stones
        if few and snap.turn >= turn:
            return state if snap.turn == turn else None
        actions = state.legal_actions()
        rng.shuffle(actions)
        chosen = actions[0]
        for a in actions[:8]:
            child = state.clone()
            child.apply_action(a)
            mill = "Capture time!" in str(child)
            if mill != few or snap.pending is not None:
                chosen = a
                break
        state.apply_action(chosen)
    return None


class OpenSpielMinimax:
    """The value of an OpenSpiel state for its current player by plain
    minimax over OpenSpiel's game (its own terminal test, turn limit and
    returns), memoised by ``str(state)`` (which holds the turn number)."""

    def __init__(self):
        self.memo = {}

    def value(self, state):
        if state.is_terminal():
            return None  # callers read the returns
        key = str(state)
        if key in self.memo:
            return self.memo[key]
        player = state.current_player()
        best = -1.0
        for a in state.legal_actions():
            best = max(best, self.after(state, a, player))
            if best == 1.0:
                break
        self.memo[key] = best
        return best

    def after(self, state, action, player):
        """The value for `player` of `action` in `state`."""
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal():
            return child.returns()[player]
        v = self.value(child)
        return v if child.current_player() == player else -v


def test_late_states_agree_with_minimax_over_openspiel(tables):
    rng = random.Random(30)
    oracle = OpenSpielMinimax()
    checked = changed = 0
    while checked < 100:
        turn = MAX_TURNS - 1 - rng.randrange(4)  # 1..4 turns left
        state = late_state(rng, turn)
        if state is None:
            continue
        values = action_values(tables, state)
        assert sorted(values) == sorted(state.legal_actions())
        player = state.current_player()
        for a, v in values.items():
            assert v.exact
            assert v.openspiel_value == oracle.after(state, a, player), (str(state), a, v)
            changed += v.limit_value != v.value
        checked += 1
        if len(oracle.memo) > 200_000:
            oracle = OpenSpielMinimax()
    # The sample holds actions whose value the limit changes.
    assert changed > 20, changed


def test_bot_wins_under_the_limit_exactly_when_the_value_says_win(tables):
    rng = random.Random(182)
    games = {"win": 0, "draw": 0, "loss": 0}
    changed = 0
    while sum(games.values()) < 60:
        # Turns 150..199, half of them 194..199; decisive states by the
        # tables (a draw is one in two).
        left = 1 + rng.randrange(50) if rng.random() < 0.5 else 1 + rng.randrange(6)
        state = late_state(rng, MAX_TURNS - left)
        if state is None:
            continue
        table = tables.probe(Snapshot.from_state(state).position).value
        if table == "draw" and rng.random() > 0.5:
            continue
        player = state.current_player()
        values = action_values(tables, state)
        value = max(v.openspiel_value for v in values.values())
        # States with actions whose value the limit changes.
        changed += any(v.limit_value != v.value for v in values.values())
        # Perfect play on both sides under the limit ends in the value.
        bots = [PerfectBot(tables, 0), PerfectBot(tables, 1)]
        s = state.clone()
        while not s.is_terminal():
            s.apply_action(bots[s.current_player()].step(s))
        assert s.returns()[player] == value, (str(state), value, s.returns())
        # Against a random opponent the bot does no worse.
        s = state.clone()
        bot = PerfectBot(tables, player)
        while not s.is_terminal():
            s.apply_action(bot.step(s) if s.current_player() == player else rng.choice(s.legal_actions()))
        assert s.returns()[player] >= value, (str(state), value, s.returns())
        games[{1.0: "win", 0.0: "draw", -1.0: "loss"}[value]] += 1
    print(f"bot against bot from 60 late states: {games}, {changed} with actions the limit changes")
    assert games["win"] >= 5 and games["draw"] >= 5
    assert changed > 0


def test_an_exhausted_budget_is_flagged_not_guessed(tables):
    rng = random.Random(4)
    while True:
        state = late_state(rng, MAX_TURNS - 1 - rng.randrange(20))
        if state is None:
            continue
        snap = Snapshot.from_state(state)
        try:
            tables.probe_within(snap.position, snap.turns_left, budget=1)
        except ms.BudgetError:
            break
    exact = action_values(tables, state)
    flagged = action_values(tables, state, budget=1)
    assert sorted(exact) == sorted(flagged)
    assert any(not v.exact for v in flagged.values())
    for a, v in flagged.items():
        assert exact[a].exact
        if v.value == "draw" or v.dtc > snap.turns_left:
            # A draw, or a distance to conversion past the turns left: a
            # draw under the limit whatever the search, so exact.
            assert v.exact and v.limit_value == "draw" == exact[a].limit_value
        else:
            assert not v.exact and v.limit_value == v.value
    bot = PerfectBot(tables, budget=1)
    assert bot.step(state) in state.legal_actions()
