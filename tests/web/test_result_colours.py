"""Result colours in Chromium with scripted dice (issue 19): 成功, 失敗, クリティカル and
ファンブル, and the tracker's hit, miss and damage, each in a colour of its own, in the page and
in the downloaded ``log.html``, in both systems.

The dice are scripted per roll (``scripted_server.queue``: tests/web/serve_fixed_dice.py); a
player rolls from the palette and attacks with the tracker's buttons, the GM's enemy attacks
back with the GM's. 運命判定d100 has no fumble (UM-CHECK-01: a plain check succeeds or fails;
only attacks are critical, UM-MELEE-01), so its page shows the other six; 新クトゥルフ神話TRPG's
CC shows a fumble (and the other three) in a second system.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.characters import ENEMIES, LITTLEWORLD_PLAYERS, UNMEID100_PLAYERS
from tests.web.conftest import ScriptedServer
from tests.web.helpers import (
    card_hp,
    create_room,
    drop_file,
    invite_url,
    join,
    new_page,
    send_line,
)


def rolled(page: Page, server: ScriptedServer, faces: tuple[int, ...], click) -> None:  # type: ignore[no-untyped-def]
    """Click with ``faces`` queued; wait for the roll's line, every queued face taken."""
    lines = page.locator("#log li.ev.kind-roll")
    before = lines.count()
    server.queue(*faces)
    click()
    expect(lines).to_have_count(before + 1)
    assert server.left() == [], server.left()


def attack(page: Page, server: ScriptedServer, faces: tuple[int, ...], button: str) -> None:
    """The tracker's ``button`` (against the default target: an opponent) on ``page``."""
    actions = page.locator("#combat .actions")
    rolled(page, server, faces, actions.get_by_role("button", name=button, exact=True).click)


def colour(page: Page, selector: str) -> str:
    """The text and background colour of the last element ``selector`` finds."""
    return page.locator(selector).last.evaluate(
        "m => getComputedStyle(m).color + ' on ' + getComputedStyle(m).backgroundColor"
    )


def ink(page: Page) -> str:
    """The colour of plain text (the body's ink on no background of its own)."""
    return colour(page, "body").split(" on ")[0] + " on rgba(0, 0, 0, 0)"


def download_log(page: Page) -> str:
    with page.expect_download() as download:
        page.get_by_role("button", name="ログをダウンロード (HTML)").click()
    return Path(download.value.path()).read_text("utf-8")


def play_littleworld(gm: Page, player: Page, server: ScriptedServer) -> None:
    check = player.locator(".palette-item", has_text="【体力】判定 目標値10").first
    for faces in ((6, 6), (1, 1), (4, 4), (2, 1)):  # critical, fumble, 13 ≥ 10, 8 < 10
        rolled(gm, server, faces, check.click)
    gm.get_by_role("button", name="戦闘開始").click()
    expect(player.locator("#combat .summary")).to_contain_text("ミナの手番")
    attack(player, server, (4, 3, 2, 2), "攻撃")  # 12 against 7
    expect(card_hp(gm, "ゴブリン")).to_have_text("HP 3/8")  # 12 − 7: damage 5
    expect(gm.locator("#combat .summary")).to_contain_text("ゴブリンの手番")
    attack(gm, server, (3, 3, 4, 4), "攻撃")  # 11 against 13: no damage
    expect(gm.locator("#combat .summary")).to_contain_text("ミナの手番")


def play_unmeid100(gm: Page, player: Page, server: ScriptedServer) -> None:
    check = player.locator(".palette-item", has_text="戦闘スキル判定").first
    for faces in ((20,), (80,)):  # ≤ 35, > 35
        rolled(gm, server, faces, check.click)
    gm.get_by_role("button", name="戦闘開始").click()
    expect(player.locator("#combat .summary")).to_contain_text("リナの手番")
    attack(player, server, (5,), "白兵")  # 5 ≤ 敏捷度 14: a critical hit
    gm.get_by_role("button", name="次の手番").click()
    expect(gm.locator("#combat .summary")).to_contain_text("ゴブリンの手番")
    attack(gm, server, (99,), "白兵")  # a miss
    gm.get_by_role("button", name="次の手番").click()
    expect(player.locator("#combat .summary")).to_contain_text("リナの手番")
    attack(player, server, (30,), "白兵")  # 14 < 30 ≤ 35, above AC 20: a hit


#: system: (the player's CCFOLIA JSON, the session, the page's outcome marks and their words)
SESSIONS = {
    "LittleWorld": (
        LITTLEWORLD_PLAYERS[0],
        play_littleworld,
        {
            "critical": "クリティカル",
            "fumble": "ファンブル",
            "success": "成功",
            "failure": "失敗",
            "damage": "ダメージ5",
            "miss": "ダメージ0",
        },
    ),
    "UnmeiD100": (
        UNMEID100_PLAYERS[1],
        play_unmeid100,
        {
            "success": "成功",
            "failure": "失敗",
            "critical": "クリティカル",
            "hit": "命中",
            "miss": "失敗",
            "damage": "ダメージ",
        },
    ),
}
#: Outcomes that must look different from each other (a critical is no mere success, …).
GROUPS = (("critical", "fumble", "success", "failure"), ("hit", "miss", "damage"))


def distinct(colours: dict[str, str], plain: str) -> None:
    for group in GROUPS:
        shown = {word: colours[word] for word in group if word in colours}
        assert len(set(shown.values())) == len(shown), shown
    for word, seen in colours.items():
        assert seen != plain, (word, seen)


@pytest.mark.parametrize("system", sorted(SESSIONS))
def test_every_result_has_its_colour_in_the_page_and_the_log(
    browser: Browser, scripted_server: ScriptedServer, system: str
) -> None:
    character, play, words = SESSIONS[system]
    gm = new_page(browser)
    create_room(gm, scripted_server, f"色 {system}", system)
    invite = invite_url(gm)
    player = new_page(browser)
    join(player, invite, "character.json", character)
    drop_file(gm, "#npc-drop", "goblin", ENEMIES[system])
    expect(card_hp(gm, "ゴブリン")).to_be_visible()
    play(gm, player, scripted_server)

    # the page: each outcome's line has its class and its result word its colour
    in_page = {}
    for word, text in words.items():
        line = gm.locator(f"#log li.ev.{word}").filter(has=gm.locator(f"mark.{word}"))
        if word == "damage" and system == "UnmeiD100":  # the HP line: the whole text
            line = gm.locator("#log li.ev.kind-status_set.damage")
            expect(line.last).to_contain_text(text)
            in_page[word] = colour(gm, "#log li.ev.kind-status_set.damage .text")
            continue
        expect(line.last.locator(f"mark.{word}").first).to_contain_text(text)
        in_page[word] = colour(gm, f"#log li.ev.{word} mark.{word}")
    distinct(in_page, ink(gm))

    # the downloaded log: the same lines, classed and coloured
    html = download_log(gm)
    log = new_page(browser)
    log.set_content(html)
    in_log = {}
    for word, text in words.items():
        hp_line = word == "damage" and system == "UnmeiD100"
        selector = "li.system.damage" if hp_line else f"li.roll.{word} .result"
        expect(log.locator(selector).last).to_contain_text(text)
        in_log[word] = colour(log, selector)
    distinct(in_log, ink(log))
    for page in (gm, player, log):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_a_third_systems_critical_and_fumble_have_theirs_too(
    browser: Browser, scripted_server: ScriptedServer
) -> None:
    """運命判定d100 has no fumble; 新クトゥルフ神話TRPG's CC (typed by the GM) has all four."""
    gm = new_page(browser)
    create_room(gm, scripted_server, "色 Cthulhu7th", "Cthulhu7th")
    words = {
        "critical": "クリティカル",
        "fumble": "ファンブル",
        "success": "成功",
        "failure": "失敗",
    }
    for faces in ((10, 1), (10, 10), (3, 2), (5, 6)):  # 01, 100, 32, 56 against 50
        rolled(gm, scripted_server, faces, lambda: send_line(gm, "CC<=50"))
    in_page = {}
    for word, text in words.items():
        expect(gm.locator(f"#log li.ev.{word} mark.{word}").last).to_contain_text(text)
        in_page[word] = colour(gm, f"#log li.ev.{word} mark.{word}")
    distinct(in_page, ink(gm))
    log = new_page(browser)
    log.set_content(download_log(gm))
    in_log = {}
    for word, text in words.items():
        expect(log.locator(f"li.roll.{word} .result").last).to_contain_text(text)
        in_log[word] = colour(log, f"li.roll.{word} .result")
    distinct(in_log, ink(log))
    for page in (gm, log):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
