"""Kaiser: the page's worked example through the three feeds (smoke test; the full suite is in test_kaiser*)."""

from tests.conftest import EXAMPLES
from tohit.engine.roll import roll
from tohit.engine.scenario import load


def test_kaiser_page_example_ceil_deals_14() -> None:
    result = roll(load(EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml")).target("Bandit").row
    assert (result["result"], result["dos"], result["units"], result["damage"], result["ap_lost"]) == (
        "hit",
        7,
        2,
        14,
        1,
    )
