"""``gamebag check``: run the conformance suite on a game, as a plugin game is checked before use.

Every player count and each option's bounds are built and played once; the whole suite
(``gamebag.testing``) runs on the default configuration and on as many others as ``--seconds``
allows. A game that breaks a promise is refused in one ``error:`` line naming the configuration,
the check, the step and seat, and what differed; exit status 2.
"""

from __future__ import annotations

import typer

from gamebag.cli.common import check_range, dumps
from gamebag.core.translation import _, ngettext

MAX_SECONDS = 3600.0


def register(app: typer.Typer) -> None:
    @app.command("check", help=_("Check a game against the protocol at every player count and option bound."))
    def check(
        game: str = typer.Argument(..., help=_("A game id (a plugin's too: gamebag --plugin FILE check GAME).")),
        seconds: float = typer.Option(
            30.0, "--seconds", help=_("Time for full checks beyond the default configuration: 0 to 3,600 seconds.")
        ),
        as_json: bool = typer.Option(False, "--json", help=_("Print one JSON object.")),
    ) -> None:
        import gamebag
        from gamebag.core.errors import GamebagError
        from gamebag.testing import ConformanceError, check_plugin_game

        check_range("--seconds", seconds, 0.0, MAX_SECONDS)
        game_class = gamebag.entry(game).game_class
        try:
            report = check_plugin_game(game_class, seconds)
        except ConformanceError as error:
            raise GamebagError(_("{game} fails the conformance suite: {reason}", game=game, reason=error)) from None
        described = {
            "played": [c.describe() for c in report.smoked],
            "checked": [c.describe() for c in report.checked],
            "unchecked": [c.describe() for c in report.unchecked],
            "refused": [c.describe() for c in report.refused],
        }
        if as_json:
            typer.echo(dumps({"game": game, "passes": True, **described}))
            return
        typer.echo(_("{game} passes the conformance suite.", game=game))
        typer.echo(ngettext("built and played once: {n} configuration", "built and played once: {n} configurations",
                            len(report.smoked)))
        typer.echo(_("checked in full: {configurations}", configurations="; ".join(described["checked"])))
        if report.unchecked:
            typer.echo(_("not checked in full (give more --seconds): {configurations}",
                         configurations="; ".join(described["unchecked"])))
        if report.refused:
            typer.echo(_("refused by the game itself (OptionError): {configurations}",
                         configurations="; ".join(described["refused"])))
