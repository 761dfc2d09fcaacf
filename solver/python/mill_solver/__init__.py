"""Perfect play for mill games from Python.

Nine Men's Morris positions and moves (:class:`Position`, :class:`Move`),
probes of the retrograde tablebases made by ``solver nine generate``
(:class:`Tablebases`: one position with every move's value, or many at once
into NumPy arrays), Three Men's Morris (:func:`three_probe`) and the Toguz
Kumalak search (:func:`toguz_search`). The OpenSpiel bot and action mapping
are in :mod:`mill_solver.openspiel` (needs ``open_spiel``).

Example::

    import mill_solver as ms
    tb = ms.Tablebases("tablebases")
    a = tb.probe("WW....BBB....BW......W.. w 0 0")
    print(a.value, a.dtc, a.best.move)

Errors raise :class:`SolverError` subclasses with the command line's messages:
:class:`PositionError`, :class:`MoveError`, :class:`TablebaseError`.
"""

from ._native import (
    Analysis,
    Move,
    MoveError,
    MoveValue,
    Position,
    PositionError,
    SolverError,
    TablebaseError,
    Tablebases,
    decode_positions,
    encode_positions,
    three_probe,
    toguz_search,
)

__all__ = [
    "Analysis",
    "Move",
    "MoveError",
    "MoveValue",
    "Position",
    "PositionError",
    "SolverError",
    "TablebaseError",
    "Tablebases",
    "decode_positions",
    "encode_positions",
    "three_probe",
    "toguz_search",
]
