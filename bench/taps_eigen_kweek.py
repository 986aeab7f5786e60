"""Taps per player in a whole 4-player Eigen Kweek game on the web server (issue 37, docs/web.md).

Four people play over the table's WebSocket (an in-process server on a throw-away SQLite
file), each a scripted seat that picks a random legal move (its own seeded stream) whenever
the table asks it. Counted per person: the decisions it was asked for (state messages where
it must choose), the taps it sent, and the moves the server made for it (``done_for_you``).

* ``--mode tap-all``: a person taps at every decision, a lone "Pass" included: the table as it
  was before issue 37 (nothing resolved by itself). Runs on any version of the server.
* ``--mode real-choices``: a person taps only where it has more than one legal move; the
  server makes the others (``web/tables/forcing.py``). The server's pace for those moves is set to
  a few milliseconds here (``Limits.forced_pace``): it changes how long the game takes, not
  what anybody is asked.
* ``--mode standing-pass``: as ``real-choices``, and a person who picks "pass" at a character
  window where it could play ticks **Pass the character windows this round unless I act**
  instead (one tap); the server passes that window and the round's later ones for it.

Run: ``.venv/bin/python bench/taps_eigen_kweek.py --mode real-choices [--seed S] [--rounds R]``;
prints one line per person and the totals, ``--json`` for a machine-readable answer.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import json
import random
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from gamebag.web.app import create_app
from gamebag.web.settings import Limits

PLAYERS = 4


class Person(threading.Thread):
    """One person's seat on its own socket; ``real_only``: no tap where there is a single legal move."""

    def __init__(self, client: TestClient, table_id: str, token: str, seed: int, mode: str) -> None:
        super().__init__(daemon=True)
        self.client, self.table_id, self.token = client, table_id, token
        self.real_only, self.standing = mode != "tap-all", mode == "standing-pass"
        self.rng = random.Random(seed)
        self.asked: set[int] = set()  # steps at which this seat had to choose (shown a decision)
        self.single: set[int] = set()  # of those, the steps with a single legal move
        self.taps = 0
        self.done_for_me: set[int] = set()
        self.error: BaseException | None = None
        self.finished = False

    def run(self) -> None:
        try:
            with self.client.websocket_connect(f"/ws/tables/{self.table_id}") as ws:
                ws.send_text(json.dumps({"type": "hello", "token": self.token}))
                tapped: set[int] = set()
                while True:
                    message = json.loads(ws.receive_text())
                    if message["type"] == "error":
                        raise RuntimeError(f"the server refused a tap: {message['message']}")
                    if message["type"] != "state":
                        continue
                    self.done_for_me |= {note["step"] for note in message.get("done_for_you", [])}
                    if message["result"] is not None:
                        self.finished = True
                        return
                    step, legal = message["step"], message["legal"]
                    if message["seat"] not in message["view"]["choices"]["waiting_for"] or not legal:
                        continue
                    self.asked.add(step)
                    if len(legal) == 1:
                        self.single.add(step)
                        if self.real_only:
                            continue  # nothing to choose: the server moves for this seat
                    standing = message.get("standing_pass")
                    window = message["view"].get("step") == "window"
                    if self.standing and window and standing is not None and standing["on"]:
                        continue  # the standing pass covers this window
                    if step in tapped:
                        continue
                    tapped.add(step)
                    self.taps += 1
                    # A single move draws nothing from the stream: the modes play the very same game
                    # (but for the windows a standing pass covers).
                    action = legal[0] if len(legal) == 1 else self.rng.choice(legal)
                    if self.standing and window and action == "pass":
                        ws.send_text(json.dumps({"type": "standing_pass", "on": True}))
                        continue
                    ws.send_text(json.dumps({"type": "act", "action": action, "step": step}))
        except BaseException as error:
            self.error = error


def play(mode: str, seed: int, rounds: int) -> dict[str, Any]:
    limits = Limits()
    if any(field.name == "forced_pace" for field in dataclasses.fields(Limits)):
        limits = dataclasses.replace(limits, forced_pace=(0.005, 0.01))
    began = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        extra: dict[str, object] = {}
        if "host_names" in inspect.signature(create_app).parameters:
            extra["host_names"] = ("testserver",)  # the in-process client's Host (the allow-list)
        app = create_app(
            f"sqlite:///{Path(folder) / 'taps.db'}", bot_delay=0.0, allow_seed=True, limits=limits, **extra
        )
        with TestClient(app) as client:
            response = client.post("/api/tables", json={
                "game": "eigen-kweek", "players": PLAYERS, "seats": [{} for _ in range(PLAYERS)],
                "options": {"max_rounds": rounds}, "seed": seed,
            })
            response.raise_for_status()
            table = response.json()
            for seat in table["seats"]:
                if "#invite=" in seat.get("invite", ""):  # one-time invites: each device claims its seat
                    code = seat["invite"].split("#invite=", 1)[1]
                    claimed = client.post(f"/api/tables/{table['id']}/claim", json={"invite": code})
                    claimed.raise_for_status()
                    seat["token"] = claimed.json()["token"]
            people = [
                Person(client, table["id"], seat["token"], seed * 100 + seat["seat"], mode)
                for seat in table["seats"]
            ]
            for person in people:
                person.start()
            for person in people:
                person.join(600)
            for person in people:
                if person.error is not None:
                    raise person.error
                if not person.finished:
                    raise RuntimeError("the game did not end within 600 s")
            record = client.get(f"/api/tables/{table['id']}/record").json()
    decisions = [event for event in record["events"] if "moves" in event]
    return {
        "mode": mode, "seed": seed, "max_rounds": rounds, "decisions_in_the_game": len(decisions),
        "seconds": round(time.monotonic() - began, 1),
        "people": [
            {"seat": s, "decisions": len(p.asked), "single_move": len(p.single), "taps": p.taps,
             "made_for_them": len(p.done_for_me)}
            for s, p in enumerate(people)
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", choices=("tap-all", "real-choices", "standing-pass"), default="real-choices")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=10, help="the game's max_rounds option (1-10)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.rounds <= 10:
        parser.error(f"--rounds must be from 1 to 10, not {args.rounds}")
    answer = play(args.mode, args.seed, args.rounds)
    if args.json:
        print(json.dumps(answer, indent=1))
        return
    print(f"mode {answer['mode']}, seed {answer['seed']}, {answer['decisions_in_the_game']} decisions in the game, "
          f"{answer['seconds']} s")
    for person in answer["people"]:
        print(f"  seat {person['seat']}: asked {person['decisions']} decisions ({person['single_move']} with a single "
              f"move), tapped {person['taps']}, made for them {person['made_for_them']}")
    print(f"  taps in all: {sum(p['taps'] for p in answer['people'])}")


if __name__ == "__main__":
    main()
