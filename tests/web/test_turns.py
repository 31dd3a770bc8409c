"""Turns and targets at a first session, in Chromium (issue 19), both systems, laptop and phone.

The players join before the GM adds the enemy (the usual order, which once made a fellow PC
the attack's default target). Only the page of the character whose turn it is shows the
actions, with the cue 「あなたの手番です」 (highlight, the tab's title, a sound one can switch
off); the other player sees whose turn it is and no action button. The target list groups
敵/味方 and remembers the actor's last choice; the GM's buttons are enabled only when they apply.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.characters import ENEMIES, LITTLEWORLD_PLAYERS, UNMEID100_PLAYERS
from tests.web.helpers import (
    LAPTOP,
    PHONE,
    card_hp,
    create_room,
    drop_file,
    invite_url,
    join,
    new_page,
)

PLAYERS = {"LittleWorld": LITTLEWORLD_PLAYERS, "UnmeiD100": UNMEID100_PLAYERS}
ENEMY_FILE = {"LittleWorld": "goblin.yaml", "UnmeiD100": "goblin.json"}
ATTACK = {"LittleWorld": "攻撃", "UnmeiD100": "白兵"}


def gm_button(gm: Page, name: str):  # type: ignore[no-untyped-def]
    return gm.locator("#combat .gm-only").get_by_role("button", name=name, exact=True)


def player_names(page: Page) -> list[str]:
    return page.locator("#speaker option").all_inner_texts()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("system", sorted(PLAYERS))
def test_turns_and_targets_when_players_join_first(browser, server, system: str, viewport) -> None:
    gm = new_page(browser, viewport)
    create_room(gm, server, f"手番 {system} {viewport['width']}", system)
    expect(gm_button(gm, "戦闘開始")).to_be_disabled()  # nobody to fight yet
    invite = invite_url(gm)
    first, second = new_page(browser, viewport), new_page(browser, viewport)
    join(first, invite, "character.json", PLAYERS[system][0])
    join(second, invite, "character.json", PLAYERS[system][1])
    drop_file(gm, "#npc-drop", ENEMY_FILE[system], ENEMIES[system])  # the enemy comes last
    expect(card_hp(gm, "ゴブリン")).to_be_visible()

    # the GM's buttons: only 戦闘開始 applies before a combat, only the others during one
    expect(gm_button(gm, "戦闘開始")).to_be_enabled()
    expect(gm_button(gm, "次の手番")).to_be_disabled()
    expect(gm_button(gm, "戦闘終了")).to_be_disabled()
    gm_button(gm, "戦闘開始").click()
    expect(gm_button(gm, "戦闘開始")).to_be_disabled()
    expect(gm_button(gm, "次の手番")).to_be_enabled()
    expect(gm_button(gm, "戦闘終了")).to_be_enabled()

    current = gm.locator("#combat .order li.current").inner_text()
    pages = {player_names(first)[0]: first, player_names(second)[0]: second}
    actor = pages[current]
    other = next(page for name, page in pages.items() if name != current)
    ally = next(name for name in pages if name != current)

    # the actor's page: the cue, the actions, an opponent as the default target
    for page in (actor, other):
        expect(page.locator("#combat .summary")).to_contain_text(f"{current}の手番")
    expect(actor.locator("#combat .your-turn")).to_be_visible()
    expect(actor.locator("#combat .your-turn")).to_contain_text("あなたの手番です")
    expect(actor).to_have_title(re.compile("あなたの手番です"))
    target = actor.locator("#combat .actions select[data-field=target]")
    expect(target).to_have_value("ゴブリン")
    assert target.locator("optgroup").evaluate_all("gs => gs.map(g => g.label)") == ["敵", "味方"]
    expect(target.locator("optgroup[label=敵] option")).to_have_text(["ゴブリン"])
    expect(target.locator("optgroup[label=味方] option")).to_have_text([ally])

    # the other player's page, and the GM's during a PC's turn: whose turn it is, no action
    expect(gm.locator("#combat .actions button:enabled")).to_have_count(0)
    expect(gm.locator("#combat .your-turn")).to_be_hidden()
    expect(other.locator("#combat .your-turn")).to_be_hidden()
    expect(other.locator("#combat .actions button:enabled")).to_have_count(0)
    assert "あなたの手番です" not in other.title()

    if viewport is PHONE:  # the actor's actions come first; the others' page keeps the log first
        top = lambda page, sel: page.locator(sel).bounding_box()["y"]  # noqa: E731
        assert top(actor, "#combat .actions") < top(actor, "#log")
        assert top(other, "#log") < top(other, "#combat")

    # an ally may be chosen; the choice is remembered for this actor (also after a reload)
    target.select_option(ally)
    gm.locator('.card[data-name="ゴブリン"] .hp').click()
    gm.keyboard.type("7")
    gm.keyboard.press("Enter")
    expect(card_hp(actor, "ゴブリン")).to_contain_text("HP 7/")
    expect(target).to_have_value(ally)
    actor.reload()
    expect(actor.locator("#combat .actions select[data-field=target]")).to_have_value(ally)
    target = actor.locator("#combat .actions select[data-field=target]")
    target.select_option("ゴブリン")

    # the sound can be switched off (and stays off)
    sound = actor.locator("#combat .your-turn .sound input")
    expect(sound).to_be_checked()
    sound.uncheck()
    assert actor.evaluate("localStorage.getItem('saikoro.turnSound')") == "off"

    # the attack goes to the opponent; the turn passes: the actions leave the page
    actor.locator("#combat .actions").get_by_role("button", name=ATTACK[system], exact=True).click()
    expect(card_hp(gm, "ゴブリン")).not_to_contain_text("HP 7/")
    expect(actor.locator("#log li.kind-roll").last).to_contain_text("→ ゴブリン")
    if system == "UnmeiD100":  # its turn ends by the GM's 次の手番
        gm_button(gm, "次の手番").click()
    expect(actor.locator("#combat .summary")).not_to_contain_text(f"{current}の手番")
    expect(actor.locator("#combat .actions button:enabled")).to_have_count(0)
    expect(actor.locator("#combat .your-turn")).to_be_hidden()
    assert "あなたの手番です" not in actor.title()
    for page in (gm, first, second):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
