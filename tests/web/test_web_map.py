"""The battle map of the web table (issue 17, item 3) for an encounter whose game has map rules: an area placed
with the mouse and with keys highlights the squares and the creatures that `tohit map` gives for the same
placement, with the odds per creature before the roll; "Best aim" lists `aim`'s best placement first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tests.web.conftest import Table, bearer, scroll_to_map, shot
from tests.web.test_web_table import ready
from tohit.cli.app import app

pytestmark = pytest.mark.browser
FIGHT = yaml.safe_load((EXAMPLES / "fights" / "rtw-map.yaml").read_text())
SHOWN = """() => ({range: document.querySelector('#map-svg svg').dataset.range,
  squares: [...document.querySelectorAll('#map-svg .sq.in-range')].map(s => s.dataset.square),
  reached: [...document.querySelectorAll('#map-svg [data-reached=true]')].map(c => c.dataset.creature),
  odds: [...document.querySelectorAll('#map-odds tbody tr')].map(r => r.dataset.target)})"""


def map_scenario(user: str, attack: str, placement: dict[str, Any]) -> dict[str, Any]:
    """The fight's map and combatants as a `tohit map` scenario file: `user`'s `attack` placed by `placement`."""
    everyone = [(side["name"], c) for side in FIGHT["sides"] for c in side["combatants"]]
    me = next(c for _, c in everyone if c["name"] == user)
    entry = next(a for a in me["attacks"] if a["name"] == attack)
    placed = {**entry["attack"], "range": {**entry["attack"]["range"], **placement}}
    return {
        "system": FIGHT["system"],
        "map": FIGHT["map"],
        "combatants": [{"name": c["name"], "side": side, "position": c["position"]} for side, c in everyone],
        "attacker": {**me["attacker"], "name": user},
        "attack": placed,
        "targets": [{**c["target"], "name": c["name"]} for _, c in everyone if c["name"] != user],
    }


def tohit_map(tmp_path: Path, scenario: dict[str, Any]) -> dict[str, Any]:
    path = tmp_path / "placed.yaml"
    path.write_text(yaml.safe_dump(scenario))
    result = CliRunner().invoke(app, ["map", str(path), "--json"], prog_name="tohit")
    assert result.exit_code == 0, result.output
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def wait_range(page: Any, text: str) -> dict[str, Any]:
    page.wait_for_function(f"() => (document.querySelector('#map-svg svg')?.dataset.range || '').includes({text!r})")
    page.wait_for_function("() => document.querySelectorAll('#map-odds tbody tr').length > 0")
    found: dict[str, Any] = page.evaluate(SHOWN)
    return found


def test_web_map_placement_highlights_what_tohit_map_says(page: Any, table: Table, tmp_path: Path) -> None:
    made = table.create(name="rtw-map.yaml", fight=FIGHT)
    ready(page, table.url(made["id"], made["gm_token"]))
    page.wait_for_selector("#map-svg svg")
    page.select_option("#map-attacker", "Zelda")
    page.select_option("#map-attack", "Fireball")
    page.wait_for_selector("#map-direction-field[hidden]", state="attached")  # a Blast is placed by its corner
    page.wait_for_function("() => (document.querySelector('#map-svg svg')?.dataset.range || '').startsWith('Blast')")

    page.click('#map-svg [data-square="2,1"]', force=True)  # the mouse
    shown = wait_range(page, "at (2, 1)")
    cli = tohit_map(tmp_path, map_scenario("Zelda", "Fireball", {"at": [2, 1]}))
    assert sorted(shown["squares"]) == sorted(f"{x},{y}" for x, y in cli["squares"])
    assert sorted(shown["reached"]) == sorted(cli["reached"])
    assert sorted(shown["odds"]) == sorted(n for n in cli["reached"] if n != "Zelda")

    before = int(page.get_attribute("#tracker", "data-seq"))  # the GM rolls the attack as placed
    page.click("#map-roll")
    page.wait_for_function("n => Number(document.getElementById('tracker').dataset.seq) > n", arg=before)
    events = table.http.get(f"/v1/encounters/{made['id']}/events", headers=bearer(made["gm_token"])).json()
    hit = sorted(e["target"] for e in events if e.get("attack") == "Fireball")
    assert hit == sorted(cli["reached"]) and all("(Blast 2 at (2, 1))" in e["text"] for e in events if e.get("target"))

    page.focus("#map-svg svg")  # the keys: the cursor moves from (2, 1) two squares down, Enter places there
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    shown = wait_range(page, "at (2, 3)")
    cli = tohit_map(tmp_path, map_scenario("Zelda", "Fireball", {"at": [2, 3]}))
    assert sorted(shown["squares"]) == sorted(f"{x},{y}" for x, y in cli["squares"])
    assert sorted(shown["reached"]) == sorted(cli["reached"])

    page.click("#best-aim")
    page.wait_for_selector("#best-list li button")
    served = table.http.post(
        f"/v1/encounters/{made['id']}/aim",
        json={"attacker": "Zelda", "attack": "Fireball", "n": 5},
        headers=bearer(made["gm_token"]),
    ).json()
    assert page.inner_text("#best-list li:first-child").startswith(served["best"][0]["range"])

    page.select_option("#map-attack", "Magic Salvo")  # a Projectile: aimed at a creature; the rock gives cover
    page.wait_for_function("() => document.querySelector('#map-svg svg').dataset.range.startsWith('Projectile')")
    page.click('#map-svg [data-square="6,0"]', force=True)
    shown = wait_range(page, "Bokoblin Archer")
    cli = tohit_map(tmp_path, map_scenario("Zelda", "Magic Salvo", {"target": "Bokoblin Archer"}))
    assert shown["reached"] == cli["reached"] == ["Bokoblin Archer"]
    line = page.locator('#map-svg [data-cover="Bokoblin Archer"] line')
    segment = [[int(line.get_attribute(a)) // 44 for a in pair] for pair in (("x1", "y1"), ("x2", "y2"))]
    assert segment == cli["cover"]["Bokoblin Archer"]["segment"]
    assert "(cover)" in page.inner_text('#map-odds tr[data-target="Bokoblin Archer"]')
    page.locator("#map").scroll_into_view_if_needed()
    shot(page, "web-map")


def test_web_map_drag_a_creature_to_move_it(page: Any, table: Table) -> None:
    made = table.create(name="rtw-map.yaml", fight=FIGHT)
    eid, gm = made["id"], made["gm_token"]
    ready(page, table.url(eid, gm))
    page.wait_for_selector('#map-svg [data-creature="Moblin"]')

    def centre(square: str) -> tuple[float, float]:
        box = page.locator(f'#map-svg [data-square="{square}"]').bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def squares_of(name: str) -> Any:
        found = table.http.post(f"/v1/encounters/{eid}/map", json={"attacker": "Zelda"}, headers=bearer(gm)).json()
        return next(c["squares"] for c in found["creatures"] if c["name"] == name)

    scroll_to_map(page)
    before = int(page.get_attribute("#tracker", "data-seq"))
    page.mouse.move(*centre("2,4"))  # the mouse: Moblin dragged from (2, 4) to (5, 4)
    page.mouse.down()
    page.mouse.move(*centre("5,4"), steps=4)
    page.mouse.up()
    page.wait_for_function("n => Number(document.getElementById('tracker').dataset.seq) > n", arg=before)
    assert squares_of("Moblin") == [[5, 4]]
    page.wait_for_function("""() => document.querySelector('#map-svg [data-creature="Moblin"] rect').getAttribute('x')
      === String(5 * 44 + 4)""")
    events = table.http.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()
    assert events[-1]["kind"] == "move" and events[-1]["to"] == [5, 4]
    assert events[-1]["changes"] == [{"who": "Moblin", "stat": "x", "from": 2, "to": 5}]  # its position is state

    before = int(page.get_attribute("#tracker", "data-seq"))  # the keys: M on it, one square right, Enter
    page.focus("#map-svg svg")
    for key in ("m", "ArrowRight", "Enter"):
        page.keyboard.press(key)
    page.wait_for_function("n => Number(document.getElementById('tracker').dataset.seq) > n", arg=before)
    assert squares_of("Moblin") == [[6, 4]]
    page.click("#undo")  # an undo puts it back where it stood
    page.wait_for_function("n => Number(document.getElementById('tracker').dataset.seq) > n + 1", arg=before)
    assert squares_of("Moblin") == [[5, 4]]


def test_web_map_in_the_read_only_view_has_no_controls(page: Any, table: Table) -> None:
    made = table.create(name="rtw-map.yaml", fight=FIGHT)
    ready(page, table.url(made["id"], made["view_token"]))
    page.wait_for_selector("#map-svg svg [data-creature]")
    names = page.eval_on_selector_all("#map-svg [data-creature]", "cs => cs.map(c => c.dataset.creature)")
    assert sorted(names) == sorted(c["name"] for side in FIGHT["sides"] for c in side["combatants"])
    assert page.locator("button, select, input, textarea").count() == 0


def test_web_gridless_games_have_no_map(page: Any, table: Table) -> None:
    made = table.create(example="starter/kaiser")
    ready(page, table.url(made["id"], made["gm_token"]))
    assert page.is_hidden("#map")


TOKENS = """() => [...document.querySelectorAll('#map-svg [data-creature]')].map(g => {
  const text = g.querySelector('text'), box = text.getBBox(), sq = g.querySelector('rect').getBBox();
  return {name: g.dataset.creature, shown: [...text.querySelectorAll('tspan')].map(t => t.textContent).join(' ')
    || text.textContent, width: box.width, height: box.height, room: Math.ceil(sq.width / 44) * 44}; })"""


def test_web_map_coordinates_names_turn_and_best_aim(page: Any, table: Table) -> None:
    """Issue 29: coordinates on the map's edges; every name whole and inside its token's squares; the map's
    attacker follows the turn; Best aim places the area it names (its squares, the creatures reached, the odds),
    and "Roll this placement" rolls that placement."""
    made = table.create(name="rtw-map.yaml", fight=FIGHT, seed=2)
    eid, gm = made["id"], made["gm_token"]
    ready(page, table.url(eid, gm))
    page.wait_for_selector("#map-svg svg [data-creature]")
    board = table.http.post(f"/v1/encounters/{eid}/map", json={"attacker": "Zelda"}, headers=bearer(gm)).json()
    xs = page.eval_on_selector_all("#map-svg [data-coord-x]", "ts => ts.map(t => t.textContent)")
    ys = page.eval_on_selector_all("#map-svg [data-coord-y]", "ts => ts.map(t => t.textContent)")
    assert xs == [str(x) for x in range(board["width"])] and ys == [str(y) for y in range(board["height"])]
    for token in page.evaluate(TOKENS):
        assert token["shown"] == token["name"], token  # whole, never cut
        assert token["width"] <= token["room"] and token["height"] <= token["room"], token

    turn = table.get(eid, gm)["turn"]
    assert page.input_value("#map-attacker") == turn
    page.click("#auto")
    page.wait_for_function(f"() => document.getElementById('map-attacker').value !== {turn!r}")
    now = table.get(eid, gm)["turn"]
    assert page.input_value("#map-attacker") == now != turn

    page.select_option("#map-attacker", "Zelda")
    page.select_option("#map-attack", "Fireball")
    page.wait_for_function("() => (document.querySelector('#map-svg svg')?.dataset.range || '').startsWith('Blast')")
    page.click("#best-aim")
    served = table.http.post(
        f"/v1/encounters/{eid}/aim", json={"attacker": "Zelda", "attack": "Fireball", "n": 5}, headers=bearer(gm)
    ).json()["best"]
    for i in (0, 1, 0):  # the best placed at once; another, then the best again, each placed when clicked
        if page.locator("#best-list li button").count():
            page.click(f'#best-list li[data-aim="{i}"] button')
        shown = wait_range(page, served[i]["range"])
        assert shown["range"] == served[i]["range"]
        assert sorted(shown["squares"]) == sorted(f"{x},{y}" for x, y in served[i]["squares"])
        assert set(served[i]["foes"]) <= set(shown["reached"])
    assert page.locator("#best-list li").count() == len(served)  # the ranked placements and nothing else
    assert "null" not in page.inner_text("#best-list")
    page.locator("#map").scroll_into_view_if_needed()
    shot(page, "web-map-best-aim")
    before = int(page.get_attribute("#tracker", "data-seq"))
    page.click("#map-roll")
    page.wait_for_function("n => Number(document.getElementById('tracker').dataset.seq) > n", arg=before)
    events = table.http.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()
    assert any(f"({served[0]['range']})" in e.get("text", "") for e in events[before + 1 :])
    for _ in range(300):  # at the end nothing on the map is left to roll or aim
        if table.get(eid, gm)["over"]:
            break
        table.http.post(f"/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=bearer(gm))
    page.wait_for_selector("[data-winner]")
    assert page.is_disabled("#map-roll") and page.is_disabled("#best-aim")
