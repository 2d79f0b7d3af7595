"""The trace recorder (docs/architecture.md, "The trace"): a batch of attacks gets, row by row, exactly the lines that
formatting each row's values by name would give, whatever path `Trace.note` takes to build them."""

from __future__ import annotations

import numpy as np
import pytest

from tohit.core.steps import Step, Trace

TEMPLATES = [
    "2d6 ({a}, {b}) + {skill} = {total}",
    "{total:+d} vs {stat!r}: {verdict}",
    "{{literal braces}} {total:>4} and {pair[0]}-{pair[1]}",
    "{total:{width}}",  # a nested format spec
    "no fields at all",
]


def by_name(text: str, values: dict[str, object], i: int, n: int) -> str:
    """Row i's values as plain Python (an array of one value per row gives its i-th, a one-element array its
    only value), formatted by name."""
    row = {}
    for k, v in values.items():
        if isinstance(v, np.ndarray):
            v = v.tolist()[i] if v.size == n and n > 1 else v.reshape(()).item()
        row[k] = v
    return text.format(**row)


@pytest.mark.parametrize("text", TEMPLATES)
@pytest.mark.parametrize("n", [1, 5])
def test_trace_lines_of_a_batch_equal_formatting_each_row_by_name(text: str, n: int) -> None:
    rng = np.random.default_rng(n)
    values: dict[str, object] = {
        "a": rng.integers(1, 7, size=n),
        "b": 3,  # the same for every row
        "skill": np.asarray([12]),
        "total": rng.integers(-5, 30, size=n),
        "stat": "Evasion",
        "verdict": "hit",
        "pair": (4, 5),
        "width": 6,
    }
    used = {k: v for k, v in values.items() if "{" + k in text}
    trace = Trace(n)
    trace.note("step", text, clause="rule", value=values["total"], **used)
    for i in range(n):
        (step,) = trace.rows[i]
        total = values["total"]
        assert isinstance(total, np.ndarray)
        assert step == Step("step", by_name(text, used, i, n), "rule", int(total[i]))


def test_trace_note_where_records_only_the_masked_rows() -> None:
    trace = Trace(4)
    trace.note("crit", "natural {nat}: critical", clause="rule", where=np.asarray([True, False, True, False]), nat=12)
    trace.note("roll", "rolled {x}", clause="rule", where=np.asarray([False, True, True, False]), x=np.arange(4))
    assert [[s.text for s in row] for row in trace.rows] == [
        ["natural 12: critical"],
        ["rolled 1"],
        ["natural 12: critical", "rolled 2"],
        [],
    ]
