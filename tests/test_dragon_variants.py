"""Catch A Dragon's example variants (consolation: a prize deck drawn on a bust; seasons: a rule
per round; riders: a power per seat; the ``variant`` option game): conformance, the rules engine
applying each hook, the exact solvers against brute force over the rules engine on tiny games,
the compiled engine's refusal, the CLI."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from typing import Any

import pytest
from typer.testing import CliRunner

import gamebag
from gamebag import plugins
from gamebag.agents.solvers.solutions import rules_at, score_solution, turn_rules_keys, win_solution
from gamebag.core.engines import engine_refusal
from gamebag.core.errors import OptionError
from gamebag.core.protocol import NodeKind
from gamebag.core.registry import game_ids
from gamebag.games.catch_a_dragon.rules import DragonState, Phase
from gamebag.testing import check_game

SEASONS, RIDERS, VARIANTS = "catch-a-dragon-seasons", "catch-a-dragon-riders", "catch-a-dragon-variants"
CONSOLATION = "catch-a-dragon-consolation"
TINY = {"dice": 2, "max_tiebreak_rounds": 1}


@pytest.fixture(autouse=True, scope="module")
def _registered() -> Iterator[None]:
    """Load the variants as a plugin; afterwards forget them (registry, loaded plugins, imported
    modules), so that other tests in this process see the package's own games only."""
    before = set(game_ids())
    environment = os.environ.get(plugins.PLUGIN_ENV)
    plugins.activate(["gamebag.variants.dragon_variants"])
    yield
    for game_id in set(game_ids()) - before:
        gamebag.core.registry.unregister(game_id)
    plugins._loaded_files.clear()
    for name in [name for name in sys.modules if name.startswith("gamebag.variants.")]:
        del sys.modules[name]  # imported again (and registered again) by whoever asks next
    if environment is None:
        os.environ.pop(plugins.PLUGIN_ENV, None)
    else:
        os.environ[plugins.PLUGIN_ENV] = environment


def _at(game: Any, round_no: int, seat: int, collected: tuple[int, ...], rolled: tuple[int, ...] = ()) -> DragonState:
    phase = Phase.DECIDE if collected and not rolled else (Phase.ROLL if not rolled else Phase.COLLECT)
    scores = (0,) * game.num_players
    return DragonState(scores, round_no, seat, phase, collected, rolled, None, ())


@pytest.mark.parametrize("game_id", [CONSOLATION, SEASONS, RIDERS, VARIANTS])
@pytest.mark.parametrize("players", [2, 3])
def test_variants_pass_the_conformance_suite(game_id: str, players: int) -> None:
    check_game(gamebag.make(game_id, players))


def test_seasons_rules_engine_scores_by_the_round() -> None:
    game = gamebag.make(SEASONS, 2)
    chain = (2, 3, 4)  # gold-blue-red: 6 by the rulebook
    stop = {"round 1": 6, "round 2": 9, "round 3": 6, "round 4": 12, "round 5": 6}  # round 5: a tie-break
    for round_no in range(1, 6):
        after = game.apply(_at(game, round_no, 0, chain), {0: "stop"})
        assert after.scores[0] == stop[f"round {round_no}"]
    # Soft nest: a bust (red rolled onto a set holding red) scores one point per dragon held.
    for round_no, points in ((2, 0), (3, 3), (4, 0)):
        state = game.apply(_at(game, round_no, 1, chain), {1: "roll"})
        busted = game.apply_chance(state, (4,))
        assert busted.last_turn is not None and busted.last_turn.ended_by == "bust"
        assert busted.scores[1] == points
    assert [game.public_view(_at(game, r, 0, ()))["season"] for r in (1, 2, 3, 4, 5)] == [
        "hatching",
        "tangled-tails",
        "soft-nest",
        "last-flight",
        "hatching",
    ]
    # Another number of rounds: the last regular round is Last flight, the others cycle.
    season = sys.modules["gamebag.variants.seasons"].season
    assert [season(r, 6) for r in range(1, 8)] == [
        "hatching",
        "tangled-tails",
        "soft-nest",
        "hatching",
        "tangled-tails",
        "last-flight",
        "hatching",
    ]


def test_riders_each_seat_plays_its_own_power() -> None:
    game = gamebag.make(RIDERS, 8, deal=2)
    dealt = ("nestkeeper", "steady-claw", "lone-flyer", "daredevil", "hoarder", "weaver", "nestkeeper", "steady-claw")
    assert game.powers == dealt
    assert [rules_at(game, 3, seat) for seat in range(8)] == list(dealt)  # the same power every round
    # Stops: Hoarder +2 on identical sets, Weaver +1 per chain, Lone flyer 2 per lone dragon.
    hoarder, weaver, lone = 4, 5, 2
    assert game.apply(_at(game, 1, hoarder, (3, 3, 3)), {hoarder: "stop"}).scores[hoarder] == 11
    assert game.apply(_at(game, 1, weaver, (2, 3, 4)), {weaver: "stop"}).scores[weaver] == 7
    assert game.apply(_at(game, 1, weaver, (1, 3)), {weaver: "stop"}).scores[weaver] == 2  # no chain: no bonus
    assert game.apply(_at(game, 1, lone, (1, 3)), {lone: "stop"}).scores[lone] == 4
    # Daredevil: collecting the last die scores 2 more.
    daredevil = 3
    four = game.apply(_at(game, 1, daredevil, (1, 2, 3), (4,)), {daredevil: (4,)})
    assert four.scores[daredevil] == 8 + 2
    # Nestkeeper: a bust scores 2 per dragon held; the others score nothing.
    for seat, points in ((0, 6), (4, 0)):
        rolled = game.apply_chance(game.apply(_at(game, 1, seat, (2, 3, 4)), {seat: "roll"}), (4,))
        assert rolled.last_turn is not None and rolled.last_turn.ended_by == "bust" and rolled.scores[seat] == points
    # Steady claw: a roll repeating a held colour busts only without a new colour; it can collect the new one.
    claw = 1
    state = game.apply(_at(game, 1, claw, (2, 3)), {claw: "roll"})
    goes_on = game.apply_chance(state, (3, 5))
    assert goes_on.phase == Phase.COLLECT
    assert tuple(game.legal_actions(goes_on, claw)) == ((5,),)
    busts = game.apply_chance(state, (2, 3))
    assert busts.last_turn is not None and busts.last_turn.ended_by == "bust"
    other = game.apply_chance(game.apply(_at(game, 1, weaver, (2, 3)), {weaver: "roll"}), (3, 5))
    assert other.last_turn is not None and other.last_turn.ended_by == "bust"  # the rulebook's reading
    assert game.public_view(_at(game, 1, 0, ()))["powers"] == list(game.powers)


def test_the_variant_option_plays_exactly_the_named_variant() -> None:
    short = {"max_tiebreak_rounds": 1}
    for name, game_id, extra in (("seasons", SEASONS, {}), ("riders", RIDERS, {"deal": 3})):
        combined = gamebag.make(VARIANTS, 2, variant=name, **short, **extra)
        own = gamebag.make(game_id, 2, **short, **extra)
        assert turn_rules_keys(combined) == turn_rules_keys(own)
        assert win_solution(combined).value == pytest.approx(win_solution(own).value, abs=1e-12)
    with pytest.raises(OptionError, match=r"deal.*variant=riders"):
        gamebag.make(VARIANTS, 2, variant="seasons", deal=2)  # one design, one name
    base = gamebag.make(VARIANTS, 2, **short)
    plain = gamebag.make("catch-a-dragon", 2, **short)
    assert win_solution(base).value == pytest.approx(win_solution(plain).value, abs=1e-12)


def _turn_over(before: DragonState, state: DragonState) -> bool:
    return state.phase == Phase.OVER or state.seat != before.seat or state.round_no != before.round_no


def _best_turn_points(game: Any, start: DragonState) -> Fraction:
    """The most expected points of the turn that starts at ``start``, by brute force over the rules engine."""

    @cache
    def value(state: DragonState) -> Fraction:
        if _turn_over(start, state):
            return Fraction(state.scores[start.seat] - start.scores[start.seat])
        if game.node_kind(state) is NodeKind.CHANCE:
            return sum((p * value(game.apply_chance(state, o)) for o, p in game.chance_outcomes(state)), Fraction(0))
        return max(value(game.apply(state, {state.seat: a})) for a in game.legal_actions(state, state.seat))

    return value(start)


def _brute_force_win(game: Any) -> float:
    """Seat 0's win share when both seats maximise their own, by brute force over the rules engine."""

    @cache
    def value(key: tuple[Any, ...]) -> float:
        state = DragonState(*key, None, ())  # type: ignore[misc]
        return _value(state)

    def _value(state: DragonState) -> float:
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            return float(game.returns(state)[0])
        if kind is NodeKind.CHANCE:
            return sum(float(p) * _next(game.apply_chance(state, o)) for o, p in game.chance_outcomes(state))
        options = [_next(game.apply(state, {state.seat: a})) for a in game.legal_actions(state, state.seat)]
        return max(options) if state.seat == 0 else min(options)

    def _next(state: DragonState) -> float:
        if state.phase == Phase.OVER:
            return _value(state)
        return value((state.scores, state.round_no, state.seat, state.phase, state.collected, state.rolled))

    return value(((0, 0), 1, 0, Phase.ROLL, (), ()))


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        (SEASONS, {"rounds": 4, "max_tiebreak_rounds": 0}),
        (CONSOLATION, {"rounds": 1, "dice": 3}),  # three dice: two dice never bust
        (RIDERS, {"rounds": 2, "deal": 1}),  # the Weaver against the Nestkeeper
        (RIDERS, {"rounds": 2, "deal": 4}),  # the Lone flyer against the Daredevil
    ],
)
def test_exact_solvers_match_brute_force_on_tiny_games(game_id: str, options: dict[str, Any]) -> None:
    game = gamebag.make(game_id, 2, **{**TINY, **options})
    rounds = game.rounds
    for round_no in range(1, rounds + 2):
        for seat in (0, 1):
            start = DragonState((0, 0), round_no, seat, Phase.ROLL, (), (), None, ())
            assert score_solution(game, rules_at(game, round_no, seat)).value == _best_turn_points(game, start)
    assert win_solution(game).value == pytest.approx(_brute_force_win(game), abs=1e-12)


def test_optimal_score_plays_each_turn_by_its_own_rules() -> None:
    from gamebag.agents.base import SeatView
    from gamebag.agents.registry import make_agent
    from gamebag.core.rng import make_rng

    game = gamebag.make(SEASONS, 2)
    agent = make_agent("optimal-score", game)
    hatching, soft_nest = score_solution(game, "hatching"), score_solution(game, "soft-nest")
    # Holding two green dragons (4 points), a soft bust (2 points) makes rolling on worth it.
    held = (1, 1)
    assert (hatching.action_at(("decide", held)), soft_nest.action_at(("decide", held))) == ("stop", "roll")
    for round_no, expected in ((1, "stop"), (3, "roll")):
        state = _at(game, round_no, 0, held)
        view = SeatView(game, state, 0, game.legal_actions(state, 0))
        assert agent.act(view, make_rng(0)) == expected
    # The dice calculator reads the turn it is asked about.
    from gamebag.lab.dice import turn_odds

    first, third = turn_odds(game, ["green", "green"]), turn_odds(game, ["green", "green"], round_no=3)
    assert (first.best, first.turn_rules, third.best, third.turn_rules) == ("stop", "hatching", "roll", "soft-nest")
    # Rolling two dice on two greens in Soft nest: 25/36 a bust worth 2, else a third (and maybe fourth) green.
    assert third.roll_value == Fraction(25, 36) * 2 + Fraction(10, 36) * 9 + Fraction(1, 36) * 16


def test_compiled_engines_refuse_the_variants() -> None:
    from gamebag.fast import unavailable_reason

    for game_id, options in ((SEASONS, {}), (RIDERS, {}), (VARIANTS, {"variant": "seasons"})):
        game = gamebag.make(game_id, 2, **options)
        reason = unavailable_reason(game, ["heuristic", "heuristic"])
        assert reason is not None and game_id in reason
    # Every option of theirs is declared for the rules engine only, the new ones included.
    assert engine_refusal(gamebag.make(RIDERS, 2, deal=1), "numba") == "the compiled engine does not play deal=1"


def test_cli_plugin_solves_and_plays_a_variant() -> None:
    from gamebag.cli.app import app

    runner = CliRunner()
    rules = runner.invoke(app, ["--plugin", "gamebag.variants.riders", "rules", RIDERS])
    assert rules.exit_code == 0, rules.output
    assert "Nestkeeper" in rules.stdout
    solved = runner.invoke(
        app,
        ["--plugin", "gamebag.variants.seasons", "solve", SEASONS, "--objective", "score"],
    )
    assert solved.exit_code == 0, solved.output
    assert "turns played by last-flight: optimal expected score 1238297/93312" in solved.stdout
    fast = runner.invoke(
        app, ["--plugin", "gamebag.variants.seasons", "simulate", SEASONS, "--games", "5", "--engine", "fast"]
    )
    assert fast.exit_code == 2
    assert f"{SEASONS} has no compiled engine" in fast.output
    played = runner.invoke(
        app,
        ["--plugin", "gamebag.variants.seasons", "simulate", SEASONS, "--games", "20", "--agents", "optimal-win"],
    )
    assert played.exit_code == 0, played.output
    assert f"engine: rules ({SEASONS} has no compiled engine)" in played.stdout


def test_consolation_bust_draws_a_prize_at_a_chance_node() -> None:
    from gamebag.core.errors import IllegalChanceOutcomeError
    from gamebag.core.rng import make_rng
    from gamebag.variants.consolation import DECK, PRIZES

    game = gamebag.make(CONSOLATION, 2)
    # Two greens held (identical), two dice rolled showing no green: a bust.
    held = DragonState((3, 0), 1, 0, Phase.ROLL, (1, 1), (), None, ())
    busted = game.apply_chance(held, (2, 3))
    assert busted.phase == Phase.PRIZE and game.node_kind(busted) is NodeKind.CHANCE
    assert game.acting_players(busted) == ()
    outcomes = game.chance_outcomes(busted)
    assert sum(p for _, p in outcomes) == 1
    assert {points: p for points, p in outcomes} == {v: Fraction(DECK.count(v), len(DECK)) for v in set(DECK)}
    assert [(o, pytest.approx(float(p))) for o, p in outcomes] == list(game.chance_probabilities(busted))
    for bad in (6, -1, True, "3", (2, 3)):
        with pytest.raises(IllegalChanceOutcomeError, match="draws a prize"):
            game.apply_chance(busted, bad)
    with pytest.raises(IllegalChanceOutcomeError):
        game.apply_chance(held, 3)  # a roll, not a draw
    # The drawn card ends the turn: its points are scored and logged in the last turn.
    after = game.apply_chance(busted, 4)
    assert (after.scores, after.seat, after.phase) == ((7, 0), 1, Phase.ROLL)
    last = game.public_view(after)["last_turn"]
    assert (last["points"], last["ended_by"], last["prize_drawn"]) == (4, "bust", True)
    view = game.public_view(busted)
    assert (view["phase"], view["last_roll"], view["turn_seat"]) == ("prize", game.names.colour_list((2, 3)), 0)
    assert len(game.observation_tensor(busted, 0)) == len(game.observation_tensor(held, 0))
    # Seeded draws: the same seed draws the same cards, each value with about its probability.
    draws = [game.sample_chance(busted, make_rng(seed)) for seed in range(600)]
    assert draws == [game.sample_chance(busted, make_rng(seed)) for seed in range(600)]
    rng = make_rng(7)
    many = [game.sample_chance(busted, rng) for _ in range(6000)]
    for points, p in PRIZES:
        assert abs(many.count(points) / 6000 - float(p)) < 0.03
    # The variant option plays the same rule, solved alike.
    tiny = {**TINY, "dice": 3}
    combined = gamebag.make(VARIANTS, 2, variant="consolation", **tiny)
    assert score_solution(combined).value == score_solution(gamebag.make(CONSOLATION, 2, **tiny)).value
    three = DragonState((3, 0), 1, 0, Phase.ROLL, (1, 1), (), None, ())
    assert combined.chance_outcomes(combined.apply_chance(three, (2,))) == outcomes
    # The base game's bust ends the turn at once, as before: no prize phase.
    base = gamebag.make("catch-a-dragon", 2)
    plain = base.apply_chance(held, (2, 3))
    assert (plain.phase, plain.scores, plain.seat) == (Phase.ROLL, (3, 0), 1)
    assert "prize_drawn" not in base.public_view(plain)["last_turn"]


def test_consolation_record_round_trip_with_a_prize_draw() -> None:
    from gamebag.agents.registry import make_agent
    from gamebag.core.records import Record, replay
    from gamebag.core.rng import make_rng
    from gamebag.sim.play import play_game

    game = gamebag.make(CONSOLATION, 2, max_tiebreak_rounds=1)
    agents = [make_agent("random", game), make_agent("optimal-score", game)]
    for seed in range(20):
        played = play_game(game, agents, make_rng(seed))
        assert played.record is not None
        draws = [e["chance"] for e in played.record.events if "chance" in e and isinstance(e["chance"], dict)]
        if draws:
            break
    assert draws and all(set(d) == {"prize"} for d in draws)
    record = Record.from_json(json.loads(played.record.dumps()))
    again, state = replay(record, gamebag.make)
    assert again.public_view(state) == game.public_view(played.state)
    # A record whose draw names a card the deck lacks is refused at that event.
    from gamebag.core.errors import RecordError

    index = next(k for k, e in enumerate(record.events) if isinstance(e.get("chance"), dict))
    bad = Record.from_json({**record.to_json(), "events": [*record.events[:index], {"chance": {"prize": 9}}]})
    with pytest.raises(RecordError, match=f"event {index}"):
        replay(bad, gamebag.make)


def test_consolation_text_render_tells_the_draw() -> None:
    from gamebag.games.catch_a_dragon.render import describe_turn, render_view

    game = gamebag.make(CONSOLATION, 2)
    held = DragonState((0, 0), 1, 0, Phase.ROLL, (1, 1), (), None, ())
    busted = game.apply_chance(held, (2, 3))
    assert "bust. A consolation card is drawn." in render_view(game.public_view(busted))
    after = game.apply_chance(busted, 5)
    text = describe_turn(game.public_view(after)["last_turn"])
    assert "consolation card" in text and "5 points" in text


def test_consolation_analysis_values_the_prize_draw_exactly() -> None:
    """The exact analysis reads the prize draw as a chance node: before it, a seat's winning chance
    is the mean over the cards of its chance after each, and the draw's luck is counted."""
    from gamebag.agents.registry import make_agent
    from gamebag.analysis import analyse_record
    from gamebag.analysis.turns import TurnWinEvaluator
    from gamebag.core.rng import make_rng
    from gamebag.sim.play import play_game

    game = gamebag.make(CONSOLATION, 2, **{**TINY, "dice": 3})
    evaluator = TurnWinEvaluator(game)
    busted = game.apply_chance(DragonState((2, 3), 2, 1, Phase.ROLL, (1, 1), (), None, ()), (2,))
    assert busted.phase == Phase.PRIZE
    for seat in (0, 1):
        mean = sum(
            float(p) * evaluator.value(game.apply_chance(busted, points), seat, 1).mean
            for points, p in game.chance_outcomes(busted)
        )
        assert evaluator.value(busted, seat, 0).mean == pytest.approx(mean, abs=1e-9)
    agents = [make_agent("random", game), make_agent("random", game)]
    for seed in range(40):
        played = play_game(game, agents, make_rng(seed))
        assert played.record is not None
        draws = [k for k, e in enumerate(played.record.events) if isinstance(e.get("chance"), dict)]
        if draws:
            break
    assert draws
    analysis = analyse_record(played.record)
    assert analysis.exact
    lucky = {index for index, _ in analysis.seats[0].luck_events}
    assert set(draws) <= lucky
