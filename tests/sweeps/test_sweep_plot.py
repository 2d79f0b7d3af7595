"""issue 18, item 5: `--plot` draws a line with 95% bands for one varied field, a heatmap for two, small
multiples for three, labelled in the rulebook's terms."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from tohit.core.errors import InputError
from tohit.sweeps.plot import field_label, measure_label, sweep_plot
from tohit.sweeps.run import plan, run
from tohit.sweeps.spec import parse_vary

BOW = EXAMPLES / "rtw" / "bow-vs-evasion.yaml"


@pytest.mark.parametrize(
    "varies",
    [
        ["targets[0].evasion=10..14"],
        ["targets[0].evasion=10..14", "attacker.accuracy=1..3"],
        ["targets[0].evasion=10..14", "attacker.accuracy=1..3", "targets[0].defense=0,2"],
    ],
)
def test_one_two_and_three_fields_draw_a_png(varies: list[str], tmp_path: Path) -> None:
    sweep = plan(BOW, varies)
    data = run(sweep, workers=1).frame()
    out = tmp_path / "plot.png"
    sweep_plot(data, list(sweep.grid.varies), sweep.grid.document, sweep.grid.kind, out, title=BOW.name)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000


def test_labels_are_the_rulebooks_words() -> None:
    document = {"sides": [{}, {"combatants": [{"name": "Bandit"}]}]}
    assert field_label(parse_vary("targets[0].evasion=1"), document) == "Evasion (targets[0].evasion)"
    assert field_label(parse_vary("sides[1].combatants[0].target.lp=1"), document).startswith("LP (")
    assert field_label(parse_vary("count:sides[1].combatants[0]=1"), document) == "copies of Bandit"
    assert measure_label("win_Party") == "Party win (share of fights)"
    assert measure_label("p_hit") == "P(hit)"


def test_four_fields_or_an_unknown_measure_are_refused(tmp_path: Path) -> None:
    sweep = plan(BOW, ["targets[0].evasion=10", "attacker.accuracy=1", "targets[0].defense=0", "attacker.combat=1"])
    data = run(sweep, workers=1).frame()
    with pytest.raises(InputError, match="one, two or three"):
        sweep_plot(data, list(sweep.grid.varies), sweep.grid.document, "attack", tmp_path / "x.png")
    with pytest.raises(InputError, match="no measure 'win_Nobody'"):
        sweep_plot(
            data, list(sweep.grid.varies)[:1], sweep.grid.document, "attack", tmp_path / "x.png", measure="win_Nobody"
        )
