"""The page speaks the game's words: Enter dice names each die as the rulebook does, with its dice ("Roll To-Hit
(2d6)" in Reclaim the Wild, Kaiser's "Offensive Roll" and "Defensive Roll"), never a role's key, and an error
about a die's faces speaks the same words at its field. Adjust a stat offers only the stats a game master may
set: a stat the rules keep (its `ranges` entry null, as Kaiser's turn counter) is not offered."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.conftest import ARTIFACTS, Table, bearer, shot
from tests.web.test_web_table import ready, seq

pytestmark = pytest.mark.browser

LABELS = "() => [...document.querySelectorAll('#dice-fields .die label')].map(x => x.textContent)"
KEYS = "() => [...document.querySelectorAll('#dice-fields .die input')].map(x => x.name)"


def dice_labels(page: Any, table: Table, example: str, shot_name: str) -> dict[str, str]:
    """Open Enter dice on the example's first attack: its fields' labels by role key."""
    made = table.create(example=example, seed=3)
    ready(page, table.url(made["id"], made["gm_token"]))
    page.click("#enter-dice")
    page.wait_for_selector("#dice-fields .die input")
    shot(page, shot_name, full=False)
    page.locator("#action").screenshot(path=str(ARTIFACTS / f"{shot_name}-panel.png"))
    return dict(zip(page.evaluate(KEYS), page.evaluate(LABELS), strict=True))


def assert_no_key_shown(labels: dict[str, str]) -> None:
    for key, label in labels.items():
        assert not re.search(rf"\b{re.escape(key)}\b", label), f"the field of {key} shows its key: {label!r}"


def test_web_enter_dice_names_rtw_s_roll_to_hit_in_its_words(page: Any, table: Table) -> None:
    labels = dice_labels(page, table, "starter/rtw", "web-dice-labels-rtw")
    assert "null" not in page.inner_text("#targets")  # a single target's box: its choices and nothing else
    assert labels["to_hit"] == "Roll To-Hit (2d6)"
    assert_no_key_shown(labels)


def test_web_enter_dice_names_kaiser_s_rolls_and_its_errors_in_its_words(page: Any, table: Table) -> None:
    labels = dice_labels(page, table, "starter/kaiser", "web-dice-labels-kaiser")
    assert labels["offense"].startswith("Offensive Roll (2d6")
    assert labels["defense"].startswith("Defensive Roll (2d6")
    assert_no_key_shown(labels)
    # a double 1 with no severity dice: the server refuses it at the field `dice.offense`, in the game's words
    before = seq(page)
    field = "#dice-fields input[name=offense]"
    assert page.get_attribute(field, "data-field") == "dice.offense"
    page.fill(field, "1 1")
    page.fill("#dice-fields input[name=defense]", "3 4")
    page.click("#roll-dice")
    page.wait_for_function("() => document.getElementById('die-offense-error').textContent.length > 0")
    message = page.inner_text("#die-offense-error")
    assert message.startswith("Offensive Roll (2d6") and "fumble" in message
    assert "offense" not in message
    assert seq(page) == before
    shot(page, "web-dice-labels-kaiser-error", full=False)


def test_web_adjust_offers_no_stat_the_rules_keep(page: Any, table: Table) -> None:
    """A stat whose `ranges` entry is null is kept by the game's rules: Adjust a stat does not offer it, and
    offers every other stat on the card, health among them. No bundled game's card reads such a stat today (the
    stats kept internal are not read), so the sheet's answer is given with Kaiser's AP kept on its way to the page
    (the server's own answer is checked against its schema elsewhere); the page alone decides what it offers."""
    made = table.create(example="starter/kaiser", seed=3)
    eid, gm = made["id"], made["gm_token"]
    sheet = table.http.get(f"/v1/encounters/{eid}/sheet", headers=bearer(gm)).json()
    assert sheet["ranges"]["ap"] is not None
    first = sheet["combatants"][0]["name"]
    shown = [r["stat"] for r in table.get(eid, gm)["shown"][first]]
    assert "ap" in shown

    def kept_ap(route: Any) -> None:
        answer = route.fetch()
        body = answer.json()
        body["ranges"]["ap"] = None
        route.fulfill(response=answer, json=body)

    page.route(re.compile(r".*/v1/encounters/[^/]+/sheet$"), kept_ap)
    ready(page, table.url(eid, gm))
    page.select_option("#adjust-who", first)
    offered = page.eval_on_selector_all("#adjust-stat option", "xs => xs.map(x => x.value)")
    assert "ap" not in offered
    assert sheet["health"] in offered
    assert offered == [s for s in shown if s != "ap"]
    page.locator("#adjust-form").screenshot(path=str(ARTIFACTS / "web-adjust-kept.png"))
    page.unroute_all()
    ready(page, table.url(eid, gm))  # the server's own sheet: AP has a range, and is offered
    assert "ap" in page.eval_on_selector_all("#adjust-stat option", "xs => xs.map(x => x.value)")
