"""Random positions for the tests (independent of the module under test:
plain Python over the position text)."""

import random
from typing import List, Optional


def board_text(rng: random.Random, white: int, black: int) -> str:
    points = rng.sample(range(24), white + black)
    cells = ["."] * 24
    for p in points[:white]:
        cells[p] = "W"
    for p in points[white:]:
        cells[p] = "B"
    return "".join(cells)


def moving_position(rng: random.Random, max_stones: int = 8) -> str:
    """A moving-phase position with 3..max_stones-3 stones a side and at most
    max_stones in all (the side to move may be blocked)."""
    white = rng.randint(3, max_stones - 3)
    black = rng.randint(3, max_stones - white)
    return f"{board_text(rng, white, black)} {rng.choice('wb')} 0 0"


def placement_position(rng: random.Random, max_stones: int = 8) -> Optional[str]:
    """A placement position whose material (board and hand) is 3..5 a side
    and at most max_stones in all, so it needs only the small tables."""
    white = rng.randint(3, 5)
    black = rng.randint(3, min(5, max_stones - white))
    side = rng.choice("wb")
    # Hands: the side to move has as many as the other side, or one more.
    other_hand = rng.randint(0, min(white, black) - 1)
    mover_hand = other_hand + rng.randint(0, 1)
    if mover_hand == 0:
        mover_hand = other_hand = 1
    hands = {"w": mover_hand, "b": other_hand} if side == "w" else {"b": mover_hand, "w": other_hand}
    on_board_w = white - hands["w"]
    on_board_b = black - hands["b"]
    if on_board_w < 0 or on_board_b < 0:
        return None
    return f"{board_text(rng, on_board_w, on_board_b)} {side} {hands['w']} {hands['b']}"


def finished_position(rng: random.Random) -> str:
    """A finished game: the side to move has 2 stones."""
    other = rng.randint(3, 6)
    side = rng.choice("wb")
    white, black = (2, other) if side == "w" else (other, 2)
    return f"{board_text(rng, white, black)} {side} 0 0"


def sample(rng: random.Random, n_moving: int, n_placement: int) -> List[str]:
    out = [moving_position(rng) for _ in range(n_moving)]
    out += [finished_position(rng) for _ in range(max(1, n_moving // 40))]
    n_moving = len(out)
    while len(out) < n_moving + n_placement:
        p = placement_position(rng)
        if p is not None:
            out.append(p)
    return out


def probe_in_worker(tables, texts):
    """Run in a multiprocessing worker (test_pickle.py): the worker's pid,
    the analyses of `texts` and their batch probe, from a `Tablebases` that
    came pickled."""
    import os

    values, dtc = tables.probe_many(texts)
    return os.getpid(), [tables.probe(t) for t in texts], values.tolist(), dtc.tolist()


def probe_one_in_worker(tables, text):
    """One probe in a worker (its errors travel back pickled)."""
    return tables.probe(text)
