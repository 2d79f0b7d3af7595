"""The evening's controls on the web table (issue 39, items 1-6): creatures added from the bestiary and as copies
by a form, cards ticked and damaged or given a condition for some rounds at once (the count on the chip), a GM's
note on a card, a delayed turn, and the players' link shown again without replacing it."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tests.web.conftest import ARTIFACTS, Table, bearer
from tests.web.test_web_table import click_and_wait, ready

pytestmark = pytest.mark.browser

CHIPS = "name => [...document.querySelectorAll(`#cards [data-combatant='${name}'] .chip`)].map(c => c.textContent)"
ORDER = "() => [...document.querySelectorAll('#order li')].map(li => li.dataset.name)"
AFTER = "() => [...document.querySelectorAll('#delay-after option')].map(o => o.value)"


def element_shot(page: Any, selector: str, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(selector).screenshot(path=str(ARTIFACTS / f"{name}.png"))


def test_web_gm_evening_add_select_note_delay_and_the_link(page: Any, table: Table) -> None:
    data = yaml.safe_load((EXAMPLES / "fights" / "last-odyssey-cops.yaml").read_text())
    data["bestiary"] = [{**data["sides"][1]["combatants"][0], "name": "Sergeant"}]
    made = table.create(fight=data, seed=3)
    eid, gm = made["id"], made["gm_token"]
    ready(page, table.url(eid, gm))
    foes = table.http.get(f"/v1/encounters/{eid}/sheet", headers=bearer(gm)).json()["sides"][1]
    # 2. the add form: two from the bestiary on the foes' side, numbered; then a copy on the copied one's side
    page.select_option("#add-from", "bestiary:Sergeant")
    page.select_option("#add-side", foes)
    page.fill("#add-count", "2")
    click_and_wait(page, "#add")
    page.wait_for_selector('#cards [data-combatant="Sergeant 2"]')
    page.select_option("#add-from", "copy:Cop 1")
    page.select_option("#add-side", "")
    page.fill("#add-count", "1")
    click_and_wait(page, "#add")
    page.wait_for_selector('#cards [data-combatant="Cop 4"]')
    element_shot(page, "#add-form", "web-add-form")
    # 3. tick two cards: damage both at once, then Blinded for 2 rounds on both
    before = table.get(eid, gm)["state"]["combatants"]
    for who in ("Cop 1", "Cop 2"):
        page.check(f'[data-pick="{who}"]')
    assert page.inner_text("#selected") == "Cop 1, Cop 2"
    page.fill("#sel-amount", "2")
    n = click_and_wait(page, "#sel-damage")
    after = table.get(eid, gm)["state"]["combatants"]
    assert all(after[w]["hp"] == before[w]["hp"] - 2 for w in ("Cop 1", "Cop 2"))
    page.select_option("#sel-cond", "Blinded")
    page.fill("#sel-rounds", "2")
    assert click_and_wait(page, "#sel-cond-on") == n + 1  # one event for both
    assert "Blinded · 2 rounds" in page.evaluate(CHIPS, "Cop 2")
    element_shot(page, "#selection-form", "web-selection-panel")
    # 4. a note on a card
    page.select_option("#note-who", "Cop 3")
    page.fill("#note-text", "flees below 5 HP")
    click_and_wait(page, "#note")
    assert page.inner_text('[data-note="Cop 3"]') == "GM's note: flees below 5 HP"
    element_shot(page, "#cards", "web-durations-selection")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-evening.png"), full_page=True)
    # 5. the turn that comes delays after the next one
    turn = table.get(eid, gm)["turn"]
    click_and_wait(page, "#delay")
    now = table.get(eid, gm)
    assert now["turn"] != turn and page.get_attribute("#order li.current", "data-name") == now["turn"]
    order = page.evaluate("() => [...document.querySelectorAll('#order li')].map(li => li.dataset.name)")
    assert order == now["order"] and order.index(turn) == order.index(now["turn"]) + 1
    # 6. the players' link again: the one made at the start, still working
    page.click("#show-link")
    page.wait_for_selector("#players-link")
    assert made["view_token"] in page.get_attribute("#players-link", "href")
    assert table.http.get(f"/v1/encounters/{eid}", headers=bearer(made["view_token"])).status_code == 200


def test_web_delay_in_kaisers_order_that_goes_round(page: Any, table: Table) -> None:
    """Kaiser's round goes in the file's order, kept by the encounter (docs/kaiser.md#silent-turn-order): the Delay
    control is enabled, Ceil delays after the next one, and after two turns end, Aldo (last) chooses the Bandit, whose
    turn comes round again this round: the page's order and its current turn follow the summary."""
    made = table.create(example="file/kaiser-party-vs-bandits", seed=2)
    eid, gm = made["id"], made["gm_token"]
    ready(page, table.url(eid, gm))
    assert not page.is_disabled("#delay")
    assert page.inner_text("#delay-why") == "Ceil's turn comes: it may act later this round."
    click_and_wait(page, "#delay")
    assert page.evaluate(ORDER) == ["Bandit", "Ceil", "Aldo"] == table.get(eid, gm)["order"]
    click_and_wait(page, "#end-turn")
    click_and_wait(page, "#end-turn")
    assert table.get(eid, gm)["turn"] == "Aldo"
    assert page.evaluate(AFTER) == ["", "Bandit", "Ceil"]  # the next one, then each who still has the AP, going round
    page.select_option("#delay-after", "Bandit")
    click_and_wait(page, "#delay")
    now = table.get(eid, gm)
    assert page.evaluate(ORDER) == now["order"] == ["Bandit", "Aldo", "Ceil"] and now["turn"] == "Bandit"
    page.wait_for_selector('#order li.current[data-name="Bandit"]')
    element_shot(page, "#delay-form", "web-delay-kaiser")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-delay-kaiser-page.png"), full_page=True)
