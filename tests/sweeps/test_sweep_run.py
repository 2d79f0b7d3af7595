"""issue 18, items 2-6: what each point holds, determinism for any worker count and on a cluster, resume after
an interruption, `--scheduler` for `simulate` and `fight -n`, and bad input (one `error:` line, exit 2)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

import tohit
from tests.conftest import EXAMPLES
from tests.subprocesses import ending_with_the_run
from tests.sweeps.conftest import external_cluster
from tohit.cli.app import app
from tohit.core.loader import read_document
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.run import simulate_fights
from tohit.engine.odds import odds
from tohit.engine.scenario import from_dict
from tohit.sweeps.execute import connect
from tohit.sweeps.measure import point_seed
from tohit.sweeps.run import plan, run

BOW = EXAMPLES / "rtw" / "bow-vs-evasion.yaml"
BANDITS = EXAMPLES / "fights" / "kaiser-party-vs-bandits.yaml"
DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"
TOHIT = [str(Path(sys.executable).parent / "tohit")]
runner = CliRunner()
#: A small fight grid: 2 x 2 points of 60 fights (4 or 5 bandits, where the party starts to lose).
FIGHT_GRID = ["count:sides[1].combatants[0]=4..5", "sides[1].combatants[0].target.lp=20,30"]


def fight_sweep(**options: Any) -> pd.DataFrame:
    return run(plan(BANDITS, FIGHT_GRID, n=60, seed=5), **options).frame()


@pytest.fixture(scope="module")
def serial() -> pd.DataFrame:
    """The fight grid run in this process (one worker)."""
    return fight_sweep(workers=1)


def test_an_attack_point_is_exactly_tohit_odds_of_its_file() -> None:
    """item 2: each attack point holds the exact odds of the file with its values set."""
    data = tohit.sweep(BOW, {"targets[0].evasion": "10..16:3", "attacker.accuracy": "1,3"}, workers=1)
    assert len(data) == 6 and list(data.columns[:4]) == ["point", "targets[0].evasion", "attacker.accuracy", "target"]
    base = read_document(BOW)
    for row in data.to_dict("records"):
        doc = json.loads(json.dumps(base))
        doc["targets"][0]["evasion"] = row["targets[0].evasion"]
        doc["attacker"]["accuracy"] = row["attacker.accuracy"]
        exact = odds(from_dict(doc)).targets[0]
        assert row["p_hit"] == float(exact.probability("result", "hit"))
        assert row["p_miss"] == float(exact.probability("result", "miss"))
        assert row["mean_damage"] == float(exact.mean_damage)
        assert row["damage_p5"] <= row["damage_p50"] <= row["damage_p95"]
    first = data.iloc[0]  # Evasion 10, Accuracy 1: 2d6 + 1 + 4 >= 10 is 5 or more: 30/36
    assert first["p_hit"] == float(Fraction(30, 36))


def test_attack_json_gives_the_exact_fractions() -> None:
    result = runner.invoke(app, ["sweep", str(BOW), "--vary", "targets[0].evasion=13", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.stdout)["rows"][0]
    assert row["exact"]["p_hit"] == "7/12" and row["exact"]["mean_damage"] == "131/36"


def test_a_fight_point_is_tohit_fight_n_with_the_points_seed(serial: pd.DataFrame) -> None:
    """items 2 and 3: a fight point is `simulate_fights` of its file with the seed spawned by its index."""
    row = serial.iloc[3]
    assert row["count:sides[1].combatants[0]"] == 5 and row["sides[1].combatants[0].target.lp"] == 30
    doc = read_document(BANDITS)
    bandit = doc["sides"][1]["combatants"][0]
    bandit["target"]["lp"] = 30
    doc["sides"][1]["combatants"] = [bandit] + [{**bandit, "name": f"Bandit {k}"} for k in range(2, 6)]
    stats = simulate_fights(fight_from_dict(doc), 60, point_seed(5, 3))
    assert row["point_seed"] == str(point_seed(5, 3))
    assert row["win_Party"] == stats.wins(0) / 60 and row["win_Bandits"] == stats.wins(1) / 60
    assert row["win_Party_lo"] - 1e-12 <= row["win_Party"] <= row["win_Party_hi"] + 1e-12
    assert 0 < row["win_Party"] < 1
    assert row["mean_rounds"] == pytest.approx(float(stats.rounds.mean()))
    assert {"draw", "survivors_Party", "health_Party", "survivors_Bandits", "health_Bandits"} <= set(serial.columns)


def test_count_varies_the_number_of_foes(serial: pd.DataFrame) -> None:
    """item 1: `count:` copies the bandit; more bandits, never more survivors than bandits."""
    for row in serial.to_dict("records"):
        assert 0 <= row["survivors_Bandits"] <= row["count:sides[1].combatants[0]"]
        assert row["win_Party"] + row["win_Bandits"] + row["draw"] == pytest.approx(1)


def test_same_table_for_one_worker_and_a_local_cluster_of_two(serial: pd.DataFrame, local_client: Any) -> None:
    """item 3: the table is the same for any worker count (here: this process, and a LocalCluster of 2)."""
    pd.testing.assert_frame_equal(fight_sweep(client=local_client), serial)


def test_same_table_on_a_dask_cluster(serial: pd.DataFrame, scheduler_address: str, tmp_path: Path) -> None:
    """items 3 and 4: `tohit sweep --scheduler` on `dask scheduler` + two `dask worker` processes gives the same
    table as one local worker."""
    out = tmp_path / "cluster.csv"
    args = ["sweep", str(BANDITS), *(x for v in FIGHT_GRID for x in ("--vary", v)), "-n", "60", "--seed", "5"]
    done = subprocess.run(
        [*TOHIT, *args, "--scheduler", scheduler_address, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    pd.testing.assert_frame_equal(pd.read_csv(out), pd.read_csv(_csv(serial, tmp_path / "serial.csv")))


def _csv(data: pd.DataFrame, path: Path) -> Path:
    data.to_csv(path, index=False)
    return path


def test_fight_n_and_simulate_on_a_cluster_match_the_same_split_here(scheduler_address: str) -> None:
    """item 4: `fight -n --scheduler` and `simulate --scheduler` split the run as `--workers W` does here."""
    for command, file in (("fight", DUEL), ("simulate", BOW)):
        base = [command, str(file), "-n", "3000", "--seed", "9", "--workers", "2", "--json"]
        here = runner.invoke(app, base)
        there = runner.invoke(app, [*base, "--scheduler", scheduler_address])
        assert here.exit_code == 0 and there.exit_code == 0, there.output
        assert json.loads(there.stdout) == json.loads(here.stdout)


class Stop(Exception):
    """Stands for Ctrl-C in the middle of a sweep."""


def test_an_interrupted_sweep_keeps_its_points_and_resume_finishes_it(serial: pd.DataFrame, tmp_path: Path) -> None:
    """item 4: a run stopped after two points leaves them in the file; `--resume` runs only the others and the
    table is the one an uninterrupted run makes."""
    out = tmp_path / "part.parquet"
    finished = 0

    def stop_after_two(m: int) -> None:
        nonlocal finished
        finished += m
        if finished == 2:
            raise Stop

    with pytest.raises(Stop):
        run(plan(BANDITS, FIGHT_GRID, n=60, seed=5, out=out), workers=1, progress=stop_after_two)
    kept = pd.read_parquet(out)
    assert list(kept["point"]) == [0, 1]
    resumed = plan(BANDITS, FIGHT_GRID, out=out, resume=True)  # the seed and n are read back from the table
    assert resumed.seed == 5 and resumed.n == 60 and sorted(resumed.done) == [0, 1] and resumed.todo == 2
    ran = []
    table = run(resumed, workers=1, progress=ran.append)
    assert ran == [1, 1]
    pd.testing.assert_frame_equal(table.frame(), serial)
    pd.testing.assert_frame_equal(pd.read_parquet(out), serial)


def test_resume_refuses_a_table_of_another_sweep(tmp_path: Path) -> None:
    out = tmp_path / "other.csv"
    run(plan(BANDITS, ["count:sides[1].combatants[0]=1"], n=20, seed=5, out=out), workers=1)
    with pytest.raises(tohit.InputError, match="no column sides"):
        plan(BANDITS, FIGHT_GRID, n=60, out=out, resume=True)
    with pytest.raises(tohit.InputError, match="--seed 5, not 6"):
        plan(BANDITS, ["count:sides[1].combatants[0]=1..2"], n=20, seed=6, out=out, resume=True)
    with pytest.raises(tohit.InputError, match="-n 20, not 30"):
        plan(BANDITS, ["count:sides[1].combatants[0]=1..2"], n=30, out=out, resume=True)
    assert plan(BANDITS, ["count:sides[1].combatants[0]=1..2"], out=out, resume=True).n == 20


def one_error(args: list[str]) -> str:
    result = runner.invoke(app, ["sweep", *args], prog_name="tohit")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def test_bad_input_is_one_error_line_and_exit_2(tmp_path: Path) -> None:
    """item 6: an unknown path, a value the model refuses (named by its point), too many points; nothing written."""
    out = tmp_path / "never.csv"
    assert "unknown path 'targets[0].armour'" in one_error(
        [str(BOW), "--vary", "targets[0].armour=1..3", "--out", str(out)]
    )
    assert "unknown path 'count:sides[3].combatants[0]': sides has 2 items" in one_error(
        [str(BANDITS), "--vary", "count:sides[3].combatants[0]=1..3"]
    )
    refused = one_error([str(BOW), "--vary", "targets[0].evasion=12..9", "--vary", "attacker.accuracy=1,-1"])
    assert "point 1 (targets[0].evasion=12, attacker.accuracy=-1): attacker.accuracy:" in refused
    capped = one_error([str(BOW), "--vary", "targets[0].evasion=0..200", "--vary", "attacker.accuracy=0..99"])
    assert "20,100 points (201 x 100) is more than the cap of 10,000; raise it with --max-points" in capped
    assert "no such file" in one_error([str(tmp_path / "nope.yaml"), "--vary", "a=1"])
    assert "--resume" in one_error([str(BOW), "--vary", "targets[0].evasion=1", "--resume"])
    assert ".csv or .parquet" in one_error(
        [str(BOW), "--vary", "targets[0].evasion=1", "--out", str(tmp_path / "x.txt")]
    )
    assert "a duel of two combatants" in one_error(
        [str(BANDITS), "--vary", "count:sides[1].combatants[0]=1", "--exact"]
    )
    where = [str(BOW), "--vary", "targets[0].evasion=1", "--scheduler"]
    assert "not a Dask scheduler address" in one_error([*where, "nonsense://x"])
    assert "choose one" in one_error([*where, "tcp://127.0.0.1:1", "--workers", "2"])
    assert not out.exists()


def test_exact_duel_points() -> None:
    """issue 31, "Exact rows say so": an exact row has method "exact", its beyond_depth, and no interval."""
    data = tohit.sweep(DUEL, {"sides[1].combatants[0].target.lp": "6,12"}, exact=True, workers=1)
    assert data["win_Ceil"].iloc[0] > data["win_Ceil"].iloc[1]
    assert list(data["method"]) == ["exact", "exact"] and "beyond_depth" in data.columns
    assert not [c for c in data.columns if str(c).endswith(("_lo", "_hi"))]


def test_sigterm_keeps_the_finished_points_and_resume_gives_the_same_file(tmp_path: Path) -> None:
    """item 4 at the command line: SIGTERM in the middle of `tohit sweep --out` exits 143 with the finished points
    in the file; `--resume` finishes it, byte for byte the file an uninterrupted run writes."""
    args = [str(BANDITS), *(x for v in FIGHT_GRID for x in ("--vary", v)), "-n", "100", "--seed", "3", "--workers", "1"]
    whole, part = tmp_path / "whole.csv", tmp_path / "part.csv"
    assert runner.invoke(app, ["sweep", *args, "--out", str(whole)]).exit_code == 0
    process = subprocess.Popen(
        [*TOHIT, "sweep", *args, "--out", str(part)], stderr=subprocess.PIPE, text=True, **ending_with_the_run()
    )
    deadline = time.monotonic() + 60
    while not part.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    if process.returncode == 0:  # pragma: no cover - the whole sweep finished before the signal landed
        pytest.skip("the sweep ended before SIGTERM arrived")
    assert process.returncode == 143, err
    kept = pd.read_csv(part)
    assert 1 <= len(kept) < 4 and f"{len(kept)} of 4 points written" in err and "--resume" in err
    assert runner.invoke(app, ["sweep", *args, "--out", str(part), "--resume"]).exit_code == 0
    assert part.read_bytes() == whole.read_bytes()


def test_sigterm_swallowed_by_a_library_still_stops_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM that lands inside numpy's comparison of structured arrays comes out as numpy's TypeError, not as the
    handler's exception: the run still stops as SIGTERM's, exit 143 and one line (once seen in a loaded suite)."""
    import tohit.cli.errors as errors
    import tohit.sweeps.run as sweeps_run

    def swallowed(*args: Any, **kwargs: Any) -> Any:
        try:
            errors.on_sigterm(signal.SIGTERM, None)
        except errors.Terminated:
            raise TypeError("Cannot compare structured arrays unless they have a common dtype.") from None

    monkeypatch.setattr(sweeps_run, "run", swallowed)
    monkeypatch.setattr(errors, "_SIGTERM", type(errors._SIGTERM)())  # a fresh flag, cleared after the test
    args = [str(BANDITS), *(x for v in FIGHT_GRID for x in ("--vary", v)), "-n", "10", "--seed", "3"]
    result = runner.invoke(app, ["sweep", *args, "--out", str(tmp_path / "part.csv")])
    assert result.exit_code == 143, result.output
    assert "terminated (SIGTERM)" in result.output and "Traceback" not in result.output


def _sweep_signalled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Path]:
    """The small fight grid swept in this process into `part.csv`, where the test's patch sends SIGTERM (the
    handler's flag a fresh one, cleared after the test); the sweep must stop as SIGTERM's (exit 143)."""
    import tohit.cli.errors as errors

    monkeypatch.setattr(errors, "_SIGTERM", type(errors._SIGTERM)())
    part = tmp_path / "part.csv"
    args = [str(BANDITS), *(x for v in FIGHT_GRID for x in ("--vary", v)), "-n", "10", "--seed", "3"]
    result = runner.invoke(app, ["sweep", *args, "--workers", "1", "--out", str(part)])
    assert result.exit_code == 143, result.output
    return result, part


def test_sigterm_between_a_points_write_and_its_progress_counts_the_point_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM that lands after a point went into the table (and its file) but before the progress bar heard of it
    says the point is written, as it is: the line counts the table, not the bar (CI once read "nothing written"
    beside a file that held the point)."""
    import tohit.cli.errors as errors
    from tohit.sweeps.table import Table

    add = Table.add

    def add_then_sigterm(self: Table, *args: Any, **kwargs: Any) -> None:
        add(self, *args, **kwargs)
        errors.on_sigterm(signal.SIGTERM, None)

    monkeypatch.setattr(Table, "add", add_then_sigterm)
    result, part = _sweep_signalled(tmp_path, monkeypatch)
    assert "terminated (SIGTERM): stopped; 1 of 4 points written to " in result.output, result.output
    assert len(pd.read_csv(part)) == 1


def test_sigterm_in_a_write_counts_the_points_the_last_finished_write_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM that lands in a write of the output (each write after the first here, the last one in `run`'s
    `finally` too) leaves the file as the last finished write left it: the line counts those points, not the ones
    the run had in memory, and asks for --resume (found by review: it said "all 4 points written" of a file that
    held none)."""
    import tohit.cli.errors as errors
    from tohit.sweeps.table import Table

    write = Table.write
    writes: list[int] = []

    def cut_short(self: Table) -> None:
        writes.append(len(self.rows))
        if len(writes) > 1:
            errors.on_sigterm(signal.SIGTERM, None)
        write(self)

    monkeypatch.setattr(Table, "write", cut_short)
    result, part = _sweep_signalled(tmp_path, monkeypatch)
    assert writes[0] == 1 and len(writes) > 1
    line = "terminated (SIGTERM): stopped; 1 of 4 points written to "
    assert line in result.output and "--resume" in result.output, result.output
    assert len(pd.read_csv(part)) == 1


def test_sigterm_while_the_answer_is_shown_says_every_point_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM after the last point, while the chart or the table is made, stops that alone: the line says every
    point is in the file (and asks for no --resume), not "nothing written", and the file holds them all."""
    import tohit.cli.errors as errors
    import tohit.cli.sweep as sweep_command

    def answered(*args: Any, **kwargs: Any) -> None:
        errors.on_sigterm(signal.SIGTERM, None)

    monkeypatch.setattr(sweep_command, "_answer", answered)
    result, part = _sweep_signalled(tmp_path, monkeypatch)
    assert result.output.strip().endswith(f"terminated (SIGTERM): stopped; all 4 points written to {part}")
    assert len(pd.read_csv(part)) == 4


def _ctrl_c_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, then: Callable[[Any], None]) -> Any:
    """A sweep whose Ctrl-C arrives and is dropped on its way (as Python drops an exception raised in a garbage
    collector's callback), after which the run does `then(finish)`: `finish(1)` finishes a point as `run` does,
    into the table and then to the progress bar."""
    import tohit.cli.errors as errors
    import tohit.sweeps.run as sweeps_run

    def dropped(sweep: Any, *, progress: Any, table: Any, **kwargs: Any) -> Any:
        def finish(m: int) -> None:
            table.add(len(table.rows), [{"point": len(table.rows)}])
            progress(m)

        with contextlib.suppress(KeyboardInterrupt):  # dropped, as "Exception ignored in: <... _gc_callback ...>"
            errors.on_sigint(signal.SIGINT, None)
        then(finish)
        raise AssertionError("the run went on past the Ctrl-C")

    monkeypatch.setattr(sweeps_run, "run", dropped)
    monkeypatch.setattr(errors, "_SIGINT", type(errors._SIGINT)())  # a fresh flag, cleared after the test
    args = [str(BANDITS), *(x for v in FIGHT_GRID for x in ("--vary", v)), "-n", "10", "--seed", "3"]
    return runner.invoke(app, ["sweep", *args, "--out", str(tmp_path / "part.csv")])


def test_ctrl_c_dropped_by_a_garbage_collector_callback_stops_the_sweep_at_the_next_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 31, item 9: a Ctrl-C that Python drops (it landed in Dask's garbage-collector callback, in this
    process during a sweep) still stops the sweep, at the next finished point, in one line with exit 130 (a loaded
    suite saw the sweep run on to its end and exit 0)."""
    result = _ctrl_c_dropped(tmp_path, monkeypatch, lambda finish: finish(1))
    assert result.exit_code == 130, result.output
    assert "interrupted (Ctrl-C): stopped; 1 of " in result.output and "Traceback" not in result.output


def test_ctrl_c_that_cut_an_import_short_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """issue 31, item 9: a Ctrl-C that lands in pandas' first import, as a point is written, makes the table's last
    write fail again on the half-imported module: the sweep still stops as Ctrl-C's, one line, exit 130 (a loaded
    run printed a traceback)."""

    def import_fails(finish: Any) -> None:
        raise ImportError("cannot import name 'Pandas4Warning' from partially initialized module 'pandas.errors'")

    result = _ctrl_c_dropped(tmp_path, monkeypatch, import_fails)
    assert result.exit_code == 130, result.output
    assert "Traceback" not in result.output and not (tmp_path / "part.csv").exists()
    assert result.output.strip().endswith(
        "interrupted (Ctrl-C): stopped before the first of 4 points finished; nothing written"
    )


def test_a_killed_worker_loses_no_point(serial: pd.DataFrame) -> None:
    """item 4: a worker killed (SIGKILL) in the middle of a sweep loses no point: the cluster runs its points on
    the worker left, and the table is the one an undisturbed run makes. (A cluster of its own, so the session's
    clusters keep their workers.)"""
    with external_cluster(2) as (address, workers):
        killed: list[int] = []

        def kill_one(m: int) -> None:
            if not killed:
                workers[0].kill()
                killed.append(workers[0].pid)

        with connect(address) as client:
            data = run(plan(BANDITS, FIGHT_GRID, n=60, seed=5), client=client, progress=kill_one).frame()
    assert killed
    pd.testing.assert_frame_equal(data, serial)


def test_a_killed_workers_finished_points_are_not_run_again(serial: pd.DataFrame) -> None:
    """issue 31, item 10: the points a worker had finished and this process had read are let go, so killing that
    worker makes Dask run only its other points again, never a read one. The worker killed is one that computed a
    read point, once the scheduler has heard that this process let go of two points (a point finished but not yet
    read when its worker dies is run again: its rows were never here)."""

    def computed_and_wanted(dask_scheduler: Any) -> tuple[dict[str, int], list[str]]:
        """On the scheduler (a nested function: pickled by value): how many times each point was computed, and the
        points a client still wants."""
        counts: dict[str, int] = {}
        for entry in dask_scheduler.transition_log:
            if str(entry[0]).startswith("measure-"):
                counts.setdefault(str(entry[0]), 0)
                if entry[2] == "memory":
                    counts[str(entry[0])] += 1
        wanted = [key for key in counts if key in dask_scheduler.tasks and dask_scheduler.tasks[key].who_wants]
        return counts, wanted

    def computed_here(dask_worker: Any) -> tuple[int, list[str]]:
        """On a worker: its process id and the points it computed (went from executing to memory)."""
        log = dask_worker.state.log
        return os.getpid(), [str(e[0]) for e in log if len(e) > 3 and e[1] == "executing" and e[3] == "memory"]

    with external_cluster(2) as (address, workers), connect(address) as client:
        seen: list[int] = []
        read: list[str] = []
        killed: list[int] = []

        def kill_after_two(m: int) -> None:
            seen.append(m)
            if len(seen) != 2:
                return
            deadline = time.monotonic() + 60  # only refuses: the wait ends when the scheduler has heard
            while not read:
                counts, wanted = client.run_on_scheduler(computed_and_wanted)
                let_go = sorted(set(counts) - set(wanted))
                if len(let_go) >= 2:
                    read.extend(let_go)
                elif time.monotonic() > deadline:
                    raise AssertionError(f"the scheduler never heard two points let go: {counts}, {wanted}")
                else:
                    time.sleep(0.05)
            given = dict(client.run(computed_here).values())
            victim = next(p for p in workers if set(given.get(p.pid, [])) & set(read))
            victim.kill()
            killed.append(victim.pid)

        data = run(plan(BANDITS, FIGHT_GRID, n=60, seed=5), client=client, progress=kill_after_two).frame()
        computed, _ = client.run_on_scheduler(computed_and_wanted)
    pd.testing.assert_frame_equal(data, serial)
    assert killed and read, (killed, read)
    assert all(computed[key] == 1 for key in read), (read, computed)


@pytest.mark.timeout(90)
def test_a_scheduler_that_fails_to_connect_leaves_later_runs_on_other_clients_alone(
    serial: pd.DataFrame, local_client: Any, scheduler_address: str
) -> None:
    """A `--scheduler` that is no Dask address: its Client fails as it starts. Dask had made that Client the
    process's default first, and a later run on another client awaited its points on the failed one's event loop,
    for ever (a CI run hung so). The failed client is held here, as a traceback may hold it until a collection."""
    with pytest.raises(tohit.InputError) as refused, connect("nonsense://x"):
        pass
    held = refused.value.__context__  # the error the failed Client raised, with its frames
    assert held is not None
    pd.testing.assert_frame_equal(fight_sweep(client=local_client), serial)
    base = ["simulate", str(BOW), "-n", "3000", "--seed", "9", "--workers", "2", "--json"]
    there = runner.invoke(app, [*base, "--scheduler", scheduler_address])
    assert there.exit_code == 0, there.output
    assert json.loads(there.stdout) == json.loads(runner.invoke(app, base).stdout)
