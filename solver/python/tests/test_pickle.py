"""Pickling and copying: the value types round-trip through pickle (every
protocol), copy and deepcopy; a pickled Tablebases re-opens its directory
with its options, also in multiprocessing workers."""

import copy
import multiprocessing
import os
import pickle
import random
import shutil

import pytest

import mill_solver as ms
from helpers import probe_in_worker, probe_one_in_worker, sample

GOOD = "WW....BBB....BW......W.. w 0 0"
PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


def values_of(tables):
    p = ms.Position(GOOD)
    a = tables.probe(p)
    placement = tables.probe(sample(random.Random(1), 0, 1)[-1])
    assert placement.source == "search"
    return [
        p,
        ms.Position(),
        p.legal_moves()[3],  # with a removal
        p.legal_moves()[0],  # a slide
        ms.Position().legal_moves()[5],  # a placement
        a.best,
        a,
        placement,
        tables.probe("WW.........BBB.......... w 0 0"),  # game over
    ]


def test_value_types_round_trip(tables):
    for obj in values_of(tables):
        for protocol in PROTOCOLS:
            back = pickle.loads(pickle.dumps(obj, protocol))
            assert type(back) is type(obj)
            assert back == obj, (protocol, obj)
            assert repr(back) == repr(obj)
        # Immutable: copies are the object itself.
        assert copy.copy(obj) is obj
        assert copy.deepcopy(obj) is obj
        assert copy.deepcopy([obj, obj])[0] is obj
    a = tables.probe(GOOD)
    back = pickle.loads(pickle.dumps(a))
    assert back.to_dict() == a.to_dict() and back.best == a.best and back.source == a.source
    assert hash(pickle.loads(pickle.dumps(a.best))) == hash(a.best)
    assert hash(pickle.loads(pickle.dumps(ms.Position(GOOD)))) == hash(ms.Position(GOOD))


def test_analysis_and_move_value_equality(tables):
    a, b = tables.probe(GOOD), tables.probe(GOOD)
    assert a == b and a is not b
    assert a != tables.probe(ms.Position(GOOD).swap_colors())
    assert a.moves[0] != a.moves[-1] or len(a.moves) == 1
    mv = a.moves[0]
    assert ms.MoveValue(mv.move, mv.value, mv.dtc) == mv
    assert ms.MoveValue(mv.move, "draw", None) != mv or (mv.value, mv.dtc) == ("draw", None)
    with pytest.raises(ValueError, match='value must be "win", "draw" or "loss", found "won"'):
        ms.MoveValue(mv.move, "won")
    with pytest.raises(ValueError, match=r"dtc must be 0\.\.65535, found -1"):
        ms.MoveValue(mv.move, "win", -1)
    with pytest.raises(TypeError, match="move must be a Move, found str"):
        ms.MoveValue("d6", "win")


def test_tablebases_pickle_reopens_with_the_options(tables_dir, tables, tmp_path, monkeypatch):
    tb = ms.Tablebases(tables_dir, memory="outcomes", hash_mib=16, threads=1)
    texts = sample(random.Random(11), 60, 4)
    for protocol in PROTOCOLS:
        back = pickle.loads(pickle.dumps(tb, protocol))
        assert back is not tb
        assert (back.flying, back.memory, back.hash_mib, back.threads) == (True, "outcomes", 16, 1)
        assert back.directory == tables_dir.resolve()
        assert [back.probe(t) for t in texts] == [tables.probe(t) for t in texts]
    assert copy.copy(tb) is tb and copy.deepcopy(tb) is tb
    # A relative directory is pickled as an absolute one.
    monkeypatch.chdir(tables_dir.parent)
    relative = ms.Tablebases(tables_dir.name, memory="mapped")
    data = pickle.dumps(relative)
    monkeypatch.chdir(tmp_path)
    back = pickle.loads(data)
    assert back.directory == tables_dir.resolve() and back.memory == "mapped"
    assert back.probe(GOOD) == tables.probe(GOOD)
    # Unpickling opens the directory again: gone, it fails.
    gone = tmp_path / "gone"
    gone.mkdir()
    name = "nine-flying-3-3.tb"
    shutil.copy(tables_dir / name, gone / name)
    data = pickle.dumps(ms.Tablebases(gone))
    shutil.rmtree(gone)
    with pytest.raises(ms.TablebaseError, match="no such tablebase directory"):
        pickle.loads(data)


def test_multiprocessing_pool_probes_like_the_parent(tables_dir, tables):
    texts = sample(random.Random(21), 120, 6)
    chunks = [texts[i::4] for i in range(4)]
    tb = ms.Tablebases(tables_dir, memory="mapped", threads=1)
    # "spawn": fresh interpreters, so the Tablebases really travels pickled
    # (and no thread pool is forked).
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.starmap(probe_in_worker, [(tb, chunk) for chunk in chunks])
        with pytest.raises(ms.PositionError, match="^bad position") as e:
            pool.apply(probe_one_in_worker, (tb, "nonsense"))
        assert type(e.value) is ms.PositionError
        with pytest.raises(ms.TablebaseError) as e:
            pool.apply(probe_one_in_worker, (tb, "WWW.W....BBB.B.B........ w 0 0"))
    pids = {pid for pid, *_ in results}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2
    for chunk, (_, analyses, values, dtc) in zip(chunks, results):
        assert analyses == [tables.probe(t) for t in chunk]
        want_values, want_dtc = tables.probe_many(chunk)
        assert values == want_values.tolist() and dtc == want_dtc.tolist()
