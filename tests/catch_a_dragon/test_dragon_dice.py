"""Catch A Dragon's dice: the ring, chain scoring, busts, legal collections and roll odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gamebag.games.catch_a_dragon.dice import (
    all_collections,
    bust_probability,
    chains,
    is_bust,
    legal_collections,
    roll_outcomes,
    set_points,
)

# Faces: 1 green, 2 gold, 3 blue, 4 red, 5 purple, 6 gray.
GREEN, GOLD, BLUE, RED, PURPLE, GRAY = 1, 2, 3, 4, 5, 6


@pytest.mark.parametrize(
    ("faces", "cyclic", "points"),
    [
        ((GOLD, BLUE, RED, GRAY), True, 7),  # the rulebook's example: gold-blue-red (6) + gray (1)
        ((GOLD, BLUE, RED, GRAY), False, 7),
        ((GOLD, BLUE, RED), True, 6),
        ((GREEN, GOLD), True, 4),
        ((GREEN, BLUE), True, 2),  # two lone dragons
        ((GREEN, BLUE, PURPLE), True, 3),
        ((GREEN, GOLD, BLUE, RED), True, 8),  # one chain of four
        ((GOLD, BLUE, PURPLE, GRAY), True, 8),  # two chains of two
        ((GREEN, GRAY), True, 4),  # the ring closes: gray holds green's tail
        ((GREEN, GRAY), False, 2),
        ((GREEN, GOLD, GRAY), True, 6),  # gray-green-gold
        ((GREEN, GOLD, GRAY), False, 5),  # green-gold (4) + gray (1)
        ((GREEN, BLUE, PURPLE, GRAY), True, 7),  # purple-gray-green (6) + blue (1)
        ((RED,), True, 1),
        ((RED, RED), True, 4),
        ((BLUE, BLUE, BLUE), True, 9),
        ((GRAY, GRAY, GRAY, GRAY), True, 16),
    ],
)
def test_set_points(faces: tuple[int, ...], cyclic: bool, points: int) -> None:
    assert set_points(tuple(sorted(faces)), cyclic) == points


def test_gray_links_to_neither_gold_nor_red() -> None:
    assert chains((GOLD, GRAY), True) == ((GOLD,), (GRAY,))
    assert chains((RED, GRAY), True) == ((RED,), (GRAY,))
    assert chains((GOLD, BLUE, RED), True) == ((GOLD, BLUE, RED),)
    assert chains((GREEN, GOLD, GRAY), True) == ((GRAY, GREEN, GOLD),)


@pytest.mark.parametrize(
    ("held", "roll", "rule", "bust"),
    [
        ((), (GREEN, GREEN, GOLD, RED), "any", False),  # the first roll never busts
        ((RED, RED), (BLUE, GRAY), "any", True),  # identical: no match
        ((RED, RED), (RED, GRAY), "any", False),
        ((RED, RED, RED), (BLUE,), "none-new", True),
        ((GOLD, BLUE), (RED, GOLD), "any", True),  # different: a duplicate busts
        ((GOLD, BLUE), (RED, GOLD), "none-new", False),  # ...unless a new colour is enough
        ((GOLD, BLUE), (GOLD, BLUE), "none-new", True),
        ((GOLD, BLUE), (RED, RED), "any", False),  # two of one new colour: no duplicate of the set
        ((RED,), (RED, BLUE, GREEN), "any", False),  # one dragon: identical can go on
        ((RED,), (BLUE, GREEN, GRAY), "any", False),  # one dragon: different can go on
        ((RED,), (RED, RED, RED), "none-new", False),
    ],
)
def test_busts(held: tuple[int, ...], roll: tuple[int, ...], rule: str, bust: bool) -> None:
    assert is_bust(held, tuple(sorted(roll)), rule) is bust
    assert (legal_collections(held, tuple(sorted(roll)), rule) == ()) is bust


def test_first_roll_collections() -> None:
    assert set(legal_collections((), (GOLD, GOLD, BLUE, GRAY), "any")) == {
        (GOLD,),
        (GOLD, GOLD),
        (BLUE,),
        (GRAY,),
        (GOLD, BLUE),
        (GOLD, GRAY),
        (BLUE, GRAY),
        (GOLD, BLUE, GRAY),
    }


def test_one_dragon_keeps_only_the_kinds_that_can_go_on() -> None:
    roll = (GREEN, BLUE, RED)
    # Under 'any' the rolled red closes the different kind for this roll.
    assert legal_collections((RED,), roll, "any") == ((RED,),)
    assert set(legal_collections((RED,), roll, "none-new")) == {(RED,), (GREEN,), (BLUE,), (GREEN, BLUE)}
    assert set(legal_collections((RED,), (GREEN, BLUE, GRAY), "any")) == {
        (GREEN,),
        (BLUE,),
        (GRAY,),
        (GREEN, BLUE),
        (GREEN, GRAY),
        (BLUE, GRAY),
        (GREEN, BLUE, GRAY),
    }


def test_identical_and_different_collections() -> None:
    assert legal_collections((RED, RED), (RED, RED), "any") == ((RED,), (RED, RED))
    # A different set takes each new colour at most once; held colours are not collectable.
    assert set(legal_collections((GOLD, BLUE), (RED, RED), "any")) == {(RED,)}
    assert set(legal_collections((GOLD, BLUE), (GOLD, RED), "none-new")) == {(RED,)}


def test_roll_outcomes_are_exact_multinomials() -> None:
    for dice, count in ((1, 6), (2, 21), (3, 56), (4, 126)):
        outcomes = roll_outcomes(dice)
        assert len(outcomes) == count
        assert sum(p for _, p in outcomes) == 1
    odds = dict(roll_outcomes(4))
    assert odds[(GREEN, GREEN, GREEN, GREEN)] == Fraction(1, 1296)
    assert odds[(GREEN, GOLD, BLUE, RED)] == Fraction(24, 1296)
    assert odds[(GREEN, GREEN, GOLD, GOLD)] == Fraction(6, 1296)
    assert odds[(GREEN, GREEN, GREEN, GOLD)] == Fraction(4, 1296)


@pytest.mark.parametrize(
    ("held", "rule", "chance"),
    [
        ((RED, RED), "any", Fraction(25, 36)),  # two dice, neither red: (5/6)^2
        ((RED, RED, RED), "any", Fraction(5, 6)),
        ((GOLD, BLUE), "any", Fraction(5, 9)),  # 1 - (4/6)^2
        ((GOLD, BLUE), "none-new", Fraction(1, 9)),  # (2/6)^2
        ((GOLD, BLUE, RED), "any", Fraction(1, 2)),
        ((GOLD, BLUE, RED), "none-new", Fraction(1, 2)),
        ((RED,), "any", Fraction(0)),  # three dice against one dragon never bust
        ((RED,), "none-new", Fraction(0)),
        ((), "any", Fraction(0)),
    ],
)
def test_hand_computed_bust_chances(held: tuple[int, ...], rule: str, chance: Fraction) -> None:
    assert bust_probability(held, rule) == chance


def test_all_collections_cover_every_legal_collection() -> None:
    everything = set(all_collections())
    assert len(everything) == 74  # 24 one-colour + 50 multi-colour collections
    for roll, _ in roll_outcomes(4):
        for held in ((), (RED,), (RED, RED), (GOLD, BLUE)):
            for rule in ("any", "none-new"):
                assert set(legal_collections(held, roll[: 4 - len(held)], rule)) <= everything


def test_the_heuristic_scores_with_the_game() -> None:
    """The heuristic reads the game's scoring: a full ring of six (the dice=6 option) is one chain."""
    from gamebag.agents.heuristics.catch_a_dragon import bust_chance, roll_estimate

    ring = (1, 2, 3, 4, 5, 6)
    assert set_points(ring, True) == 12
    assert roll_estimate(ring, True, "any", 6) == 12.0  # nothing left to roll: the set's points
    assert bust_chance((2, 3), "any", 4) == pytest.approx(1 - (4 / 6) ** 2)
