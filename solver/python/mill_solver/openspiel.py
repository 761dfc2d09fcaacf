"""OpenSpiel's ``nine_mens_morris`` and the mill_solver tablebases.

OpenSpiel numbers the 24 points in reading order, exactly as our position
text does (``a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2
a1 d1 g1`` are 0..23), and has 600 actions:

* ``p`` (0..23): place a stone on point ``p``, or, right after a move that
  closed a mill, remove the opponent's stone on ``p`` (a separate action of
  the same player: OpenSpiel's "capture" state);
* ``24 + 24 * src + dst``: slide (or, with three stones, fly) from ``src`` to
  ``dst``.

Our moves are atomic (``d6-d5xg7`` is one move), so a move that closes a
mill is two OpenSpiel actions. :class:`Snapshot` is our view of any
OpenSpiel state: the :class:`~mill_solver.Position` at the start of the
current turn, the part of the move already played in a capture state, and
the turn number. OpenSpiel ends the game as a draw once 200 turns (a move
with its removal is one turn) have been played; :func:`action_values`
gives every action's value under that limit, exactly (an AND/OR search over
the tables, ``mill::horizon``), and :class:`PerfectBot` plays by it. See
``docs/python.md``.
"""

from __future__ import annotations

import dataclasses
from typing import Dict, List, Literal, Optional, Sequence, Tuple

import pyspiel

from ._native import Analysis, BudgetError, Move, MoveValue, Position, Tablebases

__all__ = [
    "GAME",
    "MAX_TURNS",
    "ActionValue",
    "PerfectBot",
    "Snapshot",
    "action_values",
    "decode_action",
    "move_action",
    "move_to_actions",
]

#: OpenSpiel's short name of the game.
GAME = "nine_mens_morris"
#: Points of the board.
NUM_POINTS = 24
#: OpenSpiel's turn limit (``kMaxNumTurns``): the game is a draw once this
#: many turns have been played.
MAX_TURNS = 200

# Where OpenSpiel's ToString() draws each point: (row, column) in 16-character
# lines (kPointStrCoords in nine_mens_morris.cc), and the empty drawing.
_COORDS = [
    (0, 0), (0, 7), (0, 14), (2, 2), (2, 7), (2, 12), (4, 4), (4, 7),
    (4, 10), (6, 0), (6, 2), (6, 4), (6, 10), (6, 12), (6, 14), (8, 4),
    (8, 7), (8, 10), (10, 2), (10, 7), (10, 12), (12, 0), (12, 7), (12, 14),
]  # fmt: skip
_BOARD = (
    ".------.------.\n"
    "|      |      |\n"
    "| .----.----. |\n"
    "| |    |    | |\n"
    "| | .--.--. | |\n"
    "| | |     | | |\n"
    ".-.-.     .-.-.\n"
    "| | |     | | |\n"
    "| | .--.--. | |\n"
    "| |    |    | |\n"
    "| .----.----. |\n"
    "|      |      |\n"
    ".------.------.\n\n"
)
_CAPTURE = "Last move formed a mill. Capture time!"
_CELL = {".": 0, "W": 1, "B": 2}
_CHAR = ".WB"
_COLOR: List[Literal["w", "b"]] = ["w", "b"]


def move_action(src: int, dst: int) -> int:
    """The OpenSpiel action that moves a stone from ``src`` to ``dst``."""
    return NUM_POINTS + src * NUM_POINTS + dst


def decode_action(action: int) -> Tuple[Optional[int], int]:
    """``(None, p)`` for a placement or removal on ``p``, ``(src, dst)`` for
    a slide or fly."""
    if not 0 <= action < NUM_POINTS * (NUM_POINTS + 1):
        raise ValueError(f"not a nine_mens_morris action: {action}")
    if action < NUM_POINTS:
        return None, action
    return divmod(action - NUM_POINTS, NUM_POINTS)


def move_to_actions(move: Move) -> List[int]:
    """The OpenSpiel actions of one of our moves: one, or two when it
    removes a stone (the move, then the removal)."""
    if move.from_point is None:
        first = move.to_point
    else:
        first = move_action(move.from_point, move.to_point)
    return [first] if move.removal is None else [first, move.removal]


def _check_tables(tables: Tablebases) -> None:
    if not tables.flying:
        raise ValueError(
            "OpenSpiel's nine_mens_morris lets a side with three stones fly: "
            "use tables generated with flying (without --no-flying)"
        )


def _check_game(state: "pyspiel.State") -> None:
    name = state.get_game().get_type().short_name
    if name != GAME:
        raise ValueError(f"expected a {GAME} state, found a {name} state")


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """Our view of an OpenSpiel ``nine_mens_morris`` state.

    ``position`` is the position at the start of the current turn (in a
    capture state: before the move that closed the mill), ``pending`` the
    ``(src, dst)`` of that move (``src`` is ``None`` for a placement) while
    its removal is still to be chosen, ``turn`` OpenSpiel's turn number
    (turns completed so far).
    """

    position: Position
    pending: Optional[Tuple[Optional[int], int]] = None
    turn: int = 0

    @staticmethod
    def from_state(state: "pyspiel.State") -> "Snapshot":
        """Read an OpenSpiel state (its board, side to move, stones to
        deploy, turn number and, in a capture state, the last action)."""
        _check_game(state)
        text = str(state)
        lines = text.split("\n")
        cells = [_CELL[lines[r][c]] for r, c in _COORDS]
        fields = {}
        for line in lines[14:]:
            key, sep, value = line.partition(": ")
            if sep:
                fields[key] = value
        player = "WB".index(fields["Current player"])
        turn = int(fields["Turn number"])
        hands = [int(x) for x in fields["Men to deploy"].split()]
        pending = None
        if _CAPTURE in text:
            src, dst = decode_action(state.history()[-1])
            cells[dst] = 0
            if src is None:
                hands[player] += 1
            else:
                cells[src] = player + 1
            pending = (src, dst)
        position = Position.from_board(cells, _COLOR[player], (hands[0], hands[1]))
        return Snapshot(position, pending, turn)

    @property
    def player(self) -> int:
        """The OpenSpiel player to act: 0 (White) or 1 (Black)."""
        return _COLOR.index(self.position.to_move)

    @property
    def turns_left(self) -> int:
        """Turns OpenSpiel still allows, counting the current one."""
        return MAX_TURNS - self.turn

    def legal_moves(self, flying: bool = True) -> List[Move]:
        """Our legal moves that the state still allows: all of them, or in a
        capture state those that play ``pending`` and remove a stone."""
        moves = self.position.legal_moves(flying)
        if self.pending is None:
            return moves
        return [
            m
            for m in moves
            if (m.from_point, m.to_point) == self.pending and m.removal is not None
        ]

    def action_of(self, move: Move) -> int:
        """The next OpenSpiel action of ``move`` (one of
        :meth:`legal_moves`): its removal in a capture state, otherwise its
        placement or slide."""
        actions = move_to_actions(move)
        return actions[1] if self.pending is not None else actions[0]

    def legal_actions(self, flying: bool = True) -> List[int]:
        """The OpenSpiel actions our legal moves give, sorted."""
        return sorted({self.action_of(m) for m in self.legal_moves(flying)})

    def moves_for_action(self, action: int, flying: bool = True) -> List[Move]:
        """Our moves that begin with (or, in a capture state, end with)
        ``action``: several when a placement or slide closes a mill and may
        remove any of several stones; empty when it is not legal."""
        return [m for m in self.legal_moves(flying) if self.action_of(m) == action]

    def to_string(self) -> str:
        """The state as OpenSpiel's ``str(state)`` draws it."""
        cells = list(self.position.board)
        hands = list(self.position.hands)
        player = self.player
        if self.pending is not None:
            src, dst = self.pending
            if src is None:
                hands[player] -= 1
            else:
                cells[src] = 0
            cells[dst] = player + 1
        drawing = list(_BOARD)
        for (r, c), cell in zip(_COORDS, cells):
            drawing[r * 16 + c] = _CHAR[cell]
        men = [hands[k] + sum(1 for x in cells if x == k + 1) for k in (0, 1)]
        return (
            "".join(drawing)
            + f"Current player: {'WB'[player]}\n"
            + f"Turn number: {self.turn}\n"
            + f"Men to deploy: {hands[0]} {hands[1]}\n"
            + f"Num men: {men[0]} {men[1]}\n"
            + (_CAPTURE if self.pending is not None else "")
        )


@dataclasses.dataclass(frozen=True)
class ActionValue:
    """The value of one OpenSpiel action for the player taking it.

    ``value`` (``"win"``, ``"draw"`` or ``"loss"``) and ``dtc`` (plies to
    conversion, this turn included; ``None`` for draws and in the placement
    phase) are perfect play without a turn limit, through the best of our
    moves behind the action (``move``). ``limit_value`` is the value under
    OpenSpiel's rules, where the game is a draw once 200 turns have been
    played: a win counts only if it can be forced before the limit, a loss
    only if the opponent can force it. In the moving phase it comes from an
    exact search over the tables (:meth:`Tablebases.probe_within`) and
    ``exact`` is true. ``exact`` is false when the search ran out of its
    budget, and for a decisive placement-phase value (nothing proves there
    that the win fits the turns left); ``limit_value`` is then ``value``
    unless ``dtc`` alone exceeds the turns left (a draw). A draw is a draw
    under any limit (exact). ``beyond_limit``: a win or loss of the tables
    that the limit makes a draw.
    """

    action: int
    value: str
    dtc: Optional[int]
    beyond_limit: bool
    move: Move
    limit_value: str
    exact: bool

    @property
    def openspiel_value(self) -> float:
        """+1 win, 0 draw, -1 loss for the acting player under OpenSpiel's
        turn limit (``limit_value``; check ``exact``)."""
        return {"win": 1.0, "draw": 0.0, "loss": -1.0}[self.limit_value]


def _rank(v: ActionValue) -> Tuple[int, int]:
    """Sort key, smaller is better: wins under the turn limit (fastest
    conversion first), then the tables' wins the limit makes draws
    (fastest first), draws, the tables' losses the limit makes draws
    (slowest first), losses (slowest first)."""
    d = v.dtc or 0
    if v.limit_value == "win":
        return (0, d)
    if v.limit_value == "draw":
        if v.value == "win":
            return (1, d)
        if v.value == "draw":
            return (2, 0)
        return (3, -d)
    return (4, -d)


def _values(
    snapshot: Snapshot,
    moves: Sequence[MoveValue],
    within: Optional[Dict[str, str]] = None,
) -> Dict[int, ActionValue]:
    """Action values of our moves: ``within`` maps a move's text to its
    value under the limit (exact); without it, the bound of the distance
    to conversion only (not exact for a win or loss)."""
    allowed = set(snapshot.legal_moves())
    out: Dict[int, ActionValue] = {}
    for mv in moves:
        if mv.move not in allowed:
            continue
        if within is not None:
            limit = within[str(mv.move)]
            exact = True
        else:
            past = mv.dtc is not None and mv.dtc > snapshot.turns_left
            limit = "draw" if past else mv.value
            exact = mv.value == "draw" or past
        beyond = mv.value != "draw" and limit == "draw"
        candidate = ActionValue(
            snapshot.action_of(mv.move), mv.value, mv.dtc, beyond, mv.move, limit, exact
        )
        old = out.get(candidate.action)
        if old is None or _rank(candidate) < _rank(old):
            out[candidate.action] = candidate
    return out


def _limited_values(
    tables: Tablebases, snapshot: Snapshot, budget: Optional[int]
) -> Dict[int, ActionValue]:
    """Every legal action's values, under the limit by the exact search in
    the moving phase (falling back to ``exact=False`` values when the
    search exceeds ``budget``)."""
    analysis: Analysis = tables.probe(snapshot.position)
    if snapshot.position.placing or not analysis.moves:
        return _values(snapshot, analysis.moves)
    try:
        answer = tables.probe_within(snapshot.position, snapshot.turns_left, budget=budget)
    except BudgetError:
        return _values(snapshot, analysis.moves)
    within = {m["move"]: m["value"] for m in answer["moves"]}
    return _values(snapshot, analysis.moves, within)


def action_values(
    tables: Tablebases, state: "pyspiel.State", *, budget: Optional[int] = None
) -> Dict[int, ActionValue]:
    """The value of every legal action of ``state`` for the player to act,
    keyed by action (empty for a terminal state), without and under
    OpenSpiel's turn limit. Moving-phase states are answered from the
    tables and the exact search under the limit (``budget``: positions it
    may expand, default 5,000,000; past it the values are marked
    ``exact=False``); placement states go through the placement search
    (every move's value: about a minute for the empty board, seconds late
    in placement), and need the tables of 9 stones."""
    _check_game(state)
    _check_tables(tables)
    if state.is_terminal():
        return {}
    return _limited_values(tables, Snapshot.from_state(state), budget)


class PerfectBot(pyspiel.Bot):
    """A ``pyspiel.Bot`` that plays ``nine_mens_morris`` perfectly from the
    tablebases under OpenSpiel's turn limit: in the moving phase it plays a
    move that wins before the limit when there is one (by the exact search
    of :meth:`Tablebases.probe_within`, fastest conversion first), else
    keeps the draw (a win of the tables first, then a draw, then a loss the
    limit makes a draw), else delays the loss; in the placement phase it
    plays the placement search's best move. It searches only as far as its
    choice needs (:meth:`Tablebases.best_within`). ``budget`` bounds the
    search as in :func:`action_values` (past it the bot ranks by the
    distance to conversion alone).

    ``PerfectBot(tables)`` where ``tables`` is a
    :class:`~mill_solver.Tablebases` (all 49 subspaces for games from the
    empty board). Use it like any OpenSpiel bot: ``action = bot.step(state)``.

    ``policy`` ("random", "ultra", "ultra:K[:MODEL]"; docs/policies.md)
    picks among the moves of the best value when the bot is not winning
    (a win is converted as above), ``seed`` seeds its random choices; it
    needs the tables of the position (placement positions: the placement
    tables), else the bot plays as without a policy.
    """

    def __init__(
        self,
        tables: Tablebases,
        player_id: Optional[int] = None,
        policy: Optional[str] = None,
        seed: int = 1,
        budget: Optional[int] = None,
    ) -> None:
        pyspiel.Bot.__init__(self)
        _check_tables(tables)
        self._tables = tables
        self._player_id = player_id
        self._policy = None if policy in (None, "fast") else policy
        self._seed = seed
        self._budget = budget
        # Moves chosen by the policy so far: each draws from its own seed.
        self._chosen = 0
        # (history that leads to the capture state, removal) of the move
        # chosen last, so a capture needs no second search.
        self._plan: Optional[Tuple[Tuple[int, ...], int]] = None

    def player_id(self) -> Optional[int]:
        """The player this bot was created for, if given."""
        return self._player_id

    def restart_at(self, state: "pyspiel.State") -> None:
        """Forget the removal planned for a capture state (a new game or
        position)."""
        self._plan = None

    def restart(self) -> None:
        """Forget the removal planned for a capture state."""
        self._plan = None

    def provides_policy(self) -> bool:
        """False: the bot chooses an action, it gives no policy."""
        return False

    def best_move(self, state: "pyspiel.State") -> Move:
        """Our move the bot plays in ``state`` (its first action now, its
        removal next if any)."""
        _check_game(state)
        if state.is_terminal():
            raise ValueError("the game is over")
        snapshot = Snapshot.from_state(state)
        position = snapshot.position
        if snapshot.pending is not None and self._plan is not None:
            history, removal = self._plan
            if history == tuple(state.history()):
                for m in snapshot.legal_moves():
                    if m.removal == removal:
                        return m
        if snapshot.pending is None and position.placing:
            best = self._policy_move(position) or self._tables.best_move(position)
            if best is None:
                raise ValueError("no legal move")
            return best.move
        if snapshot.pending is None:
            # The best move alone (the search stops at the first move that
            # wins in time, or holds the draw).
            try:
                within = self._tables.best_within(position, snapshot.turns_left, budget=self._budget)
            except BudgetError:
                values = _values(snapshot, self._tables.probe(position).moves)
            else:
                if within is None:
                    raise ValueError("no legal move")
                # The policy chooses among the tables' best moves: only when
                # the limit changes nothing for the bot (not winning, and a
                # loss under the limit only if the tables say loss).
                if within["table_value"] != "win" and within["value"] == within["table_value"]:
                    chosen = self._policy_move(position)
                    if chosen is not None:
                        return chosen.move
                return Move.parse(position, str(within["move"]))
        else:
            # A capture state the bot did not plan: every action's value.
            values = _limited_values(self._tables, snapshot, self._budget)
        if not values:
            raise ValueError("no legal move")
        best_value = min(values.values(), key=_rank)
        if (
            snapshot.pending is None
            and best_value.value != "win"
            and best_value.limit_value == best_value.value
        ):
            chosen = self._policy_move(position)
            if chosen is not None:
                return chosen.move
        return best_value.move

    def _policy_move(self, position: Position) -> Optional[MoveValue]:
        """The policy's move, None without a policy."""
        if self._policy is None:
            return None
        self._chosen += 1
        return self._tables.best_move(
            position, policy=self._policy, seed=self._seed + self._chosen
        )

    def step(self, state: "pyspiel.State") -> int:
        """The bot's action in ``state``."""
        move = self.best_move(state)
        snapshot_pending = _CAPTURE in str(state)
        actions = move_to_actions(move)
        if snapshot_pending:
            self._plan = None
            return actions[1]
        if len(actions) == 2:
            self._plan = (tuple(state.history()) + (actions[0],), actions[1])
        else:
            self._plan = None
        return actions[0]
