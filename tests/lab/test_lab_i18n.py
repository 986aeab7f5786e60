"""The designer's tools speak the reader's language: ``gamebag simulate`` and ``gamebag balance`` in
Dutch and Japanese (tables, summaries, warnings, numbers), the balance report's page in Dutch, while
the study's JSON stays language-neutral. Small runs of Pig (a few dozen games) keep these fast."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

import gamebag.lab.translation as lab_words
from gamebag.cli.app import app
from gamebag.core.i18n import placeholders, use_language

POT = Path(lab_words.__file__).parent / "locale" / "lab.pot"


def _english_fragments() -> list[str]:
    """The longest literal piece (placeholders and markup removed) of every catalogue sentence: none
    may show in a translated run."""
    with POT.open("rb") as handle:
        catalog = read_po(handle)
    fragments = []
    for message in catalog:
        if not message.id:
            continue
        text = message.id if isinstance(message.id, str) else message.id[1]
        pieces = re.split(r"\{[A-Za-z_]+\}|\[/?[a-z ]+\]|\n", text)
        longest = max(pieces, key=len).strip(" :;,.()")
        if len(longest) >= 14 and " " in longest and not longest.startswith("--"):
            fragments.append(longest)
    return fragments


def _flat(text: str) -> str:
    return " ".join(text.split())


def _run(language: str, *args: str) -> str:
    with use_language(language):
        result = CliRunner().invoke(app, list(args), env={"COLUMNS": "250"})  # whole headers, no wrapping
    assert result.exit_code == 0, result.output
    return _flat(result.output)


def _no_english(output: str) -> None:
    leaked = [fragment for fragment in _english_fragments() if fragment in output]
    assert not leaked, leaked


def test_the_catalogue_has_sentences_to_look_for() -> None:
    fragments = _english_fragments()
    assert "how the games ended" in fragments and len(fragments) > 150
    assert all(placeholders(fragment) == set() for fragment in fragments)


@pytest.mark.parametrize(
    ("language", "phrases"),
    [
        ("nl", ("20 partijen, 2 spelers", "winstaandeel", "gemiddeld aantal rondes", "hoe de partijen eindigden")),
        ("ja", ("20 ゲーム、2 人", "勝率", "平均ラウンド数", "ゲームの終わり方")),
    ],
)
def test_simulate_speaks_the_readers_language(language: str, phrases: tuple[str, ...]) -> None:
    output = _run(language, "simulate", "pig", "--games", "20", "--engine", "rules")
    for phrase in phrases:
        assert phrase in output
    _no_english(output)
    if language == "nl":
        assert re.search(r"\b0,\d{3} - 0,\d{3}\b", output)  # intervals with the Dutch decimal comma


def test_balance_in_dutch_and_japanese_with_a_dutch_report(tmp_path: Path) -> None:
    args = ("balance", "pig", "--games", "24", "--vary", "goal=30,60", "--agents", "random")
    dutch = _run("nl", *args, "--report", str(tmp_path / "nl"))
    for phrase in ("balans per cel", "plaatsaandelen (95%-interval)", "tegen de eerste cel", "waarschuwing:"):
        assert phrase in dutch
    assert "willekeurige agents in" in dutch and "48 partijen in" in dutch
    _no_english(dutch)

    page = (tmp_path / "nl" / "index.html").read_text(encoding="utf-8")
    assert "<html lang='nl'>" in page and "<title>Balansstudie: pig</title>" in page
    for header in ("<th>cel</th>", "<th>partijen</th>", "<th>eerlijkheid p</th>", "<h2>Spelduur</h2>"):
        assert header in page
    assert "Balance study" not in page and "<th>games</th>" not in page
    # The data beside the page stays language-neutral: the warnings in English, as --json prints them.
    data = json.loads((tmp_path / "nl" / "result.json").read_text(encoding="utf-8"))
    assert any(warning.startswith("random agents in") for warning in data["warnings"])

    japanese = _run("ja", *args)
    for phrase in ("セルごとのバランス", "最初のセル", "ランダムなエージェント", "48 ゲームを"):
        assert phrase in japanese
    _no_english(japanese)


def test_report_figures_in_japanese_find_their_glyphs(tmp_path: Path) -> None:
    from gamebag import lab
    from gamebag.lab.report import write_report
    from gamebag.sim.plotwords import CJK_FONTS, _installed_fonts

    result = lab.balance("pig", players="2", agents="random", games=16, seed=1)
    with use_language("ja"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        page = write_report(result, tmp_path).read_text(encoding="utf-8")
    assert "<html lang='ja'>" in page and "バランス検証: pig" in page
    if _installed_fonts(CJK_FONTS["ja"]):  # Debian's Noto CJK (installed with the browser) draws every label
        assert not [w for w in caught if "missing from font" in str(w.message)]


def test_a_warning_is_kept_in_english_and_said_in_the_readers_language() -> None:
    from gamebag.lab.translation import N_, Choices, Figure, joined, say, shown

    said = say(N_("use {agents}"), agents=Choices(["learned", "ismcts"]))
    note = say(N_("{cell}: rules engine ({reason})"), cell="3p", reason=Figure(0.25, ".2f"))
    both = joined([said, note])
    assert str(both) == "use learned or ismcts; 3p: rules engine (0.25)"
    assert json.dumps([said]) == '["use learned or ismcts"]'
    with use_language("de"):
        assert shown(both) == "verwende learned oder ismcts; 3p: Regel-Engine (0,25)"
    with use_language("zh_Hans"):
        assert shown("plain text") == "plain text"


def test_the_commands_help_is_made_in_the_readers_language() -> None:
    """Typer's help texts are made when the commands are registered, in the language set by then."""
    import typer

    from gamebag.cli.commands import balance, simulate

    for module, phrase in ((balance, "Plaatsbalans, effect van opties"), (simulate, "Simuleer GAMES partijen")):
        with use_language("nl"):
            fresh = typer.Typer()
            module.register(fresh)
        result = CliRunner().invoke(fresh, ["--help"], env={"COLUMNS": "250"})
        assert result.exit_code == 0 and phrase in _flat(result.output), result.output
        assert "Game id, as" not in result.output
