"""The reliability audit's hostile files: each is a clear bilingual refusal, never a
traceback, and memory stays bounded while reading (peak RSS measured in a subprocess)."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from work import cpu_seconds

from saikoro.transfer import import_bytes
from saikoro.transfer.labels import TransferError

from .conftest import zip_bytes

PIECE = (
    '<character><data name="character"><data name="common"><data name="name">ミナ</data>'
    '</data><data name="detail"><data name="HP">10</data><data name="能力値"><data name="体力">3</data>'
    '<data name="技巧">2</data><data name="理知">1</data></data></data></data></character>'
).encode()


#: A CCFOLIA piece with the three abilities; EXTRA is replaced by more keys.
ABILITIES = (
    '{"kind": "character", "data": {"name": "a", EXTRA, "params": [{"label": "HP", "value": "9"},'
    '{"label": "体力", "value": "1"}, {"label": "技巧", "value": "1"},'
    ' {"label": "理知", "value": "1"}]}}'
)


def refusal(raw: bytes, fmt: str = "udonarium") -> TransferError:
    with pytest.raises(TransferError) as caught:
        import_bytes(raw, fmt, "LittleWorld")
    message = caught.value.message
    assert message.ja and message.en and message.ja != message.en  # bilingual
    return caught.value


def damaged_member(method: int) -> bytes:
    """A zip whose data.xml's compressed stream is garbled (its headers intact)."""
    data = bytearray(zip_bytes_with(method, {"data.xml": PIECE * 20}))
    start = 30 + len("data.xml")
    for i in range(start + 8, start + 24):
        data[i] ^= 0x5A
    return bytes(data)


def zip_bytes_with(method: int, files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_corrupt_deflate_stream_is_refused() -> None:
    """zlib.error from a garbled deflate stream."""
    error = refusal(damaged_member(zipfile.ZIP_DEFLATED))
    assert "damaged" in error.message.en


@pytest.mark.parametrize("method", [zipfile.ZIP_LZMA, zipfile.ZIP_BZIP2])
def test_lzma_and_bzip2_members_are_refused_unread(method: int) -> None:
    """A corrupt LZMA member (LZMAError) — and any LZMA/bzip2 member, whose decompressors
    expand a few kB without bound — is refused by its method before inflating."""
    for raw in (damaged_member(method), zip_bytes_with(method, {"data.xml": PIECE})):
        error = refusal(raw)
        assert "deflate" in error.message.en


def test_stored_member_is_read() -> None:
    sheet, _ = import_bytes(
        zip_bytes_with(zipfile.ZIP_STORED, {"data.xml": PIECE}), "udonarium", "LittleWorld"
    )
    assert sheet.name == "ミナ"


def test_unknown_xml_encoding_is_refused() -> None:
    """LookupError from an encoding Python does not know."""
    error = refusal(b'<?xml version="1.0" encoding="x-no-such-encoding"?>' + PIECE)
    assert "encoding" in error.message.en


@pytest.mark.parametrize("initiative", ['"Infinity"', "1e999", '"-Infinity"', '"NaN"', "-1e999"])
def test_infinite_ccfolia_initiative_is_ignored(initiative: str) -> None:
    """OverflowError from int(float('inf')): the initiative is derived anyway."""
    raw = ABILITIES.replace("EXTRA", f'"initiative": {initiative}').encode()
    sheet, _report = import_bytes(raw, "ccfolia", "LittleWorld")
    assert sheet.abilities.技巧 == 1


@pytest.mark.parametrize("value", ["1e999", '"Infinity"', '"1e400"', '"NaN"'])
def test_infinite_ccfolia_values_become_notes(value: str) -> None:
    status = f'"status": [{{"label": "禁忌値", "value": {value}, "max": {value}}}]'
    raw = ABILITIES.replace("EXTRA", status).encode()
    sheet, report = import_bytes(raw, "ccfolia", "LittleWorld")
    assert "禁忌値" in sheet.notes and report.warnings


def test_deeply_nested_json_in_the_memo_block_is_refused() -> None:
    """RecursionError from saikoro's memo block nested 100 000 deep."""
    memo = "[saikoro:LittleWorld] " + '{"a":' * 100_000 + "1" + "}" * 100_000
    raw = json.dumps({"kind": "character", "data": {"name": "a", "memo": memo}}).encode()
    error = refusal(raw, "ccfolia")
    assert "nested too deeply" in error.message.en


def test_nested_json_just_deep_enough_for_copying_is_refused() -> None:
    """500 levels parse, but copying the block would recurse: the depth bound refuses it."""
    memo = "[saikoro:LittleWorld] " + '{"a":' * 500 + "1" + "}" * 500
    raw = json.dumps({"kind": "character", "data": {"name": "a", "memo": memo}}).encode()
    refusal(raw, "ccfolia")


def test_deeply_nested_json_in_the_udonarium_block_is_refused() -> None:
    block = '{"a":' * 100_000 + "1" + "}" * 100_000
    xml = PIECE.replace(
        b"</data></data></character>",
        b'<data name="saikoro"><data type="note" name="LittleWorld">'
        + block.encode()
        + b"</data></data></data></data></character>",
    )
    refusal(xml)


def test_deeply_nested_ccfolia_document_is_refused() -> None:
    refusal(b"[" * 100_000 + b"]" * 100_000, "ccfolia")


def test_many_json_values_are_refused_before_parsing() -> None:
    raw = b'{"kind": "character", "data": {"name": "a", "faces": [' + b"{}," * 300_000 + b"{}]}}"
    error = refusal(raw, "ccfolia")
    assert "too many JSON values" in error.message.en


def test_xml_with_too_many_elements_is_refused_while_parsing() -> None:
    """A 5 kB zip of 5 MB of tiny elements (0.7 million) is stopped at 50 000."""
    body = b"<data/>" * (700_000)
    raw = zip_bytes({"data.xml": b"<character>" + body + b"</character>"})
    assert len(raw) < 20_000
    error = refusal(raw)
    assert "too many XML elements" in error.message.en


def central_directory_zip(entries: int, claimed: int | None = None) -> bytes:
    """A zip whose central directory lists ``entries`` one-letter files (built directly:
    zipfile would take minutes), with ``claimed`` as the end record's entry count."""
    header = struct.pack(
        "<4s6H3L5HLL", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0
    )
    directory = (header + b"a") * entries
    count = (entries if claimed is None else claimed) & 0xFFFF
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, len(directory), 30, 0)
    return b"PK\x03\x04" + b"\0" * 26 + directory + end


@pytest.mark.parametrize("claimed", [None, 1])
def test_zip_with_half_a_million_entries_is_refused_from_its_end_record(
    claimed: int | None,
) -> None:
    """550 000 entries: refused from the end record (count, or the directory's size when
    the count lies), before zipfile builds an object per entry."""
    error = refusal(central_directory_zip(550_000, claimed))
    assert "too many files" in error.message.en


def test_zip64_end_record_is_read() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("data.xml", "w", force_zip64=True) as handle:
            handle.write(PIECE)
        for i in range(2100):
            archive.writestr(f"{i}.png", b"")
    # zipfile writes a zip64 end record only past 65535 entries; force one here.
    raw = buffer.getvalue()
    from saikoro.transfer.udonarium import zip_directory_size

    entries, size = zip_directory_size(raw)
    assert entries == 2101 and size > 0
    refusal(raw)


#: Peak memory of a refused or accepted file, over the process's own size before it:
#: docs/transfer.md states this bound ("at most 64 MB beyond the file itself").
PEAK_BOUND_MB = 64

_MEASURE = textwrap.dedent(
    """
    import json, resource, sys
    from saikoro.transfer import import_bytes
    from saikoro.transfer.labels import TransferError

    path, fmt, warm_up = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(warm_up, "rb") as handle:
        import_bytes(handle.read(), "udonarium", "LittleWorld")  # modules loaded
    with open(path, "rb") as handle:
        raw = handle.read()

    def peak_kb():
        try:  # Linux: the peak since the reset below (VmHWM)
            with open("/proc/self/status") as status:
                line = next(l for l in status if l.startswith("VmHWM:"))
            return int(line.split()[1])
        except (OSError, StopIteration):
            return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    def resident_kb():
        try:
            with open("/proc/self/status") as status:
                return int(next(l for l in status if l.startswith("VmRSS:")).split()[1])
        except (OSError, StopIteration):
            return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    try:  # reset the peak to the memory in use now (Linux 4.0+)
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
    except OSError:
        pass
    before = resident_kb()
    try:
        import_bytes(raw, fmt, "LittleWorld")
        outcome = "accepted"
    except TransferError as error:
        outcome = error.message.en
    after = peak_kb()
    print(json.dumps({"peak_mb": (after - before) / 1024, "outcome": outcome}))
    """
)


def _packed(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _hostile(case: str) -> tuple[bytes, str]:
    if case == "elements":  # the audit's kind of 13 kB zip: 5 MB of labelled values
        head = b'<character><data name="character"><data name="detail"><data name="s">'
        leaves = b'<data name="x">1</data>' * 227_000
        return _packed({"data.xml": head + leaves + b"</data></data></data></character>"}), (
            "udonarium"
        )
    if case == "nesting":
        return _packed({"data.xml": b"<a>" * 650_000 + b"</a>" * 650_000}), "udonarium"
    if case == "text":
        text = "あ".encode() * 1_740_000
        return _packed({"data.xml": b"<character>" + text + b"</character>"}), "udonarium"
    if case == "entries":
        return central_directory_zip(550_000, claimed=1), "udonarium"
    faces = b'["x"],' * 99_000  # just inside the JSON value bound (2 values each)
    return b'{"kind": "character", "data": {"name": "a", "faces": [' + faces + b"[]]}}", "ccfolia"


@pytest.mark.parametrize("case", ["elements", "nesting", "text", "entries", "json"])
def test_peak_memory_is_bounded(case: str, tmp_path: Path) -> None:
    """Measured in a fresh process (ru_maxrss): the audit's 527 MB (a 5 kB zip) and 355 MB
    (550 000 entries) cases, and the largest inputs just inside each bound."""
    raw, fmt = _hostile(case)
    (tmp_path / "hostile").write_bytes(raw)
    (tmp_path / "warm.xml").write_bytes(PIECE)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            _MEASURE,
            str(tmp_path / "hostile"),
            fmt,
            str(tmp_path / "warm.xml"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["peak_mb"] < PEAK_BOUND_MB, result
    assert "Traceback" not in done.stderr


def _quickly(raw: bytes, fmt: str) -> None:
    """Imported or refused within 2 s of this process's CPU time (the scanning runs in C
    regular expressions: tests/work.py's ``cpu_seconds``)."""
    seconds, outcome = cpu_seconds(
        lambda: import_bytes(raw, fmt, "LittleWorld", accept_ambiguous=True)
    )
    if isinstance(outcome, Exception) and not isinstance(outcome, TransferError):
        raise outcome
    assert seconds < 2.0


def test_unterminated_escaped_string_is_scanned_in_linear_time() -> None:
    """``"\\"\\"\\"…`` without a closing quote: the value count's string pattern must not
    rescan to the end from every quote (quadratic)."""
    _quickly(b'{"kind": "character", "data": {"name": "' + b'\\"' * 1_000_000, "ccfolia")


def test_long_palette_line_of_spaces_is_read_in_linear_time() -> None:
    """A palette line ``//`` + spaces: main's variable pattern backtracked cubically (800
    spaces took 4 s, 5000 did not finish in 5 minutes)."""
    commands = "//" + " " * 200_000 + "x\n//体力" + " " * 200_000 + "= 3"
    raw = ABILITIES.replace("EXTRA", f'"commands": {json.dumps(commands)}').encode()
    _quickly(raw, "ccfolia")


def test_zip_needing_a_newer_zip_version_is_refused() -> None:
    """zipfile raises NotImplementedError ("zip file version 24.6") while reading the
    directory of a member that needs a newer zip version (found by fuzzing)."""
    data = bytearray(zip_bytes({"data.xml": PIECE}))
    central = data.rfind(b"PK\x01\x02")
    data[central + 6 : central + 8] = (246).to_bytes(2, "little")
    error = refusal(bytes(data))
    assert "not a valid zip" in error.message.en
