"""A link per player in a real browser (issue 37, item 4): on a 390 px phone, a player's page shows their card, the
turn order and the map; on their turn the Attack panel (their attacks, a target, the odds, Roll) and End turn, a
tap on the map moving their token; out of turn the panel says whose turn it is. The GM's page, open at the same
time, makes the player's link under Share, sees each of the player's actions land live, named as the player's,
and revokes the link."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tests.web.conftest import ARTIFACTS, Table, bearer, shot

pytestmark = pytest.mark.browser
MAP = yaml.safe_load((EXAMPLES / "fights" / "rtw-map.yaml").read_text())  # Link's turn first, next to Bokoblin
SEQ_IS = "n => Number(document.getElementById('tracker').dataset.seq) === n"
SEQ_ABOVE = "n => Number(document.getElementById('tracker').dataset.seq) > n"
PREVIEW_READY = """() => { const t = document.getElementById('preview');
  return t && t.dataset.seq === document.getElementById('tracker').dataset.seq && t.tBodies[0].rows.length > 0; }"""


def ready(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#tracker[data-ready=true]")


def seq(page: Any) -> int:
    return int(page.get_attribute("#tracker", "data-seq"))


def landed(gm: Any, phone: Any) -> int:
    """The GM's page at the phone's seq (followed live, not reloaded)."""
    now = seq(phone)
    gm.wait_for_function(SEQ_IS, arg=now, timeout=10_000)
    return now


def test_web_a_player_on_a_phone_moves_attacks_and_ends_the_turn_the_gm_sees_it(browser: Any, table: Table) -> None:
    made = table.create(fight=MAP, seed=3)
    eid, gm_token = made["id"], made["gm_token"]
    reveal = {"kind": "reveal", "combatant": "Bokoblin", "to_players": True}  # the odds on a foe the players see
    assert table.http.post(f"/v1/encounters/{eid}/actions", json=reveal, headers=bearer(gm_token)).status_code == 201
    gm_context = browser.new_context(viewport={"width": 1280, "height": 900})
    phone_context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        gm, phone = gm_context.new_page(), phone_context.new_page()
        ready(gm, table.url(eid, gm_token))
        gm.wait_for_selector("#player-link-who option[value='Link']", state="attached")  # the players' side only
        assert gm.locator("#player-link-who option[value='Bokoblin']").count() == 0
        gm.select_option("#player-link-who", "Link")
        gm.click("#make-player-link")  # under Share: the GM makes Link's player's link
        link = gm.get_attribute("#player-links li[data-combatant='Link'] a", "href")
        assert link is not None and link.startswith(f"{table.base}/encounters/{eid}?token=")
        ready(phone, link)
        assert phone.get_attribute("#tracker", "data-role") == "player"
        card = phone.inner_text("#mine-card")
        assert "Link" in card and any(ch.isdigit() for ch in card.replace("Link", ""))  # every number of their own
        assert phone.inner_text("#turn-line").startswith("Link's turn")
        assert phone.is_visible("#action") and phone.is_disabled("#attacker")
        assert phone.input_value("#attacker") == "Link"
        assert not phone.is_visible("#share")
        assert phone.locator("#adjust-form, #auto, #undo").count() == 0  # nothing of the GM's
        before = seq(phone)
        phone.click("#map-svg [data-square='3,0']")  # a tap on a free square (next to Bokoblin) moves Link there
        phone.wait_for_function(SEQ_ABOVE, arg=before)
        landed(gm, phone)
        where = table.http.post(f"/v1/encounters/{eid}/map", json={"attacker": "Link"}, headers=bearer(gm_token))
        assert next(c for c in where.json()["creatures"] if c["name"] == "Link")["squares"] == [[3, 0]]

        phone.select_option("#attack", "Strike")
        phone.check("#targets input[value='Bokoblin']")
        phone.wait_for_function(PREVIEW_READY)
        assert phone.locator("#preview tbody tr[data-target='Bokoblin'] td").count() > 1  # the odds, before the roll
        # the order on a phone: their card, the panel, the turn order, the map
        boxes = [phone.locator(s).bounding_box() for s in ("#mine", "#controls", "#order", "#map")]
        assert all(b is not None for b in boxes)
        assert [b["y"] for b in boxes] == sorted(b["y"] for b in boxes)  # type: ignore[index]
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
        shot(phone, "web-player-phone", docs=True)

        before = seq(phone)
        phone.click("#roll")  # in Reclaim the Wild an attack is the turn's action: the turn passes
        phone.wait_for_function(SEQ_ABOVE, arg=before)
        landed(gm, phone)
        gm.wait_for_selector("#log li .by-player")
        assert "Link attacks Bokoblin" in gm.inner_text("#log") and "(Link's player)" in gm.inner_text("#log")
        phone.wait_for_function("() => document.getElementById('turn-line').dataset.mine === 'false'")
        turn = table.get(eid, gm_token)["turn"]
        assert phone.inner_text("#turn-line") == f"It is {turn}'s turn: wait for Link's."
        assert not phone.is_visible("#action")  # out of turn: no attack, no end of turn
        shot(phone, "web-player-phone-waiting")

        for _ in range(10):  # the GM plays the others' turns, on the GM's page
            if table.get(eid, gm_token)["turn"] == "Link":
                break
            before = seq(gm)
            gm.click("#auto")
            gm.wait_for_function(SEQ_ABOVE, arg=before)
        phone.wait_for_function("() => document.getElementById('turn-line').dataset.mine === 'true'")
        phone.click("#end-turn")
        phone.wait_for_function("() => document.getElementById('turn-line').dataset.mine === 'false'")
        landed(gm, phone)
        assert table.get(eid, gm_token)["turn"] != "Link"
        end = table.http.get(f"/v1/encounters/{eid}/events", headers=bearer(gm_token)).json()[-1]
        assert end["player"] == "Link"
        shot(gm, "web-player-gm")
        ARTIFACTS.mkdir(exist_ok=True)
        gm.locator("#share").screenshot(path=str(ARTIFACTS / "web-player-links.png"))  # the GM's Players' links
        gm.click("#player-links li[data-combatant='Link'] button")  # revoked: the link opens nothing any more
        gm.wait_for_selector("#player-links li[data-combatant='Link']", state="detached")
        assert table.http.get(f"/v1/encounters/{eid}", headers=bearer(link.split("token=")[1])).status_code == 403
    finally:
        gm_context.close()
        phone_context.close()
