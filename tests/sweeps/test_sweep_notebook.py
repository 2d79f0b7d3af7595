"""issue 41, "Done when": the notebook in docs/designer/ runs headless (nbclient, a kernel of this Python) and each
of its code cells shows its result as HTML (the results' own `_repr_html_`: tables, the chart as an image), with
nothing on stderr (no warning) and no error. Offline: the kernel talks to this process over 127.0.0.1."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

import tohit

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "designer" / "designer.ipynb"
#: Seconds a cell may take, and the kernel to start: bounds on a hang, not measures of speed.
CELL_TIMEOUT = 240


def test_the_designer_notebook_runs_headless_and_shows_html() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(not cell.outputs for cell in code)  # kept without outputs: this test makes them
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        startup_timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    source = str(Path(tohit.__file__).resolve().parents[1])  # the kernel imports the tohit this test does
    client.execute(env={**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])})
    for cell in code:
        kinds = [output.output_type for output in cell.outputs]
        assert "error" not in kinds, cell.source
        assert not [o for o in cell.outputs if o.output_type == "stream" and o.name == "stderr"], cell.source
        results = [o for o in cell.outputs if o.output_type == "execute_result"]
        assert len(results) == 1 and "text/html" in results[0].data, cell.source
    shown = {cell.source.splitlines()[-1]: cell.outputs[-1].data["text/html"] for cell in code}
    assert "5/6 (83.3%)" in shown['tohit.odds(tohit.load("trident-vs-concentration.yaml"))']
    assert "13/18" in shown['bow[["evasion", "p_hit", "p_hit_fraction", "mean_damage", "mean_damage_fraction"]]']
    assert shown["bow.plot()"].startswith('<img src="data:image/png;base64,')
    assert shown['grid.plot("p_hit")'].startswith('<img src="data:image/png;base64,')
    solved = next(html for line, html in shown.items() if line.startswith("tohit.solve("))
    assert "p_hit (Wizzrobe) crosses 75.0% (3/4) along attacker.accuracy between 1 and 2" in solved
    compared = next(html for line, html in shown.items() if line.startswith("tohit.compare("))
    assert "+13.9% (+5/36)" in compared
    assert any(o.get("text", "").startswith("Ceil wins ") for cell in code for o in cell.outputs)
