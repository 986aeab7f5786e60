"""A table's coach setting: the host's offer, each human seat's consent, and when the coach was on.

The coach (``gamebag.analysis.coach``) is off by default. It is **on** only while the host offers it
and every human seat of the table has agreed: a seat that has not agreed (one whose link the host
re-issued, a person arriving later, or one who took consent back) keeps it off for everyone.
The setting is stored with the table (``TableConfig.coach``, JSON text) and every change goes
through ``changed``, which enforces those rules; ``periods`` remembers the steps between which the
coach was on, for the record (``docs/records.md``: ``meta.coach``).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any

from gamebag.core.errors import GamebagError
from gamebag.web.words.text import _


class CoachError(GamebagError, ValueError):
    """A coach request the table's rules refuse (consent without an offer, a bot's seat)."""


@dataclass(frozen=True)
class CoachSetting:
    """The host's offer, the seats that agreed, and the steps ``[from, to]`` the coach was on (``to``
    None while it is on)."""

    offered: bool = False
    agreed: frozenset[int] = frozenset()
    periods: tuple[tuple[int, int | None], ...] = field(default=())

    # ---- reading ---------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str | None) -> CoachSetting:
        """The setting stored as ``text`` (empty: never offered)."""
        if not text:
            return cls()
        data = json.loads(text)
        periods = tuple((int(start), None if end is None else int(end)) for start, end in data.get("periods", ()))
        return cls(bool(data.get("offered")), frozenset(int(s) for s in data.get("agreed", ())), periods)

    def dump(self) -> str:
        data = {"offered": self.offered, "agreed": sorted(self.agreed), "periods": [list(p) for p in self.periods]}
        return json.dumps(data, separators=(",", ":"))

    def is_on(self, humans: Collection[int]) -> bool:
        """On: offered, and every human seat (there is at least one) agreed."""
        return self.offered and bool(humans) and set(humans) <= self.agreed

    def public(self, humans: Collection[int]) -> dict[str, Any]:
        """What every reader of the table sees (spectators too): offered, who agreed, on or off."""
        return {
            "offered": self.offered,
            "agreed": sorted(self.agreed & set(humans)),
            "humans": sorted(humans),
            "on": self.is_on(humans),
        }

    def note(self) -> dict[str, Any] | None:
        """What the record says (``meta.coach``): the steps the coach was on; None if it never was."""
        if not self.periods:
            return None
        return {"on": [[start, end] for start, end in self.periods]}

    # ---- changing --------------------------------------------------------------------------
    def changed(
        self,
        humans: Collection[int],
        step: int,
        *,
        offer: bool | None = None,
        seat: int | None = None,
        agree: bool | None = None,
        forget: int | None = None,
    ) -> CoachSetting:
        """The setting after one change, with the periods it was on kept up to date.

        ``offer``: the host offers the coach (every seat is asked afresh) or withdraws it.
        ``seat``/``agree``: a human seat gives or takes back its consent (only to an offer).
        ``forget``: a seat's consent is dropped (its link was re-issued: another person may hold it).
        """
        setting = self
        if offer is not None:
            setting = replace(setting, offered=offer, agreed=frozenset())
        if seat is not None:
            if seat not in humans:
                raise CoachError(_("seat {seat} is not a person's seat; only people agree to the coach", seat=seat))
            if agree and not setting.offered:
                raise CoachError(_("the host has not offered the coach at this table"))
            agreed = setting.agreed | {seat} if agree else setting.agreed - {seat}
            setting = replace(setting, agreed=frozenset(agreed))
        if forget is not None:
            setting = replace(setting, agreed=setting.agreed - {forget})
        return setting.noted(humans, step)

    def noted(self, humans: Collection[int], step: int) -> CoachSetting:
        """The periods brought up to date at ``step``: one opened if the coach is on, closed if off."""
        is_open = bool(self.periods) and self.periods[-1][1] is None
        on = self.is_on(humans)
        if on and not is_open:
            return replace(self, periods=(*self.periods, (step, None)))
        if not on and is_open:
            start = self.periods[-1][0]
            return replace(self, periods=(*self.periods[:-1], (start, step)))
        return self
