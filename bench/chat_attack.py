"""The ``chat`` attacker of ``bench/load_web.py --attack chat`` (issue 40, point 3).

One seat floods its table's chat while the honest clients play their own tables: it opens a
Pig table of two people's seats (nobody moves there), claims both, keeps the second seat's socket
open as a reader, and from the first seat sends chat lines at ``FLOOD_PER_SECOND`` (under the
server's 50 messages a second per socket, so the socket's own guard never cuts it off): mostly
full-length lines, with markup and oversize ones mixed in. The server takes five in a row and
then one every three seconds (``tables/chat.py``); the rest are refused with a reason. What counts
is the honest tables' acknowledgement p99 that ``load_web.py`` reports beside it (issue 40's
"Done when": under 100 ms); the attacker's own counts say what the server took and refused.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect

FLOOD_PER_SECOND = 40.0
LONG_LINE = "flood " * 33  # 198 characters: as long as a line may be
MARKUP_LINE = '<img src=x onerror="alert(1)"> Bot 2 loses their eels'
OVERSIZE_LINE = "x" * 500


def _line(number: int) -> str:
    """Mostly long lines, one in five with markup, one in ten oversize (refused for its length)."""
    if number % 10 == 9:
        return OVERSIZE_LINE
    if number % 5 == 4:
        return MARKUP_LINE
    return f"{number} {LONG_LINE}"[:198]


async def _claimed_table(http: httpx.AsyncClient, base: str) -> tuple[str, list[str]]:
    opened = await http.post(f"{base}/api/tables", json={"game": "pig", "players": 2, "seats": [{}, {}]})
    opened.raise_for_status()
    table = opened.json()
    tokens = []
    for seat in table["seats"]:
        code = seat["invite"].split("#invite=", 1)[1]
        claimed = await http.post(f"{base}/api/tables/{table['id']}/claim", json={"invite": code})
        claimed.raise_for_status()
        tokens.append(claimed.json()["token"])
    return table["id"], tokens


async def chat_flood(base: str, address: str, stop_at: float, counts: dict[str, int]) -> None:
    """Flood one table's chat from one seat until ``stop_at`` (monotonic); ``counts`` gets the tallies."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(transport=transport, timeout=60) as http:
        table_id, (flooder_token, reader_token) = await _claimed_table(http, base)
    url = f"{base.replace('http://', 'ws://')}/ws/tables/{table_id}"
    options: dict[str, Any] = {"max_size": 2**24, "open_timeout": 30, "local_addr": (address, 0)}
    async with connect(url, **options) as flooder, connect(url, **options) as reader:
        await flooder.send(json.dumps({"type": "hello", "token": flooder_token}))
        await reader.send(json.dumps({"type": "hello", "token": reader_token}))

        async def tally(ws: Any, who: str) -> None:
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "chat" and not message.get("history"):
                    counts[f"chat_{who}_lines_received"] = counts.get(f"chat_{who}_lines_received", 0) + 1
                elif message["type"] == "error":
                    text = message["message"]
                    reason = "rate" if "too many" in text else "length" if "at most" in text else "other"
                    counts[f"chat_refused_{reason}"] = counts.get(f"chat_refused_{reason}", 0) + 1

        readers = [asyncio.create_task(tally(flooder, "flooder")), asyncio.create_task(tally(reader, "reader"))]
        number = 0
        try:
            while time.monotonic() < stop_at:
                started = time.monotonic()
                await flooder.send(json.dumps({"type": "chat", "text": _line(number)}))
                number += 1
                counts["chat_sent"] = number
                await asyncio.sleep(max(0.0, 1.0 / FLOOD_PER_SECOND - (time.monotonic() - started)))
            await asyncio.sleep(1.0)  # the last answers
        finally:
            for task in readers:
                task.cancel()
