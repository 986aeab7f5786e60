"""The conformance suite, shipped with the package: checks any ``Game`` must pass.

In the manner of PettingZoo's ``api_test``: a third party writing a game for
gamebag runs ``check_game(MyGame(players=3, some_option=True))`` and gets a
``ConformanceError`` naming the first broken promise, where it showed (``step 14,
seat 2``) and what differed (``in 'hand'``, ``at index 37``). gamebag's own tests
run it on every registered game; a plugin game is run through ``check_plugin_game``
(every player count and each option's bounds, within a time budget) before use.
The checks:

* ``check_playouts``: random playouts end, with winners, shares summing to one;
* ``check_states``: states are hashable values, and applying the same input twice gives
  equal states with equal hashes;
* ``check_records``: the same seed gives the same record, and a record replays, through
  JSON text, to the same state after every event;
* ``check_observations``: views are JSON; tensors keep one length, with numbers in [0, 1];
  a resampled state gives the seat the same observation, the same observation tensor, the
  same node kind, acting seats and legal actions, passes the game's own ``validate_state``
  (if it defines one), can be played to its end, and varies when information is hidden;
* ``check_chance``: chance distributions are exact and sum to one; samples can happen;
  ``advance_chance`` draws as ``sample_chance`` does and reaches the same state;
* ``check_illegal_actions``: illegal joint actions and outcomes raise the protocol's errors,
  changing nothing; ``legal_actions_by_seat`` agrees with ``acting_players`` and ``legal_actions``;
* ``check_traits``: the configuration's declared ``Traits`` hold on the states seen;
* ``check_match_secrecy``: a pending secret choice shows only in its chooser's view;
* ``check_option_errors``: bad options and player counts raise ``OptionError`` naming them.

Everything is seeded; only ``gamebag.core`` is used, so the suite runs on any game.
"""

from __future__ import annotations

from gamebag.testing.configurations import (
    DEFAULT_BUDGET_SECONDS,
    Configuration,
    ConfigurationReport,
    check_configurations,
    check_option_errors,
    configurations,
    reported,
    smoke,
)
from gamebag.testing.dynamics import (
    MAX_ENUMERATED_OUTCOMES,
    NOT_AN_ACTION,
    check_chance,
    check_illegal_actions,
    check_playouts,
    check_records,
    check_states,
)
from gamebag.testing.information import check_match_secrecy, check_observations, check_traits
from gamebag.testing.playouts import (
    MAX_STEPS,
    AnyGame,
    ConformanceError,
    GameFactory,
    random_playout,
    recorded_playout,
)

__all__ = [
    "DEFAULT_BUDGET_SECONDS",
    "MAX_ENUMERATED_OUTCOMES",
    "MAX_STEPS",
    "NOT_AN_ACTION",
    "AnyGame",
    "Configuration",
    "ConfigurationReport",
    "ConformanceError",
    "GameFactory",
    "check_chance",
    "check_configurations",
    "check_game",
    "check_illegal_actions",
    "check_match_secrecy",
    "check_observations",
    "check_option_errors",
    "check_playouts",
    "check_plugin_game",
    "check_records",
    "check_states",
    "check_traits",
    "configurations",
    "random_playout",
    "recorded_playout",
    "smoke",
]


def check_game(game: AnyGame, factory: GameFactory | None = None) -> None:
    """Every check on one configured game. ``factory`` rebuilds games from records (default: the class).

    Any exception a check meets, not only a broken promise it tests, is raised as one
    ``ConformanceError`` line that names the check.
    """
    build: GameFactory = factory or (lambda _game_id, players, **options: type(game)(players, **options))
    with reported("check_states"):
        check_states(game)
    with reported("check_traits"):
        check_traits(game)
    with reported("check_playouts"):
        check_playouts(game)
    with reported("check_records"):
        check_records(game, build)
    with reported("check_observations"):
        check_observations(game)
    with reported("check_chance"):
        check_chance(game)
    with reported("check_illegal_actions"):
        check_illegal_actions(game)
    with reported("check_match_secrecy"):
        check_match_secrecy(game)


def check_plugin_game(game_class: type[AnyGame], budget_seconds: float = DEFAULT_BUDGET_SECONDS) -> ConfigurationReport:
    """The check a plugin game gets before use: option errors, then ``check_configurations`` with ``check_game``."""
    with reported("option errors"):
        check_option_errors(game_class)
    return check_configurations(game_class, check_game, budget_seconds)
