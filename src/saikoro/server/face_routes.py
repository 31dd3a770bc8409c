"""Characters' faces over the table API: upload, remove and serve a character's icon.

- ``PUT /api/rooms/{room}/characters/{name}/icon`` — the body is the image's bytes (PNG,
  JPEG, WebP or GIF, at most 2 MB): the character's player or the GM. Decoded and
  re-encoded (:mod:`saikoro.server.table.faces`), stored beside the room's log, and an
  ``icon_set`` event tells every page (its ``change`` carries the character's new row).
- ``DELETE`` the same address: the face is taken off (the same callers).
- ``GET`` the same address (anyone with a link of the room): the image with its content
  type, ``X-Content-Type-Options: nosniff`` and its digest as ``ETag``; ``?v=DIGEST`` (the
  address ``/state`` gives as the character's ``icon``) serves that image of the room and
  may be cached for good.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.server.table.errors import TableApiError
from saikoro.server.table.service import Caller, TableService
from saikoro.server.table_api import REFUSALS, TABLE_API_PREFIX, caller_for_request, table_service
from saikoro.store.images import StoredImage
from saikoro.table.actors import Actor
from saikoro.table.faces import NO_SUCH_CHARACTER

router = APIRouter(prefix=TABLE_API_PREFIX, tags=["table"])

#: Headers of every image served: its bytes are never taken for anything else.
IMAGE_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'",
    "Content-Disposition": "inline",
}


def _refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: REFUSALS[status] for status in statuses}


def _no_character(error: SaikoroError) -> SaikoroError:
    if error.reason == NO_SUCH_CHARACTER:
        return TableApiError(404, NO_SUCH_CHARACTER, error.message)
    return error


async def _set(
    service: TableService, caller: Caller, name: str, image: StoredImage | None
) -> dict[str, Any]:
    try:
        url = await asyncio.to_thread(service.set_face, caller.room, caller.actor, name, image)
    except SaikoroError as error:
        raise _no_character(error) from None
    await service.publish_latest(caller.room.name)
    return {"ok": True, "icon": url}


@router.put(
    "/{room:path}/characters/{name}/icon",
    responses=_refusals(401, 403, 404, 422)
    | {413: {"description": "the image is larger than 2 MB", "model": None}},
    summary="Set a character's face (icon): the body is a PNG, JPEG, WebP or GIF image",
)
async def put_icon(room: str, name: str, request: Request) -> dict[str, Any]:
    from saikoro.server.table.faces import MAX_FACE_BYTES, normalise_face, too_large

    service = table_service(request)
    caller = await caller_for_request(request, room)
    try:  # who may, before the image is even read
        await asyncio.to_thread(service.check_face, caller.room, caller.actor, name)
    except SaikoroError as error:
        raise _no_character(error) from None
    await asyncio.to_thread(service.check_quota, caller.room)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_FACE_BYTES:
            raise too_large(len(raw))
    image = await asyncio.to_thread(normalise_face, bytes(raw))
    return await _set(service, caller, name, image)


@router.delete(
    "/{room:path}/characters/{name}/icon",
    responses=_refusals(401, 403, 404),
    summary="Take a character's face (icon) off",
)
async def delete_icon(room: str, name: str, request: Request) -> dict[str, Any]:
    service = table_service(request)
    caller = await caller_for_request(request, room)
    return await _set(service, caller, name, None)


@router.get(
    "/{room:path}/characters/{name}/icon",
    responses=_refusals(401, 404)
    | {200: {"content": {"image/png": {}, "image/jpeg": {}}, "description": "the image"}},
    response_class=Response,
    summary="A character's face (icon); ?v=DIGEST: that image of the room (cacheable)",
)
async def get_icon(room: str, name: str, request: Request, v: str | None = None) -> Response:
    service = table_service(request)
    caller = await caller_for_request(request, room)
    try:
        image = await asyncio.to_thread(service.face, caller.room, name, v)
    except SaikoroError as error:
        raise _no_character(error) from None
    if image is None:
        raise TableApiError(
            404,
            "no icon",
            Message(f"{name} にはアイコンがありません", f"{name} has no icon"),
        )
    etag = f'"{image.digest}"'
    cache = "private, max-age=31536000, immutable" if v else "private, no-cache"
    headers = {**IMAGE_HEADERS, "ETag": etag, "Cache-Control": cache}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(image.data, media_type=image.content_type, headers=headers)


@router.get(
    "/{room:path}/characters/{name}/udonarium.zip",
    responses=_refusals(401, 403, 404),
    response_class=Response,
    summary="The character as an Udonarium zip, its face inside (GM or its player)",
)
async def get_udonarium_zip(room: str, name: str, request: Request) -> Response:
    from urllib.parse import quote

    service = table_service(request)
    caller = await caller_for_request(request, room)
    try:
        found, data = await asyncio.to_thread(_udonarium_zip, service, caller, name)
    except SaikoroError as error:
        raise _no_character(error) from None
    filename = quote(f"{found}.zip")
    return Response(
        data,
        media_type="application/zip",
        headers={
            "Content-Disposition": f"attachment; filename*=UTF-8''{filename}",
            "X-Content-Type-Options": "nosniff",
        },
    )


def _udonarium_zip(service: TableService, caller: Caller, name: str) -> tuple[str, bytes]:
    """The character's sheet as the room holds it, with its face (Udonarium's zip)."""
    from saikoro.sheets import sheet_from_data
    from saikoro.table.faces import face_owner
    from saikoro.table.roles import forbidden
    from saikoro.transfer import export_udonarium

    state = service.state(caller.room)
    found = face_owner(state, Actor.gm(), name)  # no such character: refused
    if not caller.actor.owns(found):
        raise forbidden(
            f"{found} を書き出せるのは {found} のプレイヤーと GM だけです",
            f"only {found}'s player and the GM export {found}",
        )
    character = state.characters[found]
    sheet = sheet_from_data(character.sheet, caller.room.system)
    image = service.store.images.get(caller.room, character.icon) if character.icon else None
    if image is None:
        return found, export_udonarium(sheet)
    return found, export_udonarium(sheet, image.data, image.content_type)


__all__ = ["router"]
