"""Which engines play which options: each game's one declaration, and the refusal derived from it.

A game declares, next to its options, an :class:`EngineSupport`: for every option, the
engines (by kind: ``numba``, ``jax``, ``equilibrium``, ...) that play it and the values
each plays (:data:`ANY`, :func:`values`, :func:`between`). The rules engine plays every
option by definition and is not named. An engine not named for an option plays only the
option's default; an engine kind a game does not name at all plays nothing of it.

Every engine asks :func:`engine_refusal` (or :func:`require_engine`) before it plays,
so an option it does not declare, set to anything but its default, makes it refuse
with one line such as ``the compiled engine does not play snakes_double=True``; the
caller then plays on the rules engine or reports the refusal. Nothing plays an option
it does not know: a new option without a row is refused by every engine but the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gamebag.core.errors import OptionError
from gamebag.core.options import Option, OptionValue

if TYPE_CHECKING:
    from gamebag.core.protocol import Game

RULES = "rules"
# Each engine kind and how a refusal names it. Kinds are shared by every game; a new kind of
# engine adds itself with ``add_engine_kind`` before any game names it.
ENGINE_KINDS: dict[str, str] = {
    RULES: "the rules engine",
    "numba": "the compiled engine",
    "jax": "the JAX engine",
    "equilibrium": "the equilibrium model",
}


def add_engine_kind(kind: str, label: str) -> None:
    """Make ``kind`` an engine kind that games may name, refusals calling it ``label``."""
    if kind in ENGINE_KINDS and ENGINE_KINDS[kind] != label:
        raise ValueError(f"engine kind {kind!r} is already {ENGINE_KINDS[kind]!r}")
    ENGINE_KINDS[kind] = label


def _show(value: OptionValue) -> str:
    if isinstance(value, tuple):
        return ",".join(value)
    if value is None:
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Support:
    """The values of one option that one engine plays: all of them, some listed, or an integer range."""

    listed: tuple[OptionValue, ...] | None = None  # None: not a list
    minimum: int | None = None
    maximum: int | None = None
    every: bool = False
    nullable: bool = False  # with a range: ``None`` too

    def allows(self, value: OptionValue) -> bool:
        """Whether the engine plays ``value``."""
        if self.every:
            return True
        if self.listed is not None:
            return value in self.listed
        if value is None:
            return self.nullable
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        return (self.minimum is None or value >= self.minimum) and (self.maximum is None or value <= self.maximum)

    def describe(self) -> str:
        """The values, for a refusal: ``any value``, ``one of 4, 6``, ``from 1 to 10``."""
        if self.every:
            return "any value"
        if self.listed is not None:
            return "one of " + ", ".join(_show(v) for v in self.listed)
        low = "-inf" if self.minimum is None else str(self.minimum)
        high = "inf" if self.maximum is None else str(self.maximum)
        return f"from {low} to {high}" + (" or none" if self.nullable else "")


ANY = Support(every=True)


def values(*allowed: OptionValue) -> Support:
    """These values only (list the default if the engine plays it)."""
    return Support(listed=tuple(allowed))


def between(minimum: int | None, maximum: int | None, nullable: bool = False) -> Support:
    """Integers from ``minimum`` to ``maximum`` (``None``: unbounded), and ``None`` if ``nullable``."""
    return Support(minimum=minimum, maximum=maximum, nullable=nullable)


@dataclass(frozen=True)
class EngineSupport:
    """One game's declaration: option -> {engine kind -> the values it plays}.

    ``options`` are the game's option specs; ``table`` must name every one of them (an
    empty row: the rules engine only), and only them, with known engine kinds.
    """

    options: tuple[Option, ...] = ()
    table: Mapping[str, Mapping[str, Support]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        names = [spec.name for spec in self.options]
        missing = [name for name in names if name not in self.table]
        extra = sorted(set(self.table) - set(names))
        if missing or extra:
            raise ValueError(
                "an engine declaration must have one row per option: "
                + "; ".join(
                    part
                    for part in (
                        f"no row for {', '.join(missing)}" if missing else "",
                        f"rows for unknown option(s) {', '.join(extra)}" if extra else "",
                    )
                    if part
                )
            )
        for option, row in self.table.items():
            unknown = sorted(set(row) - set(ENGINE_KINDS))
            if unknown or RULES in row:
                raise ValueError(
                    f"option {option!r}: engine kinds must be among {', '.join(sorted(set(ENGINE_KINDS) - {RULES}))} "
                    f"(the rules engine plays every option), not {', '.join(unknown or [RULES])}"
                )

    def engines(self) -> tuple[str, ...]:
        """Every engine kind named for some option, in first-named order."""
        seen: dict[str, None] = {}
        for row in self.table.values():
            seen.update(dict.fromkeys(row))
        return tuple(seen)

    def support(self, engine: str, option: str) -> Support:
        """What ``engine`` plays of ``option`` (the default only when it is not named)."""
        if engine == RULES:
            return ANY
        row = self.table.get(option, {})
        if engine in row:
            return row[engine]
        spec = next(spec for spec in self.options if spec.name == option)
        return values(spec.default)

    def plays_more_than_default(self, engine: str, option: str) -> bool:
        """Whether ``engine`` is declared to play some value of ``option`` other than its default."""
        return engine == RULES or (option in self.table and engine in self.table[option])

    def refusal(self, engine: str, options: Mapping[str, OptionValue]) -> str | None:
        """Why ``engine`` cannot play these (validated) options, in one line, or ``None``.

        The reason stays English (language-neutral): it travels into results and their JSON
        (``engine_reason``), and is kept per game; a front end says it as it is.
        """
        if engine == RULES:
            return None
        if engine not in ENGINE_KINDS:
            return f"{engine!r} is not an engine kind (kinds: {', '.join(ENGINE_KINDS)})"
        label = ENGINE_KINDS[engine]
        for spec in self.options:
            value = options.get(spec.name, spec.default)
            support = self.support(engine, spec.name)
            if support.allows(value):
                continue
            if not self.plays_more_than_default(engine, spec.name):
                return f"{label} does not play {spec.name}={_show(value)}"
            return f"{label} plays {spec.name} {support.describe()} only, not {_show(value)}"
        unknown = sorted(set(options) - {spec.name for spec in self.options})
        if unknown:
            return f"{label} does not play option(s) {', '.join(unknown)}"
        return None


def declaration(game_class: type[Game[Any, Any, Any]]) -> EngineSupport:
    """``game_class``'s engine declaration (the rules engine only when it declares none).

    A declaration made for other option specs than the class's (an option added to the
    game and not to its declaration) raises ``ValueError`` naming the options.
    """
    declared = game_class.engine_support
    if declared is None:
        return rules_only(game_class.option_specs)
    if declared.options != tuple(game_class.option_specs):
        mine = {spec.name for spec in game_class.option_specs}
        theirs = {spec.name for spec in declared.options}
        changed = sorted(mine ^ theirs) or sorted(
            a.name for a, b in zip(declared.options, game_class.option_specs, strict=False) if a != b
        )
        raise ValueError(
            f"{game_class.game_id}'s engine declaration is not made for its options "
            f"(differs in {', '.join(changed) or 'their order'}); declare every option once"
        )
    return declared


def engine_refusal(game: Game[Any, Any, Any], engine: str) -> str | None:
    """Why engine kind ``engine`` cannot play ``game``'s options (its class's declaration), or ``None``.

    Kept on the game (its options never change): search asks before every compiled playout.
    """
    if engine == RULES:
        return None
    memo = game._engine_refusals
    if engine in memo:
        return memo[engine]
    try:
        answer = declaration(type(game)).refusal(engine, game.options)
    except ValueError as error:
        answer = str(error)
    memo[engine] = answer
    return answer


def require_engine(game: Game[Any, Any, Any], engine: str) -> None:
    """Raise :class:`OptionError` with :func:`engine_refusal`'s reason when ``engine`` cannot play ``game``."""
    problem = engine_refusal(game, engine)
    if problem is not None:
        raise OptionError(problem)


def rules_only(options: Sequence[Option]) -> EngineSupport:
    """The declaration of a game that only the rules engine plays (every row empty)."""
    return EngineSupport(tuple(options), {spec.name: {} for spec in options})
