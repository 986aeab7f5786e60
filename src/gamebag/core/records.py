"""Game records: the portable, hand-writable JSON log of a game.

A record is ``{"game": id, "players": n, "options": {...}, "events": [...]}``;
each event is ``{"moves": {"<seat>": action, ...}}`` (the joint action of the
seats that act) or ``{"chance": outcome}``. Every chance outcome is explicit, so
replaying needs no random generator.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamebag.core.errors import GamebagError, RecordError
from gamebag.core.options import options_to_json
from gamebag.core.protocol import Game, JsonDict, NodeKind
from gamebag.core.translation import _

GameFactory = Callable[..., Game[Any, Any, Any]]
MAX_RECORD_BYTES = 64 * 1024 * 1024  # a long game's record is a few hundred kB; more is not a record


@dataclass
class Record:
    """A game record; ``events`` hold JSON-encoded actions and outcomes."""

    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    events: list[JsonDict] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> JsonDict:
        data: JsonDict = {
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "events": list(self.events),
        }
        if self.meta:
            data["meta"] = dict(self.meta)
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=None, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Check the record's shape (not yet its rules) and build it."""
        if not isinstance(data, dict):
            raise RecordError(_("a record must be a JSON object with game, players, options and events"))
        unknown = sorted(set(data) - {"game", "players", "options", "events", "meta"})
        if unknown:
            raise RecordError(
                _("unknown key(s) {keys}; allowed: game, players, options, events, meta",
                  keys=", ".join(map(repr, unknown)))
            )
        game = data.get("game")
        players = data.get("players")
        options = data.get("options", {})
        events = data.get("events", [])
        if not isinstance(game, str):
            raise RecordError(_("'game' must be a game id string"))
        if isinstance(players, bool) or not isinstance(players, int):
            raise RecordError(_("'players' must be an integer"))
        if not isinstance(options, dict):
            raise RecordError(_("'options' must be an object of option names to values"))
        if not isinstance(events, list):
            raise RecordError(_("'events' must be a list"))
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError(_("'meta' must be an object"))
        for index, event in enumerate(events):
            if not isinstance(event, dict) or len(event) != 1 or next(iter(event)) not in ("moves", "chance"):
                raise RecordError(
                    _('each event must be an object with exactly one key, "moves" or "chance"'), index
                )
        return cls(game, players, dict(options), list(events), dict(meta))

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file; anything but a UTF-8 JSON record of sensible size is one ``RecordError``."""
        try:
            with Path(path).open("rb") as file:
                raw = file.read(MAX_RECORD_BYTES + 1)
        except OSError as error:
            raise RecordError(_("cannot read {path}: {reason}", path=path, reason=error.strerror or error)) from None
        if len(raw) > MAX_RECORD_BYTES:
            raise RecordError(_("{path} is over {size} MiB: not a game record", path=path,
                                size=MAX_RECORD_BYTES // (1024 * 1024)))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(
                _("{path} is not UTF-8 text (byte {byte}); a record is a UTF-8 JSON file", path=path, byte=error.start)
            ) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(
                _("not valid JSON ({reason} at line {line})", reason=error.msg, line=error.lineno)
            ) from None
        except RecursionError:
            raise RecordError(_("{path}: JSON nested too deeply to be a game record", path=path)) from None
        return cls.from_json(data)


def moves_event(game: Game[Any, Any, Any], moves: Mapping[int, Any]) -> JsonDict:
    return {"moves": {str(seat): game.action_to_json(action) for seat, action in sorted(moves.items())}}


def chance_event(game: Game[Any, Any, Any], outcome: Any) -> JsonDict:
    return {"chance": game.outcome_to_json(outcome)}


def new_record(game: Game[Any, Any, Any]) -> Record:
    return Record(game.game_id, game.num_players, options_to_json(game.options), [])


def decode_moves(game: Game[Any, Any, Any], data: Any) -> dict[int, Any]:
    """Turn ``{"<seat>": action}`` into ``{seat: action}``; raises ``GamebagError`` subclasses."""
    from gamebag.core.errors import IllegalActionError

    if not isinstance(data, dict):
        raise IllegalActionError('"moves" must map seat numbers (as strings) to actions')
    moves: dict[int, Any] = {}
    for key, value in data.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise IllegalActionError(f"seat {key!r} is not a seat number") from None
        if not 0 <= seat < game.num_players:
            raise IllegalActionError(f"seat {seat} does not exist; seats are 0 to {game.num_players - 1}")
        moves[seat] = game.action_from_json(value)
    return moves


def apply_event(game: Game[Any, Any, Any], state: Any, event: JsonDict) -> Any:
    """Apply one record event to ``state`` (raising the rule's error if it breaks one)."""
    if "moves" in event:
        return game.apply(state, decode_moves(game, event["moves"]))
    if game.node_kind(state) is not NodeKind.CHANCE:
        from gamebag.core.errors import IllegalChanceOutcomeError

        raise IllegalChanceOutcomeError(
            f"a chance event is not expected here: the game is at a {game.node_kind(state).value} node"
        )
    return game.apply_chance(state, game.outcome_from_json(event["chance"]))


def make_game(record: Record, factory: GameFactory) -> Game[Any, Any, Any]:
    try:
        return factory(record.game, record.players, **record.options)
    except GamebagError as error:
        raise RecordError(str(error)) from None


def replay(record: Record, factory: GameFactory) -> tuple[Game[Any, Any, Any], Any]:
    """Check every event against the rules; return the game and the final state.

    ``factory`` builds a game from (id, players, options), normally ``gamebag.make``.
    Raises ``RecordError`` with the index of the first event that breaks a rule.
    """
    game = make_game(record, factory)
    state = game.initial_state()
    for index, event in enumerate(record.events):
        try:
            state = apply_event(game, state, event)
        except GamebagError as error:
            raise RecordError(str(error), index) from None
    return game, state
