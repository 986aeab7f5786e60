"""Rule tables for the Eel family: one test (or more) per numbered ruling in rulings.md.

Most cases are hand-written records replayed through the same path as
``gamebag replay``; edge cases deep in a round start from a position built by hand.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers import check_conservation, draw, grab, play, position

import gamebag
from gamebag.agents.registry import make_agent
from gamebag.core.errors import IllegalActionError, IllegalChanceOutcomeError, PlayerCountError, RecordError
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import make_rng
from gamebag.sim.play import play_game

FAMILY = ["wriggle-roulette", "eel-harvest"]


# 1. Bag of 51 eels and 17 snakes; conservation on every transition.
@pytest.mark.parametrize("game_id", FAMILY)
@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_1_tokens_are_conserved_on_every_transition(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    state = game.initial_state()
    assert (state.bag_eels, state.bag_snakes) == (51, 17)
    rng = make_rng(players)
    for _ in range(20):
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.node_kind(state) is NodeKind.CHANCE:
                state = game.apply_chance(state, game.sample_chance(state, rng))
            else:
                state = game.apply(state, {p: rng.randrange(game.max_grab + 1) for p in game.acting_players(state)})
            check_conservation(game, state)


# 2. Players 2-8; at most 4 per grab, 6 with two players.
@pytest.mark.parametrize("game_id", FAMILY)
def test_2_player_counts_and_maximum_grab(game_id: str) -> None:
    for bad in (1, 9):
        with pytest.raises(PlayerCountError, match="2 to 8"):
            gamebag.make(game_id, bad)
    assert list(gamebag.make(game_id, 2).legal_actions(gamebag.make(game_id, 2).initial_state(), 0)) == [
        0, 1, 2, 3, 4, 5, 6
    ]
    for n in range(3, 9):
        game = gamebag.make(game_id, n)
        assert list(game.legal_actions(game.initial_state(), n - 1)) == [0, 1, 2, 3, 4]
    with pytest.raises(RecordError, match=r"event 0.*0 to 4"):
        play(game_id, 3, [grab(s0=5, s1=1, s2=1)])
    with pytest.raises(RecordError, match=r"event 0.*0 to 6"):
        play(game_id, 2, [grab(s0=7, s1=1)])


# 3. Snake thresholds.
@pytest.mark.parametrize("game_id", FAMILY)
@pytest.mark.parametrize(("players", "threshold"), [(2, 6), (3, 7), (4, 9), (5, 11), (6, 13), (7, 15), (8, 17)])
def test_3_outbreak_exactly_at_the_threshold(game_id: str, players: int, threshold: int) -> None:
    game = gamebag.make(game_id, players)
    assert game.threshold == threshold
    below = position(game, centre=threshold - 2, bag_snakes=17 - threshold + 2)
    everyone = {p: 1 for p in range(players)}
    after = game.apply_chance(game.apply(below, everyone), ("S",) + ("E",) * (players - 1))
    assert after.last is not None and not after.last.outbreak and after.centre == threshold - 1
    at = game.apply_chance(game.apply(after, everyone), ("S",) + ("E",) * (players - 1))
    assert at.last is not None and at.last.outbreak and at.last.round_over


# 4. Simultaneous choice, draws in seat order from the start player, short bag.
@pytest.mark.parametrize("game_id", FAMILY)
def test_4_short_bag_draws_in_seat_order_from_the_start_player(game_id: str) -> None:
    game = gamebag.make(game_id, 8)
    # 16 snakes in the centre (threshold 17), bag: 2 eels + 1 snake, the other eels in reserves.
    reserves = (7, 7, 7, 7, 7, 7, 7, 0)
    state = position(game, centre=16, bag_snakes=1, bag_eels=2, reserves=reserves)
    pending = game.apply(state, {p: 2 for p in range(8)})
    assert game.node_kind(pending) is NodeKind.CHANCE
    # Seat 0 draws 2, seat 1 the last token, the others nothing.
    outcomes = {o: p for o, p in game.chance_outcomes(pending)}
    assert sum(outcomes.values()) == 1
    assert all(len(o[0]) == 2 and len(o[1]) == 1 and not any(o[2:]) for o in outcomes)
    assert outcomes[("EE", "S", "", "", "", "", "", "")] == Fraction(1, 3)
    with pytest.raises(IllegalChanceOutcomeError, match=r"seat 1 must draw exactly 1 .*only 1 token"):
        game.apply_chance(pending, ("EE", "", "S", "", "", "", "", ""))
    final = game.apply_chance(pending, ("ES", "E", "", "", "", "", "", ""))
    assert final.last is not None and final.last.outbreak  # all 17 snakes are out
    # With the start player moved to seat 3, seat 3 draws first.
    rotated = position(game, centre=16, bag_snakes=1, bag_eels=2, reserves=reserves, start=3)
    pending = game.apply(rotated, {p: 2 for p in range(8)})
    assert all(len(o[3]) == 2 and len(o[4]) == 1 and not o[0] for o, _ in game.chance_outcomes(pending))


@pytest.mark.parametrize("game_id", FAMILY)
def test_4_no_count_is_visible_before_the_reveal(game_id: str) -> None:
    game = gamebag.make(game_id, 3)
    start = game.initial_state()
    chosen = {0: 4, 1: 1, 2: 2}
    pending = game.apply(start, chosen)
    for seat in range(3):
        view = game.observation(pending, seat)
        assert view["my_pending_grab"] == chosen[seat]
        # Whatever the others chose, this seat sees the same thing.
        for a in range(1, 5):
            for b in range(1, 5):
                counts = dict(zip([p for p in range(3) if p != seat], (a, b), strict=True))
                counts[seat] = chosen[seat]
                assert game.observation(game.apply(start, counts), seat) == view
    spectator = game.public_view(pending)
    assert spectator["chosen"] == [0, 1, 2]
    assert game.public_view(game.apply(start, {0: 1, 1: 1, 2: 1})) == spectator


# 5. Count 0 exits: score the reserve, eels back to the bag, before the outbreak check.
@pytest.mark.parametrize("game_id", FAMILY)
def test_5_exit_scores_reserve_and_escapes_the_outbreak(game_id: str) -> None:
    _, state = play(game_id, 3, [
        grab(s0=4, s1=4, s2=4), draw(s0="EEEE", s1="EEES", s2="EESS"),
        grab(s0=0, s1=4, s2=4), draw(s1="SSSS", s2="EEEE"),
    ])
    # Seat 0 exited with 4 eels in the grab whose snakes made the outbreak (3 + 4 = 7).
    assert state.last is not None and state.last.outbreak and 0 in state.last.exited
    assert state.scores[0] == 4
    assert 0 not in state.last.losers


@pytest.mark.parametrize("game_id", FAMILY)
def test_5_exiting_eels_return_to_the_bag_before_the_draws(game_id: str) -> None:
    game, state = play(game_id, 2, [grab(s0=6, s1=6), draw(s0="EEEEEE", s1="EEEEEE")])
    assert (state.bag_eels, state.reserves) == (39, (6, 6))
    pending = game.apply(state, {0: 0, 1: 6})
    # 39 + 6 returned eels = 45 eels and 17 snakes in the bag for seat 1's draw.
    probability = dict(game.chance_outcomes(pending))[("", "EEEEEE")]
    expected = Fraction(45 * 44 * 43 * 42 * 41 * 40, 62 * 61 * 60 * 59 * 58 * 57)
    assert probability == expected
    after = game.apply_chance(pending, ("", "EEEEEE"))
    assert after.scores == (6, 0) and after.bag_eels == 39 and after.reserves == (0, 12)


# 6. Reveal: eels to the drawer's reserve, snakes to the centre.
@pytest.mark.parametrize("game_id", FAMILY)
def test_6_reveal_moves_eels_to_reserves_and_snakes_to_the_centre(game_id: str) -> None:
    _, state = play(game_id, 4, [grab(s0=3, s1=2, s2=1, s3=4), draw(s0="ESE", s1="SS", s2="E", s3="EEEE")])
    assert state.reserves == (2, 0, 1, 4)
    assert state.centre == 3 and state.bag_snakes == 14 and state.bag_eels == 44


# 7. Outbreak scoring, per rule set.
def test_7_wriggle_roulette_most_eels_lose_others_score_reserve() -> None:
    _, state = play("wriggle-roulette", 3, [
        grab(s0=4, s1=4, s2=4), draw(s0="EEEE", s1="EEES", s2="EESS"),
        grab(s0=1, s1=4, s2=4), draw(s0="S", s1="SEEE", s2="SSEE"),
    ])
    # Reserves before the check: seat 0: 4, seat 1: 6, seat 2: 4; seat 1 holds most and loses.
    assert state.last is not None and state.last.outbreak and state.last.losers == (1,)
    assert state.scores == (4, 0, 4)
    assert state.round_no == 2 and state.reserves == (0, 0, 0) and state.bag_eels == 51


def test_7_wriggle_roulette_ties_for_most_all_lose() -> None:
    _, state = play("wriggle-roulette", 3, [
        grab(s0=4, s1=4, s2=3), draw(s0="EEEE", s1="EEES", s2="SSS"),
        grab(s0=1, s1=2, s2=1), draw(s0="S", s1="ES", s2="S"),
    ])
    assert state.last is not None and state.last.losers == (0, 1)
    assert state.scores == (0, 0, 0)


def test_7_eel_harvest_biggest_grab_loses_others_score_this_grab_only() -> None:
    _, state = play("eel-harvest", 3, [
        grab(s0=4, s1=4, s2=4), draw(s0="EEEE", s1="EEES", s2="EESS"),
        grab(s0=1, s1=4, s2=2), draw(s0="E", s1="SSSE", s2="SE"),
    ])
    # Seat 1 drew the most tokens (4) and loses; seat 0 scores 1 eel, seat 2 scores 1 eel.
    assert state.last is not None and state.last.losers == (1,)
    assert state.scores == (1, 0, 1)
    assert state.bag_eels == 51 and state.round_no == 2


def test_7_eel_harvest_option_scores_the_whole_reserve() -> None:
    _, state = play("eel-harvest", 3, [
        grab(s0=4, s1=4, s2=4), draw(s0="EEEE", s1="EEES", s2="EESS"),
        grab(s0=1, s1=4, s2=2), draw(s0="E", s1="SSSE", s2="SE"),
    ], outbreak_scores_reserve=True)
    assert state.scores == (5, 0, 3)


def test_7_eel_harvest_ties_for_biggest_grab_all_lose() -> None:
    _, state = play("eel-harvest", 3, [
        grab(s0=2, s1=4, s2=4), draw(s0="EE", s1="SSSS", s2="SSSE"),
    ])
    assert state.last is not None and state.last.losers == (1, 2) and state.scores == (2, 0, 0)


# 8. The round also ends when everyone has exited; every token goes back.
@pytest.mark.parametrize("game_id", FAMILY)
def test_8_round_ends_when_all_exit(game_id: str) -> None:
    _, state = play(game_id, 2, [
        grab(s0=3, s1=2), draw(s0="EES", s1="EE"),
        grab(s0=0, s1=0),
    ])
    assert state.scores == (2, 2) and state.round_no == 2
    assert (state.bag_eels, state.bag_snakes, state.centre, state.reserves) == (51, 17, 0, (0, 0))
    assert state.in_round == (True, True)


# 9. Start player: seat 0 keeps starting; rotate_start moves it left each round.
@pytest.mark.parametrize("game_id", FAMILY)
def test_9_start_player(game_id: str) -> None:
    events = [grab(s0=0, s1=0, s2=0), grab(s0=0, s1=0, s2=0)]
    _, state = play(game_id, 3, events)
    assert state.start == 0 and state.round_no == 3
    _, state = play(game_id, 3, events, rotate_start=True)
    assert state.start == 2 and state.round_no == 3


# 10. Lone player (eel-harvest).
def test_10_lone_player_keeps_grabbing_without_the_option() -> None:
    game, state = play("eel-harvest", 3, [grab(s0=0, s1=0, s2=2), draw(s2="EE")])
    assert state.in_round == (False, False, True) and game.acting_players(state) == (2,)
    for _ in range(5):
        state = game.apply_chance(game.apply(state, {2: 1}), ("", "", "E"))
    assert state.in_round[2] and state.reserves[2] == 7


def test_10_lone_player_exits_after_n_more_grabs() -> None:
    _, state = play("eel-harvest", 3, [
        grab(s0=0, s1=0, s2=2), draw(s2="EE"),
        grab(s2=1), draw(s2="E"),
        grab(s2=1), draw(s2="E"),
    ], lone_player_grabs=2)
    # After two more grabs the lone player exits automatically, scoring 4.
    assert state.scores == (0, 0, 4) and state.round_no == 2
    assert state.last is not None and state.last.exited == (2,)
    with pytest.raises(RecordError):
        play("eel-harvest", 3, [grab(s0=0, s1=0, s2=2), draw(s2="EE"), grab(s2=1)], lone_player_grabs=0)


def test_10_lone_option_belongs_to_eel_harvest() -> None:
    with pytest.raises(gamebag.OptionError, match="lone_player_grabs"):
        gamebag.make("wriggle-roulette", 3, lone_player_grabs=2)


# 11. End of the game.
def test_11_wriggle_roulette_ends_in_the_grab_reaching_20_after_it_resolves() -> None:
    game = gamebag.make("wriggle-roulette", 3)
    state = position(game, scores=(15, 3, 0), reserves=(6, 2, 1), bag_eels=42)
    pending = game.apply(state, {0: 0, 1: 1, 2: 1})
    final = game.apply_chance(pending, ("", "E", "S"))
    # Seat 0 exits to 21: the game ends after the grab resolves; reserves are not scored.
    assert game.is_terminal(final) and final.winners == (0,) and final.scores == (21, 3, 0)


def test_11_wriggle_roulette_outbreak_in_the_same_grab_can_overtake() -> None:
    game = gamebag.make("wriggle-roulette", 3)
    state = position(game, scores=(17, 18, 0), reserves=(3, 4, 1), centre=6, bag_snakes=11, bag_eels=43)
    pending = game.apply(state, {0: 0, 1: 1, 2: 1})
    final = game.apply_chance(pending, ("", "E", "S"))
    # Seat 0 exits at 20; the outbreak: seat 1 (5 eels) loses, seat 2 scores 1. Highest: seat 0.
    assert game.is_terminal(final) and final.scores == (20, 18, 1) and final.winners == (0,)
    tie = position(game, scores=(17, 16, 0), reserves=(3, 4, 4), centre=6, bag_snakes=11, bag_eels=40)
    final = game.apply_chance(game.apply(tie, {0: 0, 1: 1, 2: 1}), ("", "S", "E"))
    # Seat 2 holds the most (5) and loses; seat 1 scores 4 -> 20, tied with seat 0: shared win.
    assert final.scores == (20, 20, 0) and final.winners == (0, 1)


def test_11_eel_harvest_ends_only_at_a_round_end() -> None:
    game = gamebag.make("eel-harvest", 3)
    state = position(game, scores=(15, 3, 0), reserves=(6, 2, 1), bag_eels=42)
    mid = game.apply_chance(game.apply(state, {0: 0, 1: 1, 2: 1}), ("", "E", "E"))
    assert not game.is_terminal(mid) and mid.scores[0] == 21
    end = game.apply(mid, {1: 0, 2: 0})
    assert game.is_terminal(end) and end.winners == (0,)


def test_11_eel_harvest_tie_the_earlier_exit_loses() -> None:
    game = gamebag.make("eel-harvest", 3)
    state = position(game, scores=(14, 16, 0), reserves=(6, 2, 1), bag_eels=42)
    state = game.apply_chance(game.apply(state, {0: 0, 1: 1, 2: 1}), ("", "E", "E"))
    state = game.apply_chance(game.apply(state, {1: 1, 2: 1}), ("", "E", "E"))
    state = game.apply(state, {1: 0, 2: 0})
    # Seats 0 and 1 both have 20; seat 0 exited earlier and loses.
    assert state.scores == (20, 20, 3) and state.winners == (1,)


def test_11_eel_harvest_outbreak_survivors_exit_last_and_same_grab_exits_share() -> None:
    game = gamebag.make("eel-harvest", 3)
    state = position(game, scores=(18, 17, 19), reserves=(2, 3, 0), centre=6, bag_snakes=11, bag_eels=46)
    final = game.apply_chance(game.apply(state, {0: 0, 1: 2, 2: 1}), ("", "SE", "E"))
    # Seat 0 exits (20). Outbreak: seat 1 drew most and loses; seat 2 scores 1 (20) and exited last.
    assert final.scores == (20, 17, 20) and final.winners == (2,)
    state = position(game, scores=(18, 17, 19), reserves=(2, 3, 1), bag_eels=45)
    final = game.apply(state, {0: 0, 1: 0, 2: 0})
    assert final.scores == (20, 20, 20) and final.winners == (0, 1, 2)


# 12. Overdrawing is an illegal action that changes nothing.
@pytest.mark.parametrize("game_id", FAMILY)
def test_12_overdraw_is_refused(game_id: str) -> None:
    game = gamebag.make(game_id, 4)
    state = game.initial_state()
    with pytest.raises(IllegalActionError, match="0 to 4"):
        game.apply(state, {0: 5, 1: 1, 2: 1, 3: 1})
    with pytest.raises(IllegalActionError):
        game.apply(state, {0: -1, 1: 1, 2: 1, 3: 1})
    assert state == game.initial_state()


# 13. Dice variant.
def test_13_dice_draws_are_quarter_snakes_and_never_deplete() -> None:
    game = gamebag.make("eel-harvest", 2, draw="dice")
    pending = game.apply(game.initial_state(), {0: 2, 1: 1})
    outcomes = dict(game.chance_outcomes(pending))
    assert outcomes[("SS", "S")] == Fraction(1, 64)
    assert outcomes[("EE", "E")] == Fraction(27, 64)
    assert outcomes[("ES", "E")] == Fraction(2 * 9, 64)
    after = game.apply_chance(pending, ("SS", "S"))
    assert (after.bag_eels, after.bag_snakes, after.centre) == (51, 17, 3)
    rng = make_rng(0)
    drawn = "".join("".join(game.sample_chance(pending, rng)) for _ in range(4000))
    assert abs(drawn.count("S") / len(drawn) - 0.25) < 0.02


# 14. Scores are integers.
@pytest.mark.parametrize("game_id", FAMILY)
def test_14_scores_are_integers(game_id: str) -> None:
    game = gamebag.make(game_id, 4)
    result = play_game(game, [make_agent("heuristic", game)] * 4, make_rng(1))
    assert all(isinstance(s, int) for s in result.state.scores)
    assert all(float(s).is_integer() for s in result.scores)
