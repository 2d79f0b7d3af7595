"""Three people at one table, in a browser, to the fight's end (issue 37, item 6; docs/fights.md "A link per
player", docs/players.md, docs/maps.md "Vision"): the GM on a desktop, Link's player on a 390 px phone (their own
link) and the shared players' screen (the view link), all at once on one live encounter: rtw-map's fight in the
cellar (a door between its two rooms), the Moblin an ambusher hidden entirely (`hidden: true`) beyond the door.

- Link's player attacks the Bokoblin, whose numbers the GM keeps: the panel says so in words (no odds, no error)
  and Roll plays it; the attack lands on the GM's page live, and the phone shows none of the GM's numbers.
- The GM opens the door: the players' map grows on both players' pages; the Moblin, in sight now, stays off them
  until the GM brings it into sight from its card; then it is on both.
- The GM shows the Moblin's numbers: the phone's panel shows the odds on it, and the player types their dice.
- The GM plays the others' turns, the player Link's, to the end: the end shows on all three.

Screenshots of each view at those moments go to artifacts/, and the four the docs show to docs/ (web-table-*.png)
with `make docs-shots`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.grid.uvtt_fixtures import CELLAR_SPOTS, cellar, cellar_fight
from tests.web.conftest import Table, bearer, shot

pytestmark = pytest.mark.browser
SEQ_IS = "n => Number(document.getElementById('tracker').dataset.seq) === n"
SEQ_ABOVE = "n => Number(document.getElementById('tracker').dataset.seq) > n"
SEEN_ABOVE = "n => Number(document.querySelector('#map-svg g.sight')?.dataset.seen) > n"
ODDS = """() => { const t = document.getElementById('preview');
  return t.dataset.seq === document.getElementById('tracker').dataset.seq && t.tBodies[0].rows.length > 0; }"""
#: The stat labels cut short (an ellipsis: on a phone no pointer hovers for the title).
CUT = "() => [...document.querySelectorAll('.stats dt')].filter(d => d.scrollWidth > d.clientWidth).map(d => d.title)"
#: The element of selector [0] says text [1] (a stream's events may come in more than one read).
SAID = "([s, text]) => document.querySelector(s).innerText.includes(text)"
MOBLIN = '#map-svg [data-creature="Moblin"]'
#: The most turns the fight may take here (the file's seed plays it in 3 rounds): a bound on the loop, never a clock.
TURNS = 30


def ambush() -> dict[str, Any]:
    """rtw-map's fight in the cellar: Link and Zelda in the west room with the Bokoblin, the Moblin beyond the
    closed door, hidden entirely; the Bokoblin Archer left out (in the corner the diagonal wall shuts off, it could
    never reach anyone)."""
    fight = cellar_fight({**CELLAR_SPOTS, "Moblin": [7, 1]})
    foes = fight["sides"][1]["combatants"]
    fight["sides"][1]["combatants"] = [c for c in foes if c["name"] != "Bokoblin Archer"]
    next(c for c in foes if c["name"] == "Moblin")["hidden"] = True
    return fight


def ready(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#tracker[data-ready=true]")


def seq(page: Any) -> int:
    return int(page.get_attribute("#tracker", "data-seq"))


def seen(page: Any) -> int:
    """The squares the players' characters see now, as the page's map draws them."""
    return int(page.get_attribute("#map-svg g.sight", "data-seen"))


def gm_acts(gm: Any, selector: str) -> None:
    """The GM clicks `selector` and the GM's page shows the encounter after it."""
    before = seq(gm)
    gm.click(selector)
    gm.wait_for_function(SEQ_ABOVE, arg=before)


def everyone_at(pages: list[Any], at: int) -> None:
    for page in pages:
        page.wait_for_function(SEQ_IS, arg=at)


def knows_of_moblin(page: Any) -> bool:
    return page.locator(f'#cards [data-combatant="Moblin"], #order [data-name="Moblin"], {MOBLIN}').count() > 0


def test_web_three_at_one_table_play_the_ambush_to_its_end(browser: Any, table: Table) -> None:
    made = table.create(fight=ambush(), uvtt=cellar())
    eid, gm_token = made["id"], made["gm_token"]
    linked = table.http.post(f"/v1/encounters/{eid}/player_token", json={"combatant": "Link"}, headers=bearer(gm_token))
    assert linked.status_code == 201, linked.text
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 900}),
        browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True),
        browser.new_context(viewport={"width": 1280, "height": 900}),
    ]
    try:
        gm, phone, screen = (c.new_page() for c in contexts)
        ready(gm, table.url(eid, gm_token))
        ready(phone, table.url(eid, linked.json()["player_token"]))
        ready(screen, table.url(eid, made["view_token"]))
        players = [phone, screen]
        everyone = [gm, *players]
        for page in players:
            page.wait_for_selector("#map-svg g.sight.players")
            assert not knows_of_moblin(page)  # the ambusher: on no players' page
            assert page.locator("#cards [data-sight]").count() == 0  # the card's Hide: the GM's only
        assert gm.inner_text("#cards [data-sight='Moblin']") == "Bring into sight"
        assert gm.inner_text("#cards [data-sight='Bokoblin']") == "Hide"
        start = seen(screen)
        assert seen(phone) == start

        # Link's turn: an attack on the Bokoblin, whose numbers the GM keeps: words, no odds, no error; then Roll
        phone.select_option("#attack", "Shoot Arrow")
        phone.check("#targets input[value='Bokoblin']")
        phone.wait_for_selector("#odds-kept:visible")
        assert phone.inner_text("#odds-kept").startswith("The GM keeps Bokoblin's numbers: no odds shown")
        assert phone.inner_text("#action-error") == "" and phone.locator("#preview tbody tr").count() == 0
        phone.click("#enter-dice")
        assert phone.inner_text("#dice-kept").startswith("The GM keeps Bokoblin's numbers")
        assert phone.is_hidden("#roll-dice") and phone.inner_text("#action-error") == ""
        phone.click("#enter-dice")
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
        assert phone.is_hidden("#preview")  # its caption speaks of odds: none here
        assert phone.evaluate(CUT) == []  # every stat's label whole on the phone
        shot(phone, "web-table-phone", docs=True)
        before = seq(gm)
        phone.click("#roll")
        gm.wait_for_function(SEQ_ABOVE, arg=before)  # followed live: the GM's page is not reloaded
        gm.wait_for_function(SAID, arg=["#result-text", "Link's player:\nLink attacks Bokoblin"])
        gm.wait_for_function(SAID, arg=["#trace", "Evasion"])  # the GM's numbers, on the GM's page only
        assert "Link attacks Bokoblin" in gm.inner_text("#log") and "(Link's player)" in gm.inner_text("#log")
        assert gm.inner_text("#cards [data-combatant='Moblin'] .unseen-tag") == "the players do not know of it"
        shot(gm, "web-table-gm", full=False, docs=True)
        everyone_at(players, seq(gm))
        assert "Evasion" not in phone.inner_text("body") and "Evasion" not in screen.inner_text("body")
        assert phone.inner_text("#result-text").startswith("Link attacks Bokoblin")  # the headline: the attack
        shot(phone, "web-table-phone-rolled")

        gm_acts(gm, "#auto")  # the Bokoblin's turn
        gm_acts(gm, "#auto")  # Zelda's
        # the GM opens the door: the players' map grows; the Moblin, in sight now, is still unknown to them
        gm_acts(gm, '#map-doors [data-door="0"]')
        for page in players:
            page.wait_for_function(SEEN_ABOVE, arg=start)
            assert seen(page) > start and not knows_of_moblin(page)
        sight = table.http.post(f"/v1/encounters/{eid}/map", json={"attacker": "Link"}, headers=bearer(gm_token))
        assert sight.json()["sight"]["rows"][1][7] == "2"  # the Moblin's square is seen now
        # the GM brings the ambusher into sight from its card: on both players' pages at once
        gm_acts(gm, "#cards [data-sight='Moblin']")
        for page in players:
            page.wait_for_selector(MOBLIN)
            page.wait_for_selector('#cards [data-combatant="Moblin"]')
        assert gm.inner_text("#cards [data-sight='Moblin']") == "Hide"
        everyone_at(players, seq(gm))
        shot(screen, "web-table-players", docs=True)
        gm.select_option("#reveal-who", "Moblin")
        assert gm.inner_text("#reveal") == "Show to players"
        assert gm.locator("#cards [data-sight]").count() == 4  # one a card, however often the tools sync
        gm_acts(gm, "#reveal")  # its numbers shown: the odds on it may be read

        odds = typed = False
        for _ in range(TURNS):
            turn = table.get(eid, gm_token)
            if turn["over"]:
                break
            everyone_at([gm, phone], turn["seq"])  # each page at the encounter as it is, before it acts
            if turn["turn"] != "Link":
                gm_acts(gm, "#auto")
                continue
            phone.wait_for_function("() => document.getElementById('turn-line').dataset.mine === 'true'")
            phone.select_option("#attack", "Shoot Arrow")
            phone.check("#targets input[value='Moblin']")
            phone.wait_for_function(ODDS)  # the exact odds, before the roll
            assert phone.is_hidden("#odds-kept")
            cells = phone.locator("#preview tbody tr[data-target='Moblin'] td").all_inner_texts()
            odds = odds or any(c.endswith("%") for c in cells)
            before = seq(gm)
            if typed:
                phone.click("#roll")
            else:  # the player's own dice, typed: each face a 5
                phone.click("#enter-dice")
                phone.wait_for_selector("#dice-fields input")
                for field in phone.locator("#dice-fields input").all():
                    field.fill(" ".join("5" for _ in (field.get_attribute("data-sides") or "6").split()))
                shot(phone, "web-table-phone-dice")
                phone.click("#roll-dice")
                typed = True
            gm.wait_for_function(SEQ_ABOVE, arg=before)
            gm.wait_for_function(SAID, arg=["#log", "Link attacks Moblin"])
        assert odds and typed
        for page in everyone:
            page.wait_for_selector("#winner[data-winner='Heroes']")
        everyone_at(players, seq(gm))
        assert phone.inner_text("#turn-line") == "The fight is over."
        shot(gm, "web-table-gm-end", full=False)
        shot(screen, "web-table-players-end")
        shot(phone, "web-table-phone-end", full=False, docs=True)
    finally:
        for context in contexts:
            context.close()
