"""Time banks: the host's clock settings and the arithmetic of one seat's bank.

A table has either today's per-move timer (``turn_seconds``), no clock, or a time bank per
person's seat (``BankSettings``): real time (seconds to minutes) or turn-based (hours to days),
with an increment added after each of the seat's moves, a consequence when a bank runs out
("bot": the table's timeout agent takes the seat; "forfeit": the seat is out, its remaining
decisions are made by the timeout agent, and it is placed last), and (turn-based only) a
vacation allowance per seat that pauses its bank.

A seat's bank (``SeatBank``) is a few numbers kept in the database (``store/clockstore.py``):
what was left at the last accounting time ``since``, whether it runs, and the vacation left.
Every change (a move, a vacation marked) first *settles* the bank at that time, so its
deadline is a pure function of the stored numbers: a restart or a cluster takeover
recomputes it to the second. Nothing here reads a clock: callers pass the time.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from gamebag.web.admission.bounds import LobbyError
from gamebag.web.words.text import N_, _

MODES = ("realtime", "turn")
CONSEQUENCES = ("bot", "forfeit")
HOUR = 3600.0
DAY = 24 * HOUR

# Bounds per mode: (least bank, most bank, most increment), in seconds.
BANK_BOUNDS: dict[str, tuple[float, float, float]] = {
    "realtime": (10.0, 60 * 60.0, 60.0),
    "turn": (HOUR, 30 * DAY, 3 * DAY),
}
MAX_VACATION_DAYS = 30

# Player-facing sentences of this module (one place, for the translation catalogues).
TEXTS = {
    "shape": (
        N_("'clock' must be an object with 'mode' (realtime or turn), 'bank_seconds', and optional "
        "'increment_seconds', 'on_empty' (bot or forfeit) and 'vacation_days'.")
    ),
    "unknown": N_("'clock' has unknown field(s) {fields}; allowed: {allowed}."),
    "mode": N_("'clock.mode' must be realtime or turn, not {value}."),
    "number": N_("'clock.{field}' must be a number."),
    "bank": N_("'clock.bank_seconds' for a {mode} table must be from {least:g} to {most:g} seconds, not {value}."),
    "increment": N_("'clock.increment_seconds' for a {mode} table must be from 0 to {most:g} seconds, not {value}."),
    "on_empty": N_("'clock.on_empty' must be bot or forfeit, not {value}."),
    "vacation": N_("'clock.vacation_days' must be a whole number from 0 to {most}, not {value}."),
    "vacation_realtime": N_("'clock.vacation_days' is for turn-based tables only; a realtime table allows none."),
    "both": N_("a table has either 'turn_seconds' (a timer per move) or 'clock' (a time bank), not both."),
}
FIELDS = ("mode", "bank_seconds", "increment_seconds", "on_empty", "vacation_days")


@dataclass(frozen=True)
class BankSettings:
    """The host's choice of a time bank for every person's seat of a table."""

    mode: str
    bank_seconds: float
    increment_seconds: float = 0.0
    on_empty: str = "bot"
    vacation_days: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    @staticmethod
    def loads(text: str) -> BankSettings | None:
        """The settings stored as ``text`` (empty: the table has no bank)."""
        return BankSettings(**json.loads(text)) if text else None


def _number(data: dict[str, Any], field: str, default: float) -> float:
    value = data.get(field, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise LobbyError(_(TEXTS["number"], field=field))
    return float(value)


def parse_bank_settings(data: Any) -> BankSettings:
    """The host's ``clock`` request checked against the bounds; ``LobbyError`` names what is wrong."""
    if not isinstance(data, dict):
        raise LobbyError(_(TEXTS["shape"]))
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise LobbyError(_(TEXTS["unknown"], fields=", ".join(unknown), allowed=", ".join(FIELDS)))
    mode = data.get("mode")
    if mode not in MODES:
        raise LobbyError(_(TEXTS["mode"], value=json.dumps(mode)))
    least, most, most_increment = BANK_BOUNDS[mode]
    if "bank_seconds" not in data:
        raise LobbyError(_(TEXTS["shape"]))
    bank = _number(data, "bank_seconds", 0.0)
    if not least <= bank <= most:
        raise LobbyError(_(TEXTS["bank"], mode=mode, least=least, most=most, value=data["bank_seconds"]))
    increment = _number(data, "increment_seconds", 0.0)
    if not 0 <= increment <= most_increment:
        raise LobbyError(_(TEXTS["increment"], mode=mode, most=most_increment, value=data["increment_seconds"]))
    on_empty = data.get("on_empty", "bot")
    if on_empty not in CONSEQUENCES:
        raise LobbyError(_(TEXTS["on_empty"], value=json.dumps(on_empty)))
    vacation = data.get("vacation_days", 0)
    if isinstance(vacation, bool) or not isinstance(vacation, int) or not 0 <= vacation <= MAX_VACATION_DAYS:
        raise LobbyError(_(TEXTS["vacation"], most=MAX_VACATION_DAYS, value=json.dumps(vacation)))
    if mode == "realtime" and vacation:
        raise LobbyError(_(TEXTS["vacation_realtime"]))
    return BankSettings(mode, bank, increment, on_empty, vacation)


@dataclass(frozen=True)
class SeatBank:
    """One seat's bank as stored: ``bank`` seconds left and ``vacation_left`` seconds of allowance
    at time ``since``; ``running``: the seat must act (its bank drains); ``on_vacation``: the
    allowance drains first, the bank only once it is used up; ``out``: the bank ran out."""

    seat: int
    bank: float
    since: float
    running: bool = False
    vacation_left: float = 0.0
    on_vacation: bool = False
    out: bool = False

    def settled(self, at: float) -> SeatBank:
        """The bank accounted up to ``at``: vacation allowance spent first, then (if running) the bank."""
        elapsed = max(0.0, at - self.since)
        vacation_left, on_vacation = self.vacation_left, self.on_vacation
        if on_vacation:
            used = min(elapsed, vacation_left)
            vacation_left -= used
            elapsed -= used
            on_vacation = vacation_left > 0
        bank = max(0.0, self.bank - elapsed) if self.running else self.bank
        return replace(self, bank=bank, since=at, vacation_left=vacation_left, on_vacation=on_vacation)

    def deadline(self) -> float | None:
        """When the bank runs out if nothing changes (None: it does not run)."""
        if not self.running or self.out:
            return None
        return self.since + (self.vacation_left if self.on_vacation else 0.0) + self.bank

    def vacation_until(self) -> float | None:
        return self.since + self.vacation_left if self.on_vacation else None

    def public(self, at: float) -> dict[str, Any]:
        """What every reader of the table may know of this bank at ``at`` (nothing secret: time)."""
        now = self.settled(at)
        until = now.vacation_until()
        return {
            "seat": self.seat,
            "bank_left": round(now.bank, 1),
            "running": self.running and not self.out,
            "vacation": now.on_vacation,
            "vacation_until": None if until is None else round(until, 1),
            "vacation_left": round(now.vacation_left, 1),
            "out": self.out,
        }


def after_change(
    banks: dict[int, SeatBank], at: float, waiting: set[int], moved: int | None, increment: float
) -> dict[int, SeatBank]:
    """The seats' banks after the table changed at ``at``: each settled, ``moved`` (the seat that
    acted, if it had to) given the increment, and running exactly for the seats ``waiting``.
    Only the seats whose bank changes are returned: a bank that runs on (or stays stopped) keeps
    its stored numbers, whose deadline settling would not change anyway."""
    changed: dict[int, SeatBank] = {}
    for seat, bank in banks.items():
        gains = seat == moved and bank.running
        if bank.out or (not gains and bank.running == (seat in waiting)):
            continue
        after = bank.settled(at)
        if gains:
            after = replace(after, bank=after.bank + increment)
        changed[seat] = replace(after, running=seat in waiting)
    return changed


def forced_places(places: list[int], out: set[int]) -> list[int]:
    """Standings with every forfeited seat (``out``) placed last: the other seats keep their order
    (competition ranks among themselves, ties shared), the forfeited ones share the place after them."""
    kept = sorted(p for seat, p in enumerate(places) if seat not in out)
    ranked = [
        (len(places) - len(out) + 1) if seat in out else 1 + sum(1 for other in kept if other < place)
        for seat, place in enumerate(places)
    ]
    return ranked


@dataclass
class BankClock:
    """The one source of time for banks: wall-clock seconds, moved by ``shift`` (tests move days).

    ``offset``: the database's clock less this machine's, measured as a cluster's process starts
    (``clockstore.database_offset``), so that every process of a cluster counts the same deadlines."""

    shift: float = 0.0
    offset: float = 0.0

    def now(self) -> float:
        return time.time() + self.offset + self.shift


@dataclass
class TableBanks:
    """A loaded table's bank settings and its seats' banks (as last stored)."""

    settings: BankSettings
    seats: dict[int, SeatBank] = field(default_factory=dict)
