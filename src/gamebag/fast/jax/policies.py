"""What the JAX engines' compiled policies share: the check of a seat-by-seat policy list."""

from __future__ import annotations

from collections.abc import Sequence


def check_policies(policies: Sequence[str], players: int, allowed: Sequence[str]) -> None:
    """A clear error (raised while tracing, before anything runs) for a policy list that does not fit."""
    if len(policies) != players or any(name not in allowed for name in policies):
        raise ValueError(f"give one policy per seat ({players} in all) from {', '.join(allowed)}; got {list(policies)}")
