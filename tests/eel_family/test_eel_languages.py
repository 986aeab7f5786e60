"""The Eel family speaks the reader's language: the terminal's table, narration, choices and help,
the players' rules, the option and preset words shown by code outside the game.

A seeded game is played and told under ``use_language``; every English sentence of the
``eel_family`` catalogue must be gone from the Dutch and Japanese words (seats stay ``seat N``:
a language-neutral mark the terminal replaces with its seat names).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Any

import pytest

import gamebag
from gamebag.core.i18n import game_text, placeholders, use_language
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng

LANGUAGES = ("nl", "fr", "de", "ja", "zh_Hans")
# Words each language must show somewhere in a whole game told to a seat (the game's own terms).
KNOWN = {
    "nl": ("palingen", "slangen", "Ronde", "voorraad"),
    "ja": ("ウナギ", "ヘビ", "ラウンド", "手元"),
}


@cache
def _english_sentences() -> tuple[str, ...]:
    """The catalogue's English texts longer than 12 characters, placeholders cut out: the pieces
    between them (long enough to be English words, not a number or a name)."""
    from babel.messages.pofile import read_po

    path = resources.files("gamebag.games.eel_family").joinpath("locale", "eel_family.pot")
    with path.open("rb") as handle:
        catalog = read_po(handle)
    pieces: set[str] = set()
    for message in catalog:
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            if not text or len(text) <= 12:
                continue
            for piece in re.split(r"\{[a-z_]+\}|\[/?bold\]", text):
                if len(piece.strip()) > 12:
                    pieces.add(piece.strip())
    return tuple(sorted(pieces))


def _told(game_id: str, players: int, seed: int) -> str:
    """Everything the terminal shows seat 0 over a seeded random game: tables, narration, choices, help."""
    game = gamebag.make(game_id, players)
    entry = gamebag.entry(game_id)
    rng = derive_rng(seed, "eel-languages")
    state = game.initial_state()
    seen: Any = game.observation(state, 0)
    out: list[str] = [entry.render_view(seen), entry.decision_help(seen)]
    out += [entry.action_words(seen, action) for action in game.legal_actions(state, 0)]
    while game.node_kind(state) is not NodeKind.TERMINAL:
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            moves = {}
            for seat in game.acting_players(state):
                legal = game.legal_actions(state, seat)
                moves[seat] = legal[rng.randrange(len(legal))]
            state = game.apply(state, moves)
        view = game.observation(state, 0)
        out += entry.narrate(seen, view)
        seen = view
    out.append(entry.render_view(seen))
    return "\n".join(out)


@pytest.mark.parametrize(("game_id", "players"), [("wriggle-roulette", 4), ("eel-harvest", 3)])
@pytest.mark.parametrize("language", sorted(KNOWN))
def test_a_game_is_told_in_the_readers_language(game_id: str, players: int, language: str) -> None:
    with use_language(language):
        text = _told(game_id, players, 7)
    for word in KNOWN[language]:
        assert word in text, (language, word)
    english = [piece for piece in _english_sentences() if piece in text]
    assert not english, english[:5]
    with use_language("en"):
        assert "Snakes in the centre" in _told(game_id, players, 7)


def test_outbreaks_ends_and_errors_are_translated() -> None:
    from gamebag.core.errors import IllegalActionError
    from gamebag.games.eel_family.render import describe_grab, why_won

    last = {
        "counts": [2, 3],
        "eels": [1, 1],
        "snakes": [1, 2],
        "exited": [],
        "scored": [3, 0],
        "outbreak": True,
        "losers": [1],
        "round_over": True,
    }
    with use_language("nl"):
        assert "Slangenplaag!" in describe_grab(last) and "seat 1 verliest zijn palingen" in describe_grab(last)
        assert "seat 0 en seat 1" in why_won({"scores": [22, 22, 5], "winners": [0, 1], "target": 20})
    with use_language("ja"):
        assert "ヘビ大発生" in describe_grab(last)
        game = gamebag.make("wriggle-roulette", 2)
        with pytest.raises(IllegalActionError, match="整数"):
            game.action_from_json("x")
    with use_language("de"):
        assert "Schlangenplage" in describe_grab(last)


@pytest.mark.parametrize("game_id", ["eel-harvest", "wriggle-roulette"])
def test_options_presets_and_titles_through_game_text(game_id: str) -> None:
    game = gamebag.make(game_id, 3)
    assert type(game).text_domain == "eel_family"
    for language in LANGUAGES:
        with use_language(language):
            for spec in type(game).option_specs:
                assert game_text(game, spec.doc) != spec.doc, (language, spec.name)
            for preset in type(game).presets():
                if preset.name in ("quick", "optional-rules", "dice", "rotating-start"):
                    assert game_text(game, preset.label) != preset.label, (language, preset.name)
                    assert game_text(game, preset.summary) != preset.summary, (language, preset.name)
            assert game_text(game, type(game).title) != type(game).title


@pytest.mark.parametrize("game_id", ["eel-harvest", "wriggle-roulette"])
def test_the_players_rules_in_each_language_keep_their_placeholders(game_id: str) -> None:
    players_text = gamebag.entry(game_id).players_text
    assert players_text is not None
    with use_language("en"):
        english = players_text()
    # The option each placeholder names stays; the words after "|" (shown without a table) are translated.
    wanted = sorted(re.findall(r"\{\{(\w+)", english))
    headings = english.count("\n#")
    for language in LANGUAGES:
        with use_language(language):
            text = players_text()
        assert text != english, language
        assert sorted(re.findall(r"\{\{(\w+)", text)) == wanted, language
        assert text.count("\n#") == headings, language
    assert placeholders("{n} eel") == {"n"}
