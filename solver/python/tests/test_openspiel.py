"""OpenSpiel's nine_mens_morris: the action mapping on every action of
random games, and the perfect bot against OpenSpiel's MCTS bot."""

import copy
import pickle
import random

import pyspiel
import pytest

import mill_solver as ms
from mill_solver.openspiel import (
    MAX_TURNS,
    PerfectBot,
    Snapshot,
    action_values,
    decode_action,
    move_action,
    move_to_actions,
)

GAME = pyspiel.load_game("nine_mens_morris")


def test_action_numbering():
    assert move_action(0, 1) == 25 and decode_action(25) == (0, 1)
    assert decode_action(7) == (None, 7) and decode_action(599) == (23, 23)
    with pytest.raises(ValueError):
        decode_action(600)
    # OpenSpiel's own names of the actions agree.
    assert GAME.action_to_string(0, 24 + 24 * 3 + 4) == "Move 3 -> 4"
    assert GAME.action_to_string(0, 5) == "Point 5"
    # Our point numbering is reading order, as OpenSpiel's.
    p = ms.Position.start()
    assert [str(m) for m in p.legal_moves()][:4] == ["a7", "d7", "g7", "b6"]
    assert [m.to_point for m in p.legal_moves()] == list(range(24))


def check_state(state):
    """Convert `state` to our view and back; compare the legal actions, and
    every action's moves back to the action."""
    snap = Snapshot.from_state(state)
    assert snap.to_string() == str(state)
    assert snap.player == state.current_player()
    ours = snap.legal_actions()
    assert ours == sorted(state.legal_actions()), (str(state), state.history())
    for action in ours:
        moves = snap.moves_for_action(action)
        assert moves
        for m in moves:
            actions = move_to_actions(m)
            assert snap.action_of(m) == action
            if snap.pending is None:
                assert actions[0] == action
                # A move with a removal leads OpenSpiel to a capture state,
                # and one without to the other player's turn.
                child = state.clone()
                child.apply_action(action)
                assert ("Capture time!" in str(child)) == (m.removal is not None)
                if m.removal is not None:
                    child.apply_action(m.removal)
            else:
                assert (m.from_point, m.to_point) == snap.pending and actions[1] == action
                child = state.clone()
                child.apply_action(action)
            # The move's result is OpenSpiel's state after its actions.
            after = snap.position.play(m)
            if not child.is_terminal() or after.game_over() is None:
                assert Snapshot.from_state(child).position == after
    return snap


def test_every_action_of_200_random_games():
    rng = random.Random(2014)
    states = captures = moving = 0
    for _ in range(200):
        state = GAME.new_initial_state()
        reached_moving = False
        while not state.is_terminal():
            snap = check_state(state)
            states += 1
            captures += snap.pending is not None
            if snap.pending is None and not snap.position.placing:
                reached_moving = True
                moving += 1
            state.apply_action(rng.choice(state.legal_actions()))
        if reached_moving:
            # A terminal state converts too, and our position is over or the
            # turn limit was reached.
            snap = Snapshot.from_state(state)
            assert snap.to_string() == str(state)
            assert snap.turn >= MAX_TURNS or snap.position.game_over() is not None
    assert states > 10_000 and captures > 500 and moving > 5_000


def moving_state(rng, max_stones=8):
    """A state of a random game (biased to close mills) in the moving phase
    with at most `max_stones` stones, or None if the game ended first."""
    state = GAME.new_initial_state()
    while not state.is_terminal():
        snap = Snapshot.from_state(state)
        p = snap.position
        if snap.pending is None and not p.placing and sum(p.stones) <= max_stones:
            return state
        actions = state.legal_actions()
        mills = []
        if snap.pending is None:
            mills = [a for a in actions if any(m.removal is not None for m in snap.moves_for_action(a))]
        state.apply_action(rng.choice(mills) if mills and rng.random() < 0.9 else rng.choice(actions))
    return None


def test_action_values_and_bot_legality(tables):
    rng = random.Random(7)
    bot = PerfectBot(tables)
    checked = 0
    while checked < 400:
        state = moving_state(rng)
        if state is None:
            continue
        # Walk on with random actions, checking every state's values.
        while not state.is_terminal():
            values = action_values(tables, state)
            assert sorted(values) == sorted(state.legal_actions())
            snap = Snapshot.from_state(state)
            analysis = tables.probe(snap.position)
            best = max(v.openspiel_value for v in values.values())
            if snap.pending is None:
                # The best action is worth the position's value.
                assert {"win": 1.0, "draw": 0.0, "loss": -1.0}[analysis.value] >= best
                top = [v for v in values.values() if v.value == analysis.value]
                assert top
            for v in values.values():
                # Exact in the moving phase; a win or loss the limit makes
                # a draw is "beyond" it; a distance to conversion past the
                # turns left is never a win or loss under the limit.
                assert v.exact
                assert v.beyond_limit == (v.value != "draw" and v.limit_value == "draw")
                assert v.limit_value in (v.value, "draw")
                if v.value != "draw" and v.dtc > MAX_TURNS - snap.turn:
                    assert v.limit_value == "draw"
            action = bot.step(state)
            assert action in state.legal_actions()
            chosen = values[action]
            assert chosen.openspiel_value == best
            state.apply_action(rng.choice(state.legal_actions()))
            checked += 1


def play(state, bots):
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def test_bot_against_mcts_never_does_worse_than_the_value(tables):
    rng = random.Random(11)
    games = 0
    results = {"win": 0, "draw": 0, "loss": 0}
    while games < 24:
        state = moving_state(rng)
        if state is None:
            continue
        snap = Snapshot.from_state(state)
        bot_player = games % 2  # both colours, whoever is to move
        # The value for the bot's side of the state reached.
        values = action_values(tables, state)
        best = max(v.openspiel_value for v in values.values())
        value_for_mover = best
        expected = value_for_mover if bot_player == snap.player else None
        evaluator = pyspiel.RandomRolloutEvaluator(1, rng.randrange(1 << 30))
        mcts = pyspiel.MCTSBot(GAME, evaluator, 2.0, 300, 100, True, rng.randrange(1 << 30), False)
        bots = {bot_player: PerfectBot(tables, bot_player), 1 - bot_player: mcts}
        returns = play(state, bots)
        if expected is None:
            # The bot moves second: its value is minus the best of MCTS's
            # actions, so at least the value of the worst-case reply.
            mover_values = [v.openspiel_value for v in values.values()]
            expected = -max(mover_values)
        assert returns[bot_player] >= expected, (str(state), returns, expected)
        results[{1.0: "win", 0.0: "draw", -1.0: "loss"}[returns[bot_player]]] += 1
        games += 1
    print(f"bot against MCTS from 24 states with <= 8 stones: {results}")


def test_tables_without_flying_are_refused(tables_dir):
    no_flying = ms.Tablebases(tables_dir, flying=False)
    with pytest.raises(ValueError, match="fly"):
        PerfectBot(no_flying)
    with pytest.raises(ValueError, match="fly"):
        action_values(no_flying, GAME.new_initial_state())


def test_snapshots_and_action_values_pickle(tables):
    rng = random.Random(3)
    seen = 0
    while seen < 20:
        state = moving_state(rng)
        if state is None:
            continue
        for _ in range(rng.randrange(3)):
            if not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        snap = Snapshot.from_state(state)
        values = action_values(tables, state)
        for obj in (snap, values):
            assert pickle.loads(pickle.dumps(obj)) == obj
            assert copy.deepcopy(obj) == obj
        assert pickle.loads(pickle.dumps(snap)).to_string() == str(state)
        seen += 1
