"""Vision on the web table (issue 37, item 5): the players' map shows only what their characters see, and grows as
the GM opens a door; the GM's map shows everything with the party's sight outlined."""

from __future__ import annotations

from typing import Any

import pytest

from tests.grid.uvtt_fixtures import cellar, cellar_fight
from tests.server.test_players_map import SPOTS
from tests.web.conftest import ARTIFACTS, Table, bearer, scroll_to_map, shot
from tests.web.test_web_table import ready

pytestmark = pytest.mark.browser

SIGHT = "#map-svg g.sight"


def counts(page: Any) -> tuple[int, int, int]:
    """The squares seen now, seen before and never seen, as the map's sight layer draws them."""
    layer = page.locator(SIGHT)
    return tuple(int(layer.get_attribute(f"data-{k}") or -1) for k in ("seen", "explored", "dark"))  # type: ignore[return-value]


def test_web_vision_the_players_map_grows_as_the_door_opens(page: Any, browser: Any, table: Table) -> None:
    made = table.create(fight=cellar_fight(SPOTS), uvtt=cellar())
    eid, gm = made["id"], made["gm_token"]
    players = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    ready(players, table.url(eid, made["view_token"]))
    players.wait_for_selector(f"{SIGHT}.players")
    assert counts(players) == (18, 0, 22)  # the west room (but the pillar's inside), the rest dark
    creatures = "() => [...document.querySelectorAll('#map-svg [data-creature]')].map(n => n.dataset.creature)"
    assert players.evaluate(creatures) == ["Link", "Zelda", "Bokoblin"]
    assert players.locator("#map-svg rect.fog.dark").count() > 0

    ready(page, table.url(eid, gm))
    page.wait_for_selector(f"{SIGHT}.gm path.sight-outline")
    assert page.evaluate(creatures) == ["Link", "Zelda", "Bokoblin", "Bokoblin Archer", "Moblin"]
    page.click('#map-doors [data-door="0"]')  # the GM opens the door
    players.wait_for_selector('#map-svg [data-creature="Moblin"]')  # the players' page follows the stream
    assert players.evaluate(creatures) == ["Link", "Zelda", "Bokoblin", "Moblin"]
    assert counts(players) == (27, 0, 13)
    page.wait_for_function("() => document.querySelector('#map-svg g.sight')?.dataset.seen === '27'")
    scroll_to_map(players)
    scroll_to_map(page)
    shot(players, "web-players-vision", full=False)
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#map").screenshot(path=str(ARTIFACTS / "web-gm-sight.png"))  # the GM's map whole

    page.click('#map-doors [data-door="0"]')  # and closes it again: what was seen stays, dimmed, with no creature
    players.wait_for_function("() => document.querySelector('#map-svg g.sight')?.dataset.explored === '9'")
    assert counts(players) == (18, 9, 13)
    assert players.evaluate(creatures) == ["Link", "Zelda", "Bokoblin"]
    assert players.locator("#map-svg rect.fog.explored").count() > 0
    shot(players, "web-players-vision-explored", full=False)
    events = table.http.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()
    assert [e["kind"] for e in events[-2:]] == ["door", "door"]
    players.context.close()
