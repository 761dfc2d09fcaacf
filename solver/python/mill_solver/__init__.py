"""Perfect play for mill games from Python.

Nine Men's Morris positions and moves (:class:`Position`, :class:`Move`),
probes of the retrograde tablebases made by ``solver nine generate``
(:class:`Tablebases`: one position with every move's value, or many at once
into NumPy arrays), every mill game from its tables through one class
(:class:`Game`: Nine with and without flying, Six Men's Morris, Lasker
Morris, Morabaraba; answers are the web API's JSON objects as dicts),
Three Men's Morris (:func:`three_probe`) and the Toguz
Kumalak search (:func:`toguz_search`). The OpenSpiel bot and action mapping
are in :mod:`mill_solver.openspiel` (needs ``open_spiel``).

Example::

    import mill_solver as ms
    tb = ms.Tablebases("tablebases")
    a = tb.probe("WW....BBB....BW......W.. w 0 0")
    print(a.value, a.dtc, a.best.move)
    values, dtc = tb.probe_many([a.position])
    assert ms.Outcome(values[0]).text == a.value

Single probes name values (``'win'``, ``'draw'``, ``'loss'``; ``dtc`` None
when unknown); batch probes give codes (int8 ``1``, ``0``, ``-1``; int16
``dtc`` ``-1`` when unknown): :class:`Outcome`, :data:`VALUE_CODES` and
:data:`DTC_UNKNOWN` map one to the other.

Errors raise :class:`SolverError` subclasses with the command line's messages:
:class:`PositionError`, :class:`MoveError` (both also ``ValueError``),
:class:`TablebaseError`, :class:`BudgetError` (a search under OpenSpiel's turn
limit that ran out of its budget).
"""

import enum
import types
from typing import Literal, Mapping

from ._native import (
    Analysis,
    BudgetError,
    Game,
    Move,
    MoveError,
    MoveValue,
    Position,
    PositionError,
    SolverError,
    TablebaseError,
    Tablebases,
    __version__,
    decode_positions,
    encode_positions,
    three_probe,
    toguz_search,
)


class Outcome(enum.IntEnum):
    """The value codes of :meth:`Tablebases.probe_many` (its int8 ``value``
    array), for the side to move: ``Outcome(code)`` names a code,
    ``Outcome.from_text(analysis.value)`` codes a single probe's value.
    """

    LOSS = -1
    DRAW = 0
    WIN = 1

    @property
    def text(self) -> Literal["win", "draw", "loss"]:
        """The name single probes use: ``'win'``, ``'draw'`` or ``'loss'``."""
        return _TEXTS[self]

    @classmethod
    def from_text(cls, text: str) -> "Outcome":
        """The code of ``'win'``, ``'draw'`` or ``'loss'`` (``KeyError``
        for anything else)."""
        return VALUE_CODES[text]


_TEXTS: Mapping[Outcome, Literal["win", "draw", "loss"]] = {
    Outcome.WIN: "win",
    Outcome.DRAW: "draw",
    Outcome.LOSS: "loss",
}

#: The code of each value name (read-only): ``{'win': 1, 'draw': 0,
#: 'loss': -1}``, the values being :class:`Outcome` members.
VALUE_CODES: Mapping[str, Outcome] = types.MappingProxyType({text: code for code, text in _TEXTS.items()})

#: The ``dtc`` of :meth:`Tablebases.probe_many` where single probes say
#: ``None`` (draws, placement positions).
DTC_UNKNOWN = -1

__all__ = [
    "DTC_UNKNOWN",
    "VALUE_CODES",
    "Analysis",
    "BudgetError",
    "Game",
    "Move",
    "MoveError",
    "MoveValue",
    "Outcome",
    "Position",
    "PositionError",
    "SolverError",
    "TablebaseError",
    "Tablebases",
    "__version__",
    "decode_positions",
    "encode_positions",
    "three_probe",
    "toguz_search",
]
