"""The analysis of a finished table over HTTP: refused while the game goes on, then run off the loop and kept."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import pytest

from gamebag.web.settings import Limits
from gamebag.web.tables.analysis import (
    MAX_UNFINISHED,
    MAX_UNFINISHED_PER_ADDRESS,
    AnalysesBusy,
    TableAnalyses,
    analysis_key,
    in_words,
)
from gamebag.web.work.workers import JobFailed

from .helpers import open_table, web_client


def test_a_finished_table_is_analysed_in_the_pool_and_kept(tmp_path: Path) -> None:
    with web_client(tmp_path, limits=Limits(bot_workers=2)) as client:
        waiting = open_table(client, "pig", 2, options={"goal": 30})
        assert client.get(f"/api/tables/{waiting['id']}/analysis").status_code == 409
        table = open_table(client, "pig", 2, bots={0: "random", 1: "optimal-win"}, options={"goal": 30})
        table_id = table["id"]
        deadline = time.monotonic() + 120
        while client.get(f"/api/tables/{table_id}").json()["result"] is None:
            assert time.monotonic() < deadline, "the bots did not finish the game"
            time.sleep(0.05)
        # The game's end got a worker ready for its analysis before anyone asked (its tables loaded).
        pool = client.app.state.manager.pool  # type: ignore[attr-defined]
        options = client.get(f"/api/tables/{table_id}/record").json()["options"]  # the analysis job's key too
        while not pool.holds(analysis_key("pig", 2, options)):
            assert time.monotonic() < deadline, "no worker got ready for the analysis when the game ended"
            time.sleep(0.05)
        answer = client.get(f"/api/tables/{table_id}/analysis").json()
        assert answer["status"] in ("running", "done") and answer["total"] > 0
        while answer["status"] == "running":
            assert time.monotonic() < deadline, "the analysis did not finish"
            time.sleep(0.1)
            answer = client.get(f"/api/tables/{table_id}/analysis").json()
        assert answer["status"] == "done", answer
        analysis = answer["analysis"]
        assert analysis["exact"] is True and [s["seat"] for s in analysis["seats"]] == [0, 1]
        record = client.get(f"/api/tables/{table_id}/record").json()
        assert answer["steps"][-1] == len(record["events"])
        assert all("moves" in record["events"][i] for i in answer["steps"][:-1])
        for seat in ("0", "1"):
            points = answer["curves"][seat]
            assert points[-1] == [len(record["events"]), analysis["seats"][int(seat)]["result"]]
        assert all(w["words"].endswith(".") and w["loss"] > 0 for w in answer["worst"])
        # Players' words: located decisions named as Pig names them, the first line plain, the method in the fold.
        assert all(re.match(r"Round \d+, with \d+ in the turn: ", w["words"]) for w in answer["worst"])
        assert any("roll the die" in w["words"] or "hold: bank" in w["words"] for w in answer["worst"])
        assert "played most accurately" in answer["headline"] and "exact" not in answer["headline"]
        assert answer["how"][-1] == f"Method: {analysis['method']}." and "win chance" in answer["luck_unit"]
        assert set(answer["evaluations"]) == {str(d["event"]) for d in analysis["decisions"]}
        # The random seat loses winning chance somewhere; the optimal one never does.
        assert analysis["seats"][0]["accuracy"] < 100 and analysis["seats"][1]["accuracy"] == 100
        manager = client.app.state.analyses  # type: ignore[attr-defined]
        assert client.get(f"/api/tables/{table_id}/analysis").json() == answer and manager.started == 1
        # The same kept analysis for a Dutch reader: its words in Dutch, its figures the same, no new job.
        dutch = client.get(f"/api/tables/{table_id}/analysis", headers={"Accept-Language": "nl-BE"}).json()
        assert "speelde het nauwkeurigst" in dutch["headline"] and dutch["analysis"] == analysis
        assert all("winkans" in w["words"] and "chose" not in w["words"] for w in dutch["worst"])
        assert dutch["how"][-1].startswith("Methode: exact: ") and manager.started == 1
        assert client.get(f"/api/tables/{table_id}/analysis").json() == answer


def test_analyses_waiting_at_once_are_bounded() -> None:
    """Past MAX_UNFINISHED analyses running or waiting (of all addresses, or
    MAX_UNFINISHED_PER_ADDRESS of one), another table's request is refused."""

    class StuckPool:
        size = 2

        def __init__(self) -> None:
            self.release = asyncio.Event()

        async def run(self, job: Any, seconds: float, progress: Any = None, **share: Any) -> Any:
            await self.release.wait()
            raise JobFailed("stopped")

    async def scenario() -> None:
        pool = StuckPool()
        analyses = TableAnalyses(pool)  # type: ignore[arg-type]
        record = {"game": "pig", "players": 2, "options": {}, "events": [{"chance": 1}]}
        for table in range(MAX_UNFINISHED):
            owner = f"address{table // MAX_UNFINISHED_PER_ADDRESS}"
            assert analyses.status(f"t{table}", record, ["a", "b"], owner)["status"] == "running"
        assert analyses.status("t0", record, ["a", "b"])["status"] == "running"  # a known one is answered
        with pytest.raises(AnalysesBusy):
            analyses.status("another", record, ["a", "b"], "address-new")
        with pytest.raises(AnalysesBusy):
            analyses.status("another", record, ["a", "b"], "address0")
        pool.release.set()
        for _ in range(100):
            await asyncio.sleep(0.01)
            if analyses.unfinished == 0:
                break
        assert analyses.status("t1", record, ["a", "b"])["status"] == "failed"
        assert analyses.status("another", record, ["a", "b"])["status"] == "running"
        pool.release.set()
        await analyses.stop()

    asyncio.run(scenario())


def test_a_decision_in_words() -> None:
    decision = {
        "event": 4, "seat": 1, "action": ["gold", "blue"], "best": [["gold"], ["blue"]], "value": -1e-13,
        "best_value": 0.0612, "loss": 0.0612, "label": "inaccuracy", "exact": True,
    }  # fmt: skip
    # Without the analysis's words for the decision (an old answer): the codes, still in plain sentences.
    assert in_words(decision, ["Anna", "Ben"]) == (
        "Round ?: Ben chose gold+blue; gold or blue was better, and the choice lost about 6% win chance "
        "(0% instead of 6%). That is an inaccuracy."
    )
    said = {"place": "round 3, collecting from a roll of 4 dice", "action": "collect gold and blue",
            "best": ["collect gold", "collect blue"]}  # fmt: skip
    assert in_words({**decision, "said": said}, ["Anna", "Ben"]) == (
        "Round 3, collecting from a roll of 4 dice: Ben chose collect gold and blue; collect gold or collect blue "
        "was better, and the choice lost about 6% win chance (0% instead of 6%). That is an inaccuracy."
    )
