"""``saikoro serve`` (the real CLI and server) with every die showing a fixed face, so the
browser tests' fights are repeatable: ``python tests/web/serve_fixed_dice.py FACES ARGS…``
where FACES is ``6:4,100:30`` (a d6 shows 4, a d100 shows 30; other dice show 1).
"""

from __future__ import annotations

import sys

import saikoro.server.app as server_app
from saikoro.cli.main import app


class FixedFaces:
    """A dice source whose every die of a given number of sides shows the same face."""

    yields_faces = True

    def __init__(self, faces: dict[int, int]) -> None:
        self.faces = faces

    def roll(self, sides: int) -> int:
        return self.faces.get(sides, 1)


def main() -> None:
    faces = dict(tuple(map(int, pair.split(":"))) for pair in sys.argv[1].split(","))
    real_create_app = server_app.create_app

    def create_app(*args, **kwargs):  # type: ignore[no-untyped-def]
        kwargs.setdefault("source_factory", lambda: FixedFaces(faces))
        return real_create_app(*args, **kwargs)

    server_app.create_app = create_app
    app(["serve", *sys.argv[2:]])


if __name__ == "__main__":
    main()
