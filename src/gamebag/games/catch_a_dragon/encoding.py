"""Record and command-line encodings of Catch A Dragon actions and rolls.

A collection or a roll is written as a list of colour names (``["gold", "gray"]``)
or face numbers (``[2, 6]``), in any order; a plain string such as
``"gold gray"`` or ``"2,6"`` is read the same way (for typing at a terminal).
The stop/continue decision is ``"stop"`` or ``"roll"``.
"""

from __future__ import annotations

from typing import Any

from gamebag.core.errors import IllegalActionError, IllegalChanceOutcomeError
from gamebag.games.catch_a_dragon.dice import FACES, Dice
from gamebag.games.catch_a_dragon.translation import _

STOP = "stop"
ROLL = "roll"


class FaceNames:
    """The colour of each face under the ``faces`` option, and back."""

    def __init__(self, colours: tuple[str, ...]) -> None:
        self.colours = colours
        self._faces = {colour: face for face, colour in zip(FACES, colours, strict=True)}

    def colour(self, face: int) -> str:
        return self.colours[face - 1]

    def colour_list(self, faces: Dice) -> list[str]:
        return [self.colour(face) for face in faces]

    def describe(self, faces: Dice) -> str:
        """``"gold, blue"``; ``"nothing"`` for an empty set."""
        return ", ".join(self.colour_list(faces)) if faces else "nothing"

    def face(self, item: Any) -> int | None:
        """The face a colour name or face number stands for, or None."""
        if isinstance(item, bool):
            return None
        if isinstance(item, int):
            return item if item in FACES else None
        if isinstance(item, str):
            text = item.strip().lower()
            if text.isdigit():
                return int(text) if int(text) in FACES else None
            return self._faces.get(text)
        return None

    def parse_faces(self, data: Any) -> Dice | None:
        """Sorted faces from a list or a space/comma-separated string; None if malformed."""
        items: list[Any]
        if isinstance(data, str):
            items = data.replace(",", " ").split()
        elif isinstance(data, list | tuple):
            items = list(data)
        else:
            return None
        faces = [self.face(item) for item in items]
        if not faces or any(f is None for f in faces):
            return None
        return tuple(sorted(f for f in faces if f is not None))


def parse_action(data: Any, names: FaceNames) -> Dice | str:
    """Decode ``"stop"``, ``"roll"`` or a collection; raises ``IllegalActionError``."""
    if isinstance(data, str) and data.strip().lower() in (STOP, ROLL):
        return data.strip().lower()
    faces = names.parse_faces(data)
    if faces is None:
        example = f'["{names.colour(2)}", "{names.colour(6)}"]'
        raise IllegalActionError(
            _(
                "{action} is not a Catch A Dragon action: write 'stop', 'roll', or the dice to collect "
                "as a list of colours ({colours}) or face numbers 1 to 6, e.g. {example}",
                action=repr(data),
                colours=", ".join(names.colours),
                example=example,
            )
        )
    return faces


def parse_roll(data: Any, names: FaceNames) -> Dice:
    """Decode a roll (the faces rolled, any order); raises ``IllegalChanceOutcomeError``."""
    faces = names.parse_faces(data)
    if faces is None:
        raise IllegalChanceOutcomeError(
            _(
                "{roll} is not a roll: write the faces rolled as a list of colours ({colours}) or face "
                "numbers 1 to 6",
                roll=repr(data),
                colours=", ".join(names.colours),
            )
        )
    return faces
