"""Every refusal of a character file is a clear bilingual message in the user's words —
which file or field, what is wrong, what to do — never Python's own text (exception class
names, ``sys.set_int_max_str_digits()``, zlib's "Error -3 …", the JSON reader's "Expecting
',' delimiter"). The files are built here."""

from __future__ import annotations

import io
import json
import random
import re
import warnings
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.errors import SaikoroError
from saikoro.transfer import import_all, import_bytes, load_character_file
from saikoro.transfer.labels import TransferError

from .conftest import zip_bytes
from .test_fuzz_files import mutate, seed_files

PIECE = (
    '<character><data name="character"><data name="common"><data name="name">ミナ</data>'
    '</data><data name="detail"><data name="HP">10</data><data name="能力値"><data name="体力">3</data>'
    '<data name="技巧">2</data><data name="理知">1</data></data></data></data></character>'
).encode()

#: Python's wording and names that must never reach a user.
PYTHON_WORDING = re.compile(
    r"[A-Z][A-Za-z]*(?:Error|Exception|Forbidden|Warning)\b|Errno|Traceback|sys\.|"
    r"set_int_max_str_digits|Exceeds the limit|Error -\d|while decompressing|"
    r"invalid code lengths|Expecting|delimiter|\(char \d+\)|not well-formed|unclosed token|"
    r"system_id=|public_id=|name='|\{'|'\}|None\)|Bad CRC|Bad magic|File is not a zip|"
    r"unknown encoding:"
)
JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")


def assert_plain(error: SaikoroError) -> None:
    """Bilingual (Japanese words in ``ja``, English in ``en``) and free of Python's wording."""
    ja, en = error.message.ja, error.message.en
    assert JAPANESE.search(ja) and ja != en, ja
    assert re.search(r"\b(?:the|is|not|no|too|at|cannot|a)\b", en), en
    for text in (ja, en):
        leak = PYTHON_WORDING.search(text)
        assert leak is None, f"{leak[0]!r} in {text!r}"


def refusal(raw: bytes, fmt: str) -> TransferError:
    with pytest.raises(TransferError) as caught:
        import_bytes(raw, fmt, "LittleWorld")
    assert_plain(caught.value)
    return caught.value


def ccfolia(data: dict[str, object] | str) -> bytes:
    body = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return ('{"kind": "character", "data": ' + body + "}").encode()


def test_a_5000_digit_number_is_refused_with_its_place() -> None:
    raw = ccfolia('{"name": "a", "initiative": ' + "9" * 5000 + "}")
    column = raw.index(b"9") + 1
    error = refusal(raw, "ccfolia")
    assert f"1 行 {column} 文字目の数が長すぎます (5000 桁; 4300 桁まで)" in error.message.ja
    assert "短くしてください" in error.message.ja
    assert f"line 1, column {column} of" in error.message.en
    assert "too long (5000 digits; at most 4300)" in error.message.en
    assert "shorten that number" in error.message.en


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
<character><data name="character"><data name="common"><data name="name">&c;</data></data>
</data></character>"""
XXE = b"""<?xml version="1.0"?>
<!DOCTYPE x [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<character><data name="character"><data name="common"><data name="name">&secret;</data>
</data></data></character>"""


@pytest.mark.parametrize("xml", [BILLION_LAUGHS, XXE], ids=["billion-laughs", "xxe"])
def test_entity_declarations_are_refused_in_words(xml: bytes) -> None:
    for raw in (xml, zip_bytes({"data.xml": xml})):
        error = refusal(raw, "udonarium")
        assert "実体宣言 (<!ENTITY …>)" in error.message.ja and "安全のため" in error.message.ja
        assert "declares entities" in error.message.en and "for safety" in error.message.en
        assert "Udonarium" in error.message.ja and "save the character" in error.message.en
        assert "passwd" not in error.message.both()


def test_corrupt_deflate_member_is_refused_in_words() -> None:
    """A garbled deflate stream (zlib's "invalid code lengths set")."""
    data = bytearray(zip_bytes({"data.xml": PIECE * 20}))
    start = 30 + len("data.xml")
    for i in range(start, start + 16):
        data[i] ^= 0x5A
    error = refusal(bytes(data), "udonarium")
    assert "zip の data.xml を展開できません (zip が壊れています)" in error.message.ja
    assert "cannot extract data.xml from the zip (it is damaged)" in error.message.en
    assert "保存し直してください" in error.message.ja


def test_status_list_with_a_bad_item_names_the_item() -> None:
    raw = ccfolia({"name": "a", "status": [{"label": "HP", "value": 3, "max": 5}, 7]})
    error = refusal(raw, "ccfolia")
    assert "status の 2 番目が" in error.message.ja and "(数)" in error.message.ja
    assert "status item 2 is not a" in error.message.en and "a number" in error.message.en
    assert "クリップボードにコピーし直して" in error.message.ja
    assert "copy the character to the clipboard from CCFOLIA again" in error.message.en


def test_status_that_is_not_a_list_says_what_it_is() -> None:
    error = refusal(ccfolia({"name": "a", "status": {"HP": 3}}), "ccfolia")
    assert "status が一覧" in error.message.ja and "オブジェクト" in error.message.ja
    assert "status is not a list" in error.message.en and "an object" in error.message.en


def test_a_value_that_is_not_text_names_its_field() -> None:
    raw = ccfolia({"name": "a", "params": [{"label": "体力", "value": ["3"]}]})
    error = refusal(raw, "ccfolia")
    assert "params の 1 番目の value が文字でも数でもありません (一覧" in error.message.ja
    assert "the value of params item 1 is neither text nor a number" in error.message.en
    error = refusal(ccfolia({"name": {"ja": "ミナ"}}), "ccfolia")
    assert (
        " name が文字でも数でもありません" in error.message.ja and "the name is" in error.message.en
    )


def test_broken_json_says_where_and_what() -> None:
    raw = b'{"kind": "character", "data": {"name": "a" "memo": ""}}'
    error = refusal(raw, "ccfolia")
    assert "JSON として読めません (1 行 44 文字目: 「,」が足りません)" in error.message.ja
    assert "not valid JSON (line 1, column 44: a ',' is missing)" in error.message.en


def test_broken_xml_says_where_and_what() -> None:
    raw = b"<character>\n<data name='character'></character>"
    error = refusal(raw, "udonarium")
    assert "XML として読めません (2 行 26 文字目: 開始タグと終了タグが合っていません)" in (
        error.message.ja
    )
    assert "line 2, column 26: a closing tag does not match its opening tag" in error.message.en


def test_unknown_encoding_is_named() -> None:
    error = refusal(b'<?xml version="1.0" encoding="x-klingon"?>' + PIECE, "udonarium")
    assert "文字コード x-klingon は読めません" in error.message.ja
    assert "unknown XML encoding x-klingon" in error.message.en


def test_password_protected_zip_is_refused_in_words() -> None:
    data = bytearray(zip_bytes({"data.xml": PIECE}))
    data[6] |= 1  # the local header's "encrypted" flag
    central = data.rfind(b"PK\x01\x02")
    data[central + 8] |= 1  # and the central directory's
    error = refusal(bytes(data), "udonarium")
    assert "パスワード" in error.message.ja and "password-protected" in error.message.en


def test_the_command_line_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "ミナ.json"
    path.write_bytes(ccfolia({"name": "a", "status": [1]}))
    result = CliRunner().invoke(app, ["import", "ccfolia", str(path), "--system", "LittleWorld"])
    assert result.exit_code == 1
    assert f"{path}: CCFOLIA のキャラクターの status の 1 番目が" in result.stderr
    assert f"{path}: CCFOLIA character: status item 1" in result.stderr
    assert "Traceback" not in result.output + result.stderr
    missing = CliRunner().invoke(app, ["import", "udonarium", str(tmp_path / "no.zip")])
    assert missing.exit_code == 1 and "no.zip を読めません: ありません" in missing.stderr
    assert "Errno" not in missing.stderr


def test_char_add_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "piece.xml"
    path.write_bytes(XXE)
    with pytest.raises(TransferError) as caught:
        load_character_file(path, "LittleWorld")
    assert_plain(caught.value)
    assert caught.value.message.ja.startswith("piece.xml: XML に実体宣言")
    assert caught.value.message.en.startswith("piece.xml: the XML declares entities")


@pytest.mark.parametrize("seed", range(2))
def test_mutated_files_are_refused_in_words(seed: int) -> None:
    """Whatever a damaged file's refusal is, it carries no Python wording."""
    rng = random.Random(seed)
    seeds = seed_files()
    refused = 0
    for _ in range(300):
        raw, fmt = rng.choice(seeds)
        try:
            import_all(mutate(raw, rng), fmt, "LittleWorld", accept_ambiguous=True)
        except SaikoroError as error:
            assert_plain(error)
            refused += 1
    assert refused > 50


# -- zip entry names --------------------------------------------------------------------


def raw_zip(entries: list[tuple[str, bytes]]) -> bytes:
    """A zip with exactly these entries (duplicates and odd paths kept as given)."""
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w") as archive:
        warnings.simplefilter("ignore")  # zipfile's "Duplicate name" warning: wanted here
        for name, data in entries:
            archive.writestr(zipfile.ZipInfo(name), data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


OTHER = PIECE.replace("ミナ".encode(), "偽者".encode())


def test_two_data_xml_entries_are_refused() -> None:
    error = refusal(raw_zip([("data.xml", PIECE), ("data.xml", OTHER)]), "udonarium")
    assert "同じ名前のファイル data.xml が 2 つあります" in error.message.ja
    assert "two files named data.xml" in error.message.en
    assert "nothing is imported" in error.message.en


@pytest.mark.parametrize(
    "names",
    [
        ["image.png", "data.xml", "image.png"],
        ["data.xml", "Data.XML"],
        ["data.xml", "./data.xml"],
    ],
)
def test_any_duplicate_entry_name_is_refused(names: list[str]) -> None:
    entries = [(name, PIECE if name.endswith((".xml", ".XML")) else b"\x89PNG") for name in names]
    error = refusal(raw_zip(entries), "udonarium")
    assert "2 つあります" in error.message.ja and "two files named" in error.message.en


def test_data_xml_in_two_folders_is_refused() -> None:
    error = refusal(raw_zip([("a/data.xml", OTHER), ("data.xml", PIECE)]), "udonarium")
    assert "data.xml が 2 つあります" in error.message.ja
    assert "2 files named data.xml" in error.message.en


@pytest.mark.parametrize(
    "name",
    [
        "../../etc/evil.xml",
        "/etc/evil.xml",
        "images/../../evil.png",
        "..\\..\\evil.xml",
        "C:/x.xml",
    ],
)
def test_entries_pointing_outside_the_zip_are_refused(name: str) -> None:
    error = refusal(raw_zip([("data.xml", PIECE), (name, OTHER)]), "udonarium")
    assert "zip の外を指しています" in error.message.ja and "絶対パスや .." in error.message.ja
    assert "points outside the zip" in error.message.en
    assert name in error.message.ja and name in error.message.en


def test_a_plain_zip_with_images_is_still_read() -> None:
    raw = raw_zip([("data.xml", PIECE), ("a.png", b"\x89PNG"), ("img/b.png", b"\x89PNG")])
    sheet, _report = import_bytes(raw, "udonarium", "LittleWorld")
    assert sheet.name == "ミナ"
