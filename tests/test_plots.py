"""Charts (issue 20, item 9): odds --plot cuts tails below 1e-6 and says so, --log; simulate --plot and fight -n
--plot draw frequencies and win rates with their 95% intervals."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from tohit.cli.app import app
from tohit.cli.plot import TAIL_CUT, shown_distribution

ROOT = Path(__file__).resolve().parents[1]
CEIL = str(ROOT / "examples" / "kaiser" / "ceil-vs-bandit.yaml")
DUEL = str(ROOT / "examples" / "fights" / "kaiser-duel.yaml")
PNG = b"\x89PNG"


def test_plot_cuts_the_tail_below_one_in_a_million() -> None:
    dist = [(0, Fraction(1, 2)), (5, Fraction(1, 3)), (9, Fraction(1, 10**5)), (12, Fraction(1, 10**7))]
    shown, cut = shown_distribution(dist[:4])
    assert [v for v, _ in shown] == [0, 5, 9]
    assert cut == Fraction(1, 10**7) and cut < TAIL_CUT


def test_plot_keeps_everything_when_no_tail_is_that_small() -> None:
    dist = [(0, Fraction(1, 2)), (3, Fraction(1, 2))]
    assert shown_distribution(dist) == (dist, 0)


def test_odds_plot_and_log_scale_write_pngs(tmp_path: Path) -> None:
    for name, extra in (("plain.png", []), ("log.png", ["--log"])):
        out = tmp_path / name
        result = CliRunner().invoke(app, ["odds", CEIL, "--plot", str(out), *extra])
        assert result.exit_code == 0, result.output
        assert out.read_bytes().startswith(PNG)


def test_simulate_plot_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "sim.png"
    result = CliRunner().invoke(app, ["simulate", CEIL, "-n", "2000", "--seed", "1", "--plot", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(PNG)


def test_fight_simulation_plot_writes_a_png_and_needs_n(tmp_path: Path) -> None:
    out = tmp_path / "fights.png"
    result = CliRunner().invoke(app, ["fight", DUEL, "-n", "500", "--seed", "1", "--plot", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(PNG)
    refused = CliRunner().invoke(app, ["fight", DUEL, "--plot", str(tmp_path / "x.png")])
    assert refused.exit_code == 2 and "--plot" in refused.output


def test_plot_must_be_a_png(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["simulate", CEIL, "-n", "100", "--plot", str(tmp_path / "x.jpg")])
    assert result.exit_code == 2 and "PNG" in result.output
