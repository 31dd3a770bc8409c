"""The English page (language switch) shows no Japanese but the players' own data, and cuts
no label, in Chromium (issue 19: "The English page has no Japanese system words left and no
cut labels"): both systems, the GM's and a player's pages, laptop and phone, walked at every
step of a realistic session — the lobby, the join page (and its refusal), the room empty and
full, palette rolls, a condition, combat with the actor's cue and attacks on both sides, a
secret roll revealed, a whisper, the GM's HP edit.

Every visible string is read: text, placeholders, titles, ARIA labels, the options of every
visible select. What may stay Japanese is what the users typed or brought: the characters'
names, the room's name, chat lines, sheet names of things (a weapon, a spell). An element
marked ``lang="ja"`` is Japanese on purpose (the 日本語 switch back, the サイコロ brand), and
a command's sheet references (``LW{体力}>=10``) are typed as the sheet labels them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.characters import ENEMIES, LITTLEWORLD_PLAYERS, UNMEID100_PLAYERS
from tests.web.helpers import LAPTOP, PHONE, card_hp, drop_file, new_page, send_line

#: Japanese script: kana, kanji, CJK punctuation (「」、。), half-width kana. Not ＞, the
#: BCDice separator every language's roll text uses.
CJK = re.compile(r"[\u3000-\u303f\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff61-\uff9f]")

#: Every visible string of the page with where it is: [selector-ish path, string].
VISIBLE_STRINGS = """() => {
  const out = [];
  const seen = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const where = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      parts.unshift(e.id ? `#${e.id}` : e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : ''));
      if (e.id) break;
    }
    return parts.join(' > ');
  };
  const japaneseOnPurpose = (el) => el.closest('[lang="ja"]') && document.documentElement.lang !== 'ja' && el.closest('[lang="ja"]') !== document.documentElement;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || ['SCRIPT', 'STYLE', 'OPTION'].includes(el.tagName)) continue;
    if (!seen(el) || japaneseOnPurpose(el)) continue;
    out.push([where(el), node.textContent.trim()]);
  }
  for (const el of document.body.querySelectorAll('*')) {
    if (!seen(el) || japaneseOnPurpose(el)) continue;
    for (const attr of ['placeholder', 'title', 'aria-label']) {
      if (el.getAttribute(attr)) out.push([`${where(el)} [${attr}]`, el.getAttribute(attr)]);
    }
    if (el.tagName === 'SELECT') {
      for (const option of el.querySelectorAll('option')) out.push([`${where(el)} option`, option.textContent]);
      for (const group of el.querySelectorAll('optgroup')) out.push([`${where(el)} optgroup`, group.label]);
    }
  }
  out.push(['title', document.title]);
  return out;
}"""

#: Labels, buttons and the like whose text is cut (scrolls inside its box).
CUT_LABELS = """() => {
  const out = [];
  const cut = (el) => el.scrollWidth > el.clientWidth + 1;
  for (const el of document.body.querySelectorAll('button, label, .chip, .field > span, h2, h3, dt, dd, .summary, .who, .usage, .your-turn, input[placeholder]')) {
    if (!el.checkVisibility() || el.clientWidth === 0 || el.closest('.sr-only')) continue;
    if (el.tagName === 'INPUT' && el.value) continue; // a value (a URL) may scroll; a placeholder may not
    if (cut(el)) out.push(`${el.tagName.toLowerCase()}.${el.className} «${el.textContent.trim() || el.placeholder}» ${el.scrollWidth} > ${el.clientWidth}`);
  }
  return out;
}"""


#: A sheet reference in a command (``LW{体力}>=10``): typed as the sheet's label, in any language.
REFERENCE = re.compile(r"\{[^{}\s]+\}")


def japanese_left(page: Page, data: tuple[str, ...]) -> list[str]:
    """The page's visible strings with Japanese in them once the users' data is taken out."""
    left = []
    for where, text in page.evaluate(VISIBLE_STRINGS):
        rest = REFERENCE.sub("", text)
        for word in sorted(data, key=len, reverse=True):
            rest = rest.replace(word, "")
        if CJK.search(rest):
            left.append(f"{where}: {text!r}")
    return left


def check(page: Page, data: tuple[str, ...], step: str) -> None:
    assert page.evaluate("document.documentElement.lang") == "en", step
    left = japanese_left(page, data)
    cut = page.evaluate(CUT_LABELS)
    assert not left and not cut, f"{step}:\n" + "\n".join(["Japanese:", *left, "cut:", *cut])


def english(page: Page) -> None:
    page.get_by_role("button", name="English").click()
    expect(page.locator("#lang")).to_have_text("日本語")


SESSIONS = {
    "LittleWorld": {
        "player": LITTLEWORLD_PLAYERS[0],
        "enemy": ("goblin.yaml", ENEMIES["LittleWorld"]),
        "names": ("ミナ", "ゴブリン"),
        "check": "Body check, target 10",
        "condition": "毒",
        "attack": "Attack",
        "gm_lines": ("/gm row ミナ 後衛", "@ゴブリン :HP-1", "/cond add ゴブリン 毒 2"),
        "things": (),
    },
    "UnmeiD100": {
        "player": UNMEID100_PLAYERS[1],
        "enemy": ("goblin.json", ENEMIES["UnmeiD100"]),
        "names": ("リナ", "ゴブリン"),
        "check": "Combat skill check",
        "condition": "防御専念",
        "attack": "Melee",
        "gm_lines": ("@ゴブリン :HP-1", "/gm cond ゴブリン 魅了"),
        "things": ("錆びた斧",),  # the goblin sheet's weapon
    },
}


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("system", sorted(SESSIONS))
def test_the_english_page_shows_no_japanese_but_the_players_data(
    browser: Browser, fast_server: str, system: str, viewport: dict[str, int]
) -> None:
    session = SESSIONS[system]
    room = f"English {system} {viewport['width']}"
    me, enemy = session["names"]
    said = "こんにちは、よろしく"
    data = (room, *session["names"], *session["things"], said)

    # the lobby, and a room made in English
    gm = new_page(browser, viewport)
    gm.goto(fast_server)
    english(gm)
    expect(gm.locator("#create-form [name=system] option")).not_to_have_count(0)
    check(gm, data, "lobby")
    gm.fill("#create-form [name=name]", room)
    gm.select_option("#create-form [name=system]", system)
    gm.get_by_role("button", name="Create", exact=True).click()
    expect(gm.locator("#status")).to_have_text("Connected")
    invite = gm.locator("#links input").first
    expect(invite).to_have_value(re.compile(r"#room=.*&invite="))
    expect(gm.locator("#usage")).to_contain_text("Players 0/")
    check(gm, data, "the GM's empty room")

    # the join page in English, its refusal of an empty box, then the join
    player = new_page(browser, viewport)
    player.goto(invite.input_value())
    expect(player.locator("#join")).to_be_visible()
    english(player)
    player.get_by_role("button", name="Join", exact=True).click()
    expect(player.locator("#join-form .error")).not_to_have_text("")
    check(player, data, "the join page refusing an empty box")
    drop_file(player, "#drop", "character.json", session["player"])
    expect(player.locator("#join-form [name=character]")).not_to_have_value("")
    player.get_by_role("button", name="Join", exact=True).click()
    expect(player.locator("#status")).to_have_text("Connected")
    drop_file(gm, "#npc-drop", *session["enemy"])
    expect(card_hp(gm, enemy)).to_be_visible()
    expect(player.locator(".palette-item .chance").first).to_be_visible()
    check(player, data, "the player's page after joining")
    check(gm, data, "the GM's page with a player and an enemy")

    # palette rolls, a condition, the GM's edits, a chat line, a secret roll revealed
    player.locator(".palette-item", has_text=session["check"]).first.click()
    add = player.locator(f'.card[data-name="{me}"] .add-condition input')
    add.fill(session["condition"])
    add.press("Enter")
    expect(player.locator(f'.card[data-name="{me}"] .conditions .chip')).to_have_count(1)
    for line in session["gm_lines"]:
        send_line(gm, line)
    send_line(player, said)
    send_line(player, "S2D6")
    player.locator("#log li.secret .reveal").last.click()
    expect(gm.locator("#log li.kind-revealed")).to_have_count(1)
    send_line(player, "/whisper GM " + said)
    expect(gm.locator("#log li.whisper")).to_have_count(1)
    check(player, data, "the player's page after rolls and conditions")
    check(gm, data, "the GM's page after rolls and conditions")

    # combat: the player's turn (the cue, the actions), an attack, the enemy's turn on the GM's
    gm.get_by_role("button", name="Start combat").click()
    expect(player.locator("#combat .summary")).to_contain_text(f"{me}'s turn")
    expect(player.locator("#combat .your-turn")).to_be_visible()
    check(player, data, "the player's turn")
    check(gm, data, "the GM's page in the player's turn")
    player.locator("#combat .actions").get_by_role(
        "button", name=session["attack"], exact=True
    ).click()
    expect(gm.locator("#log li.ev.kind-roll").last).to_contain_text(enemy)
    if system == "UnmeiD100":
        gm.get_by_role("button", name="Next turn").click()
    expect(gm.locator("#combat .summary")).to_contain_text(f"{enemy}'s turn")
    expect(gm.locator("#combat .actions")).to_be_visible()
    check(gm, data, "the GM's page in the enemy's turn")
    gm.locator("#combat .actions").get_by_role("button", name=session["attack"], exact=True).click()
    expect(gm.locator("#log li.ev.kind-roll").last).to_contain_text(me)
    check(player, data, "the player's page after the enemy's attack")
    check(gm, data, "the GM's page after the enemy's attack")
    gm.get_by_role("button", name="End combat").click()
    expect(gm.locator("#combat .summary")).to_have_text("No combat")
    check(gm, data, "the GM's page after the combat")

    # the GM speaking as the enemy: its palette
    gm.select_option("#speaker", enemy)
    expect(gm.locator("#palette .palette-item .chance").first).to_be_visible()
    check(gm, data, "the GM's page with the enemy's palette")

    # the log the GM downloads from the English page is English too
    with gm.expect_download() as download:
        gm.get_by_role("button", name="Download the log (HTML)").click()
    log = new_page(browser, viewport)
    log.set_content(Path(download.value.path()).read_text("utf-8"))
    check(log, data, "the downloaded log")
    log.context.close()

    # back in the lobby: the rooms this browser opened
    gm.goto(fast_server)
    expect(gm.locator("#recent li")).to_have_count(1)
    check(gm, data, "the lobby with the room just played")
    for page in (gm, player):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
