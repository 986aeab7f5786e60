"""Audit: hidden information (rulings 1-2). Two records that differ only in what a player may
not know must give that player the same observation (and observation tensor); a record that
differs in what it may know must not (so each comparison can fail)."""

from __future__ import annotations

from audit_script import Script, opening, quiet_round


def _same(a: Script, b: Script, seat: int) -> bool:
    same_obs = a.game.observation(a.state, seat) == b.game.observation(b.state, seat)
    same_tensor = a.game.observation_tensor(a.state, seat) == b.game.observation_tensor(b.state, seat)
    return same_obs and same_tensor


def _public_same(a: Script, b: Script) -> bool:
    return a.game.public_view(a.state) == b.game.public_view(b.state)


DEAL = ("FRANK", "JOS", "BERNARD", "FLUPPE")


def test_coin_values_on_the_table_and_in_others_collections_are_hidden() -> None:
    scripts = [opening(2, corners=c, dealt=DEAL, chosen=("FRANK", "BERNARD")) for c in ((1, 2, 3, 5), (5, 3, 2, 1))]
    a, b = scripts
    assert a.state.corners != b.state.corners
    assert _same(a, b, 0) and _same(a, b, 1) and _public_same(a, b)
    for script in scripts:
        script.quiet_window().moves(s0="bid:2", s1="bid:1").quiet_window().moves(s0="corner:1").moves(s1="corner:2")
    # Each saw what it took; neither knows the other's coin, nor the two corners left.
    assert not _same(a, b, 0) and not _same(a, b, 1)
    a0 = a.game.observation(a.state, 0)
    b0 = b.game.observation(b.state, 0)
    assert a0["you"]["coins"] == [1] and b0["you"]["coins"] == [5]
    assert _public_same(a, b)


def test_with_open_coins_collections_are_seen_but_the_table_is_not() -> None:
    a, b = (opening(2, corners=c, dealt=DEAL, chosen=("FRANK", "BERNARD"), coin_visibility="open")
            for c in ((1, 2, 3, 5), (5, 2, 3, 1)))
    assert _same(a, b, 0) and _public_same(a, b)
    for script in (a, b):
        script.quiet_window().moves(s0="bid:2", s1="bid:1").quiet_window().moves(s0="corner:2").moves(s1="corner:1")
    assert not _public_same(a, b)  # seat 1's coin is face up


def test_dealt_and_chosen_characters_are_hidden() -> None:
    a = opening(2).chance("FRANK", "JOS", "KEUN", "FLUPPE")
    b = opening(2).chance("FRANK", "JOS", "GRIET", "PASTOOR")
    assert _same(a, b, 0) and _public_same(a, b)
    assert not _same(a, b, 1)
    a.moves(s0="choose:FRANK", s1="choose:KEUN")
    b.moves(s0="choose:FRANK", s1="choose:PASTOOR")
    assert _same(a, b, 0)
    c = opening(2).chance("FRANK", "JOS", "KEUN", "FLUPPE").moves(s0="choose:FRANK", s1="choose:FLUPPE")
    assert _same(a, c, 0) and not _same(a, c, 1)
    # Through the deal window and into the sealed bids, still hidden.
    for script in (a, c):
        script.quiet_window()
    assert _same(a, c, 0)


def test_sealed_bids_are_hidden_until_the_reveal() -> None:
    a, b = (opening(2, dealt=DEAL, chosen=("FRANK", "BERNARD")).quiet_window() for _ in range(2))
    a.moves(s0="bid:2", s1="bid:3")
    b.moves(s0="bid:2", s1="bid:7")
    assert a.step == "window" and a.state.phase == "trade"
    assert _same(a, b, 0) and _public_same(a, b)
    assert not _same(a, b, 1)
    a.quiet_window()
    b.quiet_window()
    assert not _same(a, b, 0)  # revealed together


def test_a_kept_card_stays_hidden_next_round() -> None:
    scripts = []
    for kept in ("BERNARD", "FLUPPE"):
        script = opening(2, dealt=DEAL, chosen=("FRANK", kept)).quiet_window()
        script.moves(s0="bid:2", s1="bid:1").quiet_window().moves(s0="corner:1").moves(s1="corner:2")
        script.quiet_window().moves(s0="pass", s1="pass").quiet_window()
        script.moves(s0="hand_in", s1="keep").chance(1, 1, 1, 1)
        scripts.append(script)
    a, b = scripts
    assert a.state.held[1] != b.state.held[1]
    assert _same(a, b, 0) and _public_same(a, b)
    assert a.game.public_view(a.state)["table"][1]["kept"] is True


def test_ria_drawn_card_is_seen_by_ria_and_the_receiver_only() -> None:
    scripts = []
    for drawn in ("LUCIEN", "CHANTAL"):
        script = opening(3, dealt=("RIA", "KEUN", "JULITA", "STEVEN", "FRANK", "JOS"),
                         chosen=("RIA", "STEVEN", "FRANK"))
        script.moves(s0="play:RIA", s1="pass", s2="pass").moves(s1="pass", s2="pass").moves(s0="ria:draw").chance(drawn)
        assert _same(script, script, 0)
        scripts.append(script)
    a, b = scripts
    assert _same(a, b, 1) and _same(a, b, 2) and not _same(a, b, 0)
    for script in scripts:
        script.moves(s0="ria:left")
    # Seat 1 received the drawn card; seat 2 (which passed to seat 0) never saw it.
    assert _same(a, b, 2) and not _same(a, b, 1)


def test_den_ollanders_taken_card_is_hidden_from_the_others() -> None:
    scripts = []
    for card in ("STEVEN", "KEUN"):
        script = opening(3, dealt=("DEN OLLANDER", "FRANK", card, "JOS", "RIA", "PASTOOR"),
                         chosen=("DEN OLLANDER", card, "RIA"))
        script.moves(s0="take:1", s1="pass", s2="pass")
        scripts.append(script)
    a, b = scripts
    assert _same(a, b, 2) and _public_same(a, b)
    assert not _same(a, b, 0) and not _same(a, b, 1)


def test_lucien_coin_value_is_hidden_from_the_others() -> None:
    scripts = []
    for value in (1, 5):
        script = opening(3, dealt=("LUCIEN", "FRANK", "JOS", "KEUN", "RIA", "PASTOOR"),
                         chosen=("LUCIEN", "JOS", "RIA")).quiet_window()
        script.moves(s0="bid:1", s1="bid:4", s2="bid:3").moves(s0="play:LUCIEN", s1="pass", s2="pass")
        script.moves(s1="pass", s2="pass").chance(value)
        scripts.append(script)
    a, b = scripts
    assert _same(a, b, 1) and _same(a, b, 2) and not _same(a, b, 0)


def test_weed_tokens_in_collections_are_hidden() -> None:
    # Built position (the engine's state, two collections swapped): every token movement in a
    # real game is public, so no pair of records differs in collections alone.
    script = opening(3, dealt=("FRANK", "JOS", "KEUN", "FLUPPE", "RIA", "PASTOOR"),
                     chosen=("FRANK", "KEUN", "RIA")).quiet_window()
    swapped = script.state._replace(tokens=(10, 7, 13))
    other = script.state._replace(tokens=(10, 13, 7))
    game = script.game
    assert game.observation(swapped, 0) == game.observation(other, 0)
    assert game.observation_tensor(swapped, 0) == game.observation_tensor(other, 0)
    assert game.observation(swapped, 1) != game.observation(other, 1)


def test_resampled_positions_look_the_same_to_the_player() -> None:
    from gamebag.core.rng import make_rng

    script = opening(3, dealt=("FRANK", "JOS", "KEUN", "FLUPPE", "RIA", "PASTOOR"),
                     chosen=("FRANK", "KEUN", "RIA")).quiet_window()
    quiet_round(script, bids={0: 1, 1: 9, 2: 5}, corners=[(1, 4), (2, 3), (0, 2)],
                cultivate={0: "pass", 1: "pass", 2: "pass"}, refill=(1, 2, 3, 5))
    rng = make_rng(7)
    for state in script.history[::3]:
        for seat in range(3):
            sample = script.game.resample_from_infostate(state, seat, rng)
            assert script.game.observation(sample, seat) == script.game.observation(state, seat)
