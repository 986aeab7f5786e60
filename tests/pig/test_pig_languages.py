"""Pig speaks the reader's language: the terminal's table, narration, choices, help and places, the
page's renderer (pig.js under node with the language's bundle), the presets and options shown
elsewhere (``game_text``), and the players' guide, in Dutch and Japanese, with no English sentence
of the game's catalogue left in them."""

from __future__ import annotations

from itertools import pairwise

import pytest

import gamebag
from dice_languages import NODE, english_left, guide_holes, page_words, same_as_english, walk
from gamebag.core.i18n import game_text, use_language
from gamebag.games.pig import players_text

# Words each language's text must hold (the game's own vocabulary in that language).
KNOWN = {"nl": ("Ronde", "gooit", "veilig"), "ja": ("ラウンド", "出目", "確定")}


def _terminal_text(language: str) -> str:
    game = gamebag.make("pig", 2, goal=20)
    entry = gamebag.entry("pig")
    states = walk(game, 3)
    lines: list[str] = []
    with use_language(language):
        seen = game.observation(states[0], 0)
        for before, after in pairwise(states):
            view = game.observation(after, 0)
            lines += entry.narrate(seen, view)
            seen = view
            lines.append(entry.render_view(view))
            if game.node_kind(before).name == "DECISION" and before.seat == 0:
                old = game.observation(before, 0)
                lines += [entry.action_words(old, action) for action in game.legal_actions(before, 0)]
                lines.append(entry.decision_help(old))
                lines.append(entry.place_words(entry.locate(old)))
        presets = type(game).preset_specs
        lines += [game_text(game, preset.label) + " " + game_text(game, preset.summary) for preset in presets]
        lines += [game_text(game, spec.doc) for spec in game.option_specs]
    return "\n".join(lines)


@pytest.mark.parametrize("language", sorted(KNOWN))
def test_the_terminal_speaks_the_readers_language(language: str) -> None:
    text = _terminal_text(language)
    for word in KNOWN[language]:
        assert word in text, word
    assert english_left(text, "pig") == []
    assert same_as_english(text.splitlines(), _terminal_text("en").splitlines()) == []
    assert "seat 0" in text  # the terminal's seat token, which it replaces with the seat's name


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("language", ["nl", "ja"])
def test_the_page_speaks_the_readers_language(language: str) -> None:
    game = gamebag.make("pig", 2, goal=20)
    states = walk(game, 5)
    deciding = next(i for i, state in enumerate(states) if game.node_kind(state).name == "DECISION" and i > 4)
    views = [game.observation(state, 0) for state in [*states[:deciding + 1], states[-1]]]
    legal = [game.action_to_json(a) for a in game.legal_actions(states[deciding], states[deciding].seat)]
    table = {"seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}]}
    request = {
        "views": views, "legal": legal, "seat": 0, "table": table, "result": {"winners": game.winners(states[-1])},
    }
    texts = page_words("pig.js", language, request)
    text = "\n".join(texts)
    assert KNOWN[language][0] in text
    assert english_left(text, "pig") == []
    assert same_as_english(texts, page_words("pig.js", "en", request)) == []


@pytest.mark.parametrize("language", ["nl", "fr", "de", "ja", "zh_Hans"])
def test_the_players_guide_is_translated_with_every_placeholder(language: str) -> None:
    english = players_text()
    with use_language(language):
        translated = players_text()
    assert translated != english
    assert guide_holes(translated) == guide_holes(english)
    assert translated.count("\n#") == english.count("\n#")  # the same sections
