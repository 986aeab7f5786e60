"""The terminal's narration: a player never sees a score change without the event that caused it.

For every registered game, random games are played and, after every single step, seat 0's
view is narrated against its previous view (as ``gamebag play`` does). Whenever a seat's
score changes, the narrated lines must name that seat; and the narration reads only seat
0's own view, so it can hold nothing seat 0 may not know.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

import gamebag
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import derive_rng

GAMES = [("wriggle-roulette", 4), ("eel-harvest", 3), ("catch-a-dragon", 3), ("eigen-kweek", 3), ("pig", 2)]


def _walk(game: Game[Any, Any, Any], seed: int) -> list[Any]:
    rng = derive_rng(seed, "narration")
    state = game.initial_state()
    states = [state]
    while game.node_kind(state) is not NodeKind.TERMINAL and len(states) < 20_000:
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            moves = {}
            for seat in game.acting_players(state):
                legal = game.legal_actions(state, seat)
                moves[seat] = legal[rng.randrange(len(legal))]
            state = game.apply(state, moves)
        states.append(state)
    return states


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_every_score_change_is_narrated(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    narrate = gamebag.entry(game_id).narrate
    changes = 0
    for seed in range(3):
        states = _walk(game, seed)
        seen = game.observation(states[0], 0)
        for before, after in pairwise(states):
            view = game.observation(after, 0)
            lines = narrate(seen, view)
            seen = view
            for seat, (old, new) in enumerate(zip(game.scores(before), game.scores(after), strict=True)):
                if old != new:
                    changes += 1
                    text = " ".join(lines)
                    assert f"seat {seat}" in text, (seat, old, new, lines)
    assert changes > 0  # the games did score


def test_eigen_kweek_narration_tells_private_notes_only_to_their_owner() -> None:
    game = gamebag.make("eigen-kweek", 3)
    narrate = gamebag.entry("eigen-kweek").narrate
    states = _walk(game, 7)
    for seat in range(3):
        told: list[str] = []
        seen = game.observation(states[0], seat)
        for state in states[1:]:
            view = game.observation(state, seat)
            told.extend(narrate(seen, view))
            seen = view
        private = [line for line in told if line.startswith("(only you know)")]
        assert private  # corners taken, coins drawn...
        # Every private line is one of this seat's own notes at some point of the game.
        own = {note for state in states for note in game.observation(state, seat)["you"]["notes"]}
        assert all(line.removeprefix("(only you know) ") in own for line in private)


# ---- the game-over screen: who won and why, in the rulebook's words ----------------------------
REASONS = {
    "wriggle-roulette": "the highest score",
    "eel-harvest": "the highest score",
    "catch-a-dragon": "the highest total",
    "eigen-kweek": "potato sacks",
    "pig": "the first to reach the goal",
}


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_the_final_position_says_who_won_and_why(game_id: str, players: int) -> None:
    game = gamebag.make(game_id, players)
    final = _walk(game, 1)[-1]
    text = gamebag.entry(game_id).render_view(game.public_view(final))
    line = next(line for line in text.splitlines() if "Game over" in line)
    winners = game.winners(final)
    assert "[bold green]Game over: " in line and REASONS[game_id] in line, line
    for seat in winners:
        assert f"seat {seat}" in line
    assert ("share the win" in line) == (len(winners) > 1), line


def test_eel_reasons_for_a_tie_break_and_a_shared_win() -> None:
    from gamebag.games.eel_family.render import why_won

    harvest = why_won({"scores": [22, 22, 5], "winners": [1], "target": 20})
    assert harvest.startswith("seat 1 wins: tied on the highest score, 22, with seat 0, who exited earlier")
    shared = why_won({"scores": [22, 22, 5], "winners": [0, 1], "target": 20})
    assert shared.startswith("seat 0 and seat 1 share the win, tied on the highest score, 22")
    assert "a tie is a shared win" in shared


def test_catch_a_dragon_reasons_after_tie_breaks() -> None:
    from gamebag.games.catch_a_dragon.render import why_won

    view = {"scores": [30, 30], "winners": [0, 1], "rounds": 4, "tiebreak_round": 10, "max_tiebreak_rounds": 10}
    assert "seat 0 and seat 1 share the win, tied on the highest total, 30 fame, after 4 rounds and 10 tie-break" \
        in why_won(view)
    view |= {"scores": [31, 30], "winners": [0], "tiebreak_round": 1}
    assert why_won(view).startswith(
        "seat 0 wins with the highest total, 31 fame, after 4 rounds and 1 tie-break round "
    )


def test_an_outbreak_with_one_loser_is_singular() -> None:
    from gamebag.games.eel_family.render import describe_grab

    last = {"counts": [2, 3], "eels": [1, 1], "snakes": [1, 2], "exited": [], "scored": [3, 0], "outbreak": True,
            "losers": [1], "round_over": True}
    assert "seat 1 loses their eels" in describe_grab(last)
    assert "seat 0 and seat 1 lose their eels" in describe_grab(last | {"losers": [0, 1], "scored": [0, 0]})


def test_eel_narration_numbers_each_grab_and_the_terminal_table_leaves_out_the_last() -> None:
    game = gamebag.make("wriggle-roulette", 3)
    entry = gamebag.entry("wriggle-roulette")
    states = _walk(game, 2)
    told: list[str] = []
    for before, after in pairwise(states):
        told += entry.narrate(game.observation(before, 0), game.observation(after, 0))
    grabs = [line for line in told if line.startswith("Grab ")]
    assert grabs and not any("Last grab" in line for line in told)
    assert grabs[0].startswith("Grab 1 of round 1: ")
    view = game.observation(states[-1], 0)
    assert "Last grab" in entry.render_view(view)  # replay shows it: nothing has told it
    assert "Last grab" not in entry.render_view(view | {"narrated": True})


def test_the_terminal_names_seats_and_keeps_table_columns() -> None:
    from gamebag.cli.commands.play import TerminalGame

    game = gamebag.make("wriggle-roulette", 3)
    terminal = TerminalGame(game, ["human", "heuristic", "random"], {}, 1, None, [])
    assert terminal.named("seat 0 exited; Seat 2 grabbed 3; seat 1 and seat 2 lose") == \
        "Player 1 exited; Bot 3 grabbed 3; Bot 2 and Bot 3 lose"
    table = terminal.named("seat      score\nseat 0       12\nseat 1        3")
    rows = table.splitlines()
    assert rows[1].startswith("Player 1     12") and rows[2].startswith("Bot 2         3")
    assert rows[1].index("12") == rows[2].index("3") - 1 == rows[0].index("score") + 3
    assert [terminal.full_name(p) for p in range(3)] == ["Player 1 (you)", "Bot 2 (heuristic)", "Bot 3 (random)"]


def test_terminal_texts_count_their_nouns_in_words() -> None:
    """No "(s)" anywhere a seat reads: counted nouns take their number ("1 coin", "3 eels")."""
    from gamebag.core.words import counted
    from gamebag.games.eel_family.render import action_words

    assert counted(1, "coin") == "1 coin" and counted(3, "weed token") == "3 weed tokens"
    assert counted(0, "eel") == "0 eels"
    exit_words = action_words({"seat": 0, "reserves": [1, 0]}, 0)
    assert exit_words == "exit: score the 1 eel in your reserve and leave the round"
    assert action_words({"seat": 0, "reserves": [1, 0]}, 1) == "grab 1 token"
    import inspect

    import gamebag.games.eel_family.render as eel_render
    import gamebag.games.eigen_kweek.render as kweek_render

    for module in (eel_render, kweek_render):
        assert "(s)" not in inspect.getsource(module), module.__name__
