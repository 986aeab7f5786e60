"""Rule data lives once: in ``games/<id>``, and every other copy is tied to it by a test.

* each game package's ``rules.md`` (the source: ``rules_text()`` serves it) has a
  byte-identical page in ``docs/rules/`` (a symbolic link to it in the repository; a copy
  wherever links are not kept) and every page there is such a copy;
* the numbers of a game's reference strategy (``games/<id>/strategy.py``) are assigned
  nowhere else: the heuristic agents and the compiled engines import them;
* the compiled kernels' cache stamp covers the ``games`` sources whose numbers they read,
  so a changed number can never run from a stale compiled copy.
"""

from __future__ import annotations

import ast
import difflib
from pathlib import Path

import gamebag
from gamebag.fast import cache

PACKAGE = Path(gamebag.__file__).resolve().parent
GAMES = PACKAGE / "games"
DOCS_RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"


def _assigned_names(path: Path) -> set[str]:
    """Names a module binds at its top level by assignment (imports excluded)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        names.update(n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def test_every_rules_page_in_docs_is_the_packaged_rules_md() -> None:
    sources = sorted(GAMES.glob("*/rules.md"))
    pages = sorted(DOCS_RULES.glob("*.md"))
    assert len(sources) >= 4 and pages
    by_content = {page.read_bytes(): page for page in pages}
    for source in sources:
        text = source.read_bytes()
        if text not in by_content:
            title = text.splitlines()[0]
            twin = next((p for p in pages if p.read_bytes().splitlines()[:1] == [title]), None)
            diff = "" if twin is None else "".join(
                list(difflib.unified_diff(
                    twin.read_text(encoding="utf-8").splitlines(True), text.decode().splitlines(True),
                    str(twin), str(source),
                ))[:40]
            )  # fmt: skip
            raise AssertionError(f"{source} (the source) has no identical copy in {DOCS_RULES}; copy it there\n{diff}")
    copies = {source.read_bytes() for source in sources}
    strays = [page.name for page in pages if page.read_bytes() not in copies]
    assert not strays, f"docs/rules pages that copy no games/*/rules.md: {strays}"


def test_strategy_numbers_are_assigned_only_in_the_game_package() -> None:
    strategies = sorted(GAMES.glob("*/strategy.py"))
    assert {p.parent.name for p in strategies} >= {"pig", "catch_a_dragon", "eel_family", "eigen_kweek"}
    owner = {name: path for path in strategies for name in _assigned_names(path)}
    assert {"HOLD_AT", "DIFFERENT_GAIN", "ONE_DRAGON_GAIN", "TYPICAL_OTHER_GRAB", "ALIKE", "HARM", "BLOCK_AT"} <= set(
        owner
    )
    for folder in (PACKAGE / "fast", PACKAGE / "agents"):
        for path in sorted(folder.rglob("*.py")):
            copied = _assigned_names(path) & set(owner)
            assert not copied, f"{path} assigns {sorted(copied)}; import them from {[str(owner[n]) for n in copied]}"


def test_heuristics_and_kernels_read_the_same_numbers() -> None:
    from gamebag.agents.heuristics import catch_a_dragon, eel_family, pig
    from gamebag.fast import dragon as fast_dragon
    from gamebag.fast import pig as fast_pig
    from gamebag.fast.eel import layout as eel_layout
    from gamebag.fast.eel import policies as eel_policies
    from gamebag.games.catch_a_dragon import strategy as dragon_strategy
    from gamebag.games.eel_family import state as eel_state
    from gamebag.games.eel_family import strategy as eel_strategy
    from gamebag.games.pig import strategy as pig_strategy

    assert pig.HOLD_AT == fast_pig.HOLD_AT == pig_strategy.HOLD_AT
    assert catch_a_dragon.DIFFERENT_GAIN == fast_dragon.DIFFERENT_GAIN == dragon_strategy.DIFFERENT_GAIN
    assert catch_a_dragon.ONE_DRAGON_GAIN == fast_dragon.ONE_DRAGON_GAIN == dragon_strategy.ONE_DRAGON_GAIN
    assert eel_family.TYPICAL_OTHER_GRAB == eel_policies.TYPICAL_OTHER_GRAB == eel_strategy.TYPICAL_OTHER_GRAB
    assert eel_family.ALIKE == eel_policies.ALIKE == eel_strategy.ALIKE
    assert eel_layout.STILL_IN == eel_state.STILL_IN

    from gamebag.agents.heuristics import eigen_kweek
    from gamebag.fast.eigen_kweek import layout as kweek_layout
    from gamebag.fast.eigen_kweek import policies as kweek_policies
    from gamebag.games.eigen_kweek import strategy as kweek_strategy

    assert eigen_kweek.HARM is kweek_strategy.HARM
    assert [kweek_policies._HARM[k] for k in range(kweek_layout.NCARDS)] == [
        kweek_strategy.HARM.get(name, 0.0) for name in kweek_layout.CARD_NAMES
    ]
    assert eigen_kweek.BLOCK_AT == kweek_policies.BLOCK_AT == kweek_strategy.BLOCK_AT
    assert eigen_kweek.KEEP_WORTH == kweek_policies.KEEP_WORTH == kweek_strategy.KEEP_WORTH


def test_the_kernel_cache_stamp_covers_the_games_numbers() -> None:
    # The dragon kernels compile in OBSERVATION_SIZE and MARGIN_REACH from games/catch_a_dragon/rules.py,
    # and every compiled heuristic its game's strategy.py: a stamp of gamebag.fast alone kept them stale.
    stamped = set(cache.stamped_sources())
    assert GAMES / "catch_a_dragon" / "rules.py" in stamped
    assert set(GAMES.glob("*/strategy.py")) <= stamped
    assert set((PACKAGE / "fast").rglob("*.py")) <= stamped
