"""Every catalogue complete (issue 39): each text the source marks is translated in every language,
none fuzzy, its ``{placeholders}`` the source's; and each domain's template (.pot) is the source's.

A text added to the code without its translations fails here, naming the file, the text and the
command that puts it in the catalogues (docs/translating.md)."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gamebag_i18n_tool", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


@pytest.mark.parametrize("language", TOOL.LANGUAGES)
@pytest.mark.parametrize("domain", [d.name for d in TOOL.DOMAINS])
def test_every_text_is_translated_with_the_source_placeholders(domain: str, language: str) -> None:
    problems = TOOL.problems(TOOL.domain(domain), language)
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} in all)"


@pytest.mark.parametrize("domain", [d.name for d in TOOL.DOMAINS])
def test_each_template_holds_what_the_source_marks(domain: str) -> None:
    sources = TOOL.domain(domain)
    extracted = {(m.id if isinstance(m.id, str) else tuple(m.id), m.context) for m in TOOL.extract(sources) if m.id}
    with TOOL.template_path(sources).open("rb") as handle:
        from babel.messages.pofile import read_po

        written = {(m.id if isinstance(m.id, str) else tuple(m.id), m.context) for m in read_po(handle) if m.id}
    assert extracted == written, (
        f"{TOOL.template_path(sources).relative_to(ROOT)} is not the source's: run `make translations` "
        f"(new: {sorted(map(str, extracted - written))[:10]}, gone: {sorted(map(str, written - extracted))[:10]})"
    )


def test_a_missing_translation_and_a_changed_placeholder_are_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check itself: a catalogue with one empty, one fuzzy and one placeholder-changing entry."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    source = tmp_path / "src"
    (source / "part").mkdir(parents=True)
    (source / "part" / "words.py").write_text(
        'from x import _\n_("Roll {count} dice", count=2)\n_("Hold")\n_("Pass")\n_("Bank it")\n', encoding="utf-8"
    )
    monkeypatch.setattr(TOOL, "SRC", source)
    monkeypatch.setattr(TOOL, "ROOT", tmp_path)
    sources = TOOL.DomainSources("part", tmp_path / "locale", python=("part/*.py",))
    catalog = Catalog(locale="nl")
    catalog.add("Roll {count} dice", "Gooi {aantal} dobbelstenen")
    catalog.add("Hold", "")
    catalog.add("Pass", "Passen", flags=["fuzzy"])
    path = TOOL.po_path(sources, "nl")
    path.parent.mkdir(parents=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog)
    path.write_bytes(buffer.getvalue())
    found = "\n".join(TOOL.problems(sources, "nl"))
    assert "placeholders ['aantal'] where the source has ['count']" in found
    assert "untranslated: 'Hold'" in found
    assert "fuzzy: 'Pass'" in found
    assert "not in the catalogue: 'Bank it'" in found
