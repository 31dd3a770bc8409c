"""Characters' faces over real sockets (issue 24, point 3): ``PUT/DELETE/GET
…/characters/NAME/icon``, ``/state``'s ``icon``, the event frames' change, the quota.

Uploads are decoded and re-encoded with Pillow: PNG and JPEG (also WebP, GIF) accepted,
a non-image, a 20 MB file and a decompression bomb refused with a bilingual message and
nothing changed; EXIF is gone from what is served; another player's upload is refused."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image

from .faces_data import animated_gif, jpeg_with_exif, png, png_bomb, webp
from .table_live import Link, Room, Server, create_room, open_socket, serving, sheet, start_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = Path(tmp_path_factory.mktemp("faces"))
    yield from serving(folder, "--line-burst", "100", "--rooms-per-minute", "0")


@pytest.fixture
def room(server: Server) -> Room:
    room = create_room(server.base)
    room.join(sheet("alice"))
    room.join(sheet("bob"))
    return room


def icon_path(link: Link, name: str) -> str:
    return f"{link.path}/characters/{name}/icon"


def put(link: Link, name: str, body: bytes, content_type: str = "image/png") -> httpx.Response:
    return link.http.put(
        icon_path(link, name), content=body, headers={"Content-Type": content_type}
    )


def row(link: Link, name: str) -> dict[str, Any]:
    return next(c for c in link.state()["characters"] if c["name"] == name)


def served(link: Link, url: str) -> httpx.Response:
    response = link.http.get(url)
    assert response.status_code == 200, response.text
    return response


def refusal_is_bilingual(response: httpx.Response) -> dict[str, Any]:
    body = response.json()
    assert body["ok"] is False
    assert body["messages"]["ja"] and body["messages"]["en"]
    assert body["messages"]["ja"] != body["messages"]["en"]
    return body


def test_a_png_upload_is_served_with_its_type_nosniff_and_an_etag(room: Room) -> None:
    alice = room.players["アリス"]
    assert row(alice, "アリス")["icon"] is None
    response = put(alice, "アリス", png((40, 30)))
    assert response.status_code == 200, response.text
    url = response.json()["icon"]
    assert url.startswith(icon_path(alice, "%E3%82%A2%E3%83%AA%E3%82%B9")) and "?v=" in url
    assert row(room.gm, "アリス")["icon"] == url  # everyone's /state names it
    for reader in (room.gm, room.players["ボブ"], room.spectator):  # whoever sees the room
        got = served(reader, url)
        assert got.headers["content-type"] == "image/png"
        assert got.headers["x-content-type-options"] == "nosniff"
        assert Image.open(io.BytesIO(got.content)).size == (40, 30)
    got = served(alice, icon_path(alice, "アリス"))  # the current face, without ?v=
    etag = got.headers["etag"]
    again = alice.http.get(icon_path(alice, "アリス"), headers={"If-None-Match": etag})
    assert again.status_code == 304
    anonymous = httpx.get(room.base + url)
    assert anonymous.status_code == 401


def test_a_jpeg_loses_its_exif_and_a_large_one_is_scaled_down(room: Room) -> None:
    alice = room.players["アリス"]
    raw = jpeg_with_exif((600, 400))
    assert Image.open(io.BytesIO(raw)).getexif().get(0x010F) == "SecretCamera"  # it has EXIF
    response = put(alice, "アリス", raw, "image/jpeg")
    assert response.status_code == 200, response.text
    got = served(alice, response.json()["icon"])
    assert got.headers["content-type"] == "image/jpeg"
    picture = Image.open(io.BytesIO(got.content))
    assert picture.format == "JPEG"
    assert picture.size == (256, 171)  # fits 256 × 256, aspect kept
    assert len(picture.getexif()) == 0
    assert "exif" not in picture.info
    assert b"SecretCamera" not in got.content and b"PhoneSoftware" not in got.content


@pytest.mark.parametrize(
    ("make", "size"), [(webp, (50, 50)), (animated_gif, (20, 20))], ids=["webp", "gif"]
)
def test_webp_and_gif_are_taken_as_png(room: Room, make: Any, size: tuple[int, int]) -> None:
    gm = room.gm
    response = put(gm, "ボブ", make(), "application/octet-stream")
    assert response.status_code == 200, response.text
    got = served(gm, response.json()["icon"])
    assert got.headers["content-type"] == "image/png"
    picture = Image.open(io.BytesIO(got.content))
    assert picture.size == size and getattr(picture, "n_frames", 1) == 1


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b"this is not an image at all", 422),
        (b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", 422),
        (b"", 422),
        (png()[:60], 422),  # cut short
        (png_bomb(), 422),
        (b"\0" * (20 * 1024 * 1024), 413),  # 20 MB
        (png() + b"\0" * (2 * 1024 * 1024), 413),  # a real image, over 2 MB
    ],
    ids=["text", "svg", "empty", "truncated", "bomb", "20MB", "over-2MB"],
)
def test_what_is_no_image_or_too_large_is_refused_and_nothing_changes(
    room: Room, body: bytes, status: int
) -> None:
    alice = room.players["アリス"]
    before = alice.state()
    response = put(alice, "アリス", body)
    assert response.status_code == status, response.text[:300]
    refusal_is_bilingual(response)
    after = alice.state()
    assert after["version"] == before["version"]
    assert row(alice, "アリス")["icon"] is None
    if status == 413:
        usage = room.gm.state()["limits"]["storage"]["used_bytes"]
        assert usage < 1024 * 1024  # nothing of it was kept


def test_a_player_cannot_set_or_remove_another_characters_face(room: Room) -> None:
    alice, bob = room.players["アリス"], room.players["ボブ"]
    assert put(bob, "ボブ", png((10, 10))).status_code == 200
    bobs = row(bob, "ボブ")["icon"]
    before = alice.state()["version"]
    refused = put(alice, "ボブ", png((12, 12)))
    assert refused.status_code == 403
    refusal_is_bilingual(refused)
    removal = alice.http.delete(icon_path(alice, "ボブ"))
    assert removal.status_code == 403
    spectator = put(room.spectator, "ボブ", png((12, 12)))
    assert spectator.status_code == 403
    assert alice.state()["version"] == before
    assert row(alice, "ボブ")["icon"] == bobs
    assert Image.open(io.BytesIO(served(alice, icon_path(alice, "ボブ")).content)).size == (10, 10)
    assert put(room.gm, "ボブ", png((14, 14))).status_code == 200  # the GM may


def test_no_such_character_is_404(room: Room) -> None:
    response = put(room.gm, "ダレカ", png())
    assert response.status_code == 404
    refusal_is_bilingual(response)


def test_delete_takes_the_face_off(room: Room) -> None:
    alice = room.players["アリス"]
    assert put(alice, "アリス", png()).status_code == 200
    old = row(alice, "アリス")["icon"]
    response = alice.http.delete(icon_path(alice, "アリス"))
    assert response.status_code == 200 and response.json()["icon"] is None
    assert row(room.gm, "アリス")["icon"] is None
    assert alice.http.get(icon_path(alice, "アリス")).status_code == 404
    assert served(alice, old).status_code == 200  # an older face stays (older log lines)


def test_the_face_reaches_other_pages_in_the_event_frame(room: Room) -> None:
    async def scenario() -> dict[str, Any]:
        bob = room.players["ボブ"]
        socket = await open_socket(bob)
        try:
            response = await asyncio.to_thread(put, room.players["アリス"], "アリス", png())
            assert response.status_code == 200
            (event,) = await socket.until_events(1)
            return {"event": event, "url": response.json()["icon"]}
        finally:
            await socket.close()

    got = asyncio.run(scenario())
    event = got["event"]
    assert event["kind"] == "icon_set" and event["tab"] == "info"
    (changed,) = event["change"]["characters"]
    assert changed["name"] == "アリス" and changed["icon"] == got["url"]


def test_a_face_survives_undo_and_is_not_a_line_to_undo(room: Room) -> None:
    alice = room.players["アリス"]
    alice.say(":HP-1")
    assert put(alice, "アリス", png()).status_code == 200
    url = row(alice, "アリス")["icon"]
    alice.say("/undo")  # takes back :HP-1, not the face
    assert row(alice, "アリス")["icon"] == url
    assert row(alice, "アリス")["hp"] == row(room.gm, "アリス")["hp"]


def test_faces_count_toward_the_room_quota(tmp_path: Path) -> None:
    server = start_server(str(tmp_path / "q.db"), tmp_path, "--room-quota-mb", "0.05")
    try:
        room = create_room(server.base)
        alice = room.join(sheet("alice"))
        used = room.gm.state()["limits"]["storage"]["used_bytes"]
        noisy = Image.effect_noise((256, 256), 100).convert("RGB")
        out = io.BytesIO()
        noisy.save(out, "PNG")
        assert put(alice, "アリス", out.getvalue()).status_code == 200
        grown = room.gm.state()["limits"]["storage"]["used_bytes"]
        assert grown - used > 40_000  # the image's bytes are counted
        refused = put(alice, "アリス", png())
        assert refused.status_code == 507
        refusal_is_bilingual(refused)
    finally:
        server.stop()


@pytest.mark.postgres
def test_faces_are_kept_in_postgresql(postgres_url: str, tmp_path: Path) -> None:
    server = start_server(postgres_url, tmp_path, "--rooms-per-minute", "0")
    try:
        room = create_room(server.base)
        alice = room.join(sheet("alice"))
        used = room.gm.state()["limits"]["storage"]["used_bytes"]
        response = put(alice, "アリス", jpeg_with_exif((300, 300)), "image/jpeg")
        assert response.status_code == 200, response.text
        got = served(room.spectator, response.json()["icon"])
        assert got.headers["content-type"] == "image/jpeg"
        assert len(Image.open(io.BytesIO(got.content)).getexif()) == 0
        grown = room.gm.state()["limits"]["storage"]["used_bytes"]
        assert grown - used >= len(got.content)
    finally:
        server.stop()


def test_log_html_embeds_each_speakers_face_as_a_data_url(room: Room) -> None:
    import base64
    import re

    alice = room.players["アリス"]
    alice.say("顔なしの一言")
    assert put(alice, "アリス", png((120, 80), (10, 20, 200, 255))).status_code == 200
    alice.say("顔つきの一言")
    for query in ({}, {"tab": "main"}):  # a tab's download still knows the face (set in 情報)
        response = room.spectator.http.get(f"{alice.path}/log.html", params=query)
        assert response.status_code == 200
        assert "img-src data:" in response.headers["content-security-policy"]
        lines = {li for li in response.text.splitlines() if "一言" in li}
        (plain,) = [li for li in lines if "顔なし" in li]
        (with_face,) = [li for li in lines if "顔つき" in li]
        assert "<img" not in plain
        found = re.search(r'<img class="face" src="data:image/webp;base64,([^"]+)"', with_face)
        assert found is not None, with_face
        picture = Image.open(io.BytesIO(base64.b64decode(found.group(1))))
        assert picture.size == (64, 43)
        assert "http" not in with_face  # nothing to fetch from elsewhere


def udonarium_zip_with_face(image: bytes) -> bytes:
    from tests.transfer.test_faces import zip_with_face

    return zip_with_face(image)


def test_an_udonarium_zip_brings_its_face_and_the_export_takes_it_back(server: Server) -> None:
    import base64
    import hashlib
    import zipfile

    from saikoro.transfer import udonarium_faces

    image = png((90, 60), (20, 160, 90, 255))
    room = create_room(server.base)
    zipped = base64.b64encode(udonarium_zip_with_face(image)).decode()
    added = room.gm.http.post(f"{room.gm.path}/characters", json={"character_base64": zipped})
    assert added.status_code == 201, added.text
    name = added.json()["as"]
    url = row(room.gm, name)["icon"]
    assert url is not None
    served_face = served(room.spectator, url).content
    assert Image.open(io.BytesIO(served_face)).size == (90, 60)

    exported = room.gm.http.get(f"{icon_path(room.gm, name).removesuffix('/icon')}/udonarium.zip")
    assert exported.status_code == 200, exported.text
    assert exported.headers["content-type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(exported.content))
    (picture,) = [n for n in archive.namelist() if n != "data.xml"]
    assert picture == f"{hashlib.sha256(archive.read(picture)).hexdigest()}.png"
    assert archive.read(picture) == served_face  # the face as the room keeps it
    assert udonarium_faces(exported.content, "LittleWorld") == {name: served_face}
    # a spectator may not export a sheet
    assert (
        room.spectator.http.get(
            f"{room.spectator.path}/characters/{name}/udonarium.zip"
        ).status_code
        == 403
    )

    # a player joining with the zip gets the face too (in a room of their own)
    other = create_room(server.base)
    joined = httpx.post(
        f"{server.base}{other.gm.path}/join",
        json={"invite": other.created["invite_token"], "character_base64": zipped},
        timeout=60,
    )
    assert joined.status_code == 200, joined.text
    assert row(other.gm, joined.json()["as"])["icon"] is not None


def test_a_ccfolia_icon_url_is_kept_as_a_note_and_never_fetched(server: Server) -> None:
    import json

    from tests.web.characters import ccfolia

    piece = json.loads(ccfolia("イコ", 10, {"体力": 3, "技巧": 3, "理知": 3}))
    piece["data"]["iconUrl"] = "http://127.0.0.1:9/never-fetched.png"  # nothing listens
    room = create_room(server.base)
    alice = room.join(json.dumps(piece, ensure_ascii=False))
    me = row(alice, "イコ")
    assert me["icon"] is None  # nothing was fetched: no face
    exported = alice.http.get(f"{alice.path}/characters/イコ/udonarium.zip")
    assert exported.status_code == 200
    back = json.loads(zipfile_note(exported.content))
    assert back["ccfolia.iconUrl"] == "http://127.0.0.1:9/never-fetched.png"


def zipfile_note(raw: bytes) -> str:
    """The sheet's notes of an exported zip, as JSON (read back with saikoro's importer)."""
    import json

    from saikoro.transfer import import_bytes

    sheet, _ = import_bytes(raw, "udonarium", "LittleWorld")
    return json.dumps(sheet.notes, ensure_ascii=False)
