"""Faces sent to the server: decoded and re-encoded with Pillow before anything is kept.

What a caller sends (an upload on the page, an image inside an Udonarium zip) is never
stored or served as sent: it must be a PNG, JPEG, WebP or GIF of at most
:data:`MAX_FACE_BYTES` (refused before decoding) and :data:`MAX_FACE_PIXELS` pixels
(read from its header before the pixels are: a "decompression bomb" is refused), its
first frame is decoded, turned upright by its EXIF orientation, scaled down to fit
:data:`ICON_SIZE` (aspect kept) and written again as a PNG (a JPEG without transparency
stays a JPEG) — without any of its metadata (EXIF, text chunks, ICC profile, comments).

Pillow comes with the ``[server]`` extra; this module imports it only when it runs.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from typing import TYPE_CHECKING

from saikoro.errors import require_extra
from saikoro.i18n import Message
from saikoro.server.table.errors import TableApiError
from saikoro.store.images import StoredImage

if TYPE_CHECKING:
    from PIL.Image import Image

    from saikoro.store.sql import SqlStore
    from saikoro.table.storage import RoomRecord

#: The largest image a caller may send (bytes).
MAX_FACE_BYTES = 2 * 1024 * 1024
#: The most pixels an image sent may declare (a 4096 × 4096 picture), read before decoding.
MAX_FACE_PIXELS = 4096 * 4096
#: The longest side of a stored icon (pixels): larger images are scaled down to fit.
ICON_SIZE = 256
#: Pillow's names of the formats taken.
ACCEPTED_FORMATS = ("PNG", "JPEG", "WEBP", "GIF")
#: What the server stores: these two content types only.
PNG, JPEG = "image/png", "image/jpeg"


def too_large(size: int) -> TableApiError:
    return TableApiError(
        413,
        "too large",
        Message(
            f"画像が大きすぎます ({size:,} バイト): {MAX_FACE_BYTES // 1024 // 1024} MB まで"
            "の PNG・JPEG・WebP・GIF を送ってください",
            f"the image is too large ({size:,} bytes): send a PNG, JPEG, WebP or GIF of at "
            f"most {MAX_FACE_BYTES // 1024 // 1024} MB",
        ),
    )


def not_an_image(why_ja: str = "", why_en: str = "") -> TableApiError:
    ja = f" ({why_ja})" if why_ja else ""
    en = f" ({why_en})" if why_en else ""
    return TableApiError(
        422,
        "not an image",
        Message(
            f"画像として読めません{ja}: PNG・JPEG・WebP・GIF の画像を送ってください",
            f"not an image saikoro can read{en}: send a PNG, JPEG, WebP or GIF picture",
        ),
    )


def too_many_pixels(width: int, height: int) -> TableApiError:
    return TableApiError(
        422,
        "not an image",
        Message(
            f"画像の画素数が多すぎます ({width}×{height}): 4096×4096 画素までにしてください",
            f"the image has too many pixels ({width}×{height}): at most 4096×4096",
        ),
    )


def normalise_face(raw: bytes, size: int = ICON_SIZE) -> StoredImage:
    """``raw`` as the server keeps a face: decoded, bounded, re-encoded, no metadata.
    Raises :class:`TableApiError` (413 too large, 422 not an image)."""
    if len(raw) > MAX_FACE_BYTES:
        raise too_large(len(raw))
    if not raw:
        raise not_an_image("空です", "it is empty")
    require_extra("PIL", "server", Message("画像 (Pillow)", "images (Pillow)"))
    from PIL import Image, ImageOps, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            picture = Image.open(io.BytesIO(raw), formats=list(ACCEPTED_FORMATS))
            width, height = picture.size
            if width <= 0 or height <= 0 or width * height > MAX_FACE_PIXELS:
                raise too_many_pixels(width, height)
            picture.seek(0)  # an animated GIF or WebP: its first frame
            picture.load()
            upright = ImageOps.exif_transpose(picture)
    except TableApiError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise not_an_image("画素数が多すぎます", "too many pixels") from None
    except UnidentifiedImageError:
        raise not_an_image() from None
    except (OSError, SyntaxError, ValueError, EOFError, MemoryError, IndexError, TypeError):
        raise not_an_image("壊れています", "it is damaged") from None
    return _encoded(upright, picture.format == "JPEG", size)


def _encoded(picture: Image, was_jpeg: bool, size: int) -> StoredImage:
    from PIL import Image as PilImage

    clear = picture.mode in ("RGBA", "LA", "PA") or (
        picture.mode == "P" and "transparency" in picture.info
    )
    picture = picture.convert("RGBA" if clear else "RGB")
    picture.thumbnail((size, size), PilImage.Resampling.LANCZOS)
    out = io.BytesIO()
    if was_jpeg and not clear:
        picture.save(out, "JPEG", quality=88, optimize=True)
        content_type = JPEG
    else:
        picture.save(out, "PNG", optimize=True)
        content_type = PNG
    data = out.getvalue()
    return StoredImage(hashlib.sha256(data).hexdigest(), content_type, data)


#: The longest side of a face in the HTML log (pixels; shown at 2em, sharp on a 2× screen).
LOG_FACE_SIZE = 64


def log_face(store: SqlStore, room: RoomRecord, digest: str) -> str | None:
    """The room's image ``digest`` as the HTML log embeds it (None: the room has none)."""
    image = store.images.get(room, digest)
    return thumbnail_data_url(image, LOG_FACE_SIZE) if image is not None else None


def thumbnail_data_url(image: StoredImage, size: int) -> str:
    """A small copy of a stored face as a ``data:`` URL (the HTML log embeds these)."""
    import base64

    from PIL import Image

    with Image.open(io.BytesIO(image.data)) as picture:
        picture.load()
        small = picture.convert("RGBA")
    small.thumbnail((size, size), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, "WEBP", quality=80)
    return "data:image/webp;base64," + base64.b64encode(out.getvalue()).decode("ascii")


__all__ = [
    "ICON_SIZE",
    "MAX_FACE_BYTES",
    "MAX_FACE_PIXELS",
    "normalise_face",
    "not_an_image",
    "thumbnail_data_url",
    "too_large",
]
