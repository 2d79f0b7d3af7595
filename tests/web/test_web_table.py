"""The web table in a real browser (issue 17): every game played through the page (preview, roll, enter dice,
undo, auto, adjust, export), the preview shown equal to /v1/encounters/{id}/preview, the read-only view without
controls following the game live, and home's new encounter from an example or a file (a bad file answered
with the CLI's own error line, nothing created)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.web.conftest import ADMIN, Table, bearer, shot
from tohit.cli.app import app
from tohit.engine import registry
from tohit.engine.fight.replay import replay

pytestmark = pytest.mark.browser
GAMES = sorted(s.id for s in registry.systems().values() if s.starter(fight=True) is not None)

CARDS = """() => Object.fromEntries([...document.querySelectorAll('#cards [data-combatant]')].map(card => [
  card.dataset.combatant,
  [...card.querySelectorAll('[data-stat]')].map(s => ({stat: s.dataset.stat, label: s.dataset.label,
    text: s.textContent}))]))"""
CARD_TEXT = "() => [...document.querySelectorAll('#cards [data-combatant]')].map(c => c.innerText).join(' ')"
PREVIEW_READY = """() => { const t = document.getElementById('preview');
  return t && t.dataset.seq === document.getElementById('tracker').dataset.seq && t.tBodies[0].rows.length > 0; }"""
PREVIEW = """() => ({request: JSON.parse(document.getElementById('preview').dataset.request),
  rows: [...document.querySelectorAll('#preview tbody tr')].map(r => ({name: r.dataset.target,
    cells: Object.fromEntries([...r.querySelectorAll('td')].map(td => [td.dataset.outcome, td.title]))})),
  chosen: {attacker: document.getElementById('attacker').value, attack: document.getElementById('attack').value,
    targets: [...document.querySelectorAll('#targets input:checked')].map(i => i.value)}})"""
SEQ_ABOVE = "n => Number(document.getElementById('tracker').dataset.seq) > n"
UNLABELLED = """() => [...document.querySelectorAll('input, select, textarea')]
  .filter(e => !e.labels.length && !e.getAttribute('aria-label')).map(e => e.id || e.name)"""


def seq(page: Any) -> int:
    return int(page.get_attribute("#tracker", "data-seq"))


def ready(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#tracker[data-ready=true]")


def click_and_wait(page: Any, selector: str) -> int:
    """Click a control that appends events; wait until the tracker shows a later seq."""
    before = seq(page)
    page.click(selector)
    page.wait_for_function(SEQ_ABOVE, arg=before)
    return seq(page)


def exact(p: dict[str, Any]) -> str:
    return str(p["fraction"] if p["fraction"] is not None else p["decimal"])


def check_cards(page: Any, served: dict[str, Any]) -> None:
    """Every card shows each stat of the served `shown` (the game's readings) under `[data-stat]` with its label
    in `data-label`: health its value, a condition or reference one chip each while set, any other stat its
    words (a number, "yes"/"no", a name; a stat the file does not track, "—", is left out); no internal stat and
    no state key appears on any card."""
    cards = page.evaluate(CARDS)
    expected: dict[str, list[dict[str, str]]] = {}
    for name, entries in served["shown"].items():
        mine = expected[name] = []
        for e in entries:
            if e["kind"] == "health":
                # a combatant hidden from the players' view (issue 29) shows its health word, no number
                shown = e["text"] if e.get("hidden") else str(e["value"])
                mine.append({"stat": e["stat"], "label": e["label"], "text": shown})
            elif "chips" in e:
                mine.extend({"stat": e["stat"], "label": e["label"], "text": c} for c in e["chips"])
        for e in entries:
            if e["kind"] != "health" and "chips" not in e and e.get("tracked", True):
                mine.append({"stat": e["stat"], "label": e["label"], "text": e["text"]})
    assert cards == expected
    text = page.evaluate(CARD_TEXT)
    state = served["state"]["combatants"]
    keys = {k for stats in state.values() for k in stats if "_" in k or k[-1].isdigit() or k in ("x", "y", "turn")}
    assert [k for k in keys if re.search(rf"(?<![\w]){re.escape(k)}(?![\w])", text)] == []
    assert all("_" not in e["label"] for entries in cards.values() for e in entries)


def check_preview(page: Any, table: Table, eid: str, token: str) -> None:
    """The odds shown before the roll are /v1/encounters/{id}/preview's for the choice on the form."""
    page.wait_for_function(PREVIEW_READY)
    shown = page.evaluate(PREVIEW)
    request = shown["request"]
    assert request["attacker"] == shown["chosen"]["attacker"]
    assert request["targets"] == shown["chosen"]["targets"]
    served = table.http.post(f"/v1/encounters/{eid}/preview", json=request, headers=bearer(token)).json()
    assert [r["name"] for r in shown["rows"]] == [t["name"] for t in served["targets"]]
    for row, target in zip(shown["rows"], served["targets"], strict=True):
        if "result" not in target:  # no roll against it: the game's words, no odds
            assert row["cells"] == {"reach": target["reach"]}
            continue
        assert row["cells"].pop("mean_damage") == exact(target["mean_damage"])
        assert row["cells"] == {label: exact(p) for label, p in target["result"].items()} | {
            label: "0" for label in row["cells"] if label not in target["result"]
        }


DICE_STEP = """([n, k]) => Number(document.getElementById('tracker').dataset.seq) > n
  || document.querySelectorAll('#dice-fields input').length > k"""


def type_dice(page: Any) -> None:
    """Enter dice: a face off its die is refused at its field (nothing sent or changed); then faces that fit,
    and, when those faces call for more dice (a critical's), the second step's fields too."""
    if page.is_hidden("#dice"):
        page.click("#enter-dice")
    page.wait_for_selector("#dice-fields[data-roles]", state="attached")
    inputs = page.locator("#dice-fields input")
    before = seq(page)

    def fitting() -> None:
        for i in range(inputs.count()):
            field = inputs.nth(i)
            if field.input_value():
                continue
            dice = field.get_attribute("data-sides")
            field.fill(" ".join("1" for _ in dice.split()) if dice else "3 4")

    if inputs.count():
        fitting()
        first = inputs.nth(0)
        role = first.get_attribute("name")
        sides = first.get_attribute("data-sides")
        if sides:  # checked in the field itself
            first.fill(" ".join("99" for _ in sides.split()))
            page.click("#roll-dice")
            assert "is not on a d" in page.inner_text(f"#die-{role}-error")
        else:  # a varying number of faces: the server reads them and names the role
            first.fill("99 99")
            page.click("#roll-dice")
            page.wait_for_function(f"() => document.getElementById('die-{role}-error').textContent.length > 0")
            assert page.get_attribute(f"#die-{role}", "aria-invalid") == "true"
        assert seq(page) == before
        first.fill("")
    for _ in range(3):  # each press: the attack lands, or a further step's fields are added
        fitting()
        fields = inputs.count()
        page.click("#roll-dice")
        page.wait_for_function(DICE_STEP, arg=[before, fields])
        if seq(page) > before:
            return
    raise AssertionError("the dice never sufficed")


@pytest.mark.parametrize("game", GAMES)
def test_web_plays_an_encounter_of_every_game(page: Any, table: Table, game: str, tmp_path: Path) -> None:
    made = table.create(example=f"starter/{game}", seed=3)
    eid, gm = made["id"], made["gm_token"]
    ready(page, table.url(eid, gm))
    assert page.get_attribute("#tracker", "data-role") == "gm"
    check_cards(page, table.get(eid, gm))
    check_preview(page, table, eid, gm)
    assert page.evaluate(UNLABELLED) == []  # every field has a label for screen readers

    click_and_wait(page, "#roll")  # the server rolls
    assert page.locator("#trace li cite").count() > 0  # the trace cites its clauses
    check_cards(page, table.get(eid, gm))
    check_preview(page, table, eid, gm)

    before_dice = table.get(eid, gm)
    type_dice(page)
    check_cards(page, table.get(eid, gm))

    click_and_wait(page, "#undo")  # the hand-rolled attack taken back
    assert table.get(eid, gm)["state"] == before_dice["state"]
    check_cards(page, before_dice)

    sheet = table.http.get(f"/v1/encounters/{eid}/sheet", headers=bearer(gm)).json()
    who, health = sheet["combatants"][0]["name"], sheet["health"]
    page.select_option("#adjust-who", who)
    page.select_option("#adjust-stat", health)
    page.fill("#adjust-value", "7")
    click_and_wait(page, "#adjust")
    assert page.inner_text(f'[data-combatant="{who}"] [data-stat="{health}"]') == "7"
    check_preview(page, table, eid, gm)

    click_and_wait(page, "#auto")
    check_cards(page, table.get(eid, gm))
    shot(page, f"web-{game}")

    page.focus("#auto")  # keys alone: the focused button takes Enter
    before = seq(page)
    page.keyboard.press("Enter")
    page.wait_for_function(SEQ_ABOVE, arg=before)
    for _ in range(12):  # auto turns through the page; a long fight is finished over the API (the page follows)
        if table.get(eid, gm)["over"]:
            break
        click_and_wait(page, "#auto")
    for _ in range(400):
        if table.get(eid, gm)["over"]:
            break
        table.http.post(f"/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=bearer(gm))
    page.wait_for_selector("#auto[disabled]", state="attached")
    assert "over" in page.inner_text("#status")
    check_cards(page, table.get(eid, gm))

    with page.expect_download() as download:
        page.click("#export")
    log = tmp_path / "evening.jsonl"
    download.value.save_as(log)
    lines = log.read_text().splitlines()
    assert len(lines) == seq(page) + 1
    assert json.loads(lines[-1])["kind"] == "end"
    rebuilt = replay(log)
    assert rebuilt.matches, rebuilt.mismatches


def test_web_read_only_view_has_no_controls_and_follows_live(page: Any, table: Table) -> None:
    made = table.create(example=f"starter/{GAMES[0]}", seed=5)
    eid = made["id"]
    ready(page, table.url(eid, made["gm_token"]))
    view = page.context.new_page()
    view.set_viewport_size({"width": 390, "height": 844})
    ready(view, table.url(eid, made["view_token"]))
    assert view.get_attribute("#tracker", "data-role") == "view"
    assert view.locator("button, select, input, textarea, #controls:not([hidden])").count() == 0
    for _ in range(2):
        now = click_and_wait(page, "#auto")
        view.wait_for_function(f"() => document.getElementById('tracker').dataset.seq === '{now}'", timeout=5000)
        check_cards(view, table.get(eid, made["view_token"]))
    assert view.locator("#log li").count() == now + 1
    assert view.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways scrolling on a phone
    shot(view, "web-view-390")
    page.set_viewport_size({"width": 768, "height": 1024})  # the GM's tablet
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 768
    shot(page, "web-tracker-768")


def test_web_home_starts_an_example_and_shares_it(page: Any, table: Table) -> None:
    page.goto(f"{table.base}/?token={ADMIN}")
    page.wait_for_selector("#example option", state="attached")
    page.select_option("#example", f"starter/{GAMES[-1]}")
    page.click("#from-example button")
    page.wait_for_selector("#tracker[data-ready=true]")
    assert page.get_attribute("#tracker", "data-role") == "gm"
    eid = page.url.split("/encounters/")[1].split("?")[0]
    share = page.get_attribute("#share-link", "href")
    view = page.context.new_page()
    ready(view, share)
    assert view.get_attribute("#tracker", "data-role") == "view"
    page.goto(f"{table.base}/")
    row = page.locator(f'#encounters tr[data-encounter="{eid}"]')
    row.wait_for()
    assert GAMES[-1] in row.inner_text() and "1" in row.locator("td").nth(2).inner_text()
    page.set_viewport_size({"width": 768, "height": 1024})
    shot(page, "web-home-768")


def test_web_a_bad_fight_file_gets_the_clis_error_and_creates_nothing(
    page: Any, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = f"system: {GAMES[0]}\nsides: 3\n"
    (tmp_path / "bad.yaml").write_text(text)
    monkeypatch.chdir(tmp_path)
    cli = CliRunner().invoke(app, ["fight", "bad.yaml"], prog_name="tohit")
    assert cli.exit_code == 2
    count = len(table.http.get("/v1/encounters", headers=bearer(ADMIN)).json())
    page.goto(f"{table.base}/?token={ADMIN}")
    page.set_input_files("#fight-file", files=[{"name": "bad.yaml", "mimeType": "text/yaml", "buffer": text.encode()}])
    page.click("#from-file button")
    page.wait_for_function("() => document.getElementById('upload-error').textContent.length > 0")
    assert page.inner_text("#upload-error") == cli.stderr.strip()
    assert "/encounters/" not in page.url
    assert len(table.http.get("/v1/encounters", headers=bearer(ADMIN)).json()) == count
