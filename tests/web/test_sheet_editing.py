"""Quick NPCs, card editing, counters and palette editing in the page (issue 24, points 4 to
6), on a laptop and a phone, for both systems: the GM's form (from the system's sheet
fields) with a count of 3 puts three cards on the GM's and a player's page; the GM edits a
field from a card and duplicates it; counters' −/+ change the HP bar and a counter without a
maximum; a player adds, edits and removes their own palette lines, and a reload keeps them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.web.characters import LITTLEWORLD_PLAYERS, UNMEID100_PLAYERS
from tests.web.helpers import LAPTOP, PHONE, create_room, invite_url, join, new_page

#: Per system: the player's file and name, the form's required fields, the ability edited.
CASES = {
    "LittleWorld": {
        "player": (LITTLEWORLD_PLAYERS[0], "ミナ"),
        "fields": {
            "max_hp": "6",
            "abilities.体力": "3",
            "abilities.技巧": "2",
            "abilities.理知": "1",
        },
        "ability": ("abilities.体力", "体力", "4"),
    },
    "UnmeiD100": {
        "player": (UNMEID100_PLAYERS[0], "ガルド"),
        "fields": {
            "max_hp": "6",
            "abilities.体格.value": "10",
            "abilities.敏捷度.value": "11",
            "abilities.魅力.value": "8",
            "abilities.運命.value": "9",
        },
        "ability": ("abilities.体格.value", "体格", "12"),
    },
}


def card(page: Page, name: str) -> Locator:
    return page.locator(f'.card[data-name="{name}"]')


def dialog(page: Page) -> Locator:
    return page.locator("#sheet-dialog")


def make_goblins(gm: Page, system: str) -> None:
    gm.click("#new-npc")
    form = dialog(gm)
    expect(form).to_be_visible()
    form.locator("[name=name]").fill("ゴブリン")
    for path, value in CASES[system]["fields"].items():
        form.locator(f'[name="{path}"]').fill(value)
    form.locator("[name=count]").fill("3")
    form.locator("button[type=submit]").click()
    expect(form).to_be_hidden()


def own_lines(page: Page) -> Locator:
    return page.locator("#palette .palette-item.own")


def edit_palette(page: Page, text: str) -> None:
    page.click("#edit-palette")
    box = dialog(page).locator("textarea[name=palette]")
    expect(box).to_be_visible()
    box.fill(text)
    dialog(page).locator("button[type=submit]").click()
    expect(dialog(page)).to_be_hidden()


@pytest.mark.parametrize("system", ["LittleWorld", "UnmeiD100"])
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_npc_form_card_edits_counters_and_palette(browser, fast_server, system, viewport) -> None:
    case = CASES[system]
    gm = new_page(browser, viewport)
    create_room(gm, fast_server, f"編集の卓-{system}-{viewport['width']}", system)
    player = new_page(browser, viewport)
    character, me = case["player"]
    join(player, invite_url(gm), "pc.json", character)
    expect(card(gm, me)).to_be_visible()

    # the NPC form, from the system's sheet fields, with a count of 3
    make_goblins(gm, system)
    for page in (gm, player):
        for name in ("ゴブリンA", "ゴブリンB", "ゴブリンC"):
            expect(card(page, name)).to_be_visible()
    expect(player.locator("#new-npc")).to_be_hidden()
    expect(card(player, "ゴブリンA").locator(".tool")).to_have_count(0)  # not theirs

    # the GM edits a field from a card (the ability), and the memo
    path, label, value = case["ability"]
    card(gm, "ゴブリンA").locator(".tool.edit").click()
    form = dialog(gm)
    expect(form.locator(f'[name="{path}"]')).to_have_value(CASES[system]["fields"][path])
    form.locator(f'[name="{path}"]').fill(value)
    form.locator('textarea[name="notes.メモ"]').fill("臆病")
    form.locator("button[type=submit]").click()
    expect(form).to_be_hidden()
    expect(player.locator("#log li.ev", has_text=f"ゴブリンA の {label}")).to_be_visible()
    pair = card(gm, "ゴブリンA").locator(".values div", has_text=label)
    expect(pair.locator("dd")).to_have_text(value)
    # duplicate it from its card: the next free letter
    card(gm, "ゴブリンA").locator(".tool.duplicate").click()
    expect(card(player, "ゴブリンD")).to_be_visible()

    # counters: the GM's − on the goblin's HP moves its bar on the player's page too
    card(gm, "ゴブリンA").locator(".hp-line .step", has_text="−").click()
    expect(card(player, "ゴブリンA").locator(".hp")).to_have_text("HP 5/6")
    expect(card(player, "ゴブリンA").locator(".hpbar")).to_have_attribute("aria-valuenow", "5")
    mine = card(player, me)
    mine.locator(".hp-line .step", has_text="−").click()
    expect(card(gm, me).locator(".hpbar")).to_have_attribute(
        "aria-valuenow", str(int(mine.locator(".hpbar").get_attribute("aria-valuemax") or 0) - 1)
    )
    if system == "LittleWorld":
        # cr has no maximum: a counter, no bar; 禁忌値 is the GM's: no buttons for the player
        cr = mine.locator('.counter[data-label="cr"]')
        expect(cr.locator(".meter")).to_have_count(0)
        cr.locator(".step", has_text="+").click()
        expect(card(gm, me).locator('.counter[data-label="cr"] .value')).to_have_text("1")
        expect(mine.locator('.counter[data-label="禁忌値"] .step')).to_have_count(0)
        expect(card(gm, me).locator('.counter[data-label="禁忌値"] .step')).to_have_count(1)
    else:
        # 運命判定回数: a bar the GM sets (/gm set … fate_left), no buttons for the player
        fate = card(gm, me).locator('.counter[data-label="運命判定回数"]')
        expect(fate.locator(".value")).to_have_text("2/2")
        fate.locator(".step", has_text="−").click()
        expect(mine.locator('.counter[data-label="運命判定回数"] .value')).to_have_text("1/2")
        expect(mine.locator('.counter[data-label="運命判定回数"] .meter')).to_have_attribute(
            "aria-valuenow", "1"
        )
        expect(mine.locator('.counter[data-label="運命判定回数"] .step')).to_have_count(0)

    # a player's own palette lines: add two, edit one and remove the other, reload keeps them
    expect(player.locator("#palette .palette-item").first).to_be_visible()
    edit_palette(player, "2D6+1 様子見\n1D6 逃走")
    expect(own_lines(player)).to_have_count(2)
    expect(own_lines(player).first).to_contain_text("様子見")
    edit_palette(player, "1D6+1 逃走")
    expect(own_lines(player)).to_have_count(1)
    expect(own_lines(player)).to_contain_text("逃走")
    player.reload()
    expect(own_lines(player)).to_have_count(1)
    expect(own_lines(player)).to_contain_text("逃走")
    # the player's own card editor has the memo only
    card(player, me).locator(".tool.edit").click()
    expect(dialog(player).locator('textarea[name="notes.メモ"]')).to_be_visible()
    expect(dialog(player).locator("input")).to_have_count(0)
    dialog(player).locator("textarea").fill("地図を持っている")
    dialog(player).locator("button[type=submit]").click()
    expect(gm.locator("#log li.ev", has_text=f"{me} の メモ を変更")).to_be_visible()
    for page in (gm, player):
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()


@pytest.mark.parametrize("system", ["LittleWorld", "UnmeiD100"])
def test_the_npc_form_in_english_names_no_japanese_word(browser, fast_server, system) -> None:
    """The English page's form labels its fields in English (the system's English terms,
    else the sheet's own English field names)."""
    import re

    gm = new_page(browser, PHONE)
    create_room(gm, fast_server, f"英語の卓-{system}", system)
    gm.click("#lang")
    gm.click("#new-npc")
    expect(dialog(gm)).to_be_visible()
    dialog(gm).locator("summary").click()
    labels = dialog(gm).locator(".field > span").all_inner_texts()
    assert len(labels) >= 8, labels
    japanese = [text for text in labels if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text)]
    assert japanese == [], japanese
    assert gm.errors == []  # type: ignore[attr-defined]
    gm.context.close()
