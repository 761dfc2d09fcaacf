"""Type hints of the compiled part of mill_solver (solver/python/src/).

Checked against the module by ``python -m mypy.stubtest mill_solver._native``
(scripts/python-tests.sh).
"""

import os
import pathlib
from typing import Any, Dict, Iterable, List, Literal, Optional, Sequence, Tuple, Union, final

import numpy as np
import numpy.typing as npt

_Value = Literal["win", "draw", "loss"]
_PositionLike = Union["Position", str]
# What the batch functions take: an integer array of shape (n, 5), or an
# iterable of positions, texts and rows of five ints.
_Positions = Union[npt.NDArray[np.integer[Any]], Iterable[Union[_PositionLike, Sequence[int]]]]

__all__ = [
    "Analysis",
    "BudgetError",
    "Game",
    "Move",
    "MoveError",
    "MoveValue",
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
__version__: str

class SolverError(Exception):
    """Base class of the errors raised by mill_solver."""

class PositionError(SolverError, ValueError):
    """A position text that cannot be parsed, or an illegal position (also a ValueError)."""

class MoveError(SolverError, ValueError):
    """A move that is not legal in its position (the message says why; also a ValueError)."""

class TablebaseError(SolverError):
    """A tablebase directory or file that is missing, damaged or of another rule set."""

class BudgetError(SolverError):
    """A search under the turn limit expanded its budget of positions without an answer (no value is guessed)."""

@final
class Position:
    """A Nine Men's Morris position (immutable, hashable, picklable).

    ``Position()`` is the start position; ``Position(text)`` parses the text
    format of docs/notation.md and raises :class:`PositionError`.
    """

    def __new__(cls, text: Optional[str] = None) -> Position: ...
    @staticmethod
    def start() -> Position:
        """The start position ``........................ w 9 9``."""
    @staticmethod
    def from_board(board: Sequence[int], to_move: Literal["w", "b"], hands: Sequence[int]) -> Position:
        """A position from 24 cells in reading order (0 empty, 1 White, 2 Black)."""
    @property
    def board(self) -> List[int]:
        """The 24 cells in reading order: 0 empty, 1 White, 2 Black."""
    @property
    def to_move(self) -> Literal["w", "b"]: ...
    @property
    def hands(self) -> Tuple[int, int]:
        """Stones in hand (white, black)."""
    @property
    def stones(self) -> Tuple[int, int]:
        """Stones on the board (white, black)."""
    @property
    def placing(self) -> bool:
        """Whether the side to move still has stones to place."""
    def legal_moves(self, flying: bool = True) -> List[Move]:
        """The legal moves in reading order; empty when the game is over."""
    def play(self, move: Union[Move, str], flying: bool = True) -> Position:
        """The position after ``move``; raises :class:`MoveError` when it is illegal."""
    def game_over(self, flying: bool = True) -> Optional[str]:
        """Why the side to move has lost, or None."""
    def swap_colors(self) -> Position: ...
    def canonical(self) -> Tuple[Position, int]:
        """The canonical image under the 16 symmetries and the symmetry used."""
    def draw(self) -> str:
        """The board in ASCII with coordinates."""
    def to_array(self) -> List[int]:
        """``[white, black, to_move, white_hand, black_hand]`` (bit i of a mask = point i)."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Any, ...]: ...
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: Any, /) -> Position: ...

@final
class Move:
    """A move; points are reading-order indices 0..23 (OpenSpiel's).

    ``Move(from_point, to_point, removal=None)`` builds one from its points
    (``from_point`` None for a placement) without checking it against a
    position.
    """

    def __new__(cls, from_point: Optional[int], to_point: int, removal: Optional[int] = None) -> Move: ...
    @staticmethod
    def parse(position: _PositionLike, text: str, flying: bool = True) -> Move:
        """Parse ``text`` (``d6``, ``d6-d5``, ``d6-d5xg7``) as a legal move of ``position``."""
    @property
    def from_point(self) -> Optional[int]:
        """The point left (slides and flies), None for a placement."""
    @property
    def to_point(self) -> int: ...
    @property
    def removal(self) -> Optional[int]:
        """The opponent stone removed, None when no mill closes."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Any, ...]: ...
    def __copy__(self) -> Move: ...
    def __deepcopy__(self, memo: Any, /) -> Move: ...

@final
class MoveValue:
    """A legal move with its value for the side that plays it."""

    def __new__(cls, move: Move, value: _Value, dtc: Optional[int] = None) -> MoveValue: ...
    @property
    def move(self) -> Move: ...
    @property
    def value(self) -> _Value: ...
    @property
    def dtc(self) -> Optional[int]:
        """Plies to conversion (moving phase), None when unknown or drawn."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Any, ...]: ...
    def __copy__(self) -> MoveValue: ...
    def __deepcopy__(self, memo: Any, /) -> MoveValue: ...

@final
class Analysis:
    """The answer of ``solver nine probe`` about one position."""

    def __new__(
        cls,
        position: _PositionLike,
        value: _Value,
        dtc: Optional[int],
        source: Literal["tables", "search", "game-over"],
        moves: Sequence[MoveValue],
    ) -> Analysis: ...
    @property
    def position(self) -> Position: ...
    @property
    def value(self) -> _Value: ...
    @property
    def dtc(self) -> Optional[int]: ...
    @property
    def source(self) -> Literal["tables", "search", "game-over"]: ...
    @property
    def moves(self) -> List[MoveValue]:
        """Every legal move with its value, best first."""
    @property
    def best(self) -> Optional[MoveValue]: ...
    def to_json(self) -> str:
        """The JSON of ``solver nine probe --json``."""
    def to_dict(self) -> Dict[str, Any]:
        """The object of ``solver nine probe --json``."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]
    def __reduce__(self) -> Tuple[Any, ...]: ...
    def __copy__(self) -> Analysis: ...
    def __deepcopy__(self, memo: Any, /) -> Analysis: ...

@final
class Tablebases:
    """A Nine Men's Morris tablebase directory opened for probing (picklable:
    unpickling re-opens the directory with the same options)."""

    def __new__(
        cls,
        dir: Union[str, os.PathLike[str]] = "tablebases",
        *,
        flying: bool = True,
        memory: Literal["values", "outcomes", "mapped"] = "values",
        hash_mib: int = 1024,
        threads: Optional[int] = None,
    ) -> Tablebases: ...
    @property
    def directory(self) -> pathlib.Path: ...
    @property
    def flying(self) -> bool: ...
    @property
    def memory(self) -> Literal["values", "outcomes", "mapped"]: ...
    @property
    def hash_mib(self) -> int: ...
    @property
    def threads(self) -> Optional[int]: ...
    def probe(self, position: Optional[_PositionLike] = None, moves: Optional[str] = None) -> Analysis:
        """Value, distance and every move's value (``solver nine probe``)."""
    def best_move(self, position: _PositionLike, policy: Optional[str] = None, seed: int = 1) -> Optional[MoveValue]:
        """The perfect player's move, None when the game is over; ``policy``
        ("fast", "random", "ultra", "ultra:K[:MODEL]") picks among the best moves."""
    def probe_many(self, positions: _Positions) -> Tuple[npt.NDArray[np.int8], npt.NDArray[np.int16]]:
        """Values (1, 0, -1: mill_solver.Outcome) and distances (-1 unknown) of many positions."""
    def probe_within(self, position: _PositionLike, turns_left: int, *, budget: Optional[int] = None) -> Dict[str, Any]:
        """Values when the game is a draw after ``turns_left`` more turns
        (``solver nine probe --turns-left``; exact, or ``BudgetError``)."""
    def best_within(self, position: _PositionLike, turns_left: int, *, budget: Optional[int] = None) -> Optional[Dict[str, Any]]:
        """The best move under the turn limit and its exact value, None when
        the game is over or no turn is left (``BudgetError`` past the budget)."""
    def __reduce__(self) -> Tuple[Any, ...]: ...
    def __copy__(self) -> Tablebases: ...
    def __deepcopy__(self, memo: Any, /) -> Tablebases: ...

_GameName = Literal["nine", "nine-noflying", "six", "lasker", "morabaraba", "three"]

@final
class Game:
    """A mill game and its tables (``Game("six", "six-tables")``): answers
    are the web API's JSON objects as dicts, positions and moves texts."""

    def __new__(
        cls,
        game: _GameName,
        directory: Union[str, os.PathLike[str]],
        *,
        hash_mib: int = 256,
        threads: Optional[int] = None,
        quiet_limit: Optional[int] = None,
    ) -> Game: ...
    @property
    def name(self) -> str: ...
    @property
    def quiet_limit(self) -> Optional[int]:
        """The count rule's limit in plies, None when played without one."""
    @property
    def title(self) -> str: ...
    @property
    def directory(self) -> pathlib.Path: ...
    @property
    def stones(self) -> int: ...
    @property
    def flying(self) -> bool: ...
    def start(self) -> str:
        """The start position's text."""
    def reading(self) -> List[str]:
        """The point names in reading order."""
    def show(self, position: Optional[str] = None) -> Dict[str, Any]:
        """The position and its legal moves (no tables needed)."""
    def play(self, position: Optional[str], moves: Union[str, Sequence[str]]) -> str:
        """The position after the moves."""
    def probe(
        self,
        position: Optional[str] = None,
        moves: Optional[Union[str, Sequence[str]]] = None,
        *,
        quiet_plies: Optional[int] = None,
    ) -> Dict[str, Any]:
        """The analysis: ``position``, ``value``, ``dtc``, ``source``, ``moves``;
        under the count rule also ``quiet_limit``, ``quiet_plies``, ``label``
        and ``plain_value``."""
    def best_move(
        self, position: Optional[str] = None, *, quiet_plies: Optional[int] = None
    ) -> Optional[Dict[str, Any]]:
        """The perfect player's move (``move``, ``value``, ``dtc``), None when the game is over."""
    def stats(self) -> Dict[str, Any]:
        """The object of ``solver <game> stats --json``."""
    def svg(self, position: Optional[str] = None) -> str:
        """The board as SVG."""

def encode_positions(positions: _Positions) -> npt.NDArray[np.uint32]:
    """Rows ``[white, black, to_move, white_hand, black_hand]`` of shape (n, 5)."""

def decode_positions(array: _Positions) -> List[Position]:
    """The positions of an (n, 5) array of rows (inverse of encode_positions)."""

def three_probe(position: Optional[str] = None, moves: str = "") -> Dict[str, Any]:
    """Three Men's Morris: the object of ``solver three probe --json``."""

def toguz_search(
    position: Optional[str] = None,
    *,
    time: Optional[float] = None,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    threads: int = 1,
    hash_mib: int = 64,
) -> Dict[str, Any]:
    """Toguz Kumalak: the object of ``solver toguz search --json``."""
