"""The page after a roll and the map as GMs expect (issue 39, items 7 to 9 and the small points), measured with
bounding boxes: at 1280x800 and 1366x768 the result's headline and the cards in view after Roll and the winner banner
at the end, the result a short headline above the listed events and the trace, every control that cannot act
disabled at the end (doors and token drags too); the map zoomed, panned, fitted and measured (its ruler counts the
game's squares), its tokens' names readable on a phone; best aim's words when nothing is reached, its score beside
both numbers; home on a phone; the free dice's "For" kept for one roll only, an error shown once."""

from __future__ import annotations

from typing import Any

import pytest

from tests.grid.uvtt_fixtures import cellar, cellar_fight
from tests.web.conftest import Table, bearer, scroll_to_map, shot
from tests.web.test_web_table import click_and_wait, ready, seq

pytestmark = pytest.mark.browser

BOX = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}; }"""
VIEW = "() => ({width: window.innerWidth, height: window.innerHeight})"
#: The controls left enabled: those that can still act at the end (undo takes it back; export, keys, share read).
STILL = {"undo", "export", "show-keys", "make-share"}
ENABLED = """() => [...document.querySelectorAll('#controls button, #controls select, #map button, #map select')]
  .filter(x => !x.disabled).map(x => x.id || x.textContent)"""
#: The names of the tokens in the map's view: their rendered height in CSS pixels.
NAMES = """() => { const svg = document.querySelector('#map-svg svg').getBoundingClientRect();
  return [...document.querySelectorAll('#map-svg [data-creature] text')].map(t => t.getBoundingClientRect())
    .filter(r => r.left >= svg.left && r.right <= svg.right && r.top >= svg.top && r.bottom <= svg.bottom)
    .map(r => r.height); }"""
INSIDE = """sq => { const s = document.querySelector(`#map-svg [data-square="${sq}"]`).getBoundingClientRect(),
  m = document.querySelector('#map-svg svg').getBoundingClientRect();
  return s.left >= m.left - 1 && s.right <= m.right + 1 && s.top >= m.top - 1 && s.bottom <= m.bottom + 1; }"""


def pinch(page: Any, x: float, y: float) -> None:
    """Two fingers on (x, y) spread apart (touch events, as a phone sends them)."""
    cdp = page.context.new_cdp_session(page)
    for step, gap in enumerate((10, 30, 50, 70)):
        points = [{"x": x - gap, "y": y, "id": 0}, {"x": x + gap, "y": y, "id": 1}]
        kind = "touchStart" if step == 0 else "touchMove"
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def in_view(page: Any, selector: str, whole: bool = True) -> bool:
    """The element's top in view (and, `whole`, its bottom too)."""
    box, view = page.evaluate(BOX, selector), page.evaluate(VIEW)
    return box["height"] > 0 and box["top"] >= 0 and (box["bottom"] if whole else box["top"] + 30) <= view["height"]


@pytest.mark.parametrize("size", [(1280, 800), (1366, 768)])
def test_web_after_roll_headline_cards_and_winner_in_view(page: Any, table: Table, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    made = table.create(example="starter/kaiser", seed=5)
    eid, gm = made["id"], made["gm_token"]
    ready(page, table.url(eid, gm))
    page.wait_for_selector("[data-preview] [data-target]")
    click_and_wait(page, "#roll")
    events = table.http.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()
    attack = next(e for e in reversed(events) if e["kind"] == "attack")
    assert page.inner_text("#result-text") == attack["text"]  # who, what, how much: the attack's own line
    listed = page.eval_on_selector_all("#result-lines li", "xs => xs.map(x => x.textContent)")
    assert listed and attack["text"] not in listed  # the action's other events, listed under it
    assert in_view(page, "#result-text") and in_view(page, "#cards [data-combatant]", whole=False)
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0
    shot(page, f"web-after-roll-{size[0]}", full=False)

    if size == (1366, 768):  # the free dice: "For" names one roll; a bad roll's error shown once
        page.fill("#roll-expr", "2d6")
        page.fill("#roll-label", "Perception")
        click_and_wait(page, "#roll-any")
        page.wait_for_function("() => document.getElementById('roll-label').value === ''")
        page.fill("#roll-expr", "2x6")
        page.click("#roll-any")
        page.wait_for_selector("#tools-error:not(:empty)")
        assert "expression" in page.inner_text("#tools-error") and page.inner_text("#action-error") == ""

    table.http.post(f"/v1/encounters/{eid}/actions", json={"kind": "adjust", "combatant": "Bandit chief",
                    "stat": "lp", "value": 1}, headers=bearer(gm))  # fmt: skip
    page.wait_for_function("n => Number(document.getElementById('tracker').dataset.seq) >= n", arg=seq(page) + 1)
    for _ in range(40):  # Roll until the fight ends (a miss leaves it going)
        if page.is_visible("[data-winner]") or table.get(eid, gm)["over"]:
            break
        if page.is_disabled("#roll"):
            page.wait_for_timeout(50)
            continue
        click_and_wait(page, "#roll")
    page.wait_for_selector("[data-winner]")
    assert in_view(page, "#winner") and in_view(page, "#result-text") and in_view(page, "#cards", whole=False)
    assert set(page.evaluate(ENABLED)) <= STILL
    if size == (1366, 768):
        shot(page, "web-winner-1366", full=False)


def test_web_map_zoom_pan_fit_ruler_and_the_end_on_a_phone(page: Any, table: Table) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    made = table.create(name="cellar.yaml", fight=cellar_fight(), uvtt=cellar(), seed=3)
    eid, gm = made["id"], made["gm_token"]
    ready(page, table.url(eid, gm))
    page.wait_for_selector("#map-svg svg [data-creature]")
    scroll_to_map(page)
    zoom = "() => Number(document.querySelector('#map-svg svg').dataset.zoom || 1)"
    assert page.evaluate(zoom) > 1  # opened zoomed in on a phone
    heights = page.evaluate(NAMES)
    assert heights and min(heights) >= 10, heights  # each name shown in type of 10 px or more
    shot(page, "web-map-phone-zoomed", full=False)

    page.click("#map-fit")
    assert page.evaluate(zoom) == 1
    assert all(page.evaluate(INSIDE, f"{x},{y}") for x in range(10) for y in range(4))  # the whole map
    page.focus("#map-svg svg")
    for _ in range(3):
        page.keyboard.press("+")
    assert page.evaluate(zoom) > 1.9 and not page.evaluate(INSIDE, "9,3")
    for _ in range(12):
        page.keyboard.press("Shift+ArrowRight")
        page.keyboard.press("Shift+ArrowDown")
    assert page.evaluate(INSIDE, "9,3") and not page.evaluate(INSIDE, "0,0")  # the far corner reached
    box = page.locator("#map-svg svg").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, 400)  # the wheel zooms out
    page.wait_for_function(f"() => ({zoom})() < 1.9")
    page.click("#map-fit")
    pinch(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # two fingers spread: zoomed in
    page.wait_for_function(f"() => ({zoom})() > 1.5")
    page.click("#map-fit")

    page.click("#map-ruler")
    for square in ("0,0", "3,3"):
        page.click(f'#map-svg [data-square="{square}"]', force=True)
    page.wait_for_selector("#map-svg .ruler[data-squares='4']")  # 3 diagonals: 1 + 2 + 1
    assert page.inner_text("#map-measure") == "From (0, 0) to (3, 3): 4 squares"
    served = table.http.post(f"/v1/encounters/{eid}/measure", json={"from": [0, 0], "to": [3, 3]},
                             headers=bearer(gm)).json()  # fmt: skip
    assert served["squares"] == 4
    page.click("#map-ruler")

    page.select_option("#map-attacker", "Link")
    page.select_option("#map-attack", "Strike")
    page.click("#best-aim")
    page.wait_for_selector('#best-list [data-aim="none"]')
    assert page.inner_text("#best-list") == "no placement reaches anyone"
    page.select_option("#map-attack", "Shoot Arrow")
    page.click("#best-aim")
    page.wait_for_selector('#best-list [data-aim="0"]')
    first = page.inner_text('#best-list [data-aim="0"]')
    assert " to foes (" in first and " to allies (" in first and " = " in first

    for foe in ("Bokoblin", "Bokoblin Archer", "Moblin"):  # the GM fells the foes: the fight ends
        fell = {"kind": "adjust", "combatant": foe, "stat": "health", "value": 0}
        assert table.http.post(f"/v1/encounters/{eid}/actions", json=fell, headers=bearer(gm)).status_code == 201
    page.wait_for_selector("[data-winner]")
    page.wait_for_selector("#map-svg[data-locked=true]")
    assert page.locator("#map-doors button").count() >= 1
    views = {"map-walls", "map-zoom-in", "map-zoom-out", "map-fit", "map-ruler"}  # they change only the view
    assert set(page.evaluate(ENABLED)) <= STILL | views
    assert page.is_disabled("#map-doors button")


def test_web_home_fits_a_phone(page: Any, table: Table) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{table.base}/")
    page.wait_for_selector("#example option", state="attached")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    button = page.locator("#from-file button").bounding_box()
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('button')?.textContent",
                        [button["x"] + button["width"] / 2, button["y"] + button["height"] / 2])  # fmt: skip
    assert hit == "Start from file"
    shot(page, "web-home-phone")
