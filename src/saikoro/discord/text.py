"""What the bot writes, as plain text (pure; no Discord objects): long answers cut to
Discord's 2000-character messages, and the combat tracker as one message."""

from __future__ import annotations

from saikoro.table.state import RoomState, public_character

#: Discord's limit for one message's content.
MESSAGE_LIMIT = 2000
#: More pieces than this go as one attached text file instead (one message, no flood).
MAX_PIECES = 4
#: Width of an HP bar in the tracker (characters).
BAR_WIDTH = 10


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut at line ends where a line
    fits (a longer line is cut where it must). Nothing is lost: the pieces joined with
    line breaks give ``text`` back (less the blanks at the cuts)."""
    if len(text) <= limit:
        return [text] if text else []
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:limit])
            line = line[limit:]
        joined = f"{current}\n{line}" if current else line
        if len(joined) > limit:
            pieces.append(current)
            current = line
        else:
            current = joined
    if current:
        pieces.append(current)
    return pieces


def hp_bar(hp: int, max_hp: int, width: int = BAR_WIDTH) -> str:
    """``■■■■■□□□□□`` for 5/10 (empty when the character is down)."""
    if max_hp <= 0:
        return ""
    filled = max(0, min(width, round(width * hp / max_hp)))
    return "■" * filled + "□" * (width - filled)


def render_tracker(state: RoomState) -> str:
    """The tracker message: round, whose turn, the order with HP bars and conditions."""
    combat = state.combat
    if combat is None:
        return "⚔ 戦闘は終わりました / the combat is over"
    lines = [f"⚔ **ラウンド {combat.round}** / round {combat.round}"]
    if combat.current:
        lines.append(f"▶ **{combat.current}** の手番 / {combat.current}'s turn")
    names = list(combat.order) + [n for n in state.characters if n not in combat.order]
    for name in names:
        character = state.characters.get(name)
        if character is None:
            continue
        mark = "▶" if name == combat.current else ("✓" if name in combat.acted else "・")
        side = "PC" if character.side == "pc" else "NPC"
        row = f"{mark} {name} ({side}) HP {character.hp}/{character.max_hp} "
        row += hp_bar(character.hp, character.max_hp)
        conditions = public_character(character)["conditions"]
        if conditions:
            row += "  [" + "、".join(conditions) + "]"
        lines.append(row)
    return "\n".join(lines)


__all__ = ["MAX_PIECES", "MESSAGE_LIMIT", "hp_bar", "render_tracker", "split_message"]
