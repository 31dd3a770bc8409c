"""Mutated Udonarium and CCFOLIA files (seeded, reproducible): every one is imported or
refused with a SaikoroError, quickly — never another exception, never a hang."""

from __future__ import annotations

import json
import random

import pytest
from work import cpu_seconds

from saikoro.errors import SaikoroError
from saikoro.transfer import import_all

from .conftest import CCFOLIA_UNMEI, UDONARIUM_LW_XML, zip_bytes

TOKENS = [
    b"\x00",
    b"\xff",
    b"<",
    b">",
    b"&",
    b'"',
    b"{",
    b"}",
    b"[",
    b"]",
    b"1e999",
    b"NaN",
    b"/",
    b"//x=1\n",
    b"\\",
    b"\x1b",
    "【".encode(),
    b"</data>",
    b'<data name="HP">',
    b"null",
    b"9" * 30,
]


def mutate(raw: bytes, rng: random.Random) -> bytes:
    data = bytearray(raw)
    for _ in range(rng.randint(1, 8)):
        op, pos = rng.random(), rng.randrange(len(data) + 1)
        if op < 0.4 and data:
            data[min(pos, len(data) - 1)] = rng.randrange(256)
        elif op < 0.7:
            data[pos:pos] = rng.choice(TOKENS)
        else:
            del data[pos : pos + rng.randint(1, 20)]
    return bytes(data)


def seed_files() -> list[tuple[bytes, str]]:
    """The files mutated: a Udonarium XML, the same in a zip, a CCFOLIA character."""
    return [
        (UDONARIUM_LW_XML.encode(), "udonarium"),
        (zip_bytes({"data.xml": UDONARIUM_LW_XML.encode()}), "udonarium"),
        (json.dumps(CCFOLIA_UNMEI, ensure_ascii=False).encode(), "ccfolia"),
    ]


@pytest.mark.parametrize("seed", range(4))
def test_mutated_files_never_raise_anything_else(seed: int) -> None:
    rng = random.Random(seed)
    seeds = seed_files()
    for _ in range(400):
        raw, fmt = rng.choice(seeds)
        data = mutate(raw, rng)
        system = rng.choice(["LittleWorld", "UnmeiD100"])
        seconds, outcome = cpu_seconds(
            lambda: import_all(data, fmt, system, accept_ambiguous=True)  # noqa: B023
        )
        if isinstance(outcome, Exception) and not isinstance(outcome, SaikoroError):
            pytest.fail(f"{type(outcome).__name__}: {outcome} for {data!r}")
        assert seconds < 2.0, data  # CPU time of this process (tests/work.py)
