"""Strict inputs: batch arrays and lists are never coerced (no rounding,
wrapping or truncation), and bad arguments raise the documented classes
with readable messages (docs/python.md, "Strict inputs" and "Errors")."""

import random

import numpy as np
import pytest

import mill_solver as ms
from helpers import sample

GOOD = "WW....BBB....BW......W.. w 0 0"
# Masks below 128: the row fits every integer dtype, int8 included.
SMALL = "WBWBWB.................. w 0 0"


def rows_of(texts):
    return ms.encode_positions([ms.Position(t) for t in texts])


def same(a, b):
    return a[0].tolist() == b[0].tolist() and a[1].tolist() == b[1].tolist()


def test_float_nan_and_bool_arrays_are_refused(tables):
    for bad in [
        np.array([[7.9, 3584.2, 0.7, 0, 0]]),  # was probed as [7, 3584, 0, 0, 0]
        np.array([ms.Position(GOOD).to_array()], dtype=np.float64),  # whole floats: the dtype decides
        np.array([[np.nan, 3584, 0, 0, 0]]),
        np.array([[True, False, False, False, False]]),
        np.array([[1 + 0j, 2, 0, 0, 0]]),
        np.array([[GOOD, GOOD, GOOD, GOOD, GOOD]]),
        np.array([ms.Position(GOOD)] * 5, dtype=object).reshape(1, 5),
    ]:
        with pytest.raises(TypeError, match=r"integer array of shape \(n, 5\), found an array of dtype"):
            tables.probe_many(bad)
        with pytest.raises(TypeError):
            ms.decode_positions(bad)


@pytest.mark.parametrize("shape", [(3, 4), (5,), (2, 5, 1), (1, 6), ()])
def test_wrong_shapes_are_a_value_error(tables, shape):
    bad = np.zeros(shape, dtype=np.uint32)
    with pytest.raises(ValueError, match=r"shape \(n, 5\).*found shape"):
        tables.probe_many(bad)


@pytest.mark.parametrize(
    "dtype", ["u1", "i1", "u2", "i2", "u4", "i4", "u8", "i8", ">i4", "<u8", ">u2", np.intc, np.uintp]
)
def test_every_integer_dtype_is_accepted(tables, dtype):
    texts = [SMALL, str(ms.Position(SMALL).swap_colors()), "WBWBWB.................. b 0 0"]
    rows = rows_of(texts)
    want = tables.probe_many(texts)
    arr = rows.astype(dtype)
    assert arr.dtype == np.dtype(dtype)
    assert same(tables.probe_many(arr), want)
    assert ms.decode_positions(arr) == ms.decode_positions(rows)


def test_non_contiguous_arrays(tables):
    rows = rows_of(sample(random.Random(2), 40, 0))
    want = tables.probe_many(rows[::3])
    assert same(tables.probe_many(np.asfortranarray(rows)[::3]), want)
    wide = np.zeros((len(rows), 10), dtype=np.int64)
    wide[:, ::2] = rows
    assert same(tables.probe_many(wide[::3, ::2]), want)


def test_out_of_range_values_are_a_value_error_naming_the_index(tables):
    row = ms.Position(GOOD).to_array()
    arr = np.array([row] * 4, dtype=np.uint64)
    arr[2, 0] += 2**32  # was wrapped to the row itself
    with pytest.raises(ValueError, match=rf"^position 2: white must be a 24-bit mask 0\.\.16777215, found {row[0] + 2**32}$"):
        tables.probe_many(arr)
    cases = [
        (0, -1, r"^position 3: white must be a 24-bit mask"),
        (1, 1 << 24, r"^position 3: black must be a 24-bit mask"),
        (2, 2, r"^position 3: to_move must be 0 \(White\) or 1 \(Black\), found 2$"),
        (2, -1, r"^position 3: to_move must be 0 \(White\) or 1 \(Black\), found -1$"),
        (3, 10, r"^position 3: white_hand \(stones in hand\) must be 0\.\.9, found 10$"),
        (4, -3, r"^position 3: black_hand \(stones in hand\) must be 0\.\.9, found -3$"),
    ]
    for column, value, message in cases:
        arr = np.array([row] * 4, dtype=np.int64)
        arr[3, column] = value
        with pytest.raises(ValueError, match=message) as e:
            tables.probe_many(arr)
        assert isinstance(e.value, ms.PositionError)
        rows = arr.tolist()
        with pytest.raises(ValueError, match=message):
            tables.probe_many(rows)
    # Beyond any integer width, in a list.
    with pytest.raises(ValueError, match=rf"^position 1: white must be a 24-bit mask 0\.\.16777215, found {2**100}$"):
        tables.probe_many([list(row), [2**100, 0, 0, 0, 0]])
    # An illegal position of in-range values.
    with pytest.raises(ms.PositionError, match="^position 0: illegal position"):
        tables.probe_many([[row[0], row[0], 0, 0, 0]])


def test_nested_lists_tuples_generators_and_mixed_lists(tables):
    texts = sample(random.Random(4), 60, 5)
    rows = rows_of(texts)
    want = tables.probe_many(rows)
    forms = [
        rows.tolist(),
        [tuple(r) for r in rows.tolist()],
        tuple(rows.tolist()),
        (r for r in rows.tolist()),
        list(rows),  # 1-D arrays of numpy integers
        iter(texts),
        [ms.Position(t) if i % 3 == 0 else t if i % 3 == 1 else rows[i].tolist() for i, t in enumerate(texts)],
    ]
    for form in forms:
        assert same(tables.probe_many(form), want)
    assert ms.decode_positions(rows.tolist()) == [ms.Position(t) for t in texts]
    assert ms.encode_positions(rows.tolist()).tolist() == rows.tolist()


def test_bad_items_in_lists(tables):
    row = list(ms.Position(GOOD).to_array())
    cases = [
        ([row, [7.9, 3584, 0, 0, 0]], TypeError, r"^position 1: white must be an int, found float$"),
        ([row, [row[0], row[1], float("nan"), 0, 0]], TypeError, r"^position 1: to_move must be an int, found float$"),
        ([[row[0], row[1], True, 0, 0]], TypeError, r"^position 0: to_move must be an int, found bool$"),
        ([[row[0], row[1], np.bool_(True), 0, 0]], TypeError, r"^position 0: to_move must be an int, found bool"),
        ([[row[0], row[1], np.float64(0), 0, 0]], TypeError, r"^position 0: to_move must be an int, found float64$"),
        ([row, row, [1, 2, 3]], ValueError, r"^position 2: a row has 5 ints .* found 3 values$"),
        ([GOOD, 1.5], TypeError, r"^position 1: expected a Position, a position text or a row of 5 ints, found float$"),
        ([GOOD, b"bytes"], TypeError, r"^position 1: expected .* found bytes$"),
        ([GOOD, None], TypeError, r"^position 1: expected .* found NoneType$"),
    ]
    for positions, exc, message in cases:
        with pytest.raises(exc, match=message):
            tables.probe_many(positions)
    for bad, found in [(GOOD, "str"), (5, "int"), (ms.Position(GOOD), "Position"), (None, "NoneType")]:
        with pytest.raises(TypeError, match=f"found a? ?{found}"):
            tables.probe_many(bad)


def test_exception_classes():
    assert issubclass(ms.PositionError, ms.SolverError) and issubclass(ms.PositionError, ValueError)
    assert issubclass(ms.MoveError, ms.SolverError) and issubclass(ms.MoveError, ValueError)
    assert issubclass(ms.TablebaseError, ms.SolverError) and not issubclass(ms.TablebaseError, ValueError)
    assert ms.PositionError.__module__ == ms.MoveError.__module__ == ms.SolverError.__module__ == "mill_solver"


@pytest.mark.parametrize(
    "kwargs,exc,message",
    [
        ({"hash_mib": -1}, ValueError, r"^hash_mib must be 1\.\.65536, found -1$"),
        ({"hash_mib": 0}, ValueError, r"^hash_mib must be 1\.\.65536, found 0$"),
        ({"hash_mib": 2**70}, ValueError, r"^hash_mib must be 1\.\.65536, found 1180591620717411303424$"),
        ({"hash_mib": 1.5}, TypeError, r"^hash_mib must be an int, found float$"),
        ({"hash_mib": True}, TypeError, r"^hash_mib must be an int, found bool$"),
        ({"threads": -1}, ValueError, r"^threads must be 1\.\.256, found -1$"),
        ({"threads": 0}, ValueError, r"^threads must be 1\.\.256, found 0$"),
        ({"threads": "2"}, TypeError, r"^threads must be an int, found str$"),
        ({"memory": "disk"}, ValueError, r"^memory must be"),
    ],
)
def test_tablebases_arguments_are_checked_at_construction(tables_dir, kwargs, exc, message):
    with pytest.raises(exc, match=message) as e:
        ms.Tablebases(tables_dir, **kwargs)
    assert type(e.value) is exc  # not OverflowError, not a SolverError
    # Checked before the directory: the same error for a missing one.
    with pytest.raises(exc, match=message):
        ms.Tablebases(tables_dir / "nowhere", **kwargs)


def test_tablebases_accept_numpy_integers(tables_dir):
    tb = ms.Tablebases(tables_dir, hash_mib=np.int64(16), threads=np.uint8(1))
    assert (tb.hash_mib, tb.threads) == (16, 1)
    assert ms.Tablebases(tables_dir).hash_mib == 1024 and ms.Tablebases(tables_dir).threads is None


def test_empty_or_missing_directories_fail_at_construction(tmp_path):
    with pytest.raises(ms.TablebaseError, match="no tablebase files in this directory"):
        ms.Tablebases(tmp_path)  # exists, empty: was accepted until the first probe
    (tmp_path / "notes.txt").write_text("not a table")
    with pytest.raises(ms.TablebaseError, match="no tablebase files in this directory"):
        ms.Tablebases(tmp_path)
    with pytest.raises(ms.TablebaseError, match="empty"):
        ms.Tablebases("")
    with pytest.raises(ms.TablebaseError, match="no such tablebase directory"):
        ms.Tablebases(tmp_path / "missing")
    # A file of ours opens the directory; a damaged table is reported when
    # a probe needs it.
    (tmp_path / "nine-flying-3-3.tb").write_bytes(b"")
    tb = ms.Tablebases(tmp_path)
    with pytest.raises(ms.TablebaseError):
        tb.probe("WWW...........BBB....... b 0 0")


def test_type_errors_name_the_python_argument(tables):
    p = ms.Position(GOOD)
    with pytest.raises(TypeError) as e:
        p.play(5)
    assert str(e.value) == "move must be a Move or a move text (str), found int"
    with pytest.raises(TypeError) as e:
        p.play(move=None)
    assert "r#" not in str(e.value) and "MoveArg" not in str(e.value)
    assert str(p.play(move="a7-a4")) == str(p.play("a7-a4"))
    with pytest.raises(TypeError) as e:
        tables.probe(5)
    assert str(e.value) == "argument 'position': expected a Position or a position text (str), found int"
    with pytest.raises(TypeError, match="argument 'position': expected a Position"):
        tables.best_move(3.0)
    with pytest.raises(TypeError, match="argument 'position': expected a Position"):
        ms.Move.parse(1, "d6")


def test_from_board_checks_its_values():
    board = ms.Position(GOOD).board
    assert ms.Position.from_board(board, "w", (0, 0)) == ms.Position(GOOD)
    assert ms.Position.from_board(np.array(board), "w", np.array([0, 0])) == ms.Position(GOOD)
    with pytest.raises(ValueError, match=r"^bad position: White's stones in hand must be 0\.\.9, found -1$") as e:
        ms.Position.from_board(board, "w", (-1, 0))  # was an OverflowError
    assert isinstance(e.value, ms.PositionError)
    with pytest.raises(ms.PositionError, match="Black's stones in hand must be 0..9, found 300"):
        ms.Position.from_board(board, "w", (0, 300))
    with pytest.raises(ms.PositionError, match="cell 0 .* found -1"):
        ms.Position.from_board([-1] + board[1:], "w", (0, 0))
    with pytest.raises(TypeError, match="board: cell 3 must be an int, found float"):
        ms.Position.from_board(board[:3] + [0.0] + board[4:], "w", (0, 0))
    with pytest.raises(TypeError, match="board: cell 0 must be an int, found bool"):
        ms.Position.from_board([True] + board[1:], "w", (0, 0))
    with pytest.raises(TypeError, match="board must be a sequence of ints, found str"):
        ms.Position.from_board("W" * 24, "w", (0, 0))
    with pytest.raises(ValueError, match=r"hands must be \(white, black\), found 3 values"):
        ms.Position.from_board(board, "w", (0, 0, 0))
    with pytest.raises(ms.PositionError, match='to_move must be "w" or "b"'):
        ms.Position.from_board(board, "x", (0, 0))


def test_move_constructor_checks_points():
    p = ms.Position(GOOD)
    for m in p.legal_moves():
        assert ms.Move(m.from_point, m.to_point, m.removal) == m
    assert str(ms.Move(None, 4)) == "d6"
    with pytest.raises(ValueError, match=r"to_point must be 0\.\.23, found 24"):
        ms.Move(None, 24)
    with pytest.raises(ValueError, match="from_point and to_point must differ"):
        ms.Move(3, 3)
    with pytest.raises(ValueError, match="removal must differ"):
        ms.Move(3, 4, 4)
    with pytest.raises(TypeError, match="from_point must be an int, found float"):
        ms.Move(3.0, 4)
    # Not legal here: play says so.
    with pytest.raises(ms.MoveError, match="not a legal move"):
        p.play(ms.Move(None, 4))


def test_toguz_arguments():
    for kwargs, exc, message in [
        ({"depth": 3, "threads": -1}, ValueError, r"^threads must be 1\.\.256, found -1$"),
        ({"depth": 3, "hash_mib": -1}, ValueError, r"^hash_mib must be 1\.\.65536, found -1$"),
        ({"depth": 2.5}, TypeError, r"^depth must be an int, found float$"),
        ({"depth": 0}, ValueError, r"^depth must be 1\.\.100, found 0$"),
        ({"nodes": -5}, ValueError, r"^nodes must be 1\.\.18446744073709551615, found -5$"),
        ({"time": True}, TypeError, "^time must be a number of seconds, found bool$"),
        ({"time": "1"}, TypeError, "^time must be a number of seconds, found str$"),
    ]:
        with pytest.raises(exc, match=message) as e:
            ms.toguz_search(**kwargs)
        assert type(e.value) is exc
    assert ms.toguz_search(depth=np.int64(2), threads=np.int32(1))["depth"] >= 1
