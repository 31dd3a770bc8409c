"""Faces in Udonarium zips (issue 24, point 3): the image a character's
``imageIdentifier`` names is found in the zip (Udonarium names an image by the SHA-256 of
its bytes and saves it as ``SHA256.png``), and an export with a face writes it so — what
Udonarium's own loader (``FileArchiver.handleZip`` → ``ImageFile``: the identifier is the
SHA-256 of the file, an image is taken by its name's suffix, at most 2 MB) loads back."""

from __future__ import annotations

import hashlib
import io
import zipfile

from defusedxml.ElementTree import fromstring
from PIL import Image

from saikoro.transfer import export_udonarium, import_bytes, udonarium_faces

from .conftest import UDONARIUM_LW_XML, zip_bytes

OLD_ID = "4f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b"


def face() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (32, 48), (90, 30, 160)).save(out, "PNG")
    return out.getvalue()


def zip_with_face(image: bytes, file_name: str | None = None) -> bytes:
    identifier = hashlib.sha256(image).hexdigest()
    xml = UDONARIUM_LW_XML.replace(OLD_ID, identifier)
    return zip_bytes({"data.xml": xml.encode(), file_name or f"{identifier}.png": image})


def test_the_image_named_by_the_identifier_is_found() -> None:
    image = face()
    assert udonarium_faces(zip_with_face(image), "LittleWorld") == {"ミナ・クロックワーク": image}
    # found by its bytes' SHA-256 whatever the file is called
    renamed = zip_with_face(image, "images/portrait.png")
    assert udonarium_faces(renamed, "LittleWorld") == {"ミナ・クロックワーク": image}


def test_no_image_no_face() -> None:
    bare = UDONARIUM_LW_XML.encode()
    assert udonarium_faces(bare, "LittleWorld") == {}
    other = zip_bytes({"data.xml": bare, "unrelated.png": face()})
    assert udonarium_faces(other, "LittleWorld") == {}


def test_an_export_with_a_face_is_what_udonarium_loads() -> None:
    image = face()
    sheet, _report = import_bytes(zip_with_face(image), "udonarium", "LittleWorld")
    exported = export_udonarium(sheet, image, "image/png")
    archive = zipfile.ZipFile(io.BytesIO(exported))
    (picture_name,) = [n for n in archive.namelist() if n != "data.xml"]
    data = archive.read(picture_name)
    identifier = hashlib.sha256(data).hexdigest()
    assert picture_name == f"{identifier}.png" and data == image and len(data) <= 2 * 1024 * 1024
    root = fromstring(archive.read("data.xml"))
    named = root.find(".//data[@name='image']/data[@name='imageIdentifier']")
    assert named is not None and named.get("type") == "image" and named.text == identifier
    # and back: the same character, the same face
    assert udonarium_faces(exported, "LittleWorld") == {sheet.name: image}
    again, _ = import_bytes(exported, "udonarium", "LittleWorld")
    assert again == sheet


def test_an_export_without_a_face_is_as_before() -> None:
    sheet, _report = import_bytes(zip_with_face(face()), "udonarium", "LittleWorld")
    assert zipfile.ZipFile(io.BytesIO(export_udonarium(sheet))).namelist() == ["data.xml"]
