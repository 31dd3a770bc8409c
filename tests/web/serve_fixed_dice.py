"""``saikoro serve`` (the real CLI and server) with scripted dice, so the browser tests' fights
are repeatable: ``python tests/web/serve_fixed_dice.py FACES ARGS…`` where FACES is
``6:4,100:30`` (a d6 shows 4, a d100 shows 30; other dice show 1).

With ``SAIKORO_TEST_DICE_QUEUE=FILE`` in the environment, the dice first take their faces
from FILE, in order (whitespace-separated numbers, each taken once: the test writes the
faces of its next roll there with :func:`queue_faces` and waits for the roll's line); an
empty or missing file leaves the fixed faces. A queued face out of a die's range is an
error the line reports (a test's mistake must not pass as another roll).
"""

from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path

import saikoro.server.app as server_app
from saikoro.cli.main import app

#: The environment variable naming the queue file.
QUEUE_ENV = "SAIKORO_TEST_DICE_QUEUE"


class FixedFaces:
    """A dice source whose every die of a given number of sides shows the same face, after
    the faces queued in ``queue`` (if any)."""

    yields_faces = True

    def __init__(self, faces: dict[int, int], queue: Path | None = None) -> None:
        self.faces = faces
        self.queue = queue

    def roll(self, sides: int) -> int:
        queued = take_queued(self.queue) if self.queue is not None else None
        if queued is None:
            return self.faces.get(sides, 1)
        if not 1 <= queued <= sides:
            raise ValueError(f"queued face {queued} is not a face of a d{sides}")
        return queued


def _locked(path: Path):  # type: ignore[no-untyped-def]
    handle = open(path, "a+", encoding="ascii")  # noqa: SIM115 (closed by the callers)
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


def take_queued(path: Path) -> int | None:
    """The first queued face, taken out of the file (None: the queue is empty)."""
    if not path.exists():
        return None
    with _locked(path) as handle:
        handle.seek(0)
        faces = handle.read().split()
        if not faces:
            return None
        handle.seek(0)
        handle.truncate()
        handle.write(" ".join(faces[1:]))
        return int(faces[0])


def queue_faces(path: Path, *faces: int) -> None:
    """Queue ``faces`` for the next dice the server rolls (after any still queued)."""
    with _locked(path) as handle:
        handle.seek(0)
        left = handle.read().split()
        handle.seek(0)
        handle.truncate()
        handle.write(" ".join([*left, *map(str, faces)]))


def queued(path: Path) -> list[int]:
    """The faces still waiting (a test checks its roll took them all)."""
    return [int(face) for face in path.read_text("ascii").split()] if path.exists() else []


def main() -> None:
    faces = dict(tuple(map(int, pair.split(":"))) for pair in sys.argv[1].split(","))
    queue = Path(os.environ[QUEUE_ENV]) if os.environ.get(QUEUE_ENV) else None
    real_create_app = server_app.create_app

    def create_app(*args, **kwargs):  # type: ignore[no-untyped-def]
        kwargs.setdefault("source_factory", lambda: FixedFaces(faces, queue))
        return real_create_app(*args, **kwargs)

    server_app.create_app = create_app
    app(["serve", *sys.argv[2:]])


if __name__ == "__main__":
    main()
