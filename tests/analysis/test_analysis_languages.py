"""The analysis and the coach in the reader's language: the words of a finished game's analysis in
Dutch and Japanese, one kept analysis served to an English and a Dutch reader in turn, the coach's
advice said again for a reader of another language, and ``gamebag analyse``'s words."""

from __future__ import annotations

import asyncio
import functools
import re
from typing import Any

import pytest

import gamebag
from gamebag.agents.registry import heuristic_for
from gamebag.analysis import analyse_record
from gamebag.analysis.coach import advise, reworded
from gamebag.analysis.words import decision_sentence, headline, how_computed, in_reader_words, luck_unit
from gamebag.core.i18n import use_language
from gamebag.core.records import Record, apply_event
from gamebag.core.rng import derive_rng
from gamebag.sim.play import play_game
from gamebag.web.tables.analysis import TableAnalyses

NAMES = ["Anna", "Ben"]
# The analysis's own English sentences (the game's words for places and actions are its catalogue's).
ENGLISH = re.compile(
    r"\bchose\b|win chance|best choice|was better|played most accurately|too close to judge|"
    r"Every win chance|Luck:|Method:|That is an?\b|The solver's|after each choice"
)


@functools.cache
def finished() -> tuple[dict[str, Any], dict[str, Any]]:
    """A short two-player Pig game (exact analysis, about a second) and its analysis, made in English."""
    game = gamebag.make("pig", 2, goal=20)
    record = play_game(game, [heuristic_for(game)] * 2, derive_rng(3, "languages")).record
    assert record is not None
    return record.to_json(), analyse_record(record).to_json()


def said(language: str) -> list[str]:
    record, analysis = finished()
    with use_language(language):
        shown = in_reader_words(analysis, record)
        lines = [headline(shown, NAMES), luck_unit(), *how_computed(shown)]
        lines += [decision_sentence(decision, NAMES) for decision in shown["decisions"]]
    return lines


@pytest.mark.parametrize(
    ("language", "phrases"),
    [
        ("nl", ("winkans", "koos", "Methode: exact: de opgeloste winkansen van optimal-win.", "Geluk: ")),
        ("ja", ("勝率", "を選びました", "方法：正確：optimal-win が解析した勝率。", "運：")),
    ],
)
def test_a_finished_games_analysis_in_the_readers_language(language: str, phrases: tuple[str, ...]) -> None:
    lines = said(language)
    text = "\n".join(lines)
    for phrase in phrases:
        assert phrase in text, (phrase, text)
    assert not [line for line in lines if ENGLISH.search(line)], "an English sentence in " + language
    if language == "nl":  # percentages in the reader's notation: a decimal comma
        assert re.search(r"\d+,\d%", text), text
    english = "\n".join(said("en"))
    assert "win chance" in english and "played most accurately" in english


def test_a_kept_analysis_is_served_to_each_reader_in_their_own_language() -> None:
    """The worker's figures are kept once; an English and a Dutch reader in turn each get the words
    in their own language (the Dutch one first: the job started in its language), the figures equal."""
    record, analysis = finished()

    class DonePool:
        size = 1
        jobs = 0

        async def run(self, job: Any, seconds: float, progress: Any = None, **share: Any) -> Any:
            DonePool.jobs += 1
            return analysis

    async def scenario() -> list[dict[str, Any]]:
        analyses = TableAnalyses(DonePool())  # type: ignore[arg-type]
        answers = []
        with use_language("nl"):
            assert (await analyses.answer("t", record, NAMES))["status"] == "running"
            for _unused in range(200):
                await asyncio.sleep(0.01)
                if analyses.unfinished == 0:
                    break
        for language in ("en", "nl", "en"):
            with use_language(language):
                answers.append(await analyses.answer("t", record, NAMES))
        with use_language("ja"):
            answers.append(analyses.status("t", record, NAMES))  # the plain call makes them too
        await analyses.stop()
        return answers

    english, dutch, english_again, japanese = asyncio.run(scenario())
    assert DonePool.jobs == 1 and english == english_again
    assert all(answer["status"] == "done" and answer["analysis"] == analysis for answer in (english, dutch, japanese))
    assert "played most accurately" in english["headline"] and "speelde het nauwkeurigst" in dutch["headline"]
    assert "勝率" in japanese["headline"]
    for answer, word in ((english, "win chance"), (dutch, "winkans"), (japanese, "勝率")):
        lines = [*answer["how"], answer["luck_unit"], *(w["words"] for w in answer["worst"])]
        lines += [line for said in answer["evaluations"].values() for line in said]
        assert all(word in line for line in answer["evaluations"][str(analysis["decisions"][0]["event"])])
        if answer is not english:
            assert not [line for line in lines if ENGLISH.search(line)]
    assert english["curves"] == dutch["curves"] and english["steps"] == dutch["steps"]


def test_the_coachs_advice_is_said_again_for_each_reader() -> None:
    record, __ = finished()
    game = gamebag.make("pig", 2, goal=20)
    events = Record.from_json(record).events
    state, seat = game.initial_state(), None
    for event in events:
        deciding = [s for s in game.acting_players(state) if len(game.legal_actions(state, s)) > 1]
        if deciding:
            seat = deciding[0]
            break
        state = apply_event(game, state, event)
    assert seat is not None
    advice = advise(game, state, seat)  # as a worker makes it: English
    assert advice["words"].startswith("The solver's choice here: ")
    view = game.observation(state, seat)
    with use_language("nl"):
        dutch = reworded(game, view, advice)
    with use_language("zh_Hans"):
        chinese = reworded(game, view, advice)
    assert dutch["words"].startswith("De keuze van de solver hier: ") and "Winkans na elke keuze: " in dutch["words"]
    assert chinese["words"].startswith("求解器在这里的选择：") and " " not in chinese["words"].split("。")[1][:1]
    assert dutch["choices"] == [{**c, "said": dutch["choices"][i]["said"]} for i, c in enumerate(advice["choices"])]
    assert not ENGLISH.search(dutch["words"]) and not ENGLISH.search(chinese["words"])


def test_gamebag_analyse_prints_the_readers_words(capsys: pytest.CaptureFixture[str]) -> None:
    from gamebag.cli.commands.analyse import show

    __, analysis = finished()
    with use_language("nl"):
        show(analysis)
    printed = capsys.readouterr().out
    assert "speelde het nauwkeurigst" in printed or "speelde met een nauwkeurigheid" in printed
    assert "Nauwkeurigheid: 100% betekent" in printed and "Methode: exact" in printed
    assert "plaats 0" in printed or "plaats 1" in printed
