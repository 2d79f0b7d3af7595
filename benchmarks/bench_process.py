"""Cold starts (issue 19): `tohit roll FILE` and `tohit --help` as whole processes, against a Python process that
only imports numpy, pydantic and rich.

Another process imports only the stack `tohit roll` is built on, with nothing of tohit: the floor under the
roll row, for information (issue 19's roll target, 1.5x the reference, lies below it on this machine).

Each command runs as a new process, the four in turn (so a slow spell of the machine hits all of them alike),
and each figure is the median wall time of its runs; the ratio is the reference's time over tohit's. The
processes may write their bytecode (a first untimed run of each does), as an installed tohit has it:
without it every run would compile tohit's sources again.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.common import Row

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "examples" / "rtw" / "critical-range.yaml"
TOHIT = [sys.executable, "-c", "import sys; from tohit.cli.app import main; sys.argv[0] = 'tohit'; sys.exit(main())"]
REFERENCE = [sys.executable, "-c", "import numpy, pydantic, rich"]
#: What `tohit roll` cannot start without: the stack the project is built on (numpy and its random generators;
#: pydantic's models, which `import pydantic` alone defers; typer; rich's console and the trace's panel and
#: table; PyYAML). The floor under the roll row: tohit's own code, loading a game and rolling come on top of it.
STACK = [
    sys.executable,
    "-c",
    "import numpy, numpy.random, typer, yaml; from pydantic import BaseModel; from rich.console import Console;"
    " from rich.panel import Panel; from rich.table import Table",
]
#: What each target allows: tohit's time at most this many times the reference's.
ROLL_LIMIT = 1.5
HELP_LIMIT = 1.2


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    return time.perf_counter() - start


def run(quick: bool) -> list[Row]:
    commands = {
        "reference": REFERENCE,
        "stack": STACK,
        "roll": [*TOHIT, "roll", str(SCENARIO), "--seed", "1"],
        "help": [*TOHIT, "--help"],
    }
    for command in commands.values():  # warm the file cache once
        wall(command)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(5 if quick else 15):
        for name, command in commands.items():
            times[name].append(wall(command))
    median = {name: statistics.median(t) for name, t in times.items()}
    ref = median["reference"]
    reference = f"import numpy, pydantic, rich {ref * 1e3:.0f} ms"
    return [
        Row("process", f"tohit roll {SCENARIO.relative_to(ROOT)} (whole process, median)",
            f"{median['roll'] * 1e3:.0f} ms", reference, ref / median["roll"], 1 / ROLL_LIMIT),
        Row("process", "floor under the roll: importing the stack alone (numpy, pydantic models, typer, rich, yaml)",
            f"{median['stack'] * 1e3:.0f} ms", reference, ref / median["stack"]),
        Row("process", "tohit --help (whole process, median)",
            f"{median['help'] * 1e3:.0f} ms", reference, ref / median["help"], 1 / HELP_LIMIT),
    ]  # fmt: skip
