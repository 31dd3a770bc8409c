"""``pip install .`` alone ships the page: the built wheel holds every file of saikoro.web."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_holds_the_page(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("saikoro-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    page = sorted(p.name for p in (ROOT / "src" / "saikoro" / "web").iterdir() if p.is_file())
    assert "index.html" in page and "app.js" in page
    missing = [name for name in page if f"saikoro/web/{name}" not in names]
    assert missing == []
