"""Images for the faces tests, made with Pillow (and one PNG header written by hand)."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image


def png(
    size: tuple[int, int] = (40, 30), color: tuple[int, int, int, int] = (200, 60, 60, 255)
) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", size, color).save(out, "PNG")
    return out.getvalue()


def jpeg_with_exif(size: tuple[int, int] = (600, 400)) -> bytes:
    """A JPEG carrying EXIF (a camera's make and a GPS block, what a phone writes)."""
    picture = Image.new("RGB", size, (30, 120, 200))
    exif = Image.Exif()
    exif[0x010F] = "SecretCamera"  # Make
    exif[0x0131] = "PhoneSoftware 1.0"  # Software
    exif.get_ifd(0x8825)[1] = "N"  # GPSInfo: latitude ref
    exif[0x0112] = 1  # Orientation
    out = io.BytesIO()
    picture.save(out, "JPEG", exif=exif.tobytes(), quality=90)
    return out.getvalue()


def animated_gif() -> bytes:
    frames = [Image.new("P", (20, 20), i) for i in (1, 2, 3)]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    return out.getvalue()


def webp() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (50, 50), (10, 200, 10)).save(out, "WEBP")
    return out.getvalue()


def png_bomb(width: int = 60000, height: int = 60000) -> bytes:
    """A tiny PNG whose header declares ``width`` × ``height`` pixels (a decompression
    bomb: its pixels would take gigabytes once decoded)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    rows = zlib.compress(b"\0" * 64)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    )
