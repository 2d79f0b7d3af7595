"""Profiles of the benchmark cases that miss their target (issue 9: "the note says by how much and why, from
a profile"), with pyinstrument: `python -m benchmarks.profile [CASE ...]` (`make profile`), every case by
default. Each case is the bench's own call, repeated; the call tree shows where its time goes."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from pyinstrument import Profiler

from benchmarks import bench_kaiser, bench_last_odyssey, bench_rtw, bench_wsswnn
from benchmarks.common import SEEDS, first_odds
from benchmarks.fight_cases import CASES
from tohit.engine.fight.run import simulate_fights
from tohit.engine.roll import roll, roll_many
from tohit.engine.scenario import Loaded, from_dict, load

ROOT = Path(__file__).resolve().parents[1]


def _kaiser() -> Loaded:
    return bench_kaiser.load_free(load(ROOT / "examples" / "kaiser" / "ceil-vs-bandit.yaml"))


def _fights() -> dict[str, tuple[int, Callable[[], object]]]:
    """The fights bench's batch loops (issue 42): each game's 1-v-1 and 4-v-4, 100,000 fights a call."""
    out: dict[str, tuple[int, Callable[[], object]]] = {}
    for game, make in CASES.items():
        one, four, _ = make()
        for label, fight in (("1v1", one), ("4v4", four)):
            out[f"fights-{game}-{label}"] = (2, lambda fight=fight: simulate_fights(fight, 100_000, seed=1))
    return out


def _cases() -> dict[str, tuple[int, Callable[[], object]]]:
    """name -> (calls, one call)."""
    rtw = from_dict(bench_rtw.BASIC, source="bench_rtw")
    wsswnn = from_dict(bench_wsswnn.SCENARIO, source="bench_wsswnn")
    kaiser = _kaiser()
    multi = from_dict(bench_last_odyssey.MULTI, source="bench_last_odyssey")
    return {
        "odds-rtw": (2000, lambda: first_odds(rtw)),
        "odds-wsswnn": (2000, lambda: first_odds(wsswnn)),
        "roll-kaiser": (1000, lambda: roll(kaiser, seed=next(SEEDS))),
        "roll-last-odyssey": (1000, lambda: roll(multi, seed=next(SEEDS))),
        "roll-kaiser-batch": (20, lambda: roll_many(kaiser, 1000, seed=1)),
        "roll-rtw-batch": (20, lambda: roll_many(rtw, 1000, seed=1)),
        "roll-last-odyssey-batch": (20, lambda: roll_many(multi, 1000, seed=1)),
        **_fights(),
    }


def main(argv: list[str]) -> int:
    cases = _cases()
    names = argv or list(cases)
    unknown = [n for n in names if n not in cases]
    if unknown:
        print(f"error: unknown case {unknown[0]!r}; cases: {', '.join(cases)}", file=sys.stderr)
        return 2
    for name in names:
        calls, call = cases[name]
        for _ in range(min(calls, 20)):  # warm caches and imports first
            call()
        profiler = Profiler(interval=0.0002)
        profiler.start()
        for _ in range(calls):
            call()
        profiler.stop()
        print(f"== {name}: {calls} calls")
        print(profiler.output_text(unicode=False, color=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
