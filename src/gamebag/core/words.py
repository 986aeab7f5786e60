"""Counted nouns in words for the text front ends: "1 coin", "3 coins", never "coin(s)"."""

from __future__ import annotations


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """``count`` and the noun in the right number: ``counted(1, "eel")`` is ``"1 eel"``."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"
