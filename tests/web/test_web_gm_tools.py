"""The GM's tools on the web table (issue 29, item 4): damage or heal by an amount, conditions, any roll into the
log, the players' view (hidden foes read as a health word; reveal and hide), add and remove a combatant, rename and
delete; and the preview of a Multi or area attack, one row per creature it reaches. In every game."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.web.conftest import Table, bearer, shot
from tests.web.test_web_table import GAMES, click_and_wait, ready, seq
from tohit.server.examples import example

pytestmark = pytest.mark.browser

CARD = 'name => document.querySelector(`#cards [data-combatant="${name}"]`)?.innerText ?? null'
LOG_TEXT = "() => [...document.querySelectorAll('#log [data-event]')].map(li => li.textContent)"


def served(table: Table, eid: str, token: str) -> dict[str, Any]:
    return table.get(eid, token)


@pytest.mark.parametrize("game", GAMES)
def test_web_gm_tools_in_every_game(page: Any, table: Table, game: str) -> None:
    """Each tool is one action the server plays: -2 by an amount, a roll of 2d6+3 with its faces and total in
    the log (a bad expression: the error line naming `expression`), a condition set and cleared where the game
    keeps one, a newcomer added (its card appears) and removed, the encounter renamed."""
    _, data = example(f"starter/{game}")
    made = table.create(example=f"starter/{game}", seed=5)
    eid, gm = made["id"], made["gm_token"]
    ready(page, table.url(eid, gm))
    foe = data["sides"][1]["combatants"][0]["name"]
    sheet = table.http.get(f"/v1/encounters/{eid}/sheet", headers=bearer(gm)).json()
    health = sheet["health"]
    before = served(table, eid, gm)["state"]["combatants"][foe][health]
    page.select_option("#amount-who", foe)
    page.fill("#amount", "-2")
    click_and_wait(page, "#apply-amount")
    assert served(table, eid, gm)["state"]["combatants"][foe][health] == before - 2
    page.fill("#roll-expr", "2d6+3")
    page.fill("#roll-label", "Perception")
    click_and_wait(page, "#roll-any")
    last = page.evaluate(LOG_TEXT)[-1]
    assert re.fullmatch(r"Perception: 2d6\+3 = \d+ \(\d, \d\)", last), last
    page.fill("#roll-expr", "2d")
    page.click("#roll-any")
    page.wait_for_function("() => document.getElementById('tools-error').textContent.includes('expression')")
    if sheet["gm_conditions"]:
        word = sheet["gm_conditions"][0]
        page.select_option("#cond-who", foe)
        page.select_option("#cond-name", word)
        click_and_wait(page, "#cond-on")
        assert word in page.evaluate(CARD, foe)
        click_and_wait(page, "#cond-off")
        assert word not in page.evaluate(CARD, foe)
    block = {**data["sides"][1]["combatants"][0], "name": "Newcomer"}
    page.select_option("#join-side", sheet["sides"][1])
    page.fill("#join-block", json.dumps(block))
    click_and_wait(page, "#join")
    page.wait_for_selector('#cards [data-combatant="Newcomer"]')
    assert "Newcomer" in page.inner_text("#order")
    shot(page, f"web-tools-{game}")
    page.select_option("#leave-who", "Newcomer")
    click_and_wait(page, "#leave")
    page.wait_for_selector('#cards [data-combatant="Newcomer"]', state="detached")
    page.fill("#rename-name", f"Evening of {game}")
    page.click("#rename")
    page.wait_for_function(f"() => document.getElementById('title').textContent.startsWith('Evening of {game}')")
    assert served(table, eid, gm)["name"] == f"Evening of {game}"
    kinds = [e["kind"] for e in table.http.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()]
    assert {"adjust", "dice", "join", "leave"} <= set(kinds)


@pytest.mark.parametrize("game", GAMES)
def test_web_players_view_hides_the_foes_until_revealed(page: Any, table: Table, game: str) -> None:
    """The players' page shows a hidden foe as a health word with no number of its; the GM's reveal shows its
    stats there live, and hiding it again takes them away."""
    _, data = example(f"starter/{game}")
    made = table.create(example=f"starter/{game}", seed=5)
    eid, gm = made["id"], made["gm_token"]
    foe = data["sides"][1]["combatants"][0]["name"]
    mine = data["sides"][0]["combatants"][0]["name"]
    ready(page, table.url(eid, gm))
    click_and_wait(page, "#auto")
    view = page.context.new_page()
    view.set_viewport_size({"width": 390, "height": 844})
    ready(view, table.url(eid, made["view_token"]))
    text = view.evaluate(CARD, foe)
    assert not re.search(r"\d", text.replace(foe, "")), text
    assert re.search(r"unhurt|wounded|bloodied|down", text)
    assert re.search(r"\d", view.evaluate(CARD, mine).replace(mine, ""))  # the first side's numbers are shown
    shot(view, f"web-view-hidden-{game}")
    page.select_option("#reveal-who", foe)
    now = click_and_wait(page, "#reveal")
    view.wait_for_function(f"() => document.getElementById('tracker').dataset.seq === '{now}'", timeout=5000)
    view.wait_for_function(f"() => /\\d/.test(({CARD})({foe!r}).replace({foe!r}, ''))", timeout=5000)
    assert page.inner_text("#reveal") == "Hide from players"
    now = click_and_wait(page, "#reveal")
    view.wait_for_function(f"() => document.getElementById('tracker').dataset.seq === '{now}'", timeout=5000)
    view.wait_for_function(f"() => !/\\d/.test(({CARD})({foe!r}).replace({foe!r}, ''))", timeout=5000)
    assert seq(view) == now


@pytest.mark.parametrize(
    ("fight", "attacker", "attack", "reached"),
    [
        ("file/last-odyssey-cops", "Ilse", "Fire Wave", ["Cop 1", "Cop 2", "Cop 3"]),
        ("file/rtw-bokoblin-camp", "Zelda", "Fireball", ["Bokoblin 1", "Bokoblin 2"]),
    ],
)
def test_web_preview_of_a_multi_or_area_attack_has_a_row_per_creature(
    page: Any, table: Table, fight: str, attacker: str, attack: str, reached: list[str]
) -> None:
    """Last Odyssey's Fire Wave (Multi) previews all three cops; rtw's Fireball each foe its area catches."""
    made = table.create(example=fight, seed=5)
    ready(page, table.url(made["id"], made["gm_token"]))
    page.select_option("#attacker", attacker)
    page.select_option("#attack", attack)
    page.check(f'#targets input[value="{reached[0]}"]')
    page.wait_for_function(f"() => document.querySelectorAll('[data-preview] [data-target]').length === {len(reached)}")
    rows = page.eval_on_selector_all("[data-preview] [data-target]", "rs => rs.map(r => r.dataset.target)")
    assert rows == reached
    shot(page, f"web-preview-{fight.split('/')[1]}", full=False)


def test_web_delete_the_encounter_after_the_gm_confirms(page: Any, table: Table) -> None:
    """Delete asks first; confirmed, the encounter and its log are gone and the page goes home."""
    made = table.create(example=f"starter/{GAMES[0]}", seed=5)
    eid, gm = made["id"], made["gm_token"]
    ready(page, table.url(eid, gm))
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.click("#delete")
    page.wait_for_url(f"{table.base}/", timeout=5000)
    assert asked and "Delete the encounter" in asked[0]
    assert table.http.get(f"/v1/encounters/{eid}", headers=bearer(gm)).status_code == 404


def test_web_gm_hides_a_foe_entirely_and_brings_it_into_sight(page: Any, table: Table) -> None:
    """Issue 37, item 3: the GM's "Hide entirely" takes the foe's card off the players' page live (an ambusher);
    "Bring into sight" brings it back, its numbers still kept (a health word), and Hide entirely is offered again."""
    _, data = example("starter/wsswnn")
    made = table.create(example="starter/wsswnn", seed=5)
    eid, gm = made["id"], made["gm_token"]
    foe = data["sides"][1]["combatants"][0]["name"]
    ready(page, table.url(eid, gm))
    view = page.context.new_page()
    ready(view, table.url(eid, made["view_token"]))
    assert view.evaluate(CARD, foe) is not None
    page.select_option("#reveal-who", foe)
    now = click_and_wait(page, "#hide")
    view.wait_for_function(f"() => document.getElementById('tracker').dataset.seq === '{now}'", timeout=5000)
    view.wait_for_function(f"() => ({CARD})({foe!r}) === null", timeout=5000)
    assert page.inner_text("#reveal") == "Bring into sight" and page.is_disabled("#hide")
    now = click_and_wait(page, "#reveal")
    view.wait_for_function(f"() => document.getElementById('tracker').dataset.seq === '{now}'", timeout=5000)
    view.wait_for_function(f"() => ({CARD})({foe!r}) !== null", timeout=5000)
    assert re.search(r"unhurt|wounded|bloodied|down", view.evaluate(CARD, foe))
    assert page.inner_text("#reveal") == "Show to players" and page.is_enabled("#hide")


def test_web_each_gm_card_hides_its_combatant_and_brings_it_into_sight(page: Any, table: Table) -> None:
    """Hide / Bring into sight on each combatant's card (the GM's page only, never a players' page): Hide on a
    foe's card takes it off the players' page live and the card then offers Bring into sight (saying the players
    do not know of it), which brings it back, its numbers still kept."""
    _, data = example("starter/rtw")
    made = table.create(example="starter/rtw", seed=5)
    eid, gm = made["id"], made["gm_token"]
    foe = data["sides"][1]["combatants"][0]["name"]
    button = f'#cards [data-combatant="{foe}"] [data-sight]'
    ready(page, table.url(eid, gm))
    view = page.context.new_page()
    ready(view, table.url(eid, made["view_token"]))
    assert page.locator("#cards [data-sight]").count() == len(table.get(eid, gm)["state"]["combatants"])
    assert view.locator("#cards [data-sight]").count() == 0 and view.evaluate(CARD, foe) is not None
    assert page.inner_text(button) == "Hide"
    now = click_and_wait(page, button)
    assert table.http.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()[-1]["kind"] == "hide"
    view.wait_for_function(f"() => document.getElementById('tracker').dataset.seq === '{now}'", timeout=5000)
    assert view.evaluate(CARD, foe) is None
    assert page.inner_text(button) == "Bring into sight"
    assert "the players do not know of it" in page.evaluate(CARD, foe)
    now = click_and_wait(page, button)
    view.wait_for_function(f"() => document.getElementById('tracker').dataset.seq === '{now}'", timeout=5000)
    assert re.search(r"unhurt|wounded|bloodied|down", view.evaluate(CARD, foe))
    assert page.inner_text(button) == "Hide" and foe in table.get(eid, gm)["hidden"]
    view.close()
