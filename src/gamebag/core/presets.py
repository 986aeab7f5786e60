"""Named presets: a game's ready-made sets of options, declared as data by the game.

Every game has the rulebook's setup (every option at its default) as its first preset; a game
adds its own in ``Game.preset_specs`` (a quick game, the variants its rulebook names), each with
a players' label and one line saying what it changes. ``rated`` marks the setups a site would
rate (the rulebook's, by default); ``rated_presets`` and ``matching_presets`` let a rating say
whether a game as configured is one of them without knowing any game by name. The lobby offers
the presets above its option fields; the command line takes ``--preset NAME``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gamebag.core.errors import OptionError
from gamebag.core.i18n import game_text
from gamebag.core.options import expand_option_groups, options_to_json, validate_options
from gamebag.core.translation import N_, _

if TYPE_CHECKING:
    from gamebag.core.protocol import Game

__all__ = [
    "RULEBOOK",
    "Preset",
    "matching_presets",
    "preset_named",
    "preset_options",
    "preset_words",
    "presets_json",
    "rated_presets",
]


@dataclass(frozen=True)
class Preset:
    """A named set of options: its key (``quick``), players' label and one-line explanation, the
    options it sets (the others keep their defaults) and whether a site would rate it."""

    name: str
    label: str
    summary: str
    options: Mapping[str, Any] = field(default_factory=dict)
    rated: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))  # data: read-only


RULEBOOK = Preset(
    "rulebook",
    N_("The rulebook"),
    N_("The setup the rulebook gives: every rule as printed."),
    {},
    rated=True,
)


def game_presets(own: tuple[Preset, ...]) -> tuple[Preset, ...]:
    """A game's presets: the rulebook's setup first (unless the game declares its own ``rulebook``),
    then the game's own; a name declared twice is a programming error."""
    names = [preset.name for preset in own]
    if len(set(names)) != len(names):
        raise TypeError(f"preset names must be distinct, not {names}")
    return own if "rulebook" in names else (RULEBOOK, *own)


def preset_named(game_class: type[Game[Any, Any, Any]], name: str) -> Preset:
    """The preset ``name`` of ``game_class``, or ``OptionError`` listing its presets."""
    presets = game_class.presets()
    for preset in presets:
        if preset.name == name:
            return preset
    names = ", ".join(preset.name for preset in presets)
    raise OptionError(_("{game} has no preset {name}; its presets: {names}", game=game_class.game_id,
                        name=repr(name), names=names))


def preset_words(game_class: type[Game[Any, Any, Any]], preset: Preset) -> tuple[str, str]:
    """``preset``'s label and summary in the reader's language: the rulebook's setup from gamebag's
    own catalogue (unless the game declares its own), a game's presets from the game's."""
    if preset is RULEBOOK:
        return _(preset.label), _(preset.summary)
    return game_text(game_class, preset.label), game_text(game_class, preset.summary)


def preset_options(game_class: type[Game[Any, Any, Any]], preset: Preset) -> dict[str, Any]:
    """Every option of ``game_class`` as ``preset`` sets it (the others at their defaults), JSON-ready."""
    given = expand_option_groups(game_class.option_groups, dict(preset.options))
    return options_to_json(validate_options(game_class.option_specs, given))


def rated_presets(game_class: type[Game[Any, Any, Any]]) -> tuple[Preset, ...]:
    """The presets of ``game_class`` a site would rate (the rulebook's setup, unless the game says more)."""
    return tuple(preset for preset in game_class.presets() if preset.rated)


def matching_presets(game: Game[Any, Any, Any]) -> tuple[Preset, ...]:
    """The presets whose options are exactly ``game``'s (as configured): a rating asks
    ``any(p.rated for p in matching_presets(game))``."""
    configured = options_to_json(game.options)
    return tuple(preset for preset in type(game).presets() if preset_options(type(game), preset) == configured)


def presets_json(game_class: type[Game[Any, Any, Any]]) -> list[dict[str, Any]]:
    """The presets for a catalogue: name, label, summary, rated and every option's value."""
    return [
        {
            "name": preset.name,
            "label": preset.label,
            "summary": preset.summary,
            "rated": preset.rated,
            "options": preset_options(game_class, preset),
        }
        for preset in game_class.presets()
    ]
