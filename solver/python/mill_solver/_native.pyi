"""Type hints of the compiled part of mill_solver (solver/python/src/)."""

import os
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

Value = Literal["win", "draw", "loss"]
PositionLike = Union["Position", str]

class SolverError(Exception):
    """Base class of the errors raised by mill_solver."""

class PositionError(SolverError):
    """A position text that cannot be parsed, or an illegal position."""

class MoveError(SolverError):
    """A move that is not legal in its position (the message says why)."""

class TablebaseError(SolverError):
    """A tablebase directory or file that is missing, damaged or of another rule set."""

class Position:
    """A Nine Men's Morris position (immutable, hashable).

    ``Position()`` is the start position; ``Position(text)`` parses the text
    format of docs/notation.md and raises :class:`PositionError`.
    """

    def __init__(self, text: Optional[str] = None) -> None: ...
    @staticmethod
    def start() -> Position:
        """The start position ``........................ w 9 9``."""
    @staticmethod
    def from_board(board: Sequence[int], to_move: Literal["w", "b"], hands: Tuple[int, int]) -> Position:
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
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Move:
    """A legal move; points are reading-order indices 0..23 (OpenSpiel's)."""

    @staticmethod
    def parse(position: PositionLike, text: str, flying: bool = True) -> Move:
        """Parse ``text`` (``d6``, ``d6-d5``, ``d6-d5xg7``) as a legal move of ``position``."""
    @property
    def from_point(self) -> Optional[int]:
        """The point left (slides and flies), None for a placement."""
    @property
    def to_point(self) -> int: ...
    @property
    def removal(self) -> Optional[int]:
        """The opponent stone removed, None when no mill closes."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class MoveValue:
    """A legal move with its value for the side that plays it."""

    @property
    def move(self) -> Move: ...
    @property
    def value(self) -> Value: ...
    @property
    def dtc(self) -> Optional[int]:
        """Plies to conversion (moving phase), None when unknown or drawn."""

class Analysis:
    """The answer of ``solver nine probe`` about one position."""

    @property
    def position(self) -> Position: ...
    @property
    def value(self) -> Value: ...
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

class Tablebases:
    """A Nine Men's Morris tablebase directory opened for probing."""

    def __init__(
        self,
        dir: Union[str, os.PathLike[str]] = "tablebases",
        *,
        flying: bool = True,
        memory: Literal["values", "outcomes", "mapped"] = "values",
        hash_mib: int = 1024,
        threads: Optional[int] = None,
    ) -> None: ...
    @property
    def directory(self) -> str: ...
    @property
    def flying(self) -> bool: ...
    @property
    def memory(self) -> str: ...
    def probe(self, position: Optional[PositionLike] = None, moves: Optional[str] = None) -> Analysis:
        """Value, distance and every move's value (``solver nine probe``)."""
    def best_move(self, position: PositionLike) -> Optional[MoveValue]:
        """The perfect player's move, None when the game is over."""
    def probe_many(
        self, positions: Union[Sequence[PositionLike], npt.ArrayLike]
    ) -> Tuple[npt.NDArray[np.int8], npt.NDArray[np.int16]]:
        """Values (1, 0, -1) and distances (-1 unknown) of many positions."""

def encode_positions(positions: Sequence[PositionLike]) -> npt.NDArray[np.uint32]:
    """Rows ``[white, black, to_move, white_hand, black_hand]`` of shape (n, 5)."""

def decode_positions(array: npt.ArrayLike) -> List[Position]:
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
