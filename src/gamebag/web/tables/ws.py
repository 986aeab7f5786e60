"""The WebSocket protocol of a table: ``/ws/tables/{table_id}``.

Client to server (JSON text frames, at most ``MAX_MESSAGE`` characters)::

    {"type": "hello", "token": "<seat token>", "lang": "nl"?}  # join as a seat; no token: spectate
    {"type": "act", "action": <action JSON>, "step": n?, "ref": r?}
    {"type": "sync"}                             # the whole picture again, with history (a budget each)
    {"type": "standing_pass", "on": true|false}  # a seat's standing pass (Eigen Kweek's windows this round)
    {"type": "chat", "text": "..."}              # a chat line (chat.py: one line, length and rate bounded)
    {"type": "react", "reaction": "thumbs_up"}   # a reaction (one of ``chat.REACTIONS``)
    {"type": "ping"}

Server to client: ``welcome`` (your seat), ``state`` (see ``messages.py``),
``ack`` (your action was committed; sent after the state it caused), ``chat`` (lines
of the table's chat; on joining, the recent ones with ``history``, the settings and ``max_chars``),
``chat_settings`` (the host changed them), ``error``
(to the offending client only; nothing changed) and ``pong``.

Language: every word the server puts in a message (errors, refusals, the standing pass's label, a
closed table's notice) is in the connection's own language, even when the message is made for
another seat's move, a bot's or a timer's: the language the request negotiated (``?lang=``, the
``gb_lang`` cookie, Accept-Language; ``words/reader.py``), or the optional ``"lang"`` of the
``hello`` (a code such as ``"nl"``, ``"ja"``, ``"zh-Hans"``; an unknown one keeps the negotiated
language). Codes, records and the views stay language-neutral; the browser writes their words.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from starlette.responses import JSONResponse
from starlette.websockets import WebSocket, WebSocketDisconnect

from gamebag.core.errors import GamebagError
from gamebag.core.i18n import formatted, known_language, set_language
from gamebag.web.admission.addresses import close_reason
from gamebag.web.admission.bounds import BadJsonError, parse_json
from gamebag.web.admission.costs import SocketCost, socket_cost
from gamebag.web.admission.guard import RateLimited, RateLimits, client_address
from gamebag.web.store.faults import PLAYER_TEXT, StorageUnavailable, is_storage_fault
from gamebag.web.tables.hub import FLOOD_CLOSE_AFTER, FLOOD_RATE, SYNC_BURST, SYNC_RATE, Connection
from gamebag.web.tables.live import LiveTable, SeatError
from gamebag.web.tables.manager import StaleStepError, TableClosedError, TableManager, UnknownTableError
from gamebag.web.tables.messages import dumps, error_message
from gamebag.web.words.text import N_, _

MAX_MESSAGE = 4096
# each with its cost class (admission/costs.py)
MESSAGE_TYPES = ("hello", "act", "sync", "ping", "standing_pass", "chat", "react")
TOO_MANY = N_("too many '{kind}' messages: at most {rate} a second, bursts of {burst}; extra ones are ignored")

log = logging.getLogger("gamebag.web")


async def _refuse(websocket: WebSocket, refusal: RateLimited) -> None:
    """Refuse a socket before accepting it: 429 with Retry-After where the server can say so."""
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        response = JSONResponse(
            {"error": str(refusal)}, status_code=429, headers={"Retry-After": str(refusal.retry_after)}
        )
        await websocket.send_denial_response(response)
    else:
        await websocket.close(code=1013, reason=close_reason(str(refusal)))


async def table_socket(websocket: WebSocket, table_id: str, manager: TableManager, rates: RateLimits) -> None:
    """Serve one connection until it closes; nothing a client sends can stop the server."""
    address = client_address(websocket.scope)
    try:
        await rates.open_socket(address)
    except RateLimited as refusal:
        await _refuse(websocket, refusal)
        return
    connection: Connection | None = None
    try:
        if not manager.is_loaded(table_id):  # a load from the database (or an unknown id): budgeted
            try:
                await rates.table_load(address)
            except RateLimited as refusal:
                await _refuse(websocket, refusal)
                return
        await websocket.accept()
        try:
            table = await manager.get_async(table_id)
        except (UnknownTableError, TableClosedError) as error:
            await websocket.send_text(dumps(error_message(str(error))))
            await websocket.close(code=4404 if isinstance(error, UnknownTableError) else 4410)
            return
        except Exception as error:
            if not is_storage_fault(error):
                raise
            manager.storage.failed(error, f"loading table {table_id} for a socket")
            await websocket.send_text(dumps(error_message(_(PLAYER_TEXT))))
            await websocket.close(code=1013)  # try again later
            return
        connection = Connection(websocket, table.id)
        connection.address = address
        await _serve(connection, table, manager, rates)
    finally:
        if connection is None:
            rates.close_socket(address)
        else:
            rates.close_socket(address, connection.counted_watch, connection.counted_seat)


async def _serve(connection: Connection, table: LiveTable, manager: TableManager, rates: RateLimits) -> None:
    websocket = connection.websocket
    manager.hub.add(connection)
    writer = asyncio.get_running_loop().create_task(connection.run_writer())
    # A socket that never joins would hold its address's count for nothing: it has this long.
    hello_by = time.monotonic() + manager.limits.hello_seconds
    try:
        while not connection.closed:
            if connection.joined:
                frame = await websocket.receive()
            else:
                try:
                    frame = await asyncio.wait_for(websocket.receive(), max(0.0, hello_by - time.monotonic()))
                except TimeoutError:
                    seconds = manager.limits.hello_seconds
                    connection.send(dumps(error_message(_("say hello within {seconds} s of connecting",
                                                           seconds=formatted(seconds, "g")))))
                    connection.close(flush=True)
                    break
            if frame["type"] == "websocket.disconnect":
                break
            # The table object can change under a connection (taken over from another process,
            # or handed to one): look it up for each frame.
            table = manager.get(table.id)
            await _handle_frame(frame, connection, table, manager, rates)
    except WebSocketDisconnect:
        pass
    except (UnknownTableError, TableClosedError) as error:
        connection.send(dumps(error_message(str(error))))
        connection.close(flush=True)
    except Exception:
        log.exception("connection to table %s failed", table.id)
    finally:
        was_joined = connection.joined
        manager.hub.remove(connection)
        connection.close()
        await writer
        current = manager.tables.get(table.id) or manager.replicas.get(table.id)
        if was_joined and connection.seat is not None and current is not None:
            manager.announce_presence(current)  # the others see that this seat left


async def _handle_frame(
    frame: Any, connection: Connection, table: LiveTable, manager: TableManager, rates: RateLimits
) -> None:
    if not connection.limiter.allow():
        if connection.limiter.dropped >= FLOOD_CLOSE_AFTER:
            connection.send(dumps(error_message(_("too many messages: closing this connection"))))
            connection.close(flush=True)
        elif connection.limiter.should_warn():
            connection.send(
                dumps(error_message(_("too many messages: at most {rate} a second; extra ones are ignored",
                                      rate=formatted(FLOOD_RATE, "g"))))
            )
        return
    message = _parsed(frame, connection)
    if message is None:
        return
    ref = message.get("ref")
    kind = message["type"]
    if kind != "sync" and not _admitted(connection, socket_cost(kind), ref):
        return
    if kind == "ping":
        connection.send(dumps({"type": "pong", "ref": ref if isinstance(ref, int | str) else None}))
    elif kind == "hello":
        await _hello(message, connection, table, manager, rates)
    elif not connection.joined:
        connection.send(dumps(error_message(_('say hello first: {"type": "hello", "token": ...}'), ref)))
    elif kind == "sync":
        if connection.syncs.allow():
            manager.sync(connection, table)
        elif connection.syncs.should_warn():
            text = _("too many syncs: at most {rate} a second, bursts of {burst}; extra ones are ignored",
                     rate=formatted(SYNC_RATE, "g"), burst=formatted(SYNC_BURST, "g"))
            connection.send(dumps(error_message(text, ref)))
    elif kind == "standing_pass":
        await _standing_pass(message, connection, table, manager)
    elif kind in ("chat", "react"):
        await manager.chat.say(connection, table, message)
    else:
        await _act(message, connection, table, manager)


def _parsed(frame: Any, connection: Connection) -> dict[str, Any] | None:
    """The frame's message, or None after telling the client what was wrong with it (within the
    budget of such frames, cost class ``other``)."""
    text = frame.get("text")
    why: str | None = None
    message: Any = None
    if text is None:
        why = _("send JSON text frames, not binary ones")
    elif len(text) > MAX_MESSAGE:
        why = _("message too large: {count} characters, at most {most}", count=len(text), most=MAX_MESSAGE)
    else:
        try:
            message = parse_json(text)
        except BadJsonError as error:
            why = _('{error}; send an object such as {{"type": "ping"}}', error=error)
        else:
            if not isinstance(message, dict) or message.get("type") not in MESSAGE_TYPES:
                why = _("a message is an object whose 'type' is one of: {types}", types=", ".join(MESSAGE_TYPES))
    if why is None:
        return dict(message)
    if _admitted(connection, socket_cost(None), None):
        connection.send(dumps(error_message(why)))
    return None


def _admitted(connection: Connection, cost: SocketCost, ref: Any) -> bool:
    """Whether this socket's budget of ``cost``'s messages takes one more (else it is ignored,
    with a warning at most once a second)."""
    budget = connection.budget(cost)
    if budget.allow():
        return True
    if budget.should_warn():
        text = _(TOO_MANY, kind=cost.name, rate=formatted(cost.rate, "g"), burst=formatted(cost.burst, "g"))
        connection.send(dumps(error_message(text, ref)))
    return False


async def _hello(
    message: dict[str, Any], connection: Connection, table: LiveTable, manager: TableManager, rates: RateLimits
) -> None:
    if connection.joined:
        connection.send(dumps(error_message(_("already joined; open a new connection to change seat"))))
        return
    chosen = message.get("lang")
    language = known_language(chosen) if isinstance(chosen, str) and len(chosen) <= 35 else None
    if language is not None:  # the reader's own choice; an unknown one keeps the negotiated language
        set_language(language)  # this socket's task speaks it from now on
        connection.language = language
    token = message.get("token")
    seat: int | None = None
    if token is not None:
        if not isinstance(token, str) or len(token) > 128:
            connection.send(dumps(error_message(_("a seat token is the string from your invite link"))))
            return
        try:
            seat = table.seat_of_token(token)
        except SeatError as error:
            # The token held no seat here (re-issued, handed to a bot, or never this table's): the
            # page forgets it and watches instead (code "seat_gone"), rather than retrying for ever.
            refusal = error_message(str(error))
            refusal["code"] = "seat_gone"
            connection.send(dumps(refusal))
            return
        if not await rates.take_seat(table.id, seat):
            limit = rates.limits.sockets_per_seat
            text = _("this seat already has {limit} open connections, the most it takes", limit=limit)
            connection.send(dumps(error_message(text)))
            connection.close(flush=True)
            return
        connection.counted_seat = (table.id, seat)
    elif not await rates.watch_table(table.id):
        limit = rates.limits.sockets_per_table
        text = _("this table has {limit} spectators, the most it takes; try again later", limit=limit)
        connection.send(dumps(error_message(text)))
        connection.close(flush=True)
        return
    else:
        connection.counted_watch = table.id
    connection.seat = seat
    connection.joined = True
    connection.send(dumps({"type": "welcome", "seat": seat, "table": table.id}))
    connection.syncs.allow()  # the first full sync counts against the budget too
    manager.sync(connection, table)
    if seat is not None:
        manager.announce_presence(table)  # everyone learns that this seat is here now
    await manager.chat.welcome(connection, table)


async def _standing_pass(
    message: dict[str, Any], connection: Connection, table: LiveTable, manager: TableManager
) -> None:
    """A seat turns its standing pass on or off; its own connections alone hear of it."""
    ref = message.get("ref")
    on = message.get("on")
    if connection.seat is None:
        refusal = _("spectators have no standing pass; join with a seat's invite link")
        connection.send(dumps(error_message(refusal, ref)))
    elif not isinstance(on, bool):
        connection.send(dumps(error_message(_("a 'standing_pass' message needs 'on': true or false"), ref)))
    else:
        try:
            await manager.set_standing_pass(table, connection.seat, on)
        except GamebagError as error:
            connection.send(dumps(error_message(str(error), ref)))


async def _act(message: dict[str, Any], connection: Connection, table: LiveTable, manager: TableManager) -> None:
    ref = message.get("ref")
    if connection.seat is None:
        connection.send(dumps(error_message(_("spectators cannot act; join with your seat's invite link"), ref)))
        return
    if "action" not in message:
        connection.send(dumps(error_message(_("an 'act' message needs an 'action'"), ref)))
        return
    step = message.get("step")
    if step is not None and step != table.step:
        why = _("the table has moved on (step {step}, not {asked})", step=table.step, asked=step)
        _refuse_stale(connection, table, manager, why, ref)
        return
    if not manager.owns(table):
        task = asyncio.get_running_loop().create_task(
            _forward(connection, table, manager, message["action"], table.step if step is None else step, ref)
        )
        _forwarding.add(task)
        task.add_done_callback(_forwarding.discard)
        return
    try:
        submission = await manager.act(table, connection.seat, message["action"], step=step)
    except StaleStepError as error:
        _refuse_stale(connection, manager.tables.get(table.id) or table, manager, str(error), ref)
        return
    except GamebagError as error:
        connection.send(dumps(error_message(str(error), ref)))
        return
    except StorageUnavailable as error:  # told in the log once by the manager (faults.py)
        connection.send(dumps(error_message(str(error), ref)))
        return
    except Exception:
        log.exception("action at table %s seat %s failed", table.id, connection.seat)
        connection.send(dumps(error_message(_("the server could not apply this action; nothing changed"), ref)))
        return
    if submission.events:
        connection.limiter.refund()
        connection.budget(socket_cost("act")).refund()
    connection.send(dumps({"type": "ack", "ref": ref if isinstance(ref, int | str) else None, "step": submission.step}))


_forwarding: set[asyncio.Task[None]] = set()  # forwarded actions awaiting the owner's answer


async def _forward(
    connection: Connection, table: LiveTable, manager: TableManager, action: Any, step: int, ref: Any
) -> None:
    """An action at a table another process owns: the owner applies it; its answer goes to the client."""
    seat = connection.seat
    if seat is None:
        return
    try:
        answer = await manager.forward(table, seat, action, step)
    except GamebagError as error:
        answer = {"k": "error", "m": str(error)}
    except Exception:
        log.exception("forwarding an action at table %s failed", table.id)
        answer = {"k": "error", "m": _("the server could not pass this action on; nothing changed")}
    reference = ref if isinstance(ref, int | str) else None
    if answer.get("k") == "ack":
        if answer.get("e"):
            connection.limiter.refund()
            connection.budget(socket_cost("act")).refund()
        connection.send(dumps({"type": "ack", "ref": reference, "step": answer.get("s")}))
        return
    current = manager.tables.get(table.id) or manager.replicas.get(table.id) or table
    why = str(answer.get("m") or _("the action was refused"))
    _refuse_stale(connection, current, manager, why, ref, code=str(answer.get("c", "refused")))


def _refuse_stale(
    connection: Connection, table: LiveTable, manager: TableManager, why: str, ref: Any, code: str = "stale"
) -> None:
    """Refuse an action chosen at an old step (``code`` "stale") or not applied by the table's
    owner ("refused") in a few bytes: the code and the table's step. The state follows only
    within the seat's budget of them (a refusal must not cost the server tens of KB per few
    bytes received); past it the refusal says when one comes again (``retry_after``, seconds).
    An honest client has the state already: every change reaches it."""
    seat = connection.seat
    wait = 0 if seat is None else manager.hub.seat_sync_wait(table.id, seat)
    said = "choose again" in why or _("choose again") in why
    refusal = error_message(why if said else _("{why}; choose again", why=why), ref)
    refusal.update(code=code, step=table.step)
    if wait:
        refusal["retry_after"] = wait
    connection.send(dumps(refusal))
    if not wait:
        manager.sync(connection, table, history=False)
