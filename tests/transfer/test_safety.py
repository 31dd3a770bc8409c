"""Hostile files: entity expansion, external entities, zip bombs, huge inputs — refused quickly."""

from __future__ import annotations

import io
import zipfile

import pytest
from work import cpu_seconds

from saikoro.transfer import import_bytes
from saikoro.transfer.labels import TransferError
from saikoro.transfer.udonarium import MAX_XML_BYTES

from .conftest import zip_bytes

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<character><data name="character"><data name="common"><data name="name">&lol9;</data></data></data></character>
"""

EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE character [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<character><data name="character"><data name="common"><data name="name">&secret;</data></data></data></character>
"""


def timed_refusal(data: bytes, fmt: str = "udonarium") -> TransferError:
    """The refusal of ``data``, within 2 s of this process's CPU time (the parsers run in C:
    tests/work.py's ``cpu_seconds``; other processes' load does not add to it)."""
    seconds, refused = cpu_seconds(lambda: import_bytes(data, fmt, "LittleWorld"))
    assert isinstance(refused, TransferError), refused
    assert seconds < 2.0
    return refused


def test_entity_expansion_refused() -> None:
    timed_refusal(BILLION_LAUGHS)
    timed_refusal(zip_bytes({"data.xml": BILLION_LAUGHS}))


def test_external_entity_refused() -> None:
    error = timed_refusal(EXTERNAL_ENTITY)
    assert "root:" not in error.message.both()


def test_zip_bomb_refused() -> None:
    """data.xml that inflates far past the bound (1 MB of zip → 100 MB) is not inflated."""
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
        archive.open("data.xml", "w", force_zip64=True) as handle,
    ):
        chunk = b"<" + b"a" * (1024 * 1024 - 1)
        for _ in range(100):
            handle.write(chunk)
    error = timed_refusal(buffer.getvalue())
    assert "5 MB" in error.message.ja


def test_zip_lying_about_size_is_still_bounded() -> None:
    """A header claiming a small size does not let more than the bound be read."""
    payload = b"<character>" + b" " * (MAX_XML_BYTES + 10) + b"</character>"
    data = bytearray(zip_bytes({"data.xml": payload}))
    # Patch the central directory's uncompressed size to 100 bytes.
    central = data.rfind(b"PK\x01\x02")
    data[central + 24 : central + 28] = (100).to_bytes(4, "little")
    local = data.find(b"PK\x03\x04")
    data[local + 22 : local + 26] = (100).to_bytes(4, "little")
    timed_refusal(bytes(data))


def test_too_many_zip_entries_refused() -> None:
    files = {f"img{i}.png": b"" for i in range(2100)}
    files["data.xml"] = b"<character/>"
    timed_refusal(zip_bytes(files))


def test_corrupt_zip_refused() -> None:
    timed_refusal(b"PK\x03\x04" + b"\x00" * 100)


def test_huge_json_refused() -> None:
    huge = b'{"kind": "character", "data": {"name": "' + b"a" * (6 * 1024 * 1024) + b'"}}'
    timed_refusal(huge, "ccfolia")


def test_unknown_format() -> None:
    with pytest.raises(TransferError):
        import_bytes(b"{}", "roll20", "LittleWorld")


@pytest.mark.parametrize(("depth", "bound"), [(5000, "64"), (40, "32")])
def test_deeply_nested_sections_refused(depth: int, bound: str) -> None:
    """Past 64 levels the parser stops (memory); past 32 detail sections the reader does."""
    xml = (
        b'<character><data name="character"><data name="detail">'
        + b'<data name="s">' * depth
        + b'<data name="x">1</data>'
        + b"</data>" * depth
        + b"</data></data></character>"
    )
    error = timed_refusal(xml)
    assert bound in error.message.ja


def test_nested_sections_within_bound_are_read() -> None:
    xml = (
        b'<character><data name="character"><data name="common"><data name="name">N</data></data>'
        b'<data name="detail">'
        + b'<data name="s">' * 5
        + b'<data name="PL">p</data>'
        + b"</data>" * 5
        + b"</data></data></character>"
    )
    from saikoro.transfer.udonarium import parse_udonarium

    character = parse_udonarium(xml)
    assert [(p.label, p.value, p.where) for p in character.params] == [("PL", "p", "s/s/s/s/s")]


def test_many_values_bounded_and_fast() -> None:
    import json

    params = [{"label": "x", "value": str(i)} for i in range(2000)]
    piece = {"kind": "character", "data": {"name": "n", "params": params}}
    raw = json.dumps(piece).encode()
    seconds, refused = cpu_seconds(lambda: import_bytes(raw, "ccfolia", "LittleWorld"))
    assert isinstance(refused, TransferError) and seconds < 2.0  # 2000 notes, no abilities
    assert "体力" in str(refused)
    params.append({"label": "y", "value": "1"})
    timed_refusal(json.dumps(piece).encode(), "ccfolia")


def test_duplicate_labels_numbered() -> None:
    import json

    params = [{"label": "メモ欄", "value": str(i)} for i in range(4)]
    params += [{"label": n, "value": "2"} for n in ("体力", "技巧", "理知")]
    status = [{"label": "HP", "value": 5, "max": 5}]
    piece = {"kind": "character", "data": {"name": "n", "params": params, "status": status}}
    sheet, _ = import_bytes(json.dumps(piece).encode(), "ccfolia", "LittleWorld")
    assert sheet.notes == {"メモ欄": "0", "メモ欄 (2)": "1", "メモ欄 (3)": "2", "メモ欄 (4)": "3"}
