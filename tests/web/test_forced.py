"""No tap without a choice (issue 37): a person's only legal move is made for them, and nobody
else can tell it from a chosen one.

Eigen Kweek, 3 people, seed 10: seat 1 is dealt FRANK (cultivate) and RIA (deal). Keeping FRANK
leaves it only "pass" at the first character window (the deal phase's); keeping RIA gives it
"play:RIA" too. What the others see is the same either way (the kept card is secret; checked
below on the rules engine). Game A: seat 1 keeps FRANK and never taps: the server passes for it.
Game B: seat 1 keeps RIA and taps "pass" itself, as late as the server's pass came in game A.
Every other reader's stream (seats 0 and 2, a spectator) must be the same, with its times
bucketed as the page shows them: whole seconds since the window opened, and the turn clock's
seconds left rounded up (``Math.ceil`` in table.js).
"""

from __future__ import annotations

import importlib.util
import json
import math
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import gamebag
from gamebag.core.match import Match
from gamebag.web.settings import Limits

from .helpers import Message, hello, open_table, receive, receive_until, web_client

SEED = 10
PLAYERS = 3
FORCED = 1  # the seat whose pass is forced (game A) or chosen (game B)
PACE = (1.2, 2.2)  # the forced moves' delays (Limits.forced_pace); the draws here stay clear of whole seconds
TURN_SECONDS = 60


def _window_step() -> int:
    """The event index of the first character window, and a check that the two games look alike to others."""
    game = gamebag.make("eigen-kweek", PLAYERS)
    matches = []
    for keep in ("choose:FRANK", "choose:RIA"):
        match = Match(game, SEED)
        assert set(match.state.dealt[FORCED]) == {"FRANK", "RIA"}
        for seat in match.waiting_for():
            match.submit(seat, keep if seat == FORCED else game.legal_actions(match.state, seat)[0])
        assert match.state.step == "window"
        matches.append(match)
    forced, chosen = matches
    assert list(game.legal_actions(forced.state, FORCED)) == ["pass"]
    assert "play:RIA" in game.legal_actions(chosen.state, FORCED)
    assert forced.public() == chosen.public()
    assert all(forced.view(seat) == chosen.view(seat) for seat in range(PLAYERS) if seat != FORCED)
    return len(forced.record.events)


class ScriptedSeat(threading.Thread):
    """One reader of the table (a seat, or a spectator when ``token`` is None), until the window is revealed.

    At the deal (the first decision) a seat keeps ``keep`` (else its first choice); at the window
    it taps "pass" after ``tap_after`` seconds, or never (None: the server moves for it or not).
    """

    def __init__(self, client: Any, table_id: str, token: str | None, window: int, keep: str | None = None,
                 tap_after: float | None = None) -> None:
        super().__init__(daemon=True)
        self.client, self.table_id, self.token, self.window = client, table_id, token, window
        self.keep, self.tap_after = keep, tap_after
        self.messages: list[Message] = []
        self.error: BaseException | None = None
        self.ready = threading.Event()
        self.acted: set[int] = set()  # steps this seat has sent a move at

    def run(self) -> None:
        try:
            with self.client.websocket_connect(f"/ws/tables/{self.table_id}") as ws:
                self.messages.extend(hello(ws, self.token))
                self.ready.set()
                self._act_on(ws, self.messages[-1])
                while True:
                    message = receive(ws)
                    self.messages.append(message)
                    if message["type"] == "error":
                        raise AssertionError(f"error to a scripted reader: {message}")
                    if message["type"] == "state" and message["step"] > self.window:
                        return
                    self._act_on(ws, message)
        except BaseException as error:
            self.error = error
            self.ready.set()

    def _act_on(self, ws: Any, message: Message) -> None:
        if message["type"] != "state" or message["seat"] is None:
            return
        waiting = message["seat"] in message["view"]["choices"]["waiting_for"]
        if not waiting or not message["legal"] or message["step"] in self.acted:
            return
        if message["step"] < self.window:
            action = self.keep if self.keep is not None else message["legal"][0]
        elif self.tap_after is not None:
            time.sleep(self.tap_after)
            action, self.tap_after = "pass", None
        else:
            return
        self.acted.add(message["step"])
        ws.send_text(json.dumps({"type": "act", "action": action, "step": message["step"]}))


def _play(tmp_path: Path, name: str, keep: str, tap_after: float | None, window: int) -> list[ScriptedSeat]:
    """One game up to the window's reveal: the readers in order seat 0, 1, 2, spectator."""
    limits = Limits(forced_pace=PACE)
    with web_client(tmp_path, name=name, limits=limits) as client:
        table = open_table(client, "eigen-kweek", PLAYERS, seed=SEED, turn_seconds=TURN_SECONDS)
        tokens = [seat["token"] for seat in table["seats"]]
        readers = [
            ScriptedSeat(client, table["id"], None, window),  # the spectator first: it sees every seat arrive
            *[
                ScriptedSeat(client, table["id"], token, window, keep if seat == FORCED else None,
                             tap_after if seat == FORCED else None)
                for seat, token in enumerate(tokens)
            ],
        ]
        for reader in readers:  # one at a time, in the same order in both games
            reader.start()
            assert reader.ready.wait(30)
            time.sleep(0.2)
        for reader in readers:
            reader.join(60)
        assert not any(reader.is_alive() for reader in readers), "the window was never revealed"
        for reader in readers:
            if reader.error is not None:
                raise reader.error
    spectator, *seats = readers
    return [*seats, spectator]


def _as_the_page_shows(messages: list[Message], window: int, table_id: str) -> list[Any]:
    """A reader's messages with each time as the page shows it (whole seconds since the window opened,
    the clock's seconds left rounded up) and the table's own id (drawn afresh for each table) as "T";
    everything else as sent."""
    first = next(i for i, m in enumerate(messages) if m["type"] == "state" and m["step"] == window)
    opened = messages[first]["at"]
    shown = []
    for index, message in enumerate(messages):
        message = json.loads(json.dumps(message).replace(json.dumps(table_id), '"T"'))
        # Before the window opens both games are played alike by the script; their times there measure
        # only how fast this machine let the readers connect (a loaded machine crosses a whole second in
        # one game and not the other), so they are left out. From the window on, every time counts.
        before = index < first
        if "at" in message:
            message["at"] = None if before else math.floor(message["at"] - opened)
        if message["type"] == "state" and message["table"]["deadline_in"] is not None:
            message["table"]["deadline_in"] = None if before else math.ceil(message["table"]["deadline_in"])
        shown.append(message)
    return shown


def _chosen_after(messages: list[Message], seat: int, window: int) -> float:
    """Seconds from the window's opening to ``seat`` shown as chosen (or the reveal), in one reader's stream."""
    states = [m for m in messages if m["type"] == "state" and m["step"] >= window]
    opened = states[0]["at"]
    for message in states:
        if message["step"] > window or seat in message["view"]["choices"]["chosen"]:
            return float(message["at"] - opened)
    raise AssertionError(f"seat {seat} was never shown as chosen")


@pytest.mark.timeout(180)
def test_a_forced_pass_looks_to_every_other_reader_exactly_like_a_chosen_one(tmp_path: Path) -> None:
    window = _window_step()
    forced = _play(tmp_path, "forced.db", "choose:FRANK", None, window)
    # The server passed for seat 1, and no sooner than a person could have tapped.
    spectator = forced[-1].messages
    waited = _chosen_after(spectator, FORCED, window)
    assert PACE[0] <= waited < PACE[1] + 1.0, waited
    assert Limits().forced_pace[0] >= 1.0  # the server's own default: no forced "chosen" within a second
    chosen = _play(tmp_path, "chosen.db", "choose:RIA", waited, window)
    for reader, (a, b) in enumerate(zip(forced, chosen, strict=True)):
        if reader == FORCED:
            continue
        shown = [_as_the_page_shows(r.messages, window, r.table_id) for r in (a, b)]
        assert shown[0] == shown[1], f"reader {reader}"
    # Only the seat itself is told what was done for it.
    notes = [m.get("done_for_you") for m in forced[FORCED].messages if m["type"] == "state"]
    assert {"step": window, "action": "pass", "why": "only"} in (notes[-1] or [])
    assert not any("done_for_you" in m for m in chosen[FORCED].messages)
    assert not any("done_for_you" in m for m in (*forced[-1].messages, *chosen[-1].messages))  # spectators


@pytest.mark.timeout(60)
def test_a_standing_pass_passes_the_windows_for_that_seat_only(tmp_path: Path) -> None:
    """Seat 1 keeps RIA (it could play at the deal window) but asks to pass the windows this round."""
    window = _window_step()
    with web_client(tmp_path, limits=Limits(forced_pace=(0.2, 0.4))) as client:
        table = open_table(client, "eigen-kweek", PLAYERS, seed=SEED)
        sockets = [client.websocket_connect(f"/ws/tables/{table['id']}") for _ in range(PLAYERS)]
        for ws in sockets:
            ws.__enter__()
        try:
            states = [hello(ws, seat["token"])[-1] for ws, seat in zip(sockets, table["seats"], strict=True)]
            assert states[FORCED]["standing_pass"] == {
                "label": "Pass the character windows this round unless I act", "on": False,
            }
            for seat, ws in enumerate(sockets):
                action = "choose:RIA" if seat == FORCED else states[seat]["legal"][0]
                ws.send_text(json.dumps({"type": "act", "action": action, "step": states[seat]["step"]}))
            opened = receive_until(sockets[FORCED], lambda m: m["type"] == "state" and m["step"] == window)[-1]
            assert "play:RIA" in opened["legal"]
            sockets[FORCED].send_text(json.dumps({"type": "standing_pass", "on": True}))
            on = receive_until(sockets[FORCED], lambda m: m["type"] == "state" and m["standing_pass"]["on"])[-1]
            assert on["step"] == window
            revealed = receive_until(sockets[FORCED], lambda m: m["type"] == "state" and m["step"] > window)[-1]
            assert {"step": window, "action": "pass", "why": "asked"} in revealed["done_for_you"]
            others = receive_until(sockets[0], lambda m: m["type"] == "state" and m["step"] > window)
            assert not any("standing_pass" in m and m["standing_pass"]["on"] for m in others)
            assert not any("done_for_you" in m and m["done_for_you"][-1]["why"] == "asked" for m in others)
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)


def test_a_standing_pass_is_refused_in_one_line_where_the_game_has_none(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "pig", 2)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            hello(ws, table["seats"][0]["token"])
            ws.send_text(json.dumps({"type": "standing_pass", "on": True}))
            error = receive_until(ws, lambda m: m["type"] == "error")[-1]
    assert error["message"] == "pig has no standing pass; it is offered in: eigen-kweek"


def test_the_turn_clock_starts_once_every_person_has_connected(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = open_table(client, "wriggle-roulette", 2, seed=8, turn_seconds=30)
        first_link, second_link = (seat["token"] for seat in table["seats"])
        with client.websocket_connect(f"/ws/tables/{table['id']}") as first:
            state = hello(first, first_link)[-1]
            assert state["table"]["deadline_in"] is None and state["table"]["clock_waits"] is True
            time.sleep(1.5)  # a friend opening the link late: no time of theirs is lost meanwhile
            with client.websocket_connect(f"/ws/tables/{table['id']}") as second:
                hello(second, second_link)
                arrived = receive_until(second, lambda m: m["type"] == "state" and not m["table"]["clock_waits"])
                assert 29.0 < arrived[-1]["table"]["deadline_in"] <= 30.0
            started = receive_until(first, lambda m: m["type"] == "state" and m["table"]["deadline_in"] is not None)
            assert 29.0 < started[-1]["table"]["deadline_in"] <= 30.0


@pytest.mark.timeout(300)
def test_a_scripted_eigen_kweek_game_asks_each_person_only_for_real_choices() -> None:
    """bench/taps_eigen_kweek.py, a short game: every tap a person sends is a real choice; every
    lone move is made for them (and told to them), and the game still ends."""
    spec = importlib.util.spec_from_file_location("taps", Path(__file__).parents[2] / "bench" / "taps_eigen_kweek.py")
    assert spec is not None and spec.loader is not None
    taps = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(taps)
    answer = taps.play("real-choices", seed=2, rounds=3)
    for person in answer["people"]:
        assert person["single_move"] > 0, person
        assert person["taps"] == person["decisions"] - person["single_move"], person
        assert person["made_for_them"] == person["single_move"], person


@pytest.mark.timeout(60)
def test_a_seat_that_is_not_connected_is_not_moved_for_until_it_is_back(tmp_path: Path) -> None:
    """Who is connected is public: a pass made for an absent seat would say it was forced. Seat 1
    keeps FRANK and leaves before the window; the table waits for it, and passes for it once back."""
    window = _window_step()
    with web_client(tmp_path, limits=Limits(forced_pace=(0.2, 0.4))) as client:
        table = open_table(client, "eigen-kweek", PLAYERS, seed=SEED)
        tokens = [seat["token"] for seat in table["seats"]]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as watcher:
            hello(watcher, None)
            sockets = [client.websocket_connect(f"/ws/tables/{table['id']}") for _ in range(PLAYERS)]
            for ws in sockets:
                ws.__enter__()
            try:
                states = [hello(ws, token)[-1] for ws, token in zip(sockets, tokens, strict=True)]
                for seat, ws in enumerate(sockets):
                    action = "choose:FRANK" if seat == FORCED else states[seat]["legal"][0]
                    ws.send_text(json.dumps({"type": "act", "action": action, "step": states[seat]["step"]}))
                receive_until(sockets[FORCED], lambda m: m["type"] == "ack")
                sockets[FORCED].__exit__(None, None, None)
                receive_until(watcher, lambda m: m["type"] == "presence" and FORCED not in m["connected"])
                receive_until(watcher, lambda m: m["type"] == "state" and m["step"] == window)
                time.sleep(1.5)  # far past the pace: the others are passed for, seat 1 is not
                public = client.get(f"/api/tables/{table['id']}").json()
                assert public["table"]["step"] == window, "the window was passed for the absent seat"
                assert public["view"]["choices"] == {"waiting_for": [FORCED], "chosen": [0, 2], "mine": None}
                with client.websocket_connect(f"/ws/tables/{table['id']}") as back:
                    hello(back, tokens[FORCED])
                    revealed = receive_until(back, lambda m: m["type"] == "state" and m["step"] > window)[-1]
                assert {"step": window, "action": "pass", "why": "only"} in revealed["done_for_you"]
            finally:
                for seat, ws in enumerate(sockets):
                    if seat != FORCED:
                        ws.__exit__(None, None, None)
