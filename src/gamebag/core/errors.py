"""The exception hierarchy of gamebag.

Every error a user can cause is a ``GamebagError``, and each one also derives
from ``ValueError``, so callers that only know the standard library still catch
it. None derives from ``KeyError``, whose message is the repr of a key rather
than a sentence.
"""

from __future__ import annotations


class GamebagError(Exception):
    """Base class of every error gamebag raises on purpose."""


class UnknownGameError(GamebagError, ValueError):
    """A game id that is not in the registry."""


class OptionError(GamebagError, ValueError):
    """An option that is unknown, of the wrong type, or out of range."""


class PlayerCountError(OptionError):
    """A player count the rulebook does not allow."""


class IllegalActionError(GamebagError, ValueError):
    """An action (or joint action) the rules forbid in this state.

    The state it was applied to is unchanged: states are immutable.
    """


class IllegalChanceOutcomeError(IllegalActionError):
    """A chance outcome that cannot happen in this state (used when replaying records)."""


class RecordError(GamebagError, ValueError):
    """A game record that is malformed or breaks a rule.

    ``event_index`` is the 0-based index of the offending event, or ``None`` when
    the problem is in the record's header.
    """

    def __init__(self, message: str, event_index: int | None = None) -> None:
        self.event_index = event_index
        self.reason = message
        from gamebag.core.translation import _

        if event_index is None:
            super().__init__(_("record header: {reason}", reason=message))
        else:
            super().__init__(_("event {index}: {reason}", index=event_index, reason=message))


class UnknownAgentError(GamebagError, ValueError):
    """An agent name or agent parameter that does not exist."""
