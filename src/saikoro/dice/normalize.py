"""Input normalization: full-width and mixed-width text behaves as its half-width form."""

from __future__ import annotations

from saikoro.errors import SaikoroError
from saikoro.i18n import Message

#: The longest command: BCDice has no limit and BCDice-API's server (Puma) takes a query
#: string of up to 10 KiB, so a command BCDice-API answers is never refused for its length.
MAX_INPUT_LENGTH = 10240

# Full-width ASCII (U+FF01–U+FF5E) → ASCII, the ideographic space → space, and the
# look-alike signs Japanese IMEs produce for operators.
_WIDTH_TABLE = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_WIDTH_TABLE.update(
    {
        0x3000: ord(" "),  # ideographic space
        0x2212: ord("-"),  # minus sign
        0x2010: ord("-"),  # hyphen
        0x2011: ord("-"),  # non-breaking hyphen
        0x2013: ord("-"),  # en dash
        0x00D7: ord("*"),  # multiplication sign ×
        0x00F7: ord("/"),  # division sign ÷
    }
)
# Signs that stand for two ASCII characters (Japanese IMEs offer ≦ and ≧).
_EXPANSIONS = {"≤": "<=", "≥": ">=", "≦": "<=", "≧": ">=", "≠": "<>"}


class InputTooLongError(SaikoroError):
    reason = "input too long"

    def __init__(self, length: int) -> None:
        super().__init__(
            Message(
                f"入力が長すぎます ({length} 文字; {MAX_INPUT_LENGTH} 文字まで)",
                f"input is too long ({length} characters; at most {MAX_INPUT_LENGTH})",
            )
        )


def to_half_width(text: str) -> str:
    """Full-width ASCII, the ideographic space and IME operator look-alikes → ASCII."""
    if text.isascii():
        return text
    for sign, ascii_form in _EXPANSIONS.items():
        if sign in text:
            text = text.replace(sign, ascii_form)
    return text.translate(_WIDTH_TABLE)


def normalize(command: str) -> str:
    """Half-width, stripped text; raises :class:`InputTooLongError` past :data:`MAX_INPUT_LENGTH`."""
    if len(command) > MAX_INPUT_LENGTH:
        raise InputTooLongError(len(command))
    return to_half_width(command).strip()
