"""Explicit, seeded randomness.

gamebag never touches global random state. A seed becomes a ``random.Random``
(Mersenne Twister, identical on every platform); independent streams for the
games of a simulation are derived from ``(seed, index)`` so results do not depend
on how games are split between worker processes.
"""

from __future__ import annotations

import hashlib
import random

Rng = random.Random


def make_rng(seed: int | str) -> Rng:
    """A generator for ``seed``; the same seed always gives the same stream."""
    return random.Random(_stable_int(str(seed)))


def derive_seed(seed: int | str, *path: int | str) -> int:
    """A 63-bit seed for a sub-stream named by ``path`` (for example a game index)."""
    return _stable_int(":".join([str(seed), *map(str, path)]))


def derive_rng(seed: int | str, *path: int | str) -> Rng:
    """The generator for the sub-stream ``path`` of ``seed``."""
    return random.Random(derive_seed(seed, *path))


def draw_index(rng: Rng, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``: the very same draw, without its argument handling.

    ``randrange(n)`` hands ``n`` to ``Random._randbelow``, which is this loop over
    ``getrandbits`` (the same in every CPython since 3.2; a test compares the two).
    Play loops draw an index for every choice, so the saved call matters there.
    """
    bits = n.bit_length()
    value = rng.getrandbits(bits)
    while value >= n:
        value = rng.getrandbits(bits)
    return value


def _stable_int(text: str) -> int:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1
