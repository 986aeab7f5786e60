"""Named presets per game (issue 37): declared as data, every one valid, the rulebook first and
the only rated one; ``gamebag play/rules --preset``; and the players' rules texts' placeholders."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

import gamebag
from gamebag.cli.app import app
from gamebag.core.errors import OptionError
from gamebag.core.presets import Preset, matching_presets, preset_named, preset_options, rated_presets

BUILT_IN = ("catch-a-dragon", "eel-harvest", "eigen-kweek", "pig", "wriggle-roulette")
PLACEHOLDER = re.compile(r"\{\{(\w+)(?:\|[^}]*)?\}\}")


@pytest.mark.parametrize("game_id", gamebag.game_ids())
def test_every_preset_of_every_game_makes_a_game_at_every_player_count(game_id: str) -> None:
    cls = gamebag.entry(game_id).game_class
    presets = cls.presets()
    assert presets[0].name == "rulebook" and presets[0].rated and not presets[0].options
    assert len({p.name for p in presets}) == len(presets)
    for preset in presets:
        assert preset.label and preset.summary.endswith(".")
        for players in range(cls.min_players, cls.max_players + 1):
            game = gamebag.make(game_id, players, **preset.options)
            assert preset in matching_presets(game), (game_id, preset.name, players)


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_each_built_in_game_has_its_own_presets_and_only_the_rulebook_is_rated(game_id: str) -> None:
    cls = gamebag.entry(game_id).game_class
    own = [p for p in cls.presets() if p.name != "rulebook"]
    assert 2 <= len(own) <= 3, [p.name for p in own]
    assert all(p.options for p in own)  # each changes something
    assert [p.name for p in rated_presets(cls)] == ["rulebook"]
    # A preset changes the options, so a game made from it is not the rated rulebook setup.
    for preset in own:
        game = gamebag.make(game_id, None, **preset.options)
        assert not any(p.rated for p in matching_presets(game)), preset.name
    assert any(p.rated for p in matching_presets(gamebag.make(game_id)))


def test_a_preset_fills_every_option_and_a_bad_name_lists_the_presets() -> None:
    pig = gamebag.entry("pig").game_class
    assert preset_options(pig, preset_named(pig, "quick")) == {"goal": 50, "die_sides": 6}
    with pytest.raises(OptionError, match=r"pig has no preset 'slow'; its presets: rulebook, quick, sprint"):
        preset_named(pig, "slow")
    with pytest.raises(TypeError):
        preset_named(pig, "quick").options["goal"] = 10  # type: ignore[index]  # presets are data


def test_a_game_s_own_rulebook_entry_replaces_the_default_one() -> None:
    from gamebag.core.presets import game_presets

    own = Preset("rulebook", "The rulebook", "The designer's setup.", {}, rated=True)
    assert game_presets((own,)) == (own,)
    with pytest.raises(TypeError, match="distinct"):
        game_presets((own, own))


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_the_players_rules_text_names_only_its_game_s_options(game_id: str) -> None:
    entry = gamebag.entry(game_id)
    assert entry.players_text is not None
    named = set(PLACEHOLDER.findall(entry.players_text()))
    assert named <= {spec.name for spec in entry.game_class.option_specs}, named


def test_gamebag_rules_shows_a_preset_as_option_pairs_and_lists_them_all() -> None:
    shown = CliRunner().invoke(app, ["rules", "eel-harvest", "--preset", "optional-rules"])
    assert shown.exit_code == 0, shown.output
    assert "--option rotate_start=true" in shown.stdout and "--option lone_player_grabs=1" in shown.stdout
    listed = CliRunner().invoke(app, ["rules", "pig"], env={"COLUMNS": "200"})
    assert listed.exit_code == 0 and "sprint" in listed.stdout and "goal=20" in listed.stdout


@pytest.mark.parametrize(
    "args",
    [["rules", "pig", "--preset", "slow"], ["play", "pig", "--preset", "slow", "--seats", "random,random"]],
)
def test_a_bad_preset_name_is_refused_in_one_line_listing_the_presets(args: list[str]) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == "error: pig has no preset 'slow'; its presets: rulebook, quick, sprint"


def test_gamebag_play_with_a_preset_plays_its_options(tmp_path: object) -> None:
    from pathlib import Path

    record = Path(str(tmp_path)) / "game.json"
    args = ["play", "pig", "--preset", "sprint", "--seats", "random,random", "--seed", "3", "--record", str(record)]
    result = CliRunner().invoke(app, [*args, "--auto-delay", "0"])
    assert result.exit_code == 0, result.output
    assert '"goal": 20' in record.read_text(encoding="utf-8")
