"""Undo pressed while an action is still in flight: the page takes back that action once it has landed, never
drops the click (a CI run once clicked Undo as the stream had shown the attack but before its answer came)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Table, bearer

pytestmark = pytest.mark.browser

#: Every answer to an action comes to the page 800 ms late (its stream event does not), as on a slow link.
SLOW_ACTIONS = """
const real = window.fetch;
window.fetch = async (...args) => {
  const answer = await real(...args);
  if (String(args[0]).endsWith("/actions")) await new Promise((done) => setTimeout(done, 800));
  return answer;
};
"""


def test_web_undo_pressed_while_the_roll_is_in_flight_takes_that_roll_back(page: Any, table: Table) -> None:
    made = table.create(example="starter/rtw", seed=3)
    eid, gm = made["id"], made["gm_token"]
    page.add_init_script(SLOW_ACTIONS)
    page.goto(table.url(eid, gm))
    page.wait_for_selector("#tracker[data-ready=true]")
    page.click("#roll")
    page.click("#undo")  # before the roll's answer reaches the page
    page.wait_for_function("() => [...document.querySelectorAll('#log li')].some((li) => li.dataset.kind === 'undo')")
    events = table.http.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()
    attacks = [e for e in events if e["kind"] == "attack"]
    undos = [e for e in events if e["kind"] == "undo"]
    assert attacks and len(undos) == 1 and undos[0]["undoes"] == attacks[-1]["action"]
