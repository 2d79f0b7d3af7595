"""A narrated fight as a newcomer reads it (issue 20, items 4 and 8): each event printed as it happens and
numbered without a gap, "Troll wins" / "Heroes win", yes/no and "—" in the end-state table, and a table that
stays readable at 80 columns."""

from __future__ import annotations

import re
import select
import subprocess
import sys

import yaml
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tests.subprocesses import ending_with_the_run
from tohit.cli.app import app
from tohit.cli.fight_views import stat_text, state_table
from tohit.core.fight.state import Roster
from tohit.engine.fight.load import fight_from_dict, load_fight
from tohit.engine.fight.run import narrate

TROLL = EXAMPLES / "fights" / "kaiser-troll.yaml"


def test_narrate_hands_each_event_over_as_it_happens_numbered_in_order() -> None:
    fight = load_fight(TROLL)
    seen: list[dict[str, object]] = []
    played = narrate(fight, 1, on_event=seen.append)
    assert [e["n"] for e in seen] == list(range(len(seen)))
    assert seen == played.events
    # keep=False: the same events handed over, only the first and the last kept (memory stays flat).
    again: list[dict[str, object]] = []
    short = narrate(fight, 1, on_event=again.append, keep=False)
    assert [e["kind"] for e in short.events] == ["start", "end"]
    assert [e["text"] for e in again] == [e["text"] for e in seen]


def test_the_narration_numbers_every_event_without_a_gap() -> None:
    result = CliRunner().invoke(app, ["fight", str(TROLL), "--seed", "1"])
    assert result.exit_code == 0, result.output
    numbers = [int(n) for n in re.findall(r"#(\d+)", result.output)]
    assert numbers == list(range(len(numbers))) and len(numbers) > 10


def test_wins_is_singular_or_plural() -> None:
    roster = Roster(("Ceil", "Aldo", "Cave troll", "Chief"), (0, 0, 1, 2), ("Heroes", "Troll", "Bandits"))
    assert [roster.wins(s) for s in range(3)] == ["Heroes win", "Troll wins", "Bandits win"]
    result = CliRunner().invoke(app, ["fight", str(TROLL), "--seed", "1"])
    assert "Troll wins after" in result.output and "Troll win after" not in result.output


def test_the_end_state_says_yes_no_and_none_in_words() -> None:
    rules = load_fight(TROLL).rules
    assert stat_text(rules, "knocked_out", 1) == "yes" and stat_text(rules, "flat_footed", 0) == "no"
    assert stat_text(rules, "lp", 1) == "1" and stat_text(rules, "dealt", 1234) == "1,234"
    rtw = load_fight(EXAMPLES / "fights" / "rtw-map.yaml").rules
    assert stat_text(rtw, "magic", -1) == "—" and stat_text(rtw, "durability1", -1) == "—"
    assert stat_text(rtw, "durability0", 7) == "7" and stat_text(rtw, "helpless", 0) == "no"


def test_the_end_state_turns_when_it_would_not_fit_so_no_name_is_cut() -> None:
    from rich.console import Console

    played = narrate(load_fight(TROLL), 1)
    console = Console(width=80, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(state_table(played.fight.roster, played.final, played.fight.rules, 80))
    text = console.export_text()
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "Cave troll" in text and "Knocked out" in text and "…" not in text
    assert "knocked_out" not in text and "def_mod" not in text  # the game's words, never a state key


def test_a_long_fight_prints_its_first_events_at_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A fight of 100,000 rounds (minutes to play out): its first events arrive while it is still being played
    (not printed at its end, they would not arrive before the process is killed)."""
    data = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
    data["max_rounds"] = 100_000
    for side in data["sides"]:  # armour far above most damage: only open rolls far past the depth could hurt
        for comb in side["combatants"]:
            comb["target"]["armor"] = {"cut": 99}
    fight_from_dict(data)
    path = tmp_path / "long.yaml"
    path.write_text(yaml.safe_dump(data))
    proc = subprocess.Popen(
        [sys.executable, "-c", "from tohit.cli.app import main; main()", "fight", str(path), "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        **ending_with_the_run(),
    )
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 120)  # a guard against a hang, not a stopwatch
        assert ready, "nothing printed while the fight was played"
        lines = [proc.stdout.readline() for _ in range(12)]
        assert any(b"#3 " in line for line in lines), lines
        assert proc.poll() is None  # still fighting
    finally:
        proc.kill()
        proc.wait()
