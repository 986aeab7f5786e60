"""Orders, leaders and margins derived from scores, in the game's own score direction.

A game declares whether a lower score is better (``Game.lower_score_wins``, read through
``Game.score_sign()``: +1 when higher is better, -1 when lower is). Everything that derives
an order, a leader, a margin or a reward from raw scores goes through these helpers with
that sign, so that no consumer assumes "higher is better" by accident:

* ``oriented(scores, sign)``: the scores turned so that higher is always better;
* ``competition_ranks(keys)``: 1-based places with ties sharing the best place ("1224");
* ``standing_keys``: a seat's standing (share of the win, then oriented score), as
  tournaments rank seats;
* ``score_places`` and ``best_first``: places and the seats' order by score;
* ``leaders`` / ``sole_leader`` / ``leaders_share``: who holds the best score now;
* ``winner_margin`` / ``relative_margin``: the best score's lead over the runner-up.

Winners stay the game's own ``winners()``; these helpers only order scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

HIGHER_IS_BETTER = 1
LOWER_IS_BETTER = -1


# A standing key: a score, or a tuple compared item by item (share of the win, then score).
_Key = TypeVar("_Key", float, tuple[float, ...])


def checked_sign(sign: int) -> int:
    """``sign`` itself, once it is +1 or -1 (a programming error otherwise)."""
    if sign not in (HIGHER_IS_BETTER, LOWER_IS_BETTER):
        raise ValueError(f"a score sign is +1 (higher is better) or -1 (lower is better), not {sign!r}")
    return sign


def oriented(scores: Sequence[float], sign: int) -> tuple[float, ...]:
    """Each score times ``sign``: higher is better in the result whatever the game's direction."""
    checked_sign(sign)
    return tuple(float(sign * score) for score in scores)


def competition_ranks(keys: Sequence[_Key]) -> list[int]:
    """1-based places from keys where higher is better; equal keys share the best of their places.

    Standard competition ranking: keys ``(5, 7, 7, 1)`` give places ``[3, 1, 1, 4]``.
    """
    return [1 + sum(1 for other in keys if mine < other) for mine in keys]


def standing_keys(
    returns: Sequence[float], scores: Sequence[float], sign: int
) -> list[tuple[float, float]]:
    """Each seat's standing, higher is better: its share of the win, then its oriented score.

    The game's winners come first whatever their scores; among seats with the same share
    the better score in the game's direction ranks higher.
    """
    return [(float(r), s) for r, s in zip(returns, oriented(scores, sign), strict=True)]


def score_places(scores: Sequence[float], sign: int) -> list[int]:
    """Each seat's place by score alone in the game's direction (ties share a place)."""
    return competition_ranks(oriented(scores, sign))


def best_first(scores: Sequence[float], sign: int) -> list[int]:
    """The seats ordered from the best score to the worst (ties keep seat order)."""
    turned = oriented(scores, sign)
    return sorted(range(len(turned)), key=lambda seat: (-turned[seat], seat))


def leaders(scores: Sequence[float], sign: int) -> tuple[int, ...]:
    """The seats holding the best score in the game's direction (several when tied; none for no seats)."""
    turned = oriented(scores, sign)
    if not turned:
        return ()
    best = max(turned)
    return tuple(seat for seat, value in enumerate(turned) if value == best)


def sole_leader(scores: Sequence[float], sign: int) -> int | None:
    """The one seat with the best score, or ``None`` when several share it."""
    ahead = leaders(scores, sign)
    return ahead[0] if len(ahead) == 1 else None


def leaders_share(scores: Sequence[float], sign: int) -> tuple[float, ...]:
    """Each seat's share of a win given to the best score (ties share it equally)."""
    ahead = leaders(scores, sign)
    share = 1.0 / len(ahead) if ahead else 0.0
    return tuple(share if seat in ahead else 0.0 for seat in range(len(scores)))


def winner_margin(scores: Sequence[float], sign: int) -> float | None:
    """How far the best score is ahead of the runner-up's, in points (never negative).

    ``None`` with fewer than two seats. For a lowest-score-wins game this is the
    runner-up's score minus the best (lowest) one.
    """
    turned = sorted(oriented(scores, sign), reverse=True)
    if len(turned) < 2:
        return None
    return turned[0] - turned[1]


def relative_margin(scores: Sequence[float], sign: int) -> float | None:
    """``winner_margin`` as a share of the larger of the two scores it compares (in magnitude).

    With higher-is-better and scores of zero or more this is the margin as a share of the
    winner's score; with lower-is-better it is a share of the runner-up's (the larger), so
    a winner on zero points still gets a finite figure. ``None`` when both scores are zero
    or there are fewer than two seats.
    """
    margin = winner_margin(scores, sign)
    if margin is None:
        return None
    top_two = sorted(oriented(scores, sign), reverse=True)[:2]
    scale = max(abs(value) for value in top_two)
    return margin / scale if scale > 0 else None
