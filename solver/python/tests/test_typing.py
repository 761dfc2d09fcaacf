"""The version and the value mapping between single and batch probes.
(The stubs are checked by mypy.stubtest and mypy in scripts/python-tests.sh.)"""

import importlib.metadata
import random
import re

import numpy as np
import pytest

import mill_solver as ms
from conftest import REPO
from helpers import sample


def test_version_is_the_crate_version():
    text = (REPO / "Cargo.toml").read_text()
    section = text.split("[workspace.package]", 1)[1]
    crate = re.search(r'^version = "([^"]+)"', section, re.M).group(1)
    assert ms.__version__ == crate
    assert importlib.metadata.version("mill-solver") == crate
    from mill_solver import _native

    assert _native.__version__ is ms.__version__


def test_value_codes():
    assert dict(ms.VALUE_CODES) == {"win": 1, "draw": 0, "loss": -1}
    assert all(type(v) is ms.Outcome for v in ms.VALUE_CODES.values())
    assert [(o.text, int(o)) for o in ms.Outcome] == [("loss", -1), ("draw", 0), ("win", 1)]
    assert ms.Outcome.from_text("win") is ms.Outcome.WIN and ms.Outcome(-1).text == "loss"
    assert ms.Outcome.WIN == 1 and ms.Outcome.LOSS < ms.Outcome.DRAW < ms.Outcome.WIN
    with pytest.raises(TypeError):
        ms.VALUE_CODES["win"] = 2  # read-only
    with pytest.raises(KeyError):
        ms.Outcome.from_text("won")
    assert ms.DTC_UNKNOWN == -1


def test_batch_codes_map_to_single_probes(tables):
    texts = sample(random.Random(17), 150, 10)
    values, dtc = tables.probe_many(texts)
    assert values.dtype == np.int8 and dtc.dtype == np.int16
    for text, v, d in zip(texts, values.tolist(), dtc.tolist()):
        a = tables.probe(text)
        assert ms.Outcome(v).text == a.value and v == ms.VALUE_CODES[a.value]
        assert d == (ms.DTC_UNKNOWN if a.dtc is None else a.dtc)
    # Vectorised naming of a whole array.
    names = np.array(["loss", "draw", "win"])[values + 1]
    assert names.tolist() == [tables.probe(t).value for t in texts]
    assert set(values.tolist()) == {int(o) for o in ms.Outcome}
