"""Passwords after NIST SP 800-63B (revision 4), hashed with argon2id.

The rules (docs/web.md, "Accounts"): a password alone signs in, so it has at least
``MIN_PASSWORD`` characters; up to ``MAX_PASSWORD`` are accepted, any Unicode (spaces and
emoji included), NFKC-normalised before hashing so that the same text typed on two keyboards
is the same password. There are no composition rules (no "one digit, one capital") and no
forced changes. Refused: passwords on a blocklist of common and breached ones
(``common_passwords.txt``), one character repeated, and passwords that are the display name
or this site's name with padding.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib import resources

from argon2 import Parameters, PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from gamebag.core.errors import GamebagError
from gamebag.web.words.text import N_, _

MIN_PASSWORD, MAX_PASSWORD = 15, 128  # characters, after normalisation
CONTEXT_WORDS = ("gamebag",)  # words of this service a password must not just be

PASSWORD_TEXTS = {
    "type": N_("A password is text."),
    "short": N_("A password has at least {least} characters; a few words in a row make a good one."),
    "long": N_("A password has at most {most} characters."),
    "common": N_("This password is on a list of common or leaked passwords; choose another."),
    "name": N_("A password must not be your name or this site's name; choose another."),
}

# argon2id with the library's defaults (RFC 9106's second recommended setting, 64 MiB, 3 passes).
_HASHER = PasswordHasher()


def use_parameters(parameters: Parameters | None) -> None:
    """Hash with other argon2 parameters from now on (None: the defaults). For tests, which use
    ``argon2.profiles.CHEAPEST`` so that a sign-up costs milliseconds, not a second of a busy CPU."""
    global _HASHER
    _HASHER = PasswordHasher() if parameters is None else PasswordHasher.from_parameters(parameters)
    _dummy_hash.cache_clear()


class BadPasswordError(GamebagError, ValueError):
    """A password that the rules refuse (the message says which rule, in players' words)."""


@cache
def _blocklist() -> frozenset[str]:
    text = resources.files("gamebag.web.people").joinpath("common_passwords.txt").read_text("utf-8")
    lines = (line.strip() for line in text.splitlines())
    return frozenset(line.casefold() for line in lines if line and not line.startswith("#"))


def normalise_password(given: str) -> str:
    """The password as it is hashed: NFKC (SP 800-63B's advice for Unicode passwords)."""
    return unicodedata.normalize("NFKC", given)


def check_password(given: object, name: str = "") -> str:
    """The normalised password, or ``BadPasswordError`` naming the rule it breaks."""
    if not isinstance(given, str):
        raise BadPasswordError(_(PASSWORD_TEXTS["type"]))
    password = normalise_password(given)
    if len(password) < MIN_PASSWORD:
        raise BadPasswordError(_(PASSWORD_TEXTS["short"], least=MIN_PASSWORD))
    if len(password) > MAX_PASSWORD:
        raise BadPasswordError(_(PASSWORD_TEXTS["long"], most=MAX_PASSWORD))
    folded = password.casefold()
    if folded in _blocklist() or len(set(folded)) == 1:
        raise BadPasswordError(_(PASSWORD_TEXTS["common"]))
    for word in (name, *CONTEXT_WORDS):
        # The name (or this site's) repeated or padded with digits and symbols is no password.
        rest = folded.replace(word.casefold(), "") if len(word) >= 2 else folded
        if rest != folded and not any(character.isalpha() for character in rest):
            raise BadPasswordError(_(PASSWORD_TEXTS["name"]))
    return password


def hash_password(password: str) -> str:
    """The argon2id hash (PHC string) of a checked, normalised password."""
    return _HASHER.hash(password)


def verify_password(stored_hash: str, given: str) -> bool:
    """Whether ``given`` is the password ``stored_hash`` was made from."""
    if len(given) > 4 * MAX_PASSWORD:  # bounded: a megabyte "password" costs no hashing
        return False
    try:
        return _HASHER.verify(stored_hash, normalise_password(given))
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored_hash: str) -> bool:
    """Whether a stored hash uses older parameters than today's (rehashed at the next sign-in)."""
    return _HASHER.check_needs_rehash(stored_hash)


@cache
def _dummy_hash() -> str:
    return _HASHER.hash("a password nobody has, to spend the same time")


def spend_verify_time(given: str) -> None:
    """Verify against a dummy hash: an unknown name costs the same time as a wrong password."""
    verify_password(_dummy_hash(), given)
