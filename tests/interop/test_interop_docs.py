"""Every Python block of ``docs/interop.md`` runs (each in a fresh namespace)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "interop.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", DOC.read_text(encoding="utf-8"), flags=re.S | re.M)


def test_the_page_has_examples_for_every_library() -> None:
    text = "\n".join(BLOCKS)
    assert len(BLOCKS) >= 6
    for needle in ("pettingzoo", "gymnasium", "pyspiel", "CFRSolver", "expectiminimax", "q[state_key]"):
        assert needle in text


@pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")
@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_example_runs(number: int) -> None:
    code = compile(BLOCKS[number], f"{DOC.name}, block {number + 1}", "exec")
    exec(code, {"__name__": f"interop_doc_block_{number + 1}"})
