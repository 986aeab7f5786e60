"""The translation foundation (issue 39): the reader's language from a browser, a terminal and a
choice; locale formats; the pseudo-locale; translated text files (the browser's bundle and the
switcher: tests/web/test_language_routes.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gamebag.core import i18n
from gamebag.core.i18n import (
    PSEUDO_LANGUAGE,
    UnknownLanguageError,
    catalogue,
    current_language,
    decimal,
    join_list,
    known_language,
    language_from_environment,
    language_or_refuse,
    language_tag,
    localized_text,
    negotiate,
    number,
    percent,
    placeholders,
    pseudo,
    use_language,
)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("nl-BE,nl;q=0.9,en;q=0.5", "nl"),
        ("fr-CA;q=0.3, de;q=0.8", "de"),
        ("ja-JP", "ja"),
        ("zh-CN,zh;q=0.9", "zh_Hans"),
        ("zh-Hans-SG", "zh_Hans"),
        ("zh-TW", "en"),  # Traditional Chinese readers are not given the Simplified script
        ("pt-BR, es;q=0.8", "en"),
        ("", "en"),
        (None, "en"),
        ("en-XA", "en"),  # the pseudo-locale is a tester's choice, never negotiated
        ("de;q=0, nl", "nl"),
        ("*;q=0.5, garbage;;q=x, fr", "fr"),
    ],
)
def test_a_browser_gets_the_first_of_its_languages_gamebag_speaks(header: str | None, expected: str) -> None:
    assert negotiate(header) == expected


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "nl_BE.UTF-8"}, "nl"),
        ({"LC_ALL": "ja_JP.UTF-8", "LANG": "nl_BE.UTF-8"}, "ja"),
        ({"LANGUAGE": "sv:de", "LANG": "en_US.UTF-8"}, "de"),
        ({"LANG": "C.UTF-8"}, None),
        ({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, None),  # the first variable set decides, as in gettext
        ({"LANG": "zh_CN.UTF-8"}, "zh_Hans"),
        ({}, None),
    ],
)
def test_a_terminal_language_is_read_as_gettext_reads_it(environ: dict[str, str], expected: str | None) -> None:
    assert language_from_environment(environ) == expected


def test_an_unknown_language_is_refused_naming_the_languages_there_are() -> None:
    with pytest.raises(UnknownLanguageError) as refused:
        language_or_refuse("klingon")
    assert "unknown language 'klingon'" in str(refused.value)
    assert all(tag in str(refused.value) for tag in ("en", "nl", "fr", "de", "ja", "zh-Hans"))
    assert language_or_refuse("nl-BE") == "nl" and language_or_refuse("en-XA") == PSEUDO_LANGUAGE
    assert known_language("de_DE.UTF-8@euro") == "de" and language_tag("zh_Hans") == "zh-Hans"


def test_the_language_is_the_contexts_and_comes_back_after_a_block() -> None:
    assert current_language() == "en"
    with use_language("ja"):
        assert current_language() == "ja"
        with use_language(None):
            assert current_language() == "ja"
        with use_language("xx"):  # nothing gamebag speaks: English
            assert current_language() == "en"
    assert current_language() == "en"


@pytest.mark.parametrize(
    ("language", "whole", "half", "quarter", "listed"),
    [
        ("en", "12,345", "2.5", "25%", "A, B, and C"),
        ("nl", "12.345", "2,5", "25%", "A, B en C"),
        ("de", "12.345", "2,5", "25\xa0%", "A, B und C"),
        ("fr", "12\u202f345", "2,5", "25\xa0%", "A, B et C"),
        ("ja", "12,345", "2.5", "25%", "A、B、C"),
        ("zh_Hans", "12,345", "2.5", "25%", "A、B和C"),
    ],
)
def test_numbers_percentages_and_lists_are_written_as_each_language_writes_them(
    language: str, whole: str, half: str, quarter: str, listed: str
) -> None:
    with use_language(language):
        shown = (number(12345), decimal(2.5), percent(0.25), join_list(["A", "B", "C"]))
    assert shown == (whole, half, quarter, listed)


def test_the_pseudo_locale_marks_every_text_and_keeps_placeholders_and_markup() -> None:
    text = "Roll {count} dice <b>now</b> &amp; then"
    made = pseudo(text)
    assert made.startswith("[") and made.endswith("]") and "·" in made
    assert placeholders(made) == placeholders(text) == {"count"}
    assert "<b>" in made and "</b>" in made and "&amp;" in made
    assert not re.search(r"[A-Za-z]{3}", made.replace("<b>", "").replace("</b>", "").replace("&amp;", "")
                         .replace("{count}", ""))
    letters = sum(ch.isalpha() for ch in "Roll dice now then")
    assert made.count("·") == round(letters * 0.4)  # 40% longer than the words a reader sees


def test_a_message_is_translated_then_filled_and_a_broken_translation_still_shows(tmp_path: Path) -> None:
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    folder = tmp_path / "locale" / "nl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalog = Catalog(locale="nl")
    catalog.add("Roll {count} dice", "Gooi {count} dobbelstenen")
    catalog.add("{name} wins", "{naam} wint")  # a placeholder renamed by mistake
    catalog.add(("{n} coin", "{n} coins"), ("{n} munt", "{n} munten"))
    with (folder / "probe.mo").open("wb") as handle:
        write_mo(handle, catalog)
    (tmp_path / "__init__.py").write_text("", encoding="utf-8")
    import sys

    sys.path.insert(0, str(tmp_path.parent))
    try:
        _, ngettext = catalogue("probe", tmp_path.name)
        with use_language("nl"):
            assert _("Roll {count} dice", count=3) == "Gooi 3 dobbelstenen"
            assert _("{name} wins", name="Ann") == "{naam} wint"  # shown, never a crash
            assert ngettext("{n} coin", "{n} coins", 1) == "1 munt"
            assert ngettext("{n} coin", "{n} coins", 1200) == "1.200 munten"
            assert _("Not in the catalogue") == "Not in the catalogue"
        assert _("Roll {count} dice", count=3) == "Roll 3 dice"
        with use_language(PSEUDO_LANGUAGE):
            assert _("Roll {count} dice", count=3).startswith("[Ŕöļļ 3 đîçé")
    finally:
        sys.path.remove(str(tmp_path.parent))
        i18n.forget_loaded()


def test_a_text_file_falls_back_to_english_where_no_translation_exists() -> None:
    english = localized_text("gamebag.games.pig", "players.md")
    with use_language("nl"):
        dutch = localized_text("gamebag.games.pig", "players.md")
    with use_language(PSEUDO_LANGUAGE):
        made = localized_text("gamebag.games.pig", "players.md")
    assert english.startswith("# ")
    assert made.startswith("# [") and set(re.findall(r"\{\{(\w+)", made)) == set(re.findall(r"\{\{(\w+)", english))
    assert dutch.startswith("# ")
