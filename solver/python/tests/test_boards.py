"""Every mill game through `mill_solver.Game`, against the command line
and against the tables' own definition (a move's value is its successor's,
seen from the other side): Nine Men's Morris without flying, Six Men's
Morris, Lasker Morris, Morabaraba, each from small tables generated here
with the CLI."""

import subprocess

import pytest

import mill_solver as ms
from conftest import cli_json

FLIP = {"win": "loss", "loss": "win", "draw": "draw"}


def generate(solver_bin, tmp_path_factory, name, *args):
    path = tmp_path_factory.mktemp(name)
    subprocess.run([solver_bin, *args, "--dir", path, "--quiet"], check=True)
    return path


@pytest.fixture(scope="session")
def six_dir(solver_bin, tmp_path_factory):
    return generate(solver_bin, tmp_path_factory, "six", "six", "generate", "--stones", "4")


@pytest.fixture(scope="session")
def lasker_dir(solver_bin, tmp_path_factory):
    return generate(solver_bin, tmp_path_factory, "lasker", "lasker", "generate", "--stones", "3")


@pytest.fixture(scope="session")
def morabaraba_dir(solver_bin, tmp_path_factory):
    return generate(
        solver_bin, tmp_path_factory, "morabaraba", "morabaraba", "generate", "--stones", "4"
    )


@pytest.fixture(scope="session")
def noflying_dir(solver_bin, tmp_path_factory):
    return generate(
        solver_bin, tmp_path_factory, "noflying", "nine", "generate", "--no-flying", "--max-stones", "7"
    )


def check_moves(game, analysis):
    """Every legal move once, best first, each the successor's value flipped."""
    shown = game.show(analysis["position"])
    assert sorted(m["move"] for m in analysis["moves"]) == sorted(shown["moves"])
    rank = {"win": 2, "draw": 1, "loss": 0}
    ranks = [rank[m["value"]] for m in analysis["moves"]]
    assert ranks == sorted(ranks, reverse=True)
    if analysis["moves"]:
        assert analysis["moves"][0]["value"] == analysis["value"]
    for m in analysis["moves"]:
        child = game.probe(game.play(analysis["position"], m["move"]))
        assert m["value"] == FLIP[child["value"]], m
        slide = "-" in m["move"] and "x" not in m["move"]
        if slide and m["dtc"] is not None and child["dtc"] is not None:
            assert m["dtc"] == child["dtc"] + 1, m


def test_six_equals_the_cli_and_its_tables(six_dir, solver_bin):
    game = ms.Game("six", six_dir)
    assert (game.name, game.stones, game.flying) == ("six", 4, True)
    assert game.start() == "................ w 4 4"
    assert len(game.reading()) == 16
    for position in ["................ w 4 4", "WW.B....B.W..... b 1 1", "W.W.B....B.W..B. w 0 0"]:
        a = game.probe(position)
        want = cli_json(solver_bin, "six", "probe", "--stones", "4", "--dir", six_dir, "--json", position)
        assert a == want
        check_moves(game, a)
    assert game.show() == cli_json(solver_bin, "six", "show", "--stones", "4", "--json", game.start())
    stats = game.stats()
    assert stats == cli_json(solver_bin, "six", "stats", "--stones", "4", "--dir", six_dir, "--json")
    best = game.best_move("W.W.B....B.W..B. w 0 0")
    assert best == game.probe("W.W.B....B.W..B. w 0 0")["moves"][0]
    assert 'data-point="c4"' in game.svg()


def test_lasker_start_is_the_cli_start(lasker_dir, solver_bin):
    game = ms.Game("lasker", lasker_dir)
    assert game.stones == 3
    a = game.probe()
    assert a == cli_json(solver_bin, "lasker", "start", "--stones", "3", "--dir", lasker_dir, "--json")
    after = game.play(None, "d7 d1")
    a = game.probe(after)
    check_moves(game, a)
    # Lasker Morris: a side may slide instead of placing.
    assert any("-" in m for m in game.show(after)["moves"])


def test_morabaraba_by_search_and_tables(morabaraba_dir, solver_bin):
    game = ms.Game("morabaraba", morabaraba_dir, hash_mib=16, threads=1)
    assert game.stones == 4
    start = game.probe()
    assert start["source"] == "search"
    want = cli_json(
        solver_bin, "morabaraba", "start", "--stones", "4", "--dir", morabaraba_dir, "--json", "--quiet"
    )
    assert start["value"] == want["value"]
    # A moving-phase position from the tables: the CLI's probe.
    text = "W..W...W............B.BB w 0 0"
    a = game.probe(text)
    assert a == cli_json(
        solver_bin, "morabaraba", "probe", "--stones", "4", "--dir", morabaraba_dir, "--json", text
    )
    assert a["value"] == "win" and a["dtc"] == 1
    check_moves(game, a)
    # More stones than the tables cover: the command that makes them.
    with pytest.raises(ms.TablebaseError, match="morabaraba generate --stones 5"):
        game.probe("WWWWW...........BBBBB... w 0 0")


def test_nine_without_flying_is_the_tablebases_probe(noflying_dir):
    game = ms.Game("nine-noflying", noflying_dir)
    tb = ms.Tablebases(noflying_dir, flying=False)
    for text in ["W.W..B...B.W....B....... w 0 0", "WB.W...B.....W.B.......B b 0 0"]:
        assert game.probe(text) == tb.probe(text).to_dict()
    assert game.flying is False


def test_missing_tables_and_bad_input(tmp_path):
    for name, command in [
        ("six", "solver six generate"),
        ("lasker", "solver lasker generate --stones 4"),
        ("morabaraba", "solver morabaraba generate --stones 4"),
    ]:
        game = ms.Game(name, tmp_path)
        # The rules need no tables.
        assert game.show()["moves"]
        with pytest.raises(ms.TablebaseError, match=command):
            game.probe()
    with pytest.raises(ValueError, match="game must be one of"):
        ms.Game("seven", tmp_path)
    game = ms.Game("six", tmp_path)
    with pytest.raises(ms.PositionError):
        game.show("WWWWWWW......... w 0 0")
    with pytest.raises(ms.MoveError):
        game.play(None, "a5 a5")


LIMIT = 4


@pytest.fixture(scope="session")
def counted_dir(solver_bin, tmp_path_factory):
    """Six's 4-stone game with and without a count rule of 4 plies."""
    path = generate(solver_bin, tmp_path_factory, "counted", "six", "generate", "--stones", "4")
    subprocess.run(
        [solver_bin, "six", "generate", "--stones", "4", "--quiet-limit", str(LIMIT), "--dir", path, "--quiet"],
        check=True,
    )
    return path


def test_six_under_the_count_rule(counted_dir, solver_bin):
    plain = ms.Game("six", counted_dir)
    game = ms.Game("six", counted_dir, quiet_limit=LIMIT)
    assert (game.quiet_limit, plain.quiet_limit) == (LIMIT, None)
    assert "quiet_limit=4" in repr(game)
    text = "W.W.B....B.W..B. w 0 0"
    labels = set()
    for q in range(LIMIT + 1):
        a = game.probe(text, quiet_plies=q)
        want = cli_json(
            solver_bin, "six", "probe", "--stones", "4", "--quiet-limit", str(LIMIT),
            "--quiet-plies", str(q), "--dir", counted_dir, "--json", text,
        )
        for key in ("value", "dtc", "source", "quiet_limit", "quiet_plies"):
            assert a[key] == want[key], (q, key)
        assert [(m["move"], m["value"], m["quiet_plies"]) for m in a["moves"]] == [
            (m["move"], m["value"], m["quiet_plies"]) for m in want["moves"]
        ]
        before = plain.probe(text)
        assert a["plain_value"] == before["value"]
        for m in a["moves"]:
            was = next(p["value"] for p in before["moves"] if p["move"] == m["move"])
            expect = {("win", "draw"): "cursed-win", ("loss", "draw"): "blessed-loss"}.get((was, m["value"]))
            assert m["label"] == expect, (q, m)
            labels.add(m["label"])
        best = game.best_move(text, quiet_plies=q)
        if q == LIMIT:
            assert a["source"] == "game-over" and best is None
        else:
            assert (best["value"], best["dtc"]) == (a["moves"][0]["value"], a["moves"][0]["dtc"])
    # The rule bites near here: some position's win is drawn by the count.
    for m in plain.probe(text)["moves"]:
        after = plain.play(text, m["move"])
        for q in (0, LIMIT - 1):
            a = game.probe(after, quiet_plies=q)
            was = plain.probe(after)["value"]
            expect = {("win", "draw"): "cursed-win", ("loss", "draw"): "blessed-loss"}.get((was, a["value"]))
            assert a["label"] == expect
            labels.add(a["label"])
    assert "cursed-win" in labels or "blessed-loss" in labels
    # Moves advance the count: a slide adds a ply, a removal restarts it.
    slide = next(m["move"] for m in game.probe(text)["moves"] if "x" not in m["move"])
    assert game.probe(text, [slide], quiet_plies=1)["quiet_plies"] == 2
    with pytest.raises(ValueError, match="quiet_plies"):
        game.probe(text, quiet_plies=LIMIT + 1)
    with pytest.raises(ValueError, match="quiet_limit"):
        plain.probe(text, quiet_plies=1)
    assert plain.probe(text, quiet_plies=0) == plain.probe(text)
