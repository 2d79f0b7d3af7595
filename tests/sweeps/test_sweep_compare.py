"""issue 31, item 3: `tohit compare A B`: the same measures side by side with B - A; exact differences as
fractions for odds, a 95% interval for simulated chances and whether it excludes 0."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.sweeps.compare import compare, newcombe

BOW = EXAMPLES / "rtw" / "bow-vs-evasion.yaml"
BANDITS = EXAMPLES / "fights" / "kaiser-party-vs-bandits.yaml"
DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"
runner = CliRunner()


def variant(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    out = tmp_path / f"b-{source.name}"
    text = source.read_text()
    assert old in text
    out.write_text(text.replace(old, new))
    return out


def test_attack_differences_are_exact_fractions(tmp_path: Path) -> None:
    """Accuracy 2 -> 4 against Evasion 13: P(hit) 7/12 -> 5/6, +1/4; mean damage 131/36 -> 185/36, +3/2."""
    b = variant(tmp_path, BOW, "accuracy: 2", "accuracy: 4")
    result = runner.invoke(app, ["compare", str(BOW), str(b), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["method"] == "exact" and data["rows"][0]["target"] == "Lizalfos"
    by = {m["measure"]: m for m in data["rows"][0]["measures"]}
    assert (by["p_hit"]["a"], by["p_hit"]["b"], by["p_hit"]["difference"]) == ("7/12", "5/6", "1/4")
    assert by["mean_damage"]["difference"] == "3/2" and by["p_critical"]["difference"] == "0/1"
    assert "lo" not in by["p_hit"]
    text = runner.invoke(app, ["compare", str(BOW), str(b)]).stdout
    assert "+1/4" in text and "7/12 (58.3%)" in text


def test_simulated_win_rates_get_an_interval_of_the_difference(tmp_path: Path) -> None:
    """The duel's bandit chief at LP 10 instead of 40: Ceil's win rate rises, and the 95% interval of the
    difference excludes 0; a file against itself differs by nothing, and its interval holds 0."""
    weak = tmp_path / "weak.yaml"
    weak.write_text(DUEL.read_text().replace("armor: {cut: 3}, lp: 40", "armor: {cut: 3}, lp: 10"))
    result = compare(DUEL, weak, n=300, seed=2)
    win = next(d for d in result.rows[0][1] if d.measure == "win_Ceil")
    assert result.method == "simulated" and win.lo is not None and win.hi is not None
    assert isinstance(win.difference, float) and win.lo <= win.difference <= win.hi and win.excludes_zero
    same = compare(DUEL, DUEL, n=300, seed=2)
    for d in same.rows[0][1]:
        assert d.difference == 0 and d.excludes_zero in (None, False)
    assert compare(DUEL, weak, n=300, seed=2) == result  # the same seed, the same answer
    exact = compare(DUEL, weak, exact=True)
    win_exact = next(d for d in exact.rows[0][1] if d.measure == "win_Ceil")
    assert isinstance(win_exact.difference, Fraction) and win_exact.difference > 0 and win_exact.lo is None


def test_newcombes_interval() -> None:
    """Newcombe (1998), table II, example (a): 56/70 against 48/80, difference 0.2, interval 0.0524 to 0.3339."""
    low, high = newcombe(48 / 80, 56 / 70, 80, 70)
    assert low == pytest.approx(0.0524, abs=5e-4) and high == pytest.approx(0.3339, abs=5e-4)


def test_compare_refuses_an_attack_against_a_fight() -> None:
    result = runner.invoke(app, ["compare", str(BOW), str(BANDITS)])
    assert result.exit_code == 2 and "not one of each" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_files_of_two_systems_are_refused_unless_systems_differ() -> None:
    """issue 41, item 6: an rtw file against a Kaiser file paired "Lizalfos / Bandit" silently."""
    kaiser = EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml"
    refused = runner.invoke(app, ["compare", str(BOW), str(kaiser)])
    assert refused.exit_code == 2, refused.output
    assert refused.stderr.splitlines() == [
        "error: B: A's game is rtw and B's is kaiser: two games' measures are paired by position"
        " (give --systems-differ to compare them all the same)"
    ]
    fights = runner.invoke(app, ["compare", str(DUEL), str(EXAMPLES / "fights" / "rtw-lizalfos-ambush.yaml")])
    assert fights.exit_code == 2 and "--systems-differ" in fights.stderr
    allowed = runner.invoke(app, ["compare", str(BOW), str(kaiser), "--systems-differ", "--json"])
    assert allowed.exit_code == 0, allowed.output
    assert json.loads(allowed.stdout)["rows"][0]["target"] == "Lizalfos / Bandit"
    with pytest.raises(InputError, match="--systems-differ"):
        compare(BOW, kaiser)
