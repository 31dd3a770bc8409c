"""The shared table's JSON + WebSocket API (``/api/rooms…``); docs/table-api.md describes it.

Every call carries a link's token: ``Authorization: Bearer TOKEN`` (the WebSocket takes
``?token=``). The token decides the caller's actor (GM, player of a character, spectator);
the table core decides what that actor may do and see — the routes only carry requests
to it and answers back. Refusals are ``{"ok": false, "reason", "message"}`` with the
status of :mod:`saikoro.server.table.errors`.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, Query, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect

from saikoro.dice.normalize import MAX_INPUT_LENGTH
from saikoro.errors import SaikoroError
from saikoro.i18n import Message, lang_code
from saikoro.server.table.errors import (
    TableApiError,
    no_database,
    public_error,
    rate_limited,
    refusal_body,
    status_for,
    too_many_connections,
    unauthorized,
)
from saikoro.server.table.feed import Numbered
from saikoro.server.table.limits import TableLimits
from saikoro.server.table.pages import page_before
from saikoro.server.table.service import Caller, TableService, view_numbered
from saikoro.table.actors import Actor

TABLE_API_PREFIX = "/api/rooms"
router = APIRouter(prefix=TABLE_API_PREFIX, tags=["table"])

#: WebSocket close codes (4000 + the HTTP status they stand for).
WS_UNAUTHORIZED = 4401
WS_NO_ROOM = 4404
WS_TOO_MANY = 4429
WS_IDLE = 4408
WS_UNAVAILABLE = 4503

REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"description": text, "model": None}
    for status, text in {
        401: "missing, unknown or revoked token",
        403: "the caller's role may not do this",
        404: "no such room",
        409: "conflict (the room exists / is busy)",
        422: "bad input (line, sheet, body)",
        429: "rate limit or connection cap",
        503: "storage unavailable (full disk, read-only or unreachable database): Retry-After",
    }.items()
}


# -- request and response bodies (the OpenAPI schema) ---------------------------------------


class CreateRoom(BaseModel):
    name: str = Field(
        max_length=200,
        description="room name (unique; surrounding blanks dropped; no control characters)",
    )
    system: str = Field(min_length=1, max_length=64, description="game system ID (BCDice ID)")


class CreatedRoomBody(BaseModel):
    room: str
    gm_url: str
    gm_token: str
    invite_url: str
    invite_token: str
    spectator_url: str


class AddCharacter(BaseModel):
    character: str | None = Field(None, description="as join's character (text)")
    character_base64: str | None = Field(
        None, description="an Udonarium zip/xml (or any character file) as base64"
    )
    side: Literal["pc", "npc"] | None = None
    names: list[str] | None = Field(
        None, description="the characters to bring in from a file of several (Udonarium room)"
    )
    all_npcs: bool = Field(False, description="bring every character of the file in as an NPC")
    fields: dict[str, Any] | None = Field(
        None,
        description="a quick character from the sheet form's fields (GET /api/systems/{id}/"
        "sheet-form): its name is the base of the names made (ゴブリン → ゴブリンA, …)",
    )
    copy_of: str | None = Field(None, description="copy this character of the room instead")
    count: int = Field(1, description="how many (1 to 26) to make from fields or copy_of")


class EditCharacter(BaseModel):
    name: str = Field(max_length=200, description="the character to edit")
    fields: dict[str, Any] = Field(
        description="dotted sheet paths → new values (abilities.体力, notes.メモ, hp, …); "
        "palette: the character's own chat palette lines"
    )


class JoinRoom(BaseModel):
    invite: str | None = Field(None, description="the invite token (or send it as Bearer)")
    character: str | None = Field(
        None,
        description="a saikoro sheet (JSON/YAML text), CCFOLIA clipboard JSON, "
        "or the name of a character already in the room",
    )
    character_base64: str | None = Field(
        None, description="an Udonarium zip/xml (or any character file) as base64"
    )
    name: str | None = Field(
        None, description="the character to join with, from a file of several (Udonarium room)"
    )


class Joined(BaseModel):
    token: str
    url: str
    as_: str = Field(alias="as")


class PostLine(BaseModel):
    line: str = Field(description="one chat line, as typed in saikoro play")
    tab: str | None = Field(
        None,
        max_length=100,
        description="the chat tab it is typed in: main (default), other, info or a GM's tab",
    )


class EventBody(BaseModel, extra="allow"):
    seq: int
    kind: str


class LineOutcome(BaseModel):
    ok: bool
    text: str
    events: list[EventBody]


class EventsBody(BaseModel):
    events: list[EventBody]
    last_seq: int


class LinkBody(BaseModel):
    id: str
    role: str
    character: str | None
    created_at: str
    revoked: bool


class NewLink(BaseModel):
    role: Literal["player", "spectator", "gm"] = "player"


# -- plumbing -------------------------------------------------------------------------


def table_service(request: Request | WebSocket) -> TableService:
    service: TableService | None = getattr(request.app.state, "table", None)
    if service is None:
        raise no_database()
    return service


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def caller_for_request(request: Request, room: str) -> Caller:
    """The caller of ``room`` by the request's Bearer token (401/404 refusals)."""
    return await table_service(request).caller_async(room, bearer_token(request))


async def actor_for_request(request: Request, room: str) -> Actor:
    return (await caller_for_request(request, room)).actor


def base_url(request: Request | WebSocket) -> str:
    """The origin links are built with: ``saikoro serve --public-url`` when given, else the
    request's (scheme and host as a trusted proxy forwarded them; see server/proxy.py)."""
    public: str | None = getattr(request.app.state, "public_url", None)
    return public or str(request.base_url).rstrip("/")


def numbered_json(numbered: list[Numbered]) -> list[dict[str, Any]]:
    return [{"seq": seq, **event.to_json()} for seq, event in numbered]


def refusal_response(error: SaikoroError) -> JSONResponse:
    error = public_error(error)
    headers = {}
    if isinstance(error, TableApiError) and error.retry_after:
        headers["Retry-After"] = str(error.retry_after)
    return JSONResponse(refusal_body(error), status_code=status_for(error), headers=headers)


def check_line(service: TableService, caller: Caller, line: str) -> None:
    """Refusals the transport makes before the core sees the line (the core decides what
    each role may do: a spectator only reads, e.g. ``/state``)."""
    if len(line) > MAX_INPUT_LENGTH:
        from saikoro.dice.normalize import InputTooLongError

        raise InputTooLongError(len(line))
    if not service.line_buckets.allow(caller.link.id):
        raise rate_limited(service.line_buckets.retry_after(caller.link.id))


async def run_line(
    service: TableService, caller: Caller, line: str, lang: str, tab: str | None = None
) -> dict[str, Any]:
    """A line's outcome as the caller sees it: ``{"ok", "text", "events"}``."""
    result = await service.run_line_async(caller, line, tab)
    outcome = result.outcome
    numbered = [(result.first_seq + i, e) for i, e in enumerate(outcome.events)]
    shown = view_numbered(numbered, caller.actor, set())
    # The caller made this line: its secret lines are theirs to see.
    return {
        "ok": True,
        "text": outcome.caller_text(lang),
        "events": numbered_json(shown),
    }


def character_content(text: str | None, encoded: str | None) -> str | bytes:
    """A character as sent: text, or a file's bytes in base64 (an Udonarium zip)."""
    if encoded is not None:
        try:
            return base64.b64decode(encoded, validate=True)
        except ValueError:
            raise TableApiError(
                422,
                "bad request",
                Message(
                    "character_base64 が base64 ではありません", "character_base64 is not base64"
                ),
            ) from None
    if text is None:
        raise TableApiError(
            422,
            "bad request",
            Message(
                "character か character_base64 が必要です", "send character or character_base64"
            ),
        )
    return text


def _lang(lang: str | None) -> str:
    return lang_code(lang or "ja")


# -- routes -----------------------------------------------------------------------------


@router.post(
    "",
    status_code=201,
    response_model=CreatedRoomBody,
    responses={409: REFUSALS[409], 422: REFUSALS[422], 429: REFUSALS[429]},
    summary="Create a room: returns the GM, invite and spectator links",
)
async def create_room(body: CreateRoom, request: Request) -> dict[str, Any]:
    from saikoro.table.rooms import create_room as create

    service = table_service(request)
    client = request.client.host if request.client else "?"
    service.check_new_room(client)
    if not service.room_buckets.allow(client):
        raise rate_limited(service.room_buckets.retry_after(client))
    created = await asyncio.to_thread(create, service.store, body.name, body.system)
    service.room_made(client)
    return {
        "room": created.room,
        "gm_token": created.gm_token,
        "invite_token": created.invite_token,
        **created.urls(base_url(request)),
    }


@router.post(
    "/{room:path}/join",
    response_model=Joined,
    responses={s: REFUSALS[s] for s in (401, 403, 404, 409, 422)},
    summary="Join with the invite token and a character: returns a personal link",
)
async def join_room(room: str, body: JoinRoom, request: Request) -> dict[str, Any]:
    from saikoro.table.rooms import room_url

    service = table_service(request)
    invite = body.invite or bearer_token(request)
    if not invite:
        raise unauthorized()
    record = await asyncio.to_thread(service.room, room)  # 404 before anything else
    content = character_content(body.character, body.character_base64)
    _link, token, as_name = await asyncio.to_thread(
        service.join, record, invite, content, body.name
    )
    # an Udonarium zip's image becomes the character's face
    await asyncio.to_thread(
        service.faces_from_file, record, Actor.player(as_name), content, [as_name]
    )
    await service.publish_latest(room)  # the new character reaches the table live
    return {"token": token, "url": room_url(base_url(request), room, token), "as": as_name}


@router.post(
    "/{room:path}/characters",
    status_code=201,
    responses={s: REFUSALS[s] for s in (401, 403, 404, 409, 422)},
    summary="The GM brings in a character (an NPC, or a PC for a player)",
)
async def add_character(room: str, body: AddCharacter, request: Request) -> dict[str, Any]:
    from saikoro.table.rooms import add_character as add

    service = table_service(request)
    caller = await caller_for_request(request, room)
    if body.fields is not None or body.copy_of is not None:
        return await _add_quick(service, caller, room, body)
    content = character_content(body.character, body.character_base64)
    await asyncio.to_thread(service.check_quota, caller.room)
    added = await asyncio.to_thread(
        add,
        service.store,
        room,
        caller.link,
        content,
        body.side,
        names=body.names,
        all_npcs=body.all_npcs,
    )
    service.forget_usage(caller.room)
    # an Udonarium zip's images become the characters' faces
    await asyncio.to_thread(service.faces_from_file, caller.room, caller.actor, content, added)
    await service.publish_latest(room)
    return {"ok": True, "as": added[0], "added": added}


async def _add_quick(
    service: TableService, caller: Caller, room: str, body: AddCharacter
) -> dict[str, Any]:
    from saikoro.table.rooms import add_quick

    await asyncio.to_thread(service.check_quota, caller.room)
    added = await asyncio.to_thread(
        add_quick,
        service.store,
        room,
        caller.link,
        fields=body.fields,
        copy_of=body.copy_of,
        count=body.count,
        side=body.side,
    )
    service.forget_usage(caller.room)
    await service.publish_latest(room)
    return {"ok": True, "as": added[0], "added": added}


@router.patch(
    "/{room:path}/characters",
    responses={s: REFUSALS[s] for s in (401, 403, 404, 422)},
    summary="Edit a character's fields (the GM: any; a player: their own memo and palette)",
)
async def edit_character(room: str, body: EditCharacter, request: Request) -> dict[str, Any]:
    from saikoro.table.rooms import edit_character as edit

    service = table_service(request)
    caller = await caller_for_request(request, room)
    await asyncio.to_thread(service.check_quota, caller.room)
    kinds = await asyncio.to_thread(edit, service.store, room, caller.link, body.name, body.fields)
    service.forget_usage(caller.room)
    if kinds:
        await service.publish_latest(room)
    return {"ok": True, "changed": bool(kinds)}


@router.get(
    "/{room:path}/sheet",
    responses={s: REFUSALS[s] for s in (401, 403, 404, 422)},
    summary="A character's sheet, to edit it (the GM, or the character's player)",
)
async def get_sheet(room: str, name: str, request: Request) -> dict[str, Any]:
    from saikoro.table.rooms import character_sheet

    service = table_service(request)
    caller = await caller_for_request(request, room)
    sheet = await asyncio.to_thread(character_sheet, service.store, room, caller.link, name)
    return {"name": sheet["name"], "sheet": sheet}


@router.post(
    "/{room:path}/lines",
    response_model=LineOutcome,
    responses={s: REFUSALS[s] for s in (401, 403, 404, 409, 422, 429)},
    summary="Say one chat line (as saikoro play takes it)",
)
async def post_line(
    room: str, body: PostLine, request: Request, lang: str | None = None
) -> dict[str, Any]:
    service = table_service(request)
    caller = await caller_for_request(request, room)
    check_line(service, caller, body.line)
    return await run_line(service, caller, body.line, _lang(lang), body.tab)


@router.get(
    "/{room:path}/state",
    responses={s: REFUSALS[s] for s in (401, 404)},
    summary="The room's state as the caller may see it",
)
async def get_state(room: str, request: Request) -> dict[str, Any]:
    service = table_service(request)
    caller = await caller_for_request(request, room)
    body = await asyncio.to_thread(service.view, caller.room, caller.actor)
    body["you"] = {
        "role": caller.actor.role,
        "characters": sorted(caller.actor.characters),
        "label": caller.actor.label,
    }
    if caller.actor.is_gm:  # the room's limits and what it uses of them
        body["limits"] = await asyncio.to_thread(service.limits_view, caller.room)
    return body


@router.get(
    "/{room:path}/limits",
    responses={s: REFUSALS[s] for s in (401, 403, 404)},
    summary="The room's limits and what it uses of them (the GM's only)",
)
async def get_limits(room: str, request: Request) -> dict[str, Any]:
    """The ``limits`` of the GM's ``/state`` alone: what the GM's page reads after events
    (a join, new lines) without reading the whole state."""
    service = table_service(request)
    caller = await caller_for_request(request, room)
    if not caller.actor.is_gm:
        raise TableApiError(
            403,
            "forbidden",
            Message(
                "部屋の上限と使用量は GM だけが見られます", "only the GM sees the room's limits"
            ),
        )
    return await asyncio.to_thread(service.limits_view, caller.room)


#: The most events one ``/events?before=`` page holds (and its default).
EVENTS_PAGE_MAX = 1000
EVENTS_PAGE = 200
#: The largest seq a room can reach (the store's 32-bit integer column).
SEQ_MAX = 2**31 - 1


@router.get(
    "/{room:path}/events",
    response_model=EventsBody,
    responses={s: REFUSALS[s] for s in (401, 404, 422)},
    summary="The caller's view of the log: after seq AFTER (with each event's state "
    "change), or the LIMIT events before seq BEFORE (paging back)",
)
async def get_events(
    room: str,
    request: Request,
    after: int = Query(0, ge=0, le=SEQ_MAX),
    before: int | None = Query(None, ge=1, le=SEQ_MAX),
    limit: int | None = Query(None, ge=1, le=SEQ_MAX),
) -> Response:
    service = table_service(request)
    caller = await caller_for_request(request, room)
    if before is not None:
        size = min(limit or EVENTS_PAGE, EVENTS_PAGE_MAX)
        text = await asyncio.to_thread(page_before, service, caller, before, size)
        return Response(text, media_type="application/json")
    items, last = await asyncio.to_thread(_changed_and_last, service, caller, after, limit)
    return JSONResponse({"events": items, "last_seq": last})


def _changed_and_last(
    service: TableService, caller: Caller, after: int, limit: int | None
) -> tuple[list[dict[str, Any]], int]:
    version = service.store.version(caller.room)
    return service.changed_events(caller.room, caller.actor, after, limit), version


@router.get(
    "/{room:path}/log.html",
    response_class=HTMLResponse,
    responses={s: REFUSALS[s] for s in (401, 404)},
    summary="The session log as one self-contained HTML file (secrets only if revealed)",
)
async def get_log_html(
    room: str,
    request: Request,
    lang: str | None = None,
    tab: str | None = Query(None, max_length=100, description="only this chat tab"),
    whispers: bool = Query(False, description="with the whispers (the GM's download only)"),
) -> Response:
    from saikoro.server.log_html import Faces, iter_log_html
    from saikoro.server.table.faces import log_face

    service = table_service(request)
    caller = await caller_for_request(request, room)
    if whispers and not caller.actor.is_gm:
        raise TableApiError(
            403,
            "forbidden",
            Message(
                "秘話入りのログは GM だけがダウンロードできます",
                "only the GM downloads the log with its whispers",
            ),
        )
    # The published log: what everyone at the table may see (secrets only once revealed,
    # whispers never — but in the GM's own download), read from the store in batches and
    # sent as it is rendered (bounded memory).
    revealed = await asyncio.to_thread(service.revealed, caller.room)
    numbered = service.published_events(caller.room, revealed, whispers=whispers)
    faces = Faces(lambda digest: log_face(service.store, caller.room, digest))
    numbered = faces.follow(numbered)  # every face change, also of a tab not downloaded
    if tab:
        numbered = ((seq, e) for seq, e in numbered if e.shown_tab == tab)
    chunks = iter_log_html(caller.room.name, caller.room.system, numbered, _lang(lang), faces)
    filename = quote(f"{caller.room.name}.html")
    return StreamingResponse(
        (chunk.encode("utf-8") for chunk in chunks),
        media_type="text/html; charset=utf-8",
        headers={
            "Content-Disposition": f"inline; filename*=UTF-8''{filename}",
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        },
    )


@router.get(
    "/{room:path}/links",
    responses={s: REFUSALS[s] for s in (401, 403, 404)},
    summary="The room's links (GM only; never their tokens)",
)
async def list_links(room: str, request: Request) -> dict[str, Any]:
    from saikoro.table.rooms import list_links as links_of

    service = table_service(request)
    caller = await caller_for_request(request, room)
    links = await asyncio.to_thread(links_of, service.store, room, caller.link)
    return {"links": [link.to_json() for link in links]}


@router.post(
    "/{room:path}/links",
    status_code=201,
    responses={s: REFUSALS[s] for s in (401, 403, 404, 422)},
    summary="Issue a new link (GM only): player = a new invite link",
)
async def new_link(room: str, body: NewLink, request: Request) -> dict[str, Any]:
    from saikoro.table.rooms import issue, room_url

    service = table_service(request)
    caller = await caller_for_request(request, room)
    role = "invite" if body.role == "player" else body.role
    link, token = await asyncio.to_thread(issue, service.store, room, role, None, caller.link)
    url = room_url(base_url(request), room, token, invite=role == "invite")
    return {"link": link.to_json(), "token": token, "url": url}


@router.post(
    "/{room:path}/links/{link_id}/revoke",
    responses={s: REFUSALS[s] for s in (401, 403, 404)},
    summary="Revoke a link (GM only): its token is refused from now on",
)
async def revoke_link(room: str, link_id: str, request: Request) -> dict[str, Any]:
    from saikoro.table.rooms import revoke

    service = table_service(request)
    caller = await caller_for_request(request, room)
    await asyncio.to_thread(revoke, service.store, room, link_id, by=caller.link)
    await service.revoked(room)  # no process goes on trusting the token it resolved
    for end in list(service.socket_enders.get(link_id, ())):  # its open sockets end now
        await end()
    return {"ok": True}


# -- the WebSocket ----------------------------------------------------------------------


@router.websocket("/{room:path}/ws")
async def room_socket(
    websocket: WebSocket, room: str, token: str | None = None, after: int | None = None
) -> None:
    """Pushes ``{"type": "event", "seq", …}`` in order; takes ``{"type": "line", "line"}``."""
    await websocket.accept()
    try:
        service = table_service(websocket)
        caller = await service.caller_async(room, token)
    except SaikoroError as error:
        shown = public_error(error)
        codes = {401: WS_UNAUTHORIZED, 404: WS_NO_ROOM, 503: WS_UNAVAILABLE}
        await _refuse(websocket, shown, codes.get(status_for(shown), 1011))
        return
    full = service.caps.acquire(caller.room.name, caller.link.id)
    if full is not None:
        await _refuse(websocket, too_many_connections(full), WS_TOO_MANY)
        return

    async def end_as_revoked() -> None:
        await _refuse(websocket, unauthorized(), WS_UNAUTHORIZED)

    enders = service.socket_enders.setdefault(caller.link.id, set())
    enders.add(end_as_revoked)
    try:
        await _RoomSocket(service, websocket, caller, token or "", after).serve()
    except SaikoroError as error:  # the storage failed while the socket opened
        await _refuse(websocket, error, WS_UNAVAILABLE)
    finally:
        enders.discard(end_as_revoked)
        if not enders:
            service.socket_enders.pop(caller.link.id, None)
        service.caps.release(caller.room.name, caller.link.id)


async def _refuse(websocket: WebSocket, error: SaikoroError, code: int) -> None:
    error = public_error(error)
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", **refusal_body(error)})
        await websocket.close(code)


class _RoomSocket:
    """One open WebSocket: a sender of events, a reader of lines, a heartbeat."""

    def __init__(
        self,
        service: TableService,
        websocket: WebSocket,
        caller: Caller,
        token: str,
        after: int | None,
    ) -> None:
        self.service = service
        self.websocket = websocket
        self.caller = caller
        self.token = token
        self.after = after
        self.send_lock = asyncio.Lock()
        self.last_heard = asyncio.get_running_loop().time()
        self.lang = _lang(websocket.query_params.get("lang"))

    async def send(self, body: dict[str, Any] | str) -> None:
        text = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
        async with self.send_lock:
            await self.websocket.send_text(text)

    async def serve(self) -> None:
        room = self.caller.room
        if self.after is None:  # only what comes next
            self.after = await asyncio.to_thread(self.service.store.version, room)
        revealed = await asyncio.to_thread(self.service.revealed, room)
        subscription = await self.service.hub.subscribe(room, self.after)
        # Accepted and counted: the events after ``after`` follow.
        await self.send({"type": "ready", "after": self.after, "you": self.caller.actor.to_json()})
        tasks = [
            asyncio.create_task(self._push(subscription, revealed)),
            asyncio.create_task(self._read()),
            asyncio.create_task(self._heartbeat()),
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            subscription.close()
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            with contextlib.suppress(Exception):
                await self.websocket.close()

    async def _push(self, subscription: Any, revealed: set[str]) -> None:
        from saikoro.table.view import may_see, revealed_ids, view_event

        room, hub, actor = self.caller.room.name, self.service.hub, self.caller.actor
        while True:
            batch = await subscription.next_batch()
            revealed |= revealed_ids(event for _seq, event in batch)
            for seq, event in batch:
                shown = view_event(event, actor, revealed)
                if shown is None:  # a whisper to someone else: nothing of it
                    continue
                hidden = not may_see(event, actor, revealed)
                text = hub.encoded(
                    room, seq, shown, redacted=shown is not event, hidden=hidden, actor=actor
                )
                await self.send(text)

    async def _read(self) -> None:
        while True:
            try:
                raw = await self.websocket.receive_text()
            except (WebSocketDisconnect, RuntimeError, KeyError):
                return
            self.last_heard = asyncio.get_running_loop().time()
            try:
                message = json.loads(raw)
            except ValueError:
                message = None
            if not isinstance(message, dict):
                await self.send(_bad_message())
                continue
            kind = message.get("type")
            if kind == "pong" or kind == "ping":
                if kind == "ping":
                    await self.send({"type": "pong"})
                continue
            if kind != "line" or not isinstance(message.get("line"), str):
                await self.send(_bad_message())
                continue
            tab = message.get("tab")
            if tab is not None and not isinstance(tab, str):
                await self.send(_bad_message())
                continue
            await self.send(await self._line(message["line"], message.get("id"), tab))

    async def _line(self, line: str, request_id: Any, tab: str | None = None) -> dict[str, Any]:
        echo = {"id": request_id} if isinstance(request_id, (str, int)) else {}
        try:
            caller = await self.service.caller_async(self.caller.room.name, self.token)
            check_line(self.service, caller, line)
            outcome = await run_line(self.service, caller, line, self.lang, tab)
        except SaikoroError as error:
            shown = public_error(error)
            return {"type": "outcome", **echo, "status": status_for(shown), **refusal_body(shown)}
        return {"type": "outcome", **echo, **outcome}

    async def _heartbeat(self) -> None:
        limits: TableLimits = self.service.limits
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(limits.ping_interval)
            if loop.time() - self.last_heard > limits.idle_timeout:
                with contextlib.suppress(Exception):
                    await self.send(
                        {
                            "type": "error",
                            "ok": False,
                            "reason": "idle",
                            "message": Message(
                                "応答がないため切断しました (after= で再接続できます)",
                                "closed after no messages (reconnect with after=)",
                            ).both(),
                        }
                    )
                    await self.websocket.close(WS_IDLE)
                return
            try:  # a link revoked meanwhile ends the socket
                await self.service.caller_async(self.caller.room.name, self.token)
            except TableApiError as error:
                await _refuse(self.websocket, error, WS_UNAUTHORIZED)
                return
            except SaikoroError as error:  # the storage is down: the socket stays open
                public_error(error)
            await self.send({"type": "ping"})


def _bad_message() -> dict[str, Any]:
    return {
        "type": "outcome",
        "ok": False,
        "status": 422,
        "reason": "bad message",
        "message": Message(
            '{"type": "line", "line": "…"} の形で送ってください',
            'send {"type": "line", "line": "…"}',
        ).both(),
    }


# -- the app's side: start/stop, the fallback page ---------------------------------------


def install(app: FastAPI, db_url: str | None, limits: TableLimits | None = None) -> None:
    """Add the table API to ``app`` (its service starts with the app's lifespan)."""
    app.state.table = None
    app.state.table_store = None
    app.state.table_db_url = db_url
    app.state.table_limits = limits
    # Without a database the table routes only answer 503: not part of that server's API.
    app.include_router(router, include_in_schema=db_url is not None)


@asynccontextmanager
async def table_lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the store and start publishing while the app runs."""
    db_url = getattr(app.state, "table_db_url", None)
    service = None
    if db_url:
        from saikoro.transfer import register_with_table

        register_with_table()  # characters sent as CCFOLIA JSON / Udonarium zip or XML
        service = TableService(
            db_url,
            limits=app.state.table_limits,
            source_factory=getattr(app.state, "source_factory", None),
        )
        await service.start()
        app.state.table, app.state.table_store = service, service.store
    try:
        async with contextlib.AsyncExitStack() as companions:
            # what runs on the table's service beside the API (saikoro serve --discord's bot)
            for companion in getattr(app.state, "table_companions", ()) if service else ():
                await companions.enter_async_context(companion(service))
            yield
    finally:
        if service is not None:
            app.state.table = app.state.table_store = None
            await service.stop()


fallback_router = APIRouter()

FALLBACK_PAGE = """<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>saikoro</title>
<style>body{font-family:sans-serif;max-width:40em;margin:2em auto;line-height:1.6}</style>
</head><body><h1>saikoro</h1>
<p>Hello. This is BCDice-API (saikoro).</p>
<p>BCDice-API: <a href="/v2/version">/v2/version</a> ·
卓 API / table API: <code>/api/rooms</code> · OpenAPI: <a href="/docs">/docs</a></p>
</body></html>
"""


@fallback_router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def fallback_index() -> HTMLResponse:
    """The server's front page when the web table's page is not installed (a 200 for health
    checks, as BCDice-API's ``GET /``)."""
    return HTMLResponse(FALLBACK_PAGE)
