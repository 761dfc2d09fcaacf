"""Three Men's Morris and Toguz Kumalak from Python against the CLI."""

import pytest

import mill_solver as ms
from conftest import cli_error, cli_json


@pytest.mark.parametrize("position,moves", [(None, ""), ("......... w 3 3", "b2 a1"), ("WW..B.B.. w 1 1", "")])
def test_three_probe_equals_the_cli(solver_bin, position, moves):
    args = ["three", "probe", "--json"]
    if position:
        args.append(position)
    if moves:
        args += ["--moves", moves]
    assert ms.three_probe(position, moves) == cli_json(solver_bin, *args)


def test_three_as_a_game_is_three_probe(tmp_path):
    """`Game("three")` (no tables: solved in memory) answers as every board
    does, and its probe is `three_probe`'s."""
    game = ms.Game("three", tmp_path)
    assert game.name == "three"
    assert game.probe() == ms.three_probe()
    after = game.play(None, "b2")
    assert game.probe(after) == ms.three_probe(None, "b2")
    # Published: the first player wins, only by the centre.
    assert game.best_move()["move"] == "b2"
    shown = game.show(after)
    assert sorted(shown["moves"]) == sorted(m["move"] for m in game.probe(after)["moves"])
    with pytest.raises(ms.MoveError):
        game.play(None, "a1-b2")


def test_three_errors(solver_bin):
    message = cli_error(solver_bin, "three", "probe", "WWWW..... w 0 0")
    with pytest.raises(ms.PositionError) as e:
        ms.three_probe("WWWW..... w 0 0")
    assert str(e.value) == message
    with pytest.raises(ms.MoveError):
        ms.three_probe(None, "b2 b2")


def test_toguz_search_equals_the_cli(solver_bin):
    want = cli_json(solver_bin, "toguz", "search", "--depth", "6", "--threads", "1", "--json")
    got = ms.toguz_search(depth=6, threads=1)
    for key in ("seconds", "nps"):
        want.pop(key), got.pop(key)
    for it in want["iterations"] + got["iterations"]:
        it.pop("millis")
    assert got == want
    assert 1 <= got["best"] <= 9


def test_toguz_errors():
    with pytest.raises(ms.PositionError):
        ms.toguz_search("not a position", depth=3)
    with pytest.raises(ValueError):
        ms.toguz_search()
    with pytest.raises(ValueError):
        ms.toguz_search(time=-1.0)
    result = ms.toguz_search(time=0.2, threads=1)
    assert result["best"] is not None and result["depth"] >= 1
