"""Display names: one name per person, normalised, and no two that look alike.

A name is NFC-normalised and its spaces collapsed; it is shown as typed. Two names clash when
their *look-alike keys* are equal: the key is the name in NFKC, case-folded, with each
character replaced by the plainest character Unicode's confusables data (TR39, through the
``confusable-homoglyphs`` package) says it can be mistaken for, and spaces, dots, dashes and
underscores dropped; i counts as l (a capital I looks like a small l in many fonts, and names
are compared whatever their case). So "Anna", "ANNA", "Аnna" (a Cyrillic А), "An na" are one
name, and so are "Ida", "lda" and "1da". A
name that mixes scripts with look-alike letters (the Cyrillic А among Latin letters) is
refused outright, as TR39 advises.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from confusable_homoglyphs import confusables

from gamebag.core.errors import GamebagError
from gamebag.web.words.text import N_, _

MIN_NAME, MAX_NAME = 2, 32  # characters of a display name

NAME_TEXTS = {
    "length": N_("A name has {least} to {most} characters."),
    "characters": N_("A name may hold letters, digits, spaces and . _ - only."),
    "mixed": N_("This name mixes alphabets with letters that look alike; write it in one alphabet."),
    "taken": N_("This name, or one that looks just like it, is taken; choose another."),
}
_ALLOWED_SYMBOLS = frozenset(" ._-")
_DROPPED_FROM_KEY = re.compile(r"[\s._\-]+")


class BadNameError(GamebagError, ValueError):
    """A display name that cannot be used (the message says why, in players' words)."""


def clean_name(given: object) -> str:
    """The display name as it will be shown, or ``BadNameError`` saying what is wrong with it."""
    if not isinstance(given, str):
        raise BadNameError(_(NAME_TEXTS["length"], least=MIN_NAME, most=MAX_NAME))
    name = " ".join(unicodedata.normalize("NFC", given).split())
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise BadNameError(_(NAME_TEXTS["length"], least=MIN_NAME, most=MAX_NAME))
    for character in name:
        category = unicodedata.category(character)
        if not (category[0] in "LN" or category == "Mn" or character in _ALLOWED_SYMBOLS):
            raise BadNameError(_(NAME_TEXTS["characters"]))
    if confusables.is_dangerous(name):
        raise BadNameError(_(NAME_TEXTS["mixed"]))
    return name


def _look_alikes(character: str) -> list[str]:
    found = confusables.is_confusable(character, preferred_aliases=[], greedy=True) or []
    return [h["c"] for item in found for h in item["homoglyphs"]]


@cache
def _plainest(character: str) -> str:
    """The prototype ``character`` is mistaken for (the data lists a character that is not a
    prototype with its prototype alone), followed a few steps: I to l, 1 to l, а to a."""
    for _step in range(4):
        alikes = _look_alikes(character)
        if len(alikes) != 1 or len(alikes[0]) != 1 or alikes[0] == character:
            return character  # a prototype itself (many look-alikes), or no look-alike
        target = alikes[0]
        if _look_alikes(target) == [character]:  # each the other's only look-alike: the lower one
            return min(character, target)
        character = target
    return character


def name_key(name: str) -> str:
    """The look-alike key of a (clean) name: equal keys, names that are taken for one another."""
    # Case-folded first, since names are one whatever their case; then a capital I, which many
    # fonts draw as a small l, makes i one with l (and so with 1, which the data maps to l).
    # Prototypes may be capitals (0 looks like O): folded and mapped once more.
    skeleton = unicodedata.normalize("NFKC", name)
    for _round in range(2):
        skeleton = "".join(_plainest(character) for character in unicodedata.normalize("NFKC", skeleton).casefold())
    return _DROPPED_FROM_KEY.sub("", skeleton.replace("i", "l"))
