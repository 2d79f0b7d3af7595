"""A Universal VTT map on the web table (issue 32): uploaded with the fight file, its picture under the grid (the
GM's page and the view token's), a creature moved, a move through a wall refused; a bad map is a 422 naming the
field and creates nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.grid.uvtt_fixtures import cellar, cellar_fight
from tests.web.conftest import ADMIN, Table, bearer, scroll_to_map, shot
from tests.web.test_web_table import ready

pytestmark = pytest.mark.browser


def test_web_map_a_bad_uvtt_is_a_422_naming_the_field(table: Table) -> None:
    count = len(table.http.get("/v1/encounters", headers=bearer(ADMIN)).json())
    bad = {k: v for k, v in cellar().items() if k != "resolution"}
    answer = table.http.post("/v1/encounters", json={"fight": cellar_fight(), "uvtt": bad})
    assert answer.status_code == 422
    assert answer.json()["error"]["field"] == "uvtt.resolution"
    off = {**cellar(), "line_of_sight": [[{"x": 0, "y": 0}, {"x": 0, "y": 9}]]}
    answer = table.http.post("/v1/encounters", json={"fight": cellar_fight(), "uvtt": off})
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "uvtt.line_of_sight[0][1]"
    assert len(table.http.get("/v1/encounters", headers=bearer(ADMIN)).json()) == count


def test_web_map_uploads_a_uvtt_map_draws_its_picture_and_refuses_a_move_through_a_wall(
    page: Any, table: Table
) -> None:
    page.goto(f"{table.base}/?token={ADMIN}")
    fight_text = yaml.safe_dump(cellar_fight()).encode()
    page.set_input_files("#fight-file", files=[{"name": "cellar.yaml", "mimeType": "text/yaml", "buffer": fight_text}])
    uvtt = {"name": "cellar.dd2vtt", "mimeType": "application/json", "buffer": json.dumps(cellar()).encode()}
    page.set_input_files("#uvtt-file", files=[uvtt])
    page.click("#from-file button")
    page.wait_for_url("**/encounters/**")
    page.wait_for_selector("#tracker[data-ready=true]")
    eid = page.url.split("/encounters/")[1].split("?")[0]
    gm = page.url.split("token=")[1]
    picture = page.wait_for_selector("#map-svg image.map-picture")
    assert picture.get_attribute("width") == str(10 * 44) and picture.get_attribute("height") == str(4 * 44)
    assert picture.get_attribute("data-pixels-per-grid") == "10"
    loaded = "() => { const i = new Image(); i.src = document.querySelector('#map-svg image').getAttribute('href');"
    size = page.evaluate(loaded + " return new Promise(r => i.onload = () => r([i.width, i.height])); }")
    assert size == [100, 40]  # the uploaded image itself, 10 pixels a square
    scroll_to_map(page)

    def centre(square: str) -> tuple[float, float]:
        """The square's centre on the screen, read again while the map is being drawn anew (the answer to an
        action and the stream's event each draw it: a square read in between has no box)."""
        found = page.locator(f'#map-svg [data-square="{square}"]')
        for _ in range(100):
            found.wait_for(state="visible")
            box = found.bounding_box()
            if box is not None:
                return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.wait_for_timeout(50)
        raise AssertionError(f"square {square} never settled on the map")

    def drag(a: str, b: str, done: str, arg: object = None) -> None:
        """Drag from square a to square b until `done` (a page function) holds: a drag whose map was drawn anew
        under it is made again (a repeat changes nothing: the square it starts from is empty by then, or it is
        refused again)."""
        for _ in range(3):
            page.mouse.move(*centre(a))
            page.mouse.down()
            page.mouse.move(*centre(b), steps=4)
            page.mouse.up()
            try:
                page.wait_for_function(done, arg=arg, timeout=15_000)
                return
            except PlaywrightTimeout:
                continue
        page.wait_for_function(done, arg=arg)

    before = int(page.get_attribute("#tracker", "data-seq"))
    grown = "n => Number(document.getElementById('tracker').dataset.seq) > n"
    drag("0,0", "1,0", grown, before)  # Link moves a square east, on his side of the cellar's wall
    events = table.http.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()
    assert events[-1]["kind"] == "move" and events[-1]["to"] == [1, 0]
    page.wait_for_function("""() => document.querySelector('#map-svg [data-creature="Link"] rect').getAttribute('x')
      === String(1 * 44 + 4)""")  # the board drawn again

    seq = int(page.get_attribute("#tracker", "data-seq"))
    refused = "() => document.getElementById('map-error').textContent.includes('wall')"
    drag("3,1", "6,1", refused)  # the Bokoblin through the wall (its door is closed): refused
    assert "a wall stands between Bokoblin and (6, 1)" in page.inner_text("#map-error")
    assert int(page.get_attribute("#tracker", "data-seq")) == seq
    page.click("#map-walls")
    page.wait_for_selector("#map-svg line.wall", state="attached")
    assert page.locator("#map-svg line.wall").count() == 8  # 7 walls and the closed door
    assert page.locator("#map-svg line.door.closed").count() == 1
    shot(page, "web-map-uvtt")

    seq = int(page.get_attribute("#tracker", "data-seq"))
    page.click('#map-doors [data-door="0"]')  # the GM opens the door: one event; now the move passes it
    page.wait_for_function("n => Number(document.getElementById('tracker').dataset.seq) > n", arg=seq)
    page.wait_for_selector("#map-svg line.door.open", state="attached")
    assert page.inner_text('#map-doors [data-door="0"]') == "Close door 1"
    seq = int(page.get_attribute("#tracker", "data-seq"))
    drag("3,1", "6,1", grown, seq)
    events = table.http.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()
    assert [e["kind"] for e in events[-2:]] == ["door", "move"]
    shot(page, "web-map-uvtt-door-open")

    view = table.http.post(f"/v1/encounters/{eid}/view_token", headers=bearer(gm)).json()
    ready(page, table.url(eid, view["view_token"]))
    page.wait_for_selector("#map-svg image.map-picture")
    shot(page, "web-map-uvtt-view")
