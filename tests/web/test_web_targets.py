"""Several targets chosen where the attack allows (issue 29): checkboxes, up to the game's cap, for Last Odyssey's
Multi abilities and rtw's area attacks in Abstract Combat; a radio otherwise. The preview has one row per creature
the attack will reach, the roll attacks each, and the result and the log show every one."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Table, bearer, shot
from tests.web.test_web_table import click_and_wait, ready

pytestmark = pytest.mark.browser

ROWS = "() => [...document.querySelectorAll('[data-preview] [data-target]')].map(r => r.dataset.target)"


@pytest.mark.parametrize(
    ("fight", "attacker", "attack", "chosen", "left_out", "most"),
    [
        ("file/last-odyssey-cops", "Ilse", "Fire Wave", ["Cop 1", "Cop 3"], "Cop 2", "any number"),
        ("file/rtw-bokoblin-camp", "Zelda", "Fireball", ["Bokoblin 1", "Moblin"], "Bokoblin 2", "up to 2"),
    ],
)
def test_web_several_targets_chosen_are_each_attacked(
    page: Any, table: Table, fight: str, attacker: str, attack: str, chosen: list[str], left_out: str, most: str
) -> None:
    """Fire Wave (Multi: "targets more than one character") and Fireball (an area, Abstract Combat: its count of
    foes) take checkboxes; two foes chosen, the preview lists those two, Roll attacks both and neither other foe,
    and the result and the log say so."""
    made = table.create(example=fight, seed=5)
    eid, gm = made["id"], made["gm_token"]
    ready(page, table.url(eid, gm))
    page.select_option("#attacker", attacker)
    page.select_option("#attack", attack)
    assert page.get_attribute(f'#targets input[value="{chosen[0]}"]', "type") == "checkbox"
    assert page.inner_text("#targets legend") == f"Targets ({most})"
    for name in chosen:
        page.check(f'#targets input[value="{name}"]')
    page.wait_for_function(f"() => ({ROWS})().join('|') === {'|'.join(chosen)!r}")
    if most == f"up to {len(chosen)}":  # at the cap: the boxes left are disabled, so the page never sends more
        assert page.is_disabled(f'#targets input[value="{left_out}"]')
    shot(page, f"web-targets-{fight.split('/')[1]}", full=False)

    click_and_wait(page, "#roll")
    events = table.http.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()
    attacks = [e for e in events if e["kind"] == "attack" and e.get("attacker") == attacker]
    assert sorted(e["target"] for e in attacks) == sorted(chosen)
    result = page.inner_text("[data-result]")
    log = page.inner_text("#log")
    for e in attacks:  # each foe hit or missed, in the result and in the log
        assert e["text"] in result and e["text"] in log
    assert left_out not in " ".join(e["text"] for e in attacks)
    shot(page, f"web-targets-rolled-{fight.split('/')[1]}", full=False)


def test_web_a_one_target_attack_is_a_radio(page: Any, table: Table) -> None:
    """An attack that takes one target (Link's Strike) is one radio group; choosing Fireball after it turns it into
    checkboxes and back, keeping the foe chosen."""
    made = table.create(example="file/rtw-bokoblin-camp", seed=5)
    ready(page, table.url(made["id"], made["gm_token"]))
    page.select_option("#attacker", "Link")
    assert page.eval_on_selector_all("#targets input", "xs => [...new Set(xs.map(x => x.type))]") == ["radio"]
    assert page.inner_text("#targets legend") == "Target"
    page.select_option("#attacker", "Zelda")
    page.select_option("#attack", "Fireball")
    assert page.eval_on_selector_all("#targets input", "xs => [...new Set(xs.map(x => x.type))]") == ["checkbox"]
    page.check('#targets input[value="Moblin"]')
    page.select_option("#attack", "Magic Salvo")
    assert page.eval_on_selector_all("#targets input:checked", "xs => xs.map(x => x.value)") == ["Bokoblin 1"]
    assert page.eval_on_selector_all("#targets input", "xs => [...new Set(xs.map(x => x.type))]") == ["radio"]


def test_web_several_targets_on_a_phone_by_keys(page: Any, table: Table) -> None:
    """On a 390 px phone the checkboxes fit (no sideways scroll); a box is checked with the keyboard (Space), the
    preview follows, and `r` rolls the attack on both once the focus leaves the field."""
    page.set_viewport_size({"width": 390, "height": 844})
    made = table.create(example="file/last-odyssey-cops", seed=5)
    eid, gm = made["id"], made["gm_token"]
    ready(page, table.url(eid, gm))
    page.select_option("#attacker", "Ilse")
    page.select_option("#attack", "Fire Wave")
    page.focus('#targets input[value="Cop 2"]')
    page.keyboard.press("Space")
    page.wait_for_function(f"() => ({ROWS})().join('|') === 'Cop 1|Cop 2'")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    shot(page, "web-targets-phone", full=False)
    page.evaluate("() => document.activeElement.blur()")
    before = int(page.get_attribute("#tracker", "data-seq"))
    page.keyboard.press("r")
    page.wait_for_function(f"() => Number(document.getElementById('tracker').dataset.seq) > {before}")
    events = table.http.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()
    assert [e["target"] for e in events if e["kind"] == "attack"] == ["Cop 1", "Cop 2"]
