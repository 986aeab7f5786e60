"""Catch A Dragon speaks the reader's language: the terminal's table, narration, choices, help,
places and end-of-game reasons, the page's renderer (catch-a-dragon.js under node with the
language's bundle), the presets and options shown elsewhere (``game_text``), the option error a
host reads, and the players' guide, in Dutch and Japanese, with no English sentence of the game's
catalogue left in them."""

from __future__ import annotations

from itertools import pairwise

import pytest

import gamebag
from dice_languages import NODE, english_left, guide_holes, page_words, same_as_english, walk
from gamebag.core.errors import OptionError
from gamebag.core.i18n import game_text, use_language
from gamebag.games.catch_a_dragon import players_text

# Words each language's text must hold: the game's own vocabulary (rounds, fame, the dragons' colours).
KNOWN = {"nl": ("Ronde", "roem", "groen", "pakt"), "ja": ("ラウンド", "名声", "緑", "出目")}


def _terminal_text(language: str) -> str:
    game = gamebag.make("catch-a-dragon", 3, rounds=2)
    entry = gamebag.entry("catch-a-dragon")
    lines: list[str] = []
    with use_language(language):
        for seed in (1, 2):
            states = walk(game, seed)
            seen = game.observation(states[0], 0)
            for before, after in pairwise(states):
                view = game.observation(after, 0)
                lines += entry.narrate(seen, view)
                seen = view
                lines.append(entry.render_view(view))
                if game.node_kind(before).name == "DECISION" and 0 in game.acting_players(before):
                    old = game.observation(before, 0)
                    lines += [entry.action_words(old, game.action_to_json(a)) for a in game.legal_actions(before, 0)]
                    lines.append(entry.decision_help(old))
                    lines.append(entry.place_words(entry.locate(old)))
        presets = type(game).preset_specs
        lines += [game_text(game, preset.label) + " " + game_text(game, preset.summary) for preset in presets]
        lines += [game_text(game, spec.doc) for spec in game.option_specs]
        with pytest.raises(OptionError) as refused:
            gamebag.make("catch-a-dragon", 2, faces=["green", "gold"])
        lines.append(str(refused.value))
    return "\n".join(lines)


@pytest.mark.parametrize("language", sorted(KNOWN))
def test_the_terminal_speaks_the_readers_language(language: str) -> None:
    text = _terminal_text(language)
    for word in KNOWN[language]:
        assert word in text, word
    assert english_left(text, "catch_a_dragon") == []
    assert same_as_english(text.splitlines(), _terminal_text("en").splitlines()) == []
    assert "seat 0" in text  # the terminal's seat token, which it replaces with the seat's name


def test_the_end_of_game_reason_is_translated() -> None:
    from gamebag.games.catch_a_dragon.render import why_won

    view = {"scores": [30, 30], "winners": [0, 1], "rounds": 4, "tiebreak_round": 2, "max_tiebreak_rounds": 2}
    with use_language("nl"):
        assert why_won(view).startswith("seat 0 en seat 1 delen de overwinning")
        assert "na 4 rondes en 2 beslissingsrondes" in why_won(view)
    with use_language("ja"):
        assert "勝利を分け合いました" in why_won(view)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("language", ["nl", "ja"])
def test_the_page_speaks_the_readers_language(language: str) -> None:
    game = gamebag.make("catch-a-dragon", 2, rounds=1)
    states = walk(game, 4)
    collecting = next(
        i for i, state in enumerate(states)
        if game.node_kind(state).name == "DECISION" and any(isinstance(a, tuple) for a in game.legal_actions(state, 0))
        and 0 in game.acting_players(state)
    )
    views = [game.observation(state, 0) for state in [*states[:collecting + 1], states[-1]]]
    legal = [game.action_to_json(a) for a in game.legal_actions(states[collecting], 0)]
    table = {"seats": [{"seat": 0, "name": "Ann", "bot": False}, {"seat": 1, "name": "Bob", "bot": True}]}
    request = {
        "views": views, "legal": legal, "seat": 0, "table": table, "result": {"winners": game.winners(states[-1])},
    }
    texts = page_words("catch-a-dragon.js", language, request)
    text = "\n".join(texts)
    assert same_as_english(texts, page_words("catch-a-dragon.js", "en", request)) == []
    for word in KNOWN[language][:3]:
        assert word in text, word
    assert english_left(text, "catch_a_dragon") == []


@pytest.mark.parametrize("language", ["nl", "fr", "de", "ja", "zh_Hans"])
def test_the_players_guide_is_translated_with_every_placeholder(language: str) -> None:
    english = players_text()
    with use_language(language):
        translated = players_text()
    assert translated != english
    assert guide_holes(translated) == guide_holes(english)
    assert translated.count("\n#") == english.count("\n#")  # the same sections
