"""Eigen Kweek in the players' languages (issue 39): a seeded game told, drawn and offered at the
terminal in Dutch (the game's own language: patattenzakken, wietfiches) and Japanese, with no
English sentence of the game's catalogue left in it; the option and preset words through
``game_text``; the players' rules in every language with the English file's placeholders; and the
browser's renderer (under node, as ``tests/web/test_kweek_page.py`` runs it) told in Dutch.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

import gamebag
from gamebag.core.i18n import game_text, use_language
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import Rng
from gamebag.games import eigen_kweek
from gamebag.games.eigen_kweek.render import action_words, decision_help, narrate, render_view

LOCALE = Path(eigen_kweek.__file__).parent / "locale"
LANGUAGES = ("nl", "fr", "de", "ja", "zh_Hans")
SCRIPT = Path(__file__).parent.parent / "web" / "js" / "kweek_render.mjs"
NODE = shutil.which("node")
# Each language's own words for the game's things, one of which every told game shows.
KNOWN = {
    "nl": ("patattenzak", "wietfiche", "Personages delen", "handelstafel"),
    "ja": ("ジャガイモ袋", "ウィード", "キャラクター配布", "取引テーブル"),
}


@functools.cache
def _english_phrases() -> tuple[str, ...]:
    """Every stretch of English longer than 12 characters in the game's messages (placeholders and
    markup cut out): none may reach a reader of another language."""
    with (LOCALE / "eigen_kweek.pot").open("rb") as handle:
        template = read_po(handle)
    phrases = set()
    for message in template:
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            for piece in re.split(r"\{[^{}]*\}|\[/?[a-z ]+\]", text):
                piece = piece.strip(" .,:;()")
                if len(piece) > 12 and re.search(r"[a-z]{3} [a-z]", piece):
                    phrases.add(piece)
    return tuple(sorted(phrases))


@functools.cache
def _game(players: int, seed: int) -> tuple[list[Any], list[tuple[Any, str]]]:
    """Seat 0's view after every event of a seeded random game, and a sample of the offered actions."""
    game = gamebag.make("eigen-kweek", players)
    state = game.initial_state()
    rng, pick = Rng(seed), random.Random(seed)
    views, offered = [game.observation(state, 0)], []
    while not game.is_terminal(state):
        if game.node_kind(state) is NodeKind.CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, rng))
        else:
            for seat in game.acting_players(state):
                view = game.observation(state, seat)
                offered.extend((view, action) for action in game.legal_actions(state, seat)[:6])
            state = game.apply(state, {p: pick.choice(list(game.legal_actions(state, p)))
                                       for p in game.acting_players(state)})
        views.append(game.observation(state, 0))
    return views, offered


def _terminal_text(language: str) -> str:
    views, offered = _game(3, 3)
    with use_language(language):
        told = [line for before, after in itertools.pairwise(views) for line in narrate(before, after)]
        drawn = [render_view(view) for view in views[::20] + views[-1:]]
        words = [action_words(view, action) for view, action in offered]
        helps = [decision_help(view) for view, _action in offered[::40]]
    return "\n".join(told + drawn + words + helps)


@pytest.mark.parametrize("language", ["nl", "ja"])
def test_the_terminal_tells_a_whole_game_in_the_readers_language(language: str) -> None:
    text = _terminal_text(language)
    for word in KNOWN[language]:
        assert word in text, word
    english = [phrase for phrase in _english_phrases() if phrase in text]
    assert not english, english[:10]
    for name in ("PASTOOR", "LUCIEN"):  # the characters keep their names in every language
        assert name in text


def test_english_stays_the_default() -> None:
    text = _terminal_text("en")
    assert "potato sack" in text and "patattenzak" not in text


def test_summary_options_and_presets_speak_through_game_text() -> None:
    game = gamebag.make("eigen-kweek", 3)
    assert type(game).text_domain == "eigen_kweek"
    spec = next(option for option in game.option_specs if option.name == "max_rounds")
    preset = next(p for p in game.presets() if p.name == "quick")
    with use_language("nl"):
        assert "patattenzakken" in game_text(game, spec.doc)
        assert game_text(game, preset.label) == "Een snel spel"
        assert "patattenzakken" in game_text(type(game), type(game).summary)
    with use_language("de"):
        assert "Kartoffelsäcke" in game_text(game, preset.summary)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_players_rules_in_each_language_keep_the_placeholders(language: str) -> None:
    with use_language("en"):
        english = eigen_kweek.players_text()
    with use_language(language):
        translated = eigen_kweek.players_text()
    assert translated != english
    assert set(re.findall(r"\{\{[^}]+\}\}", translated)) == set(re.findall(r"\{\{[^}]+\}\}", english))
    assert translated.count("\n## ") == english.count("\n## ")
    for name in ("RIA", "KEUN", "DEN OLLANDER", "STEFAAN"):
        assert f"**{name}**" in translated


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_browser_tells_the_game_in_dutch(tmp_path: Path) -> None:
    from gamebag.web.words.bundles import bundle

    views, _offered = _game(3, 3)
    game = gamebag.make("eigen-kweek", 3)
    script = tmp_path / "nl.js"
    script.write_bytes(bundle("nl").script)
    source = tmp_path / "input.json"
    table = {"game": "eigen-kweek", "seats": [{"seat": s, "name": n} for s, n in enumerate(["Ann", "Bob", "Cas"])]}
    labels = [a for a in game.all_actions() if not a.startswith(("bid:", "sow:", "plough:"))]
    source.write_text(json.dumps({"views": views, "seat": 0, "legal": [], "table": table, "labels": labels}))
    done = subprocess.run([NODE, str(SCRIPT), str(source)], capture_output=True, text=True, timeout=60, check=True,
                          env={"KWEEK_BUNDLE": str(script), "PATH": "/usr/bin:/bin"})
    page = json.loads(done.stdout)
    text = "\n".join([page["board"], *page["told"], *page["labels"], *page["guide"]])
    assert "patattenzak" in text and "wietfiches" in text and "Ronde " in text
    assert "Ann" in text and "seat 0" not in text
    english = [phrase for phrase in _english_phrases() if phrase in text]
    assert not english, english[:10]
