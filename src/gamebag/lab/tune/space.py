"""What a search may change: ``NAME=LO..HI`` (an integer option) or ``NAME=a,b,c`` (any option or group).

Every dimension is checked against the game's own option declarations before any game is
played: an unknown name lists the allowed ones, a range must be an integer option's and lie
within its bounds, and each listed value must be one the game accepts (a group's value is
written ``a/b/c``, one part per member, as in ``coins=10/10/10/0/5,20/10/5/0/0``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import gamebag
from gamebag.core.errors import GamebagError, OptionError
from gamebag.lab.translation import _

MAX_DIMENSIONS = 20
MAX_CHOICES = 50


@dataclass(frozen=True)
class Dimension:
    """One searched option (or option group): an integer range or a list of values."""

    name: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()

    @property
    def is_range(self) -> bool:
        return self.low is not None

    def describe(self) -> str:
        return f"{self.name}={self.low}..{self.high}" if self.is_range else f"{self.name}={','.join(self.choices)}"

    def suggest(self, trial: Any) -> int | str:
        """The value an Optuna trial proposes for this dimension."""
        if self.low is not None and self.high is not None:
            return int(trial.suggest_int(self.name, self.low, self.high))
        return str(trial.suggest_categorical(self.name, list(self.choices)))


def grid(dimensions: Sequence[Dimension], most: int) -> dict[str, list[int | str]] | None:
    """Every value of every dimension, when the search space holds at most ``most`` designs; else None.

    A space that small is tried design by design, each once: a sampler drawing from it would
    propose some designs again and again and might never try others within the trials.
    """
    space: dict[str, list[int | str]] = {}
    size = 1
    for dimension in dimensions:
        if dimension.low is not None and dimension.high is not None:
            values: list[int | str] = list(range(dimension.low, dimension.high + 1))
        else:
            values = list(dimension.choices)
        size *= len(values)
        if size > most:
            return None
        space[dimension.name] = values
    return space


def design_change(game_id: str, dimensions: Sequence[Dimension], params: Mapping[str, Any]) -> float:
    """How far ``params`` lie from the game's defaults (``metrics.CHANGE_DOC`` defines it)."""
    cls = gamebag.entry(game_id).game_class
    defaults: dict[str, Any] = {spec.name: spec.default for spec in cls.option_specs}
    for group in cls.option_groups:
        defaults[group.name] = "/".join(str(defaults[m]) for m in group.members)
    total = 0.0
    for dimension in dimensions:
        value, default = params[dimension.name], defaults[dimension.name]
        if dimension.low is not None and dimension.high is not None and isinstance(default, int):
            total += abs(int(value) - default) / (dimension.high - dimension.low)
        else:
            total += 0.0 if _same(value, default) else 1.0
    return total


def _same(value: Any, default: Any) -> bool:
    if isinstance(default, bool):
        return str(value).lower() == str(default).lower()
    if default is None:
        return str(value).lower() in ("none", "null")
    return str(value) == str(default)


def parse_search(
    game_id: str, players: int, items: Sequence[str], fixed: Mapping[str, Any] | None = None
) -> list[Dimension]:
    """Parse and check ``--search`` items for ``game_id`` with ``players`` and the ``fixed`` options."""
    if not items:
        raise GamebagError(_("give at least one --search NAME=LO..HI or NAME=a,b,c (the options to search)"))
    if len(items) > MAX_DIMENSIONS:
        raise GamebagError(_("at most {most} --search dimensions, not {count}", most=MAX_DIMENSIONS, count=len(items)))
    cls = gamebag.entry(game_id).game_class
    specs = {spec.name: spec for spec in cls.option_specs}
    groups = {group.name: group for group in cls.option_groups}
    fixed = dict(fixed or {})
    dimensions: list[Dimension] = []
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip().replace("-", "_")
        text = text.strip()
        if not sep or not name or not text:
            raise GamebagError(
                _("--search {given} must be written NAME=LO..HI or NAME=a,b,c, e.g. snakes=2..6", given=repr(item))
            )
        if name not in specs and name not in groups:
            allowed = ", ".join([*specs, *groups]) or _("none")
            raise GamebagError(
                _(
                    "--search {name} is not an option of {game}; its options: {allowed}",
                    name=repr(name),
                    game=game_id,
                    allowed=allowed,
                )
            )
        if name in fixed:
            raise GamebagError(
                _("option {name} is both fixed (--option) and searched (--search); choose one", name=repr(name))
            )
        if any(d.name == name for d in dimensions):
            raise GamebagError(_("--search {name} is given twice; give its values in one --search", name=name))
        low_text, dots, high_text = text.partition("..")
        if dots:
            spec = specs.get(name)
            if spec is None or spec.kind != "int":
                raise GamebagError(
                    _(
                        "--search {name}: a range LO..HI needs an integer option; list the values as {name}=a,b,c",
                        name=name,
                    )
                )
            try:
                low, high = int(low_text), int(high_text)
            except ValueError:
                raise GamebagError(_("--search {given}: LO and HI must be integers", given=repr(item))) from None
            bottom = spec.minimum if spec.minimum is not None else low
            top = spec.maximum if spec.maximum is not None else high
            if not bottom <= low < high <= top:
                raise GamebagError(
                    _(
                        "--search {name}={low}..{high}: need LO < HI within the option's range {bottom}..{top}",
                        name=name,
                        low=low,
                        high=high,
                        bottom=bottom,
                        top=top,
                    )
                )
            dimensions.append(Dimension(name, low=low, high=high))
            continue
        separator = "|" if "|" in text else ","
        choices = tuple(dict.fromkeys(v.strip() for v in text.split(separator) if v.strip()))
        if not 1 <= len(choices) <= MAX_CHOICES:
            raise GamebagError(
                _(
                    "--search {name}: from 1 to {most} values, not {count}",
                    name=name,
                    most=MAX_CHOICES,
                    count=len(choices),
                )
            )
        for value in choices:
            _check_value(game_id, players, fixed, name, value)
        dimensions.append(Dimension(name, choices=choices))
    return dimensions


def _check_value(game_id: str, players: int, fixed: Mapping[str, Any], name: str, value: str) -> None:
    """Refuse a listed value the game would refuse on its own (another dimension may still clash)."""
    try:
        gamebag.make(game_id, players, **{**fixed, name: value})
    except OptionError as error:
        # Coupled numbers (coin counts that must add up) fail alone but may pass with other dimensions;
        # only a value that is wrong in itself is refused here.
        if "not allowed" in str(error) or "unknown option" in str(error):
            raise GamebagError(f"--search {name}={value}: {error}") from None
