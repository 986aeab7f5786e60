"""Shared checks of the dice games' languages (Pig, Catch A Dragon): a seeded game walked to its end,
the English fragments of a game's catalogue (none may show in another language's words), the
players' guide's ``{{placeholders}}``, and a renderer's page words under node with a language's
bundle loaded (``web/js/dice_words.mjs``)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import derive_rng

GAMES_DIR = Path(__file__).resolve().parent.parent / "src" / "gamebag" / "games"
NODE = shutil.which("node")
WORDS_SCRIPT = Path(__file__).parent / "web" / "js" / "dice_words.mjs"
_HOLES = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}|\[/?[a-z ]+\]")
_GUIDE_HOLE = re.compile(r"\{\{[^{}]*\}\}")


def walk(game: Game[Any, Any, Any], seed: int) -> list[Any]:
    """The states of one game played to its end by random legal moves (seeded)."""
    rng = derive_rng(seed, "languages")
    state = game.initial_state()
    states = [state]
    while game.node_kind(state) is not NodeKind.TERMINAL and len(states) < 5_000:
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


def english_fragments(domain: str, shortest: int = 13) -> set[str]:
    """The literal pieces of the domain's English messages (between placeholders and markup) at least
    ``shortest`` characters long: text that no other language's words may hold verbatim."""
    with (GAMES_DIR / domain / "locale" / f"{domain}.pot").open("rb") as handle:
        catalog = read_po(handle)
    found: set[str] = set()
    for message in catalog:
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            for piece in _HOLES.split(text):
                if len(piece.strip()) >= shortest:
                    found.add(piece.strip())
    return found


def english_left(text: str, domain: str) -> list[str]:
    """The domain's English fragments that ``text`` holds."""
    return sorted(piece for piece in english_fragments(domain) if piece in text)


def guide_holes(text: str) -> set[str]:
    """The ``{{option}}`` / ``{{option|words}}`` placeholders of a players' guide."""
    return set(_GUIDE_HOLE.findall(text))


def page_words(script: str, language: str, request: dict[str, Any]) -> list[str]:
    """Every text ``script``'s renderer shows for ``request`` (views, legal, seat, table, result) in
    ``language``, run under node with that language's bundle."""
    from gamebag.web.words.bundles import bundle

    assert NODE is not None
    with tempfile.TemporaryDirectory() as folder:
        bundle_path = Path(folder) / "bundle.js"
        bundle_path.write_bytes(bundle(language).script)
        input_path = Path(folder) / "input.json"
        input_path.write_text(json.dumps({**request, "bundle": str(bundle_path), "script": script}), encoding="utf-8")
        done = subprocess.run(
            [NODE, str(WORDS_SCRIPT), str(input_path)], capture_output=True, text=True, timeout=60, check=True
        )
    texts: list[str] = json.loads(done.stdout)
    return texts


_SEAT_TOKEN = re.compile(r"\bseat \d+\b")
_WORD = re.compile(r"[A-Za-z]{3,}")


def same_as_english(lines: list[str], english: list[str]) -> list[str]:
    """The lines of another language that are an English line word for word (seat tokens aside),
    holding at least two English words: text that escaped the catalogue."""
    source = {_SEAT_TOKEN.sub("", line).strip() for line in english}
    return sorted(
        line for line in lines
        if _SEAT_TOKEN.sub("", line).strip() in source and len(_WORD.findall(_SEAT_TOKEN.sub("", line))) >= 2
    )
