"""`tohit examples [DIR]` copies the bundled examples out, and every reader finds the same folder (issue 40,
item 1): the demo, the server's example fights and `tohit examples`, through `tohit.bundled`."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit import bundled
from tohit.cli.app import app
from tohit.cli.demo import default_examples
from tohit.server import examples as server_examples

runner = CliRunner()


def files(folder: Path) -> dict[Path, bytes]:
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_checkout_reads_its_examples_folder() -> None:
    assert bundled.examples_folder() == EXAMPLES == default_examples()
    assert server_examples.BUNDLED_FIGHTS == EXAMPLES / "fights"


def test_examples_copies_every_file_and_again_copies_none(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    first = runner.invoke(app, ["examples", str(out)])
    assert first.exit_code == 0, first.output
    assert files(out) == files(EXAMPLES)
    assert f"{len(files(EXAMPLES))} example files copied" in first.output
    again = runner.invoke(app, ["examples", str(out)])
    assert again.exit_code == 0 and f"0 example files copied, {len(files(EXAMPLES))} already there" in again.output


def test_a_changed_file_is_kept_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "examples"
    runner.invoke(app, ["examples", str(out)])
    changed = out / "kaiser" / "ceil-vs-bandit.yaml"
    changed.write_text("# mine\n")
    (out / "rtw" / "sneak-attack.yaml").unlink()
    refused = runner.invoke(app, ["examples", str(out)])
    assert refused.exit_code == 2
    assert refused.output.count("\n") == 1 and "1 of its files differ" in refused.output and "--force" in refused.output
    assert changed.read_text() == "# mine\n" and not (out / "rtw" / "sneak-attack.yaml").exists()  # nothing copied
    forced = runner.invoke(app, ["examples", str(out), "--force"])
    assert forced.exit_code == 0 and files(out) == files(EXAMPLES)


def test_a_file_in_the_way_is_refused(tmp_path: Path) -> None:
    (tmp_path / "examples").write_text("not a folder")
    done = runner.invoke(app, ["examples", str(tmp_path / "examples")])
    assert done.exit_code == 2 and "not a folder" in done.output


def test_a_missing_examples_folder_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    missing = runner.invoke(app, ["demo", "--examples", str(tmp_path / "none")])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    monkeypatch.setattr(bundled, "INSTALLED", tmp_path / "no-wheel")
    monkeypatch.setattr(bundled, "CHECKOUT", tmp_path / "no-checkout")
    nowhere = runner.invoke(app, ["examples", str(tmp_path / "out")])
    assert nowhere.exit_code == 2 and "no bundled examples" in nowhere.output
