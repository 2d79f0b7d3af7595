"""issue 41, item 5: provenance that re-makes the table: the engine's version and commit, numpy's and Python's
versions, the input's text and the hash of its parsed form (a comment does not block `--resume`), `exact` where
every row is exact, `tohit sweep --remake TABLE`, the same record in a CSV's sidecar, and `pd.read_parquet`
showing it in `attrs`. (One worker, small n: these run in this process.)"""

from __future__ import annotations

import json
import platform
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import tohit
from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.sweeps import provenance
from tohit.sweeps.run import plan, run

BOW = EXAMPLES / "rtw" / "bow-vs-evasion.yaml"
BANDITS = EXAMPLES / "fights" / "kaiser-party-vs-bandits.yaml"
DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"
CHECKOUT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def invoke(args: list[str]) -> str:
    result = runner.invoke(app, [str(a) for a in args], prog_name="tohit")
    assert result.exit_code == 0, result.output
    return result.stdout


def one_error(args: list[str]) -> str:
    result = runner.invoke(app, [str(a) for a in args], prog_name="tohit")
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def sweep_args(fight: Path, out: Path) -> list[str]:
    return [
        "sweep",
        str(fight),
        "--vary",
        "count:Bandit=1..2",
        "-n",
        "20",
        "--seed",
        "1",
        "--workers",
        "1",
        "--out",
        str(out),
    ]


def test_the_record_has_the_engines_version_and_commit_numpy_and_python() -> None:
    """ "the engine's version and commit (when installed from a checkout), numpy's and Python's versions"."""
    record = tohit.sweep(BOW, {"targets[0].evasion": "12"}, workers=1).attrs["tohit"]
    assert record["engine"] == f"tohit {tohit.__version__}"
    assert record["numpy"] == np.__version__ and record["python"] == platform.python_version()
    if (CHECKOUT / ".git").exists():
        head = subprocess.run(["git", "-C", str(CHECKOUT), "rev-parse", "HEAD"], capture_output=True, text=True)
        assert record["commit"] == head.stdout.strip()


def test_the_record_has_the_inputs_text_and_the_hash_of_its_parsed_form() -> None:
    record = tohit.sweep(BOW, {"targets[0].evasion": "12"}, workers=1).attrs["tohit"]
    assert record["input_text"] == BOW.read_text(encoding="utf-8")
    parsed = tohit.sweep(tohit_document(BOW), {"targets[0].evasion": "12"}, workers=1).attrs["tohit"]
    assert parsed["document_sha256"] == record["document_sha256"]  # the file and its parsed mapping: one input
    assert parsed["input"] == "<sweep>" and json.loads(parsed["input_text"]) == tohit_document(BOW)


def tohit_document(path: Path) -> dict[str, object]:
    from tohit.core.loader import read_document

    return read_document(path)


def test_a_comment_only_edit_does_not_block_resume(tmp_path: Path) -> None:
    """ "a hash of its parsed form (so comments do not block resume)"; a changed value still does."""
    fight = tmp_path / "fight.yaml"
    shutil.copy(BANDITS, fight)
    out = tmp_path / "t.csv"
    invoke(sweep_args(fight, out))
    before = out.read_bytes()
    fight.write_text("# a note added after the run\n" + fight.read_text() + "\n# and another\n")
    invoke([*sweep_args(fight, out), "--resume"])
    assert out.read_bytes() == before
    fight.write_text(fight.read_text().replace("lp: 25", "lp: 80"))
    assert "has changed since" in one_error([*sweep_args(fight, out), "--resume"])


def test_resume_refuses_a_table_made_by_another_commit(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    invoke(sweep_args(BANDITS, out))
    meta = provenance.sidecar(out)
    record = json.loads(meta.read_text())
    meta.write_text(json.dumps({**record, "commit": "0123456789ab" + "0" * 28}))
    line = one_error([*sweep_args(BANDITS, out), "--resume"])
    assert "was made by tohit" in line and "(commit 0123456789ab)" in line and "run the sweep afresh" in line


@pytest.mark.parametrize(
    ("file", "vary", "options", "exact"),
    [
        (BOW, "targets[0].evasion=12..13", {}, True),
        (DUEL, "sides[1].combatants[0].target.lp=6", {"exact": True}, True),
        (BANDITS, "count:Bandit=1", {"n": 10, "seed": 1}, False),
    ],
    ids=["attack", "exact-duel", "simulated-fight"],
)
def test_exact_is_true_where_every_row_is_exact(file: Path, vary: str, options: dict[str, Any], exact: bool) -> None:
    """ "`exact` true where every row is exact": an attack's points are exact odds without --exact."""
    assert plan(file, [vary], **options).made_by["exact"] is exact


def test_an_attack_sweeps_json_says_exact_with_its_exact_rows() -> None:
    data = json.loads(invoke(["sweep", BOW, "--vary", "targets[0].evasion=12..13", "--workers", "1", "--json"]))
    assert data["provenance"]["exact"] is True and {row["method"] for row in data["rows"]} == {"exact"}


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_remake_runs_a_table_again_from_its_own_record(tmp_path: Path, suffix: str) -> None:
    """ "`tohit sweep --remake TABLE` re-runs a table from its own metadata": the input is gone, the same rows
    and the same record come back."""
    fight = tmp_path / "fight.yaml"
    shutil.copy(BANDITS, fight)
    first, again = tmp_path / f"first{suffix}", tmp_path / f"again{suffix}"
    invoke([*sweep_args(fight, first), "--measure", "win_Party"])
    fight.unlink()
    invoke(["sweep", "--remake", first, "--workers", "1", "--out", again])
    pd.testing.assert_frame_equal(read(first), read(again))
    assert provenance.read(again) == provenance.read(first)
    if suffix == ".csv":
        assert again.read_bytes() == first.read_bytes()
        assert provenance.sidecar(again).read_bytes() == provenance.sidecar(first).read_bytes()


def read(path: Path) -> pd.DataFrame:
    return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)


def test_remake_of_an_attack_table_gives_the_same_rows(tmp_path: Path) -> None:
    out = tmp_path / "bow.parquet"
    first = json.loads(
        invoke(["sweep", BOW, "--vary", "targets[0].evasion=12..13", "--workers", "1", "--out", out, "--json"])
    )
    again = json.loads(invoke(["sweep", "--remake", out, "--workers", "1", "--json"]))
    assert again["rows"] == first["rows"] and again["provenance"] == first["provenance"]


def test_remake_takes_nothing_the_record_holds(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    invoke(sweep_args(BANDITS, out))
    line = one_error(["sweep", "--remake", out, "-n", "30", "--seed", "2"])
    assert line == f"error: --remake: {out} records -n, --seed: give only --out, --plot, --workers or --json"
    assert "give FILE and --vary" in one_error(["sweep"])
    assert f"no table at {tmp_path / 'none.csv'}" in one_error(["sweep", "--remake", tmp_path / "none.csv"])


def test_remake_refuses_a_table_that_kept_less(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    invoke(sweep_args(BANDITS, out))
    meta = provenance.sidecar(out)
    record = json.loads(meta.read_text())
    del record["input_text"]
    meta.write_text(json.dumps(record))
    line = one_error(["sweep", "--remake", out])
    assert "records no input_text (made by a tohit that kept less): it cannot be made again" in line


def test_the_csv_sidecar_and_parquet_hold_the_same_record(tmp_path: Path) -> None:
    """ "a CSV's sidecar holds the same; `pd.read_parquet` shows it in `attrs`"."""
    vary = ["count:Bandit=1..2"]
    made = run(plan(BANDITS, vary, n=20, seed=4, out=tmp_path / "t.parquet", measure="win_Party"), workers=1)
    run(plan(BANDITS, vary, n=20, seed=4, out=tmp_path / "t.csv", measure="win_Party"), workers=1)
    record = made.frame().attrs["tohit"]
    assert pd.read_parquet(tmp_path / "t.parquet").attrs == {"tohit": record}
    assert json.loads((tmp_path / "t.csv.meta.json").read_text()) == record
    assert {"input_text", "document_sha256", "commit", "numpy", "python"} <= set(record)


def test_resume_takes_an_attack_table_recorded_before_exact_said_every_row(tmp_path: Path) -> None:
    """A table made when `exact` said `--exact` alone (false for an attack) and no commit, parsed hash or text
    were kept is resumed by its bytes' hash, as then."""
    out = tmp_path / "bow.csv"
    args = ["sweep", BOW, "--vary", "targets[0].evasion=12..13", "--workers", "1", "--out", out]
    invoke(args)
    meta = provenance.sidecar(out)
    record = json.loads(meta.read_text())
    old = {k: v for k, v in record.items() if k not in ("commit", "numpy", "python", "document_sha256", "input_text")}
    meta.write_text(json.dumps({**old, "exact": False}))
    invoke([*args, "--resume"])
