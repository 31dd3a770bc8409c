"""The web table's page: ``GET /`` and its static files, shipped as package data in ``saikoro/web/``.

The page is plain HTML/CSS/JS (ES modules) read from the installed package, so
``pip install .`` is all it needs; a Content-Security-Policy keeps every request the page
makes on its own server (no CDN, no fonts or images from elsewhere).
"""

from __future__ import annotations

import json
from contextlib import suppress
from functools import cache
from importlib import import_module
from importlib.resources import files
from typing import Any

from fastapi import APIRouter, HTTPException, Response
from fastapi.responses import JSONResponse

from saikoro.errors import SaikoroError

router = APIRouter(include_in_schema=False)

#: The page may load and connect to its own origin only (faces: object URLs of what it fetched).
CSP = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
    "script-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
HEADERS = {
    "Content-Security-Policy": CSP,
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@cache
def _asset(name: str) -> tuple[bytes, str] | None:
    """A file of the page by its plain name (no paths), with its media type."""
    suffix = name[name.rfind(".") :] if "." in name else ""
    if "/" in name or "\\" in name or name.startswith(".") or suffix not in MEDIA_TYPES:
        return None
    resource = files("saikoro") / "web" / name
    if not resource.is_file():
        return None
    return resource.read_bytes(), MEDIA_TYPES[suffix]


def _serve(name: str) -> Response:
    found = _asset(name)
    if found is None:
        raise HTTPException(status_code=404)
    body, media_type = found
    return Response(body, media_type=media_type, headers=HEADERS)


@router.get("/")
def page() -> Response:
    """The web table (create a room, or the room a link's fragment names)."""
    return _serve("index.html")


@router.get("/static/{name}")
def static(name: str) -> Response:
    return _serve(name)


@cache
def webtable_data(system: str) -> dict[str, Any]:
    """What the page shows for a game system (card values, conditions, combat actions,
    palette commands without a chance): the ``webtable.json`` of the system's own folder,
    ``{}`` for a system without one. KeyError for an unknown system."""
    from saikoro.systems import manifest

    package = manifest(system).package
    try:
        found = files(package) / "webtable.json"
    except TypeError:  # a system that is one module, not a folder (DiceBot)
        return {}
    data: dict[str, Any] = json.loads(found.read_text("utf-8")) if found.is_file() else {}
    if "terms_en" not in data:  # the English names the system's texts already use
        with suppress(ImportError, AttributeError):
            data["terms_en"] = dict(import_module(f"{package}.english").TERMS_EN)
    return data


@cache
def sheet_form(system: str) -> dict[str, Any]:
    """The system's sheet as a form (:func:`saikoro.sheet_form.form_fields`), each field
    labelled as its Udonarium / CCFOLIA piece names it (the system's transfer profile)."""
    from saikoro.server.sheet_form import form_fields
    from saikoro.sheets import SheetError, sheet_class
    from saikoro.transfer.profiles import profile_for

    try:
        cls = sheet_class(system)
    except SheetError:
        return {"system": system, "fields": []}
    labels: dict[str, str] = {"max_hp": "最大HP"}
    try:
        for slot in profile_for(system).slots:
            labels.setdefault(".".join(slot.path), slot.label)
            if slot.max_path:
                labels.setdefault(".".join(slot.max_path), f"最大{slot.label}")
    except SaikoroError:
        pass  # no transfer profile: the paths are the labels
    fields = [
        {**field, "label": labels.get(field["path"], field["path"])} for field in form_fields(cls)
    ]
    return {"system": system, "fields": fields}


@router.get("/api/systems/{system}/sheet-form")
def system_sheet_form(system: str) -> JSONResponse:
    """The form of the system's character sheet (the page's quick NPCs and card editor):
    ``{"system", "fields": [{"path", "label", "kind", "options", "required", "default"}]}``
    (no fields: a system without a sheet). 404 for an unknown system."""
    from saikoro.systems import manifest

    try:
        manifest(system)
    except KeyError:
        raise HTTPException(status_code=404) from None
    return JSONResponse(sheet_form(system), headers={"Cache-Control": "no-cache"})


@router.get("/api/systems/{system}/webtable")
def system_page_data(system: str) -> JSONResponse:
    """The system's ``webtable.json`` (:func:`webtable_data`)."""
    from saikoro.table.dispatch import tracker_for

    try:
        data = {**webtable_data(system)}
    except KeyError:
        raise HTTPException(status_code=404) from None
    data.setdefault("line_example", tracker_for(system).line_example)  # the input's placeholder
    return JSONResponse(data, headers={"Cache-Control": "no-cache"})
