"""Every page template in the reader's language (issue 39): rendered in Japanese and in Dutch, a
page holds none of its English texts (each marked text comes from the ``web`` catalogue), and the
page names its language for the browser (``lang``), for its CJK fonts and hyphenation."""

from __future__ import annotations

import html

import pytest
from babel.messages.pofile import read_po

from gamebag.web.words.pages import TEMPLATE_DIR, _rendered

TEMPLATES = sorted(path.name for path in TEMPLATE_DIR.glob("*.html") if not path.name.startswith("_"))
WEB_POT = TEMPLATE_DIR.parent / "locale" / "web.pot"


def _template_texts() -> dict[str, set[str]]:
    """Each template's marked texts, from the catalogue's template (where each text is used)."""
    with WEB_POT.open("rb") as handle:
        catalog = read_po(handle)
    texts: dict[str, set[str]] = {}
    for message in catalog:
        if not message.id or not isinstance(message.id, str):
            continue
        for path, _line in message.locations:
            if path.startswith("web/templates/"):
                texts.setdefault(path.rsplit("/", 1)[-1], set()).add(message.id)
    return texts


@pytest.mark.parametrize("language", ["ja", "nl"])
@pytest.mark.parametrize("name", TEMPLATES)
def test_a_page_in_another_language_holds_none_of_its_english_texts(name: str, language: str) -> None:
    page = html.unescape(_rendered(name, language))
    tag = "ja" if language == "ja" else "nl"
    assert f'<html lang="{tag}"' in page
    texts = _template_texts().get(name, set())
    assert texts, f"{name} marks no text for translation"
    # Words that read the same in Dutch ("Chat", "Analyse", "Coach") are not English left over.
    shared = {"Chat", "Coach", "Links", "Name", "Pause", "Rating", "Ratings"}
    left = sorted(text for text in texts - shared if len(text) > 3 and f">{text}<" in page.replace("\n", ""))
    assert not left, f"{name} in {language} still shows: {left}"


def test_the_switcher_names_each_language_in_itself_and_marks_the_readers() -> None:
    page = _rendered("index.html", "zh_Hans")
    assert '<html lang="zh-Hans"' in page
    assert '<option value="zh_Hans" lang="zh-Hans" selected>简体中文</option>' in page
    assert '<option value="nl" lang="nl">Nederlands</option>' in page
    assert "立即开玩" in page and ">Play now<" not in page
