"""Where a fight batch's time goes (issue 42, item 1): `python -m benchmarks.fight_where [GAME ...]`.

Per game, the fights bench's 1-v-1 and 4-v-4 (benchmarks/fight_cases.py), 100,000 fights in one batch:
- steps, live rows a step, CPU ms a step (no profiler);
- Python a step: the CPU time of a step when the batch is small (200 fights, where the arrays cost nearly nothing):
  what a step costs whatever its size (the interpreter, and the fixed cost of each numpy call); the rest of a
  step at 100,000 is the arrays' own work (numpy passing over the rows, allocating each result);
- numpy calls a step: the calls of numpy functions and methods the profiler counts (an operator such as `a + b`
  is not a call it sees: the real count is higher);
- the share of the loop's time (cProfile, cumulative) of: the game's step outside the engine's calls, the draws
  (`resolve`, and `resolve_at` on an attack's rows alone: the alias tables, the lookups), the events applied
  (`emit`), the policy's choice, the end check (`decided`), the stalemate check, and the ends and the event tally
  (`emit_end`, the batch's `finished`, the running totals). Each part is timed over the calls made from outside it
  (`shares`).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from typing import Any

from benchmarks.fight_cases import CASES
from tohit.engine.fight import play
from tohit.engine.fight.run import simulate_fights

N = 100_000
SMALL = 200

#: (file, function) -> the part of the loop it is.
PARTS = {
    ("play.py", "play_out"): "loop",
    ("play.py", "step"): "step",
    ("table.py", "resolve"): "draws",
    ("table.py", "resolve_at"): "draws",  # a game's resolve on its attacks' rows alone (the sampled table's own)
    ("drawn.py", "resolve"): "draws",
    ("sample.py", "roll"): "draws",
    ("drawn.py", "die"): "draws",
    ("drawn.py", "draw"): "draws",
    ("base.py", "emit"): "events",
    ("base.py", "choose_actions"): "policy",
    ("play.py", "decided"): "end check",
    ("run.py", "stall"): "stalemate",
    ("play.py", "emit_end"): "ends & tally",
    ("run.py", "finished"): "ends & tally",
}

#: A profiled function, as pstats keys it: (file, line, name).
Func = tuple[str, int, str]
#: pstats' stats: per function, (primitive calls, calls, own time, cumulative time, the same per caller).
Stats = dict[Func, tuple[int, int, float, float, dict[Func, tuple[int, int, float, float]]]]


def _steps(fight: Any, n: int, batch: int) -> tuple[int, int, float]:
    """(steps, rows stepped, CPU seconds) of n fights in batches of `batch`."""
    counted = [0, 0]
    original = play.step

    def counting(ctx: Any, choice: Any = None, *, in_turn: bool = True) -> None:
        counted[0] += 1
        counted[1] += ctx.state.n
        original(ctx, choice, in_turn=in_turn)

    play.step = counting
    try:
        start = time.process_time()
        simulate_fights(fight, n, seed=1, batch=batch)
        cpu = time.process_time() - start
    finally:
        play.step = original
    return counted[0], counted[1], cpu


def where(fight: Any) -> dict[str, Any]:
    simulate_fights(fight, N, seed=1)  # tables built, pages kept
    steps, rows, cpu = _steps(fight, N, N)
    small_steps, _, small_cpu = _steps(fight, 20 * SMALL, SMALL)
    profile = cProfile.Profile(time.process_time)
    profile.enable()
    simulate_fights(fight, N, seed=1)
    profile.disable()
    stats: Stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    numpy_calls = sum(calls for (path, _, _), (_, calls, *_) in stats.items() if path == "~" or "numpy" in path)
    return {
        "steps": steps,
        "rows": rows / steps,
        "ms": 1e3 * cpu / steps,
        "python_ms": 1e3 * small_cpu / small_steps,
        "numpy_calls": numpy_calls / steps,
        "shares": shares(stats),
        "fights_per_s": N / cpu,
    }


def _part(func: Func) -> str | None:
    path, _, name = func
    return PARTS.get((path.rsplit("/", 1)[-1], name.rsplit(".", 1)[-1]))


def shares(stats: Stats) -> dict[str, float]:
    """Each part's share of the loop's time, from a profile's stats (pstats' `stats`: per function, its calls, its
    own and cumulative time, and the same per caller). A part's time is its functions' cumulative time over the
    calls made from outside the part (a draw inside a draw, as a resolve with a shared roll makes, counted once),
    and the steps' time that of the steps the loop plays (not the stalemate check's, counted as its own part)."""
    cumulative: dict[str, float] = {}
    for func, (_, _, _, total, callers) in stats.items():
        part = _part(func)
        if part is None:
            continue
        inside = [ct for caller, (_, _, _, ct) in callers.items() if _part(caller) == part]
        if part == "step":
            inside = [ct for caller, (_, _, _, ct) in callers.items() if _part(caller) != "loop"]
        cumulative[part] = cumulative.get(part, 0.0) + total - sum(inside)
    loop = cumulative.pop("loop")
    engine = sum(cumulative.get(p, 0.0) for p in ("draws", "events", "policy"))
    found = {"game's own step": (cumulative.pop("step") - engine) / loop}
    found.update({part: t / loop for part, t in cumulative.items()})
    return found


def main(argv: list[str]) -> None:
    """`python -m benchmarks.fight_where [GAME ...]`: every game's bench fights, or those named (an unknown name:
    argparse's one line, exit 2)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fight_where", description="Where a fight's time goes.")
    known = list(CASES)
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"only these ({', '.join(known)})")
    games: list[str] = parser.parse_args(argv).games
    unknown = [g for g in games if g not in known]
    if unknown:  # argparse's `choices` refuses no names at all with `nargs="*"` (Python 3.11)
        parser.error(f"no bench fights for {', '.join(map(repr, unknown))} (choose from {', '.join(known)})")
    for game in games or list(CASES):
        one, four, _ = CASES[game]()
        for label, fight in (("1v1", one), ("4v4", four)):
            w = where(fight)
            python = min(1.0, w["python_ms"] / w["ms"])
            print(
                f"{game} {label}: {w['fights_per_s'] / 1e3:.0f} k fights/s, {w['steps']} steps of {w['rows']:,.0f} rows"
                f" on average, {w['ms']:.1f} ms a step: Python {w['python_ms']:.2f} ms ({python:.0%}),"
                f" {w['numpy_calls']:.0f} numpy calls a step"
            )
            print("   " + ", ".join(f"{part} {share:.0%}" for part, share in w["shares"].items()))


if __name__ == "__main__":
    main(sys.argv[1:])
