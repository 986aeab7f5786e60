"""Typed, validated game options.

A game declares its options as a tuple of ``Option`` specs. ``validate_options``
turns user input (Python values, or strings from a command line) into a frozen,
complete mapping, or raises ``OptionError`` naming what was wrong and what is
allowed. ``typed_options`` then gives a game those values once, as its own frozen dataclass
with one typed field per option, so that no rule re-narrows or re-defaults a value.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

from gamebag.core.errors import OptionError
from gamebag.core.translation import _

OptionValue = bool | int | str | None | tuple[str, ...]


@dataclass(frozen=True)
class Option:
    """One option: its name, kind, default and allowed values.

    kind is ``"bool"``, ``"int"``, ``"choice"`` or ``"list"`` (a list of strings,
    each one of ``choices``). ``nullable`` ints accept ``None`` (written ``none``
    on a command line), which each game documents (usually "no limit").
    """

    name: str
    kind: str
    default: OptionValue
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False

    def allowed(self) -> str:
        """A human description of the allowed values."""
        if self.kind == "bool":
            return _("true or false")
        choices = ", ".join(repr(c) for c in self.choices)
        if self.kind == "choice":
            return _("one of {choices}", choices=choices)
        if self.kind == "list":
            return _("a list of distinct values from {choices}", choices=choices)
        low = "-inf" if self.minimum is None else str(self.minimum)
        high = "inf" if self.maximum is None else str(self.maximum)
        if self.nullable:
            return _("an integer from {low} to {high} or none", low=low, high=high)
        return _("an integer from {low} to {high}", low=low, high=high)

    def coerce(self, value: Any) -> OptionValue:
        """Validate ``value`` (a Python value or a command-line string)."""
        bad = OptionError(_("option {name}: {value} is not allowed; expected {allowed}", name=repr(self.name),
                            value=repr(value), allowed=self.allowed()))
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in {"true", "false", "yes", "no", "1", "0"}:
                return value.lower() in {"true", "yes", "1"}
            raise bad
        if self.kind == "int":
            if value is None or (isinstance(value, str) and value.lower() in {"none", "null"}):
                if self.nullable:
                    return None
                raise bad
            if isinstance(value, bool):
                raise bad
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise bad from None
            if not isinstance(value, int):
                raise bad
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise bad
            return value
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
            raise bad
        if self.kind == "list":
            items: Sequence[Any]
            if isinstance(value, str):
                items = [part.strip() for part in value.split(",") if part.strip()]
            elif isinstance(value, list | tuple):
                items = value
            else:
                raise bad
            if len(set(items)) != len(items) or any(
                not isinstance(i, str) or i not in self.choices for i in items
            ):
                raise bad
            return tuple(items)
        raise OptionError(f"option {self.name!r} has unknown kind {self.kind!r}")


class FrozenOptions(dict[str, OptionValue]):
    """Validated options: a read-only dict that pickles and copies (a ``mappingproxy`` does neither).

    A dict underneath so that games read their options at dict speed in hot paths.
    """

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("game options are read-only; make a new game with other options")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _read_only

    def __reduce__(self) -> tuple[type[FrozenOptions], tuple[dict[str, OptionValue]]]:
        return (FrozenOptions, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenOptions({dict(self)!r})"


def validate_options(
    specs: Sequence[Option], given: Mapping[str, Any] | None
) -> Mapping[str, OptionValue]:
    """Check ``given`` against ``specs``; return every option with defaults filled in."""
    by_name = {spec.name: spec for spec in specs}
    given = dict(given or {})
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        allowed = ", ".join(sorted(by_name)) or _("none")
        raise OptionError(_("unknown option(s) {unknown}; allowed options: {allowed}",
                            unknown=", ".join(map(repr, unknown)), allowed=allowed))
    result: dict[str, OptionValue] = {}
    for spec in specs:
        result[spec.name] = spec.coerce(given[spec.name]) if spec.name in given else spec.default
    return FrozenOptions(result)


@dataclass(frozen=True)
class OptionGroup:
    """Options that only make sense together, given as one value ``a/b/c`` (one part per member).

    Eigen Kweek's coin set is one: its five counts must add up to 35, so a study varies the
    set, not one count at a time. The members stay ordinary options; the game still checks
    them together.
    """

    name: str
    members: tuple[str, ...]
    doc: str

    def split(self, value: Any) -> dict[str, Any]:
        """``"20/10/5/0/0"`` (or a sequence) -> one value per member."""
        parts: Sequence[Any]
        if isinstance(value, str):
            parts = [part.strip() for part in value.split("/")]
        elif isinstance(value, list | tuple):
            parts = value
        else:
            parts = []
        if len(parts) != len(self.members) or any(part == "" for part in parts):
            raise OptionError(
                _("option group {name}: {value} is not allowed; expected {count} values written a/b/..., one for "
                  "each of {members}", name=repr(self.name), value=repr(value), count=len(self.members),
                  members=", ".join(self.members))
            )
        return dict(zip(self.members, parts, strict=True))


def expand_option_groups(groups: Sequence[OptionGroup], given: Mapping[str, Any]) -> dict[str, Any]:
    """``given`` with every group name replaced by its members' values (a member given twice is refused)."""
    by_name = {group.name: group for group in groups}
    result = {name: value for name, value in given.items() if name not in by_name}
    for name, value in given.items():
        group = by_name.get(name)
        if group is None:
            continue
        for member, part in group.split(value).items():
            if member in result:
                raise OptionError(_("option {member} is given both alone and in the group {group}; choose one",
                                    member=repr(member), group=repr(name)))
            result[member] = part
    return result


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """Parse command-line ``key=value`` pairs (values stay strings; ``validate_options`` types them)."""
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(_("option {pair} must be written key=value, for example rotate_start=true",
                                pair=repr(pair)))
        result[key.strip().replace("-", "_")] = value.strip()
    return result


def options_to_json(options: Mapping[str, OptionValue]) -> dict[str, Any]:
    """A JSON-ready copy of validated options (tuples become lists)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}


OptionsT = TypeVar("OptionsT")


def typed_options(options_type: type[OptionsT], values: Mapping[str, OptionValue]) -> OptionsT:
    """Validated option values as a game's frozen dataclass of them, one typed field per option.

    Each field takes the value of the option of its name. A field with a default stands for an
    option that some configurations of the game do not have (a rule set without it): the default
    is that rule set's fixed rule. Options without a field (a subclass's own) are left to the
    subclass. A value that does not match its field's annotation, or a field without a default
    and without an option, is a programming error (the specs and the dataclass disagree): it
    raises ``TypeError`` when the game is made, not a wrong rule later.
    """
    if not dataclasses.is_dataclass(options_type):
        raise TypeError(f"{options_type.__name__} must be a dataclass of option values")
    hints = typing.get_type_hints(options_type)
    chosen: dict[str, OptionValue] = {}
    for field in dataclasses.fields(options_type):
        if field.name not in values:
            if field.default is dataclasses.MISSING:
                raise TypeError(f"{options_type.__name__}.{field.name} has no option of that name and no default")
            continue
        value = values[field.name]
        if not _matches(value, hints[field.name]):
            raise TypeError(
                f"option {field.name!r}: {value!r} does not fit {options_type.__name__}.{field.name}: "
                f"{hints[field.name]}"
            )
        chosen[field.name] = value
    return options_type(**chosen)


def _matches(value: object, annotation: Any) -> bool:
    """Whether ``value`` fits ``annotation`` (the types option values take: bool, int, str, None,
    ``Literal`` choices, ``tuple[str, ...]`` and unions of them); ``bool`` is not an ``int`` here."""
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        return any(_matches(value, member) for member in typing.get_args(annotation))
    if origin is typing.Literal:
        return any(value == choice and type(value) is type(choice) for choice in typing.get_args(annotation))
    if origin is tuple:
        item_type = typing.get_args(annotation)[0]
        return isinstance(value, tuple) and all(_matches(item, item_type) for item in value)
    if annotation is None or annotation is type(None):
        return value is None
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(annotation, type) and isinstance(value, annotation)
