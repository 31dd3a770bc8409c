"""A short fight in each system, played in Chromium by a GM and two players.

The GM creates the room and drops the enemy's sheet on the page; the players open the invite
link and join with a CCFOLIA JSON character; a palette button rolls (its chance shown before
the click); the GM starts combat; the player whose turn it is attacks with the system's action
buttons and the damage shows on every page without reloading; their undo restores it
everywhere; a secret roll is seen by its roller and the GM but not the other player until the
GM reveals it. Dice show fixed faces (d6: 4, d100: 30 — see conftest.FIXED_FACES).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.web.characters import ENEMIES, FACES, LITTLEWORLD_PLAYERS, UNMEID100_PLAYERS
from tests.web.helpers import (
    card_hp,
    create_room,
    drop_file,
    invite_url,
    join,
    new_page,
    send_line,
    upload_face,
)

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"

FIGHTS = {
    # system: (players' CCFOLIA JSON, palette button, what it shows, the attack, HP before → after)
    "LittleWorld": {
        "players": LITTLEWORLD_PLAYERS,
        "enemy_file": "goblin.yaml",
        "palette": "【体力】判定 目標値10",
        "rolled": "(LW5>=10) ＞ 8[4,4]+5 ＞ 13 ＞ 成功",
        "hp": ("HP 8/8", "HP 6/8"),
        "attack": ("攻撃",),
    },
    "UnmeiD100": {
        "players": UNMEID100_PLAYERS[::-1],  # リナ acts first (敏捷度)
        "enemy_file": "goblin.json",
        "palette": "運命判定",
        "rolled": "(FATE11) ＞ 運命判定 (1D100<=55) ＞ 30 ＞ 成功",
        "hp": ("HP 8/8", "HP 4/8"),
        "attack": ("白兵",),
    },
}


def save_screenshot(page, path: Path) -> None:  # type: ignore[no-untyped-def]
    """The page as a 128-colour PNG (the README's screenshots stay small); an existing
    file that already looks the same (no pixel off by more than rounding) is left as it is,
    so a test run does not rewrite committed images."""
    from PIL import Image, ImageChops

    with Image.open(io.BytesIO(page.screenshot())) as shot:
        small = shot.convert("RGB").quantize(colors=128)
    if path.exists():
        with Image.open(path) as old:
            same_size = old.size == small.size
            spread = (
                ImageChops.difference(old.convert("RGB"), small.convert("RGB"))
                if same_size
                else None
            )
            if spread is not None and max(high for _, high in spread.getextrema()) <= 48:
                return
    small.save(path, optimize=True)


@pytest.mark.parametrize("system", sorted(FIGHTS))
def test_a_short_fight(browser, server, system: str) -> None:
    fight = FIGHTS[system]
    gm = new_page(browser)
    create_room(gm, server, f"ゴブリン退治 {system}", system)
    drop_file(gm, "#npc-drop", fight["enemy_file"], ENEMIES[system])
    expect(card_hp(gm, "ゴブリン")).to_have_text(fight["hp"][0])

    invite = invite_url(gm)
    player, other = new_page(browser), new_page(browser)
    join(player, invite, "character.json", fight["players"][0])
    join(other, invite, "character.json", fight["players"][1])
    me = player.locator("#speaker option").first.inner_text()
    you = other.locator("#speaker option").first.inner_text()
    for page, name, face in ((player, me, FACES[0]), (other, you, FACES[1])):  # their faces
        upload_face(page, name, face)
        expect(gm.locator(f'.card[data-name="{name}"] .face img')).to_have_count(1)

    # a palette button shows its chance before the click; its roll reaches the GM live
    button = player.locator(".palette-item", has_text=fight["palette"]).first
    expect(button.locator(".chance")).to_have_text(re.compile(r"^\d+(\.\d)?%$"))
    button.click()
    for page in (player, gm, other):
        expect(page.locator("#log li.ev").last).to_contain_text(fight["rolled"])
        expect(page.locator("#log li.ev").last.locator("mark.success")).to_have_text("成功")

    # the GM starts combat; the player whose turn it is attacks with the action buttons
    gm.get_by_role("button", name="戦闘開始").click()
    for page in (gm, player):
        expect(page.locator("#combat .summary")).to_contain_text(f"{me}の手番")
    actions = player.locator("#combat .actions")
    actions.locator("select").first.select_option("ゴブリン")
    actions.get_by_role("button", name=fight["attack"][0], exact=True).click()
    for page in (gm, player, other):
        expect(card_hp(page, "ゴブリン")).to_have_text(fight["hp"][1])

    # the attacker's undo takes the whole line back on every page
    player.get_by_role("button", name="取り消し").click()
    for page in (gm, player, other):
        expect(card_hp(page, "ゴブリン")).to_have_text(fight["hp"][0])
        expect(page.locator("#combat .summary")).to_contain_text(f"{me}の手番")

    # a secret roll: the roller and the GM see it, the other player only once it is revealed
    secret = "(2D6) ＞ 8[4,4] ＞ 8"
    send_line(player, "S2D6")
    for page in (player, gm):
        expect(page.locator("#log li.secret").last).to_contain_text(secret)
    expect(other.locator("#log li.ev").last).to_contain_text("シークレットダイス")
    expect(other.locator("#log")).not_to_contain_text(secret)
    gm.locator("#log li.secret .reveal").last.click()
    expect(other.locator("#log")).to_contain_text(secret)

    # the attack again, for the screenshots of a fight under way
    actions.get_by_role("button", name=fight["attack"][0], exact=True).click()
    expect(card_hp(gm, "ゴブリン")).to_have_text(fight["hp"][1])
    # the player shown is the one whose turn it is (the cue and the actions on their page)
    acting = next(
        page for page in (player, other) if page.locator("#combat .your-turn").is_visible()
    )
    expect(gm.locator("#usage")).to_contain_text("プレイヤー 2/12")
    DOCS_IMG.mkdir(exist_ok=True)
    save_screenshot(gm, DOCS_IMG / f"webtable-{system}-gm.png")
    save_screenshot(acting, DOCS_IMG / f"webtable-{system}-player.png")
    for page in (gm, player, other):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
