"""The web table's details, each seen in Chromium: a room named with a date (``12/1``), the
page in English (links panel, inline refusals, the downloaded log), the GM's links panel
kept up to date and usable from another device (a phone), the player's own CCFOLIA palette,
palette lines to fill in before sending, a secret roll shown once to the others, and every
運命判定d100 combat action button."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.web.characters import ENEMIES, EXAMPLES, LITTLEWORLD_PLAYERS
from tests.web.helpers import (
    PHONE,
    create_room,
    drop_file,
    invite_url,
    join,
    new_page,
    send_line,
)


def _with_palette(character: str, commands: str) -> str:
    piece = json.loads(character)
    piece["data"]["commands"] = commands
    return json.dumps(piece, ensure_ascii=False)


def test_a_dated_room_in_english_with_links_palette_and_secrets(browser, server) -> None:
    # a name that is empty once trimmed is refused in the page's language, nothing is made
    gm = new_page(browser)
    gm.goto(server)
    gm.fill("#create-form [name=name]", "   ")
    gm.click("#create-form button[type=submit]")
    expect(gm.locator("#create-form .error")).to_have_text("部屋の名前が空です")
    expect(gm.locator("#lobby")).to_be_visible()

    # a date in the name: the room opens, and its links work
    create_room(gm, server, "12/1 セッション", "LittleWorld")
    expect(gm.locator("#room-title")).to_have_text("12/1 セッション")
    invite = invite_url(gm)
    gm.get_by_role("button", name="English").click()
    links = gm.locator("#links")
    expect(links.locator("li").first).to_contain_text("Invite (players)")
    expect(links.get_by_role("button", name="Copy")).to_have_count(2)
    expect(links.get_by_role("button", name="Revoke").first).to_be_visible()

    # a player who joins now shows in the GM's links panel without a reload
    player = new_page(browser)
    jump = "2D6+{体力}>=9 ジャンプ"
    join(player, invite, "mina.json", _with_palette(LITTLEWORLD_PLAYERS[0], jump))
    expect(links.locator("li", has_text="Player: ミナ")).to_have_count(1)

    # the player's own palette line, with its chance; an attack line is filled in first
    own = player.locator(".palette-item.own", has_text="ジャンプ")
    expect(own.locator(".chance")).to_have_text("92%")  # 2D6 ≥ 4
    attack = player.locator(".palette-item", has_text="【体力】で攻撃")
    expect(attack.locator(".chance")).to_have_count(0)
    before = player.locator("#log li.ev").count()
    attack.click()
    expect(player.locator("#line")).to_have_value("LWA5-X")
    selected = player.evaluate(
        "() => { const i = document.querySelector('#line');"
        " return i.value.slice(i.selectionStart, i.selectionEnd); }"
    )
    assert selected == "X"
    assert player.locator("#log li.ev").count() == before  # nothing was sent
    player.keyboard.type("4")
    player.press("#line", "Enter")
    expect(player.locator("#log li.ev").last).to_contain_text("LWA5-4")

    # another's secret roll reads "secret dice" once
    send_line(gm, "S2D6")
    hidden = player.locator("#log li.secret").last
    expect(hidden).to_contain_text("GM")
    assert hidden.inner_text().count("シークレットダイス") == 1, hidden.inner_text()

    # a refusal inline in the page's language (English on the GM's page)
    gm.fill("#line", "/char remove いない")
    gm.press("#line", "Enter")
    expect(gm.locator("#line-error")).to_have_text(re.compile(r"^no character 'いない'"))

    # the downloaded log is in the page's language
    with gm.expect_download() as download:
        gm.get_by_role("button", name="Download the log (HTML)").click()
    html = Path(download.value.path()).read_text("utf-8")
    assert '<html lang="en"' in html and "LWA5-4" in html

    # the GM opens the GM link on a phone: no invite URL there, a new one is one tap away
    phone = new_page(browser, PHONE)
    phone.goto(gm.url)
    expect(phone.locator("#status")).to_have_text("接続中")
    expect(phone.locator("#links .note")).to_be_visible()
    width = phone.evaluate("document.querySelector('#line').getBoundingClientRect().width")
    assert width >= 250, width
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.get_by_role("button", name="新しい招待リンク").click()
    expect(phone.locator("#links input").first).to_have_value(re.compile(r"#room=12%2F1.*&invite="))
    expect(phone.locator("#links .note")).to_be_hidden()

    # a link to no room: the lobby says why, in the page's language only
    phone.goto(f"{server}#room=nowhere&token=x")
    expect(phone.locator("#create-form .error")).to_have_text(
        re.compile(r"^部屋に入れません \(.*\): [^/]*$")
    )
    for page in (gm, player, phone):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


#: Each 運命判定d100 action button: (its label, fields to set first, the line it sends).
UNMEI_ACTIONS = [
    ("白兵", {}, "@リナ /melee ゴブリン"),
    ("射撃", {}, "@リナ /shoot ゴブリン"),  # misses (30 > 27) …
    ("運命判定", {}, "@リナ /fate success"),  # … and fate turns it into a success
    ("狙う", {}, "@リナ /aim"),
    ("詠唱", {"魔法": "ファイアボルト"}, "@リナ /chant ファイアボルト"),
    ("発動", {}, "@リナ /cast ゴブリン"),
    ("防御専念", {}, "@リナ /defend"),
    ("移動", {}, "@リナ /move 3"),
]


def _next_turn_of_lina(gm: Page, player: Page) -> None:
    """The GM ends the turn, and moves it on until it is リナ's."""
    turns = player.locator("#log li.kind-turn_started")
    for _ in range(4):
        count = turns.count()
        gm.get_by_role("button", name="次の手番").click()
        expect(turns).to_have_count(count + 1)
        if "リナ の手番" in turns.last.inner_text():
            expect(player.locator("#combat .summary")).to_contain_text("リナの手番")
            return
    raise AssertionError("リナ's turn never came")


def test_every_unmeid100_action_button_sends_its_line(browser, server) -> None:
    gm = new_page(browser)
    create_room(gm, server, "行動ボタンの卓", "UnmeiD100")
    goblin = json.loads(ENEMIES["UnmeiD100"]) | {"hp": 80, "max_hp": 80}  # lasts the test
    drop_file(gm, "#npc-drop", "goblin.json", json.dumps(goblin, ensure_ascii=False))
    player = new_page(browser)
    lina = (EXAMPLES / "unmeid100" / "pc_lina.yaml").read_text("utf-8")
    join(player, invite_url(gm), "lina.yaml", lina)
    gm.get_by_role("button", name="戦闘開始").click()
    actions = player.locator("#combat .actions")
    sent: list[str] = []
    player.on(
        "request",
        lambda r: sent.append(r.post_data_json["line"]) if r.url.endswith("/lines") else None,
    )
    expect(player.locator("#combat .summary")).to_contain_text("リナの手番")  # 敏捷度 14 > 8
    for label, fields, line in UNMEI_ACTIONS:
        if label not in ("白兵", "運命判定"):
            _next_turn_of_lina(gm, player)
        if label == "射撃":  # the bow in hand first (a turn of its own)
            send_line(player, "/switch ショートボウ")
            _next_turn_of_lina(gm, player)
        for name, value in fields.items():
            actions.get_by_label(name).fill(value)
        count = player.locator("#log li.ev").count()
        with player.expect_response(lambda r: r.url.endswith("/lines")) as answer:
            actions.get_by_role("button", name=label, exact=True).click()
        assert sent[-1] == line
        assert answer.value.ok, answer.value.text()
        expect(player.locator("#log li.ev")).not_to_have_count(count)  # its result shows
        expect(player.locator("#line-error")).to_be_empty()
        if label == "発動":  # a spell that takes effect is marked as a tracker hit
            expect(player.locator("#log mark.hit", has_text="効果発揮")).to_have_count(1)
    for page in (gm, player):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
