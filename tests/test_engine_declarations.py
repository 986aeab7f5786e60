"""Each game's engine declaration (``gamebag.core.engines``): every engine refuses what it does not
declare, and every option an engine declares is covered by its equality option sets.

The coverage test reads ``tests/equality_sets.py``; the dummy-option tests add an option
(``snakes_double``) that only the numba engine declares and show that the JAX engine and the
equilibrium model refuse it with one line, that the coverage test then names the numba
engine's missing equality set, and that an option left out of the declaration shuts every
engine but the rules engine.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

import gamebag
from equality_sets import EQUALITY_SETS
from gamebag.agents.equilibrium.model import rules_for
from gamebag.agents.registry import make_agent
from gamebag.core.engines import (
    ANY,
    ENGINE_KINDS,
    RULES,
    EngineSupport,
    between,
    declaration,
    engine_refusal,
    require_engine,
    values,
)
from gamebag.core.errors import OptionError, UnknownAgentError
from gamebag.core.options import Option
from gamebag.core.registry import entry, game_ids
from gamebag.equality import coverage_gaps
from gamebag.fast import unavailable_reason
from gamebag.games.eel_family.options import WRIGGLE_ROULETTE_ENGINES, WRIGGLE_ROULETTE_OPTIONS
from gamebag.games.eel_family.rules import WriggleRoulette

SNAKES_DOUBLE = Option("snakes_double", "bool", False, "A dummy rule: each snake drawn counts twice.")
OPTIONS = (*WRIGGLE_ROULETTE_OPTIONS, SNAKES_DOUBLE)


class NumbaOnlyOption(WriggleRoulette):
    """Wriggle Roulette with a new option that only the numba engine declares."""

    option_specs: ClassVar[tuple[Option, ...]] = OPTIONS
    engine_support: ClassVar[EngineSupport | None] = EngineSupport(
        OPTIONS, {**WRIGGLE_ROULETTE_ENGINES.table, "snakes_double": {"numba": ANY}}
    )


class UndeclaredOption(WriggleRoulette):
    """Wriggle Roulette with a new option its engine declaration was not given."""

    option_specs: ClassVar[tuple[Option, ...]] = OPTIONS


def test_every_declared_option_is_covered_by_an_equality_set_or_refused() -> None:
    gaps = []
    for game_id in game_ids():
        game_class = entry(game_id).game_class
        for kind in sorted(set(ENGINE_KINDS) - {RULES}):
            sets = EQUALITY_SETS.get(kind, {}).get(game_id, [])
            gaps += coverage_gaps(game_class, kind, [option_set.options for option_set in sets])
    assert not gaps, "\n".join(gaps)


def test_every_equality_set_is_played_by_its_engine() -> None:
    for kind, by_game in EQUALITY_SETS.items():
        for option_set in (s for sets in by_game.values() for s in sets):
            assert engine_refusal(option_set.make(), kind) is None, (kind, option_set.label())


def test_every_game_declares_every_option() -> None:
    for game_id in game_ids():
        game_class = entry(game_id).game_class
        assert game_class.engine_support is not None, game_id
        assert [spec.name for spec in declaration(game_class).options] == [s.name for s in game_class.option_specs]


def test_an_option_one_engine_declares_is_refused_by_the_others() -> None:
    game = NumbaOnlyOption(2, snakes_double=True)
    jax_line = "the JAX engine does not play snakes_double=true"
    model_line = "the equilibrium model does not play snakes_double=true"
    assert engine_refusal(game, "jax") == jax_line
    assert engine_refusal(game, "equilibrium") == model_line
    assert engine_refusal(game, "numba") is None and engine_refusal(game, RULES) is None
    with pytest.raises(UnknownAgentError, match=f"^{model_line}$"):
        rules_for(game)
    with pytest.raises(UnknownAgentError, match=model_line):
        make_agent("equilibrium", game)
    # At its default the option changes nothing, so every engine plays the game.
    plain = NumbaOnlyOption(2)
    assert all(engine_refusal(plain, kind) is None for kind in ENGINE_KINDS)
    assert rules_for(plain) == rules_for(gamebag.make("wriggle-roulette", 2))


def test_the_jax_engine_refuses_an_option_it_does_not_declare() -> None:
    pytest.importorskip("jax")
    from gamebag.fast.jax.eel import EelJax

    with pytest.raises(OptionError, match=r"^the JAX engine does not play snakes_double=true$"):
        EelJax(NumbaOnlyOption(2, snakes_double=True))
    EelJax(NumbaOnlyOption(2))


def test_the_coverage_test_names_an_engine_that_declares_an_option_no_equality_set_plays() -> None:
    numba_sets = [option_set.options for option_set in EQUALITY_SETS["numba"]["wriggle-roulette"]]
    gaps = coverage_gaps(NumbaOnlyOption, "numba", numba_sets)
    assert len(gaps) == 1 and "snakes_double" in gaps[0] and "the compiled engine" in gaps[0]
    # Refusing engines need no equality set; an equality set with the option closes the gap.
    assert coverage_gaps(NumbaOnlyOption, "jax", []) == coverage_gaps(WriggleRoulette, "jax", []) != []
    assert not coverage_gaps(NumbaOnlyOption, "numba", [*numba_sets, {"snakes_double": "true"}])


def test_an_option_left_out_of_the_declaration_stops_every_engine_but_the_rules() -> None:
    with pytest.raises(ValueError, match="no row for snakes_double"):
        EngineSupport(OPTIONS, WRIGGLE_ROULETTE_ENGINES.table)
    game = UndeclaredOption(2)  # even at the option's default
    for kind in set(ENGINE_KINDS) - {RULES}:
        reason = engine_refusal(game, kind)
        assert reason is not None and "not made for its options (differs in snakes_double)" in reason, kind
    assert engine_refusal(game, RULES) is None
    assert coverage_gaps(UndeclaredOption, "numba", [])[0] == reason
    with pytest.raises(OptionError, match="snakes_double"):
        require_engine(game, "jax")


def test_the_compiled_engine_refuses_an_undeclared_option_so_play_falls_back_to_the_rules() -> None:
    # The registry's Wriggle Roulette engine, asked about a game whose declaration gives numba nothing new.
    class JaxOnlyOption(WriggleRoulette):
        option_specs: ClassVar[tuple[Option, ...]] = OPTIONS
        engine_support: ClassVar[EngineSupport | None] = EngineSupport(
            OPTIONS, {**WRIGGLE_ROULETTE_ENGINES.table, "snakes_double": {"jax": ANY}}
        )

    game = JaxOnlyOption(3, snakes_double=True)
    assert unavailable_reason(game, ["random"] * 3) == "the compiled engine does not play snakes_double=true"
    assert unavailable_reason(JaxOnlyOption(3), ["random"] * 3) is None


def test_value_ranges_refuse_with_what_is_played() -> None:
    options = (
        Option("size", "int", 4, "a size", minimum=1, maximum=20),
        Option("mode", "choice", "a", "a mode", choices=("a", "b", "c")),
    )
    support = EngineSupport(options, {"size": {"numba": between(1, 8)}, "mode": {"jax": values("a", "b")}})
    too_big = support.refusal("numba", {"size": 9, "mode": "a"})
    assert too_big == "the compiled engine plays size from 1 to 8 only, not 9"
    assert support.refusal("numba", {"size": 8, "mode": "b"}) == "the compiled engine does not play mode=b"
    assert support.refusal("jax", {"size": 4, "mode": "c"}) == "the JAX engine plays mode one of a, b only, not c"
    assert support.refusal("jax", {"size": 5, "mode": "a"}) == "the JAX engine does not play size=5"
    assert support.refusal("turbo", {"size": 4, "mode": "a"}) is not None
    with pytest.raises(ValueError, match="engine kinds must be among"):
        EngineSupport(options, {"size": {"turbo": ANY}, "mode": {}})


def test_a_game_without_a_declaration_is_played_by_the_rules_engine_only() -> None:
    class Bare(WriggleRoulette):
        engine_support: ClassVar[EngineSupport | None] = None

    game: Any = Bare(2, target=15)
    assert engine_refusal(game, "numba") == "the compiled engine does not play target=15"
    assert engine_refusal(Bare(2), "numba") is None
