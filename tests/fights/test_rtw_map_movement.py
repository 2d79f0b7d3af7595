"""Reclaim the Wild fights on a map: movement (issue 15, item 9; the game's other pages, Reclaim the Wild, from
Movement): Movement 6 by default, 1-2-1 diagonals, no passing through an enemy, passing
through allies, walls block, Difficult Terrain costs 1 more; a policy moves toward the foe it picks until its
attack reaches it; the move is an event that replay checks; exact and both samplers include it."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tests.fights.helpers import kinds, load
from tests.fights.test_rtw_map_fight import MISS, archer, creature, fight
from tohit.cli.fight import write_log
from tohit.core.errors import InputError
from tohit.core.grid.board import Board
from tohit.core.grid.movement import moves
from tohit.engine.encounter import Encounter
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.replay import replay
from tohit.engine.fight.run import narrate, simulate_fights

OPEN = Board.from_rows(["." * 8] * 8)


def test_rtw_movement_entering_a_square_costs_1_and_diagonals_count_1_2_1() -> None:
    """Movement: "entering a square costs 1 Movement; Heroes typically have 6; 1-2-1 diagonals as for ranges":
    6 squares straight; diagonally (1, 1) costs 1, (2, 2) 3, (3, 3) 4, (4, 4) 6."""
    found = moves(OPEN, (0, 0), 6)
    assert found[(6, 0)].cost == 6 and (7, 0) not in found
    assert [found[(k, k)].cost for k in range(1, 5)] == [1, 3, 4, 6]
    assert (5, 5) not in found
    assert found[(4, 4)].path == ((0, 0), (1, 1), (2, 2), (3, 3), (4, 4))


def test_rtw_movement_a_last_square_may_cost_more_than_is_left() -> None:
    """Movement: "a creature may enter a last square even if it costs more than it has left": with 5, the
    fourth diagonal (costing 2 with 1 left) is entered, for 6."""
    found = moves(OPEN, (0, 0), 5)
    assert found[(4, 4)].cost == 6
    assert (5, 4) not in found  # nothing left after it


def test_rtw_movement_difficult_terrain_costs_1_more_per_square() -> None:
    """Movement: "Difficult Terrain costs 1 more per square": along a row with two squares of brush, (2, 0)
    costs 1 + 2, (3, 0) 5, (4, 0) 6, and (5, 0), 5 on open ground, is out of reach; with a row beside it the
    way round the brush is cheaper, and taken."""
    row = Board.from_rows(["..~~...."])
    found = moves(row, (0, 0), 6)
    assert [found[(x, 0)].cost for x in range(1, 5)] == [1, 3, 5, 6]
    assert (5, 0) not in found and moves(Board.from_rows(["." * 8]), (0, 0), 6)[(5, 0)].cost == 5
    two = Board.from_rows(["..~~....", "........"])
    assert two.rows() == ["..~~....", "........"]
    around = moves(two, (0, 0), 6)[(4, 0)]
    assert around.cost == 5 and not any(two.is_difficult(sq) for sq in around.path)
    by_list = Board.from_solid(8, 1, difficult=[(2, 0), (3, 0)])
    assert moves(by_list, (0, 0), 6)[(3, 0)].cost == 5


def test_rtw_movement_walls_and_enemies_block_allies_do_not() -> None:
    """Movement: "it cannot pass through an enemy's space but may pass through an ally's"; walls and objects
    (solid squares) block. Nobody ends a move on another creature's square."""
    corridor = Board.from_rows(["......", "######"])
    past_ally = moves(corridor, (0, 0), 6, occupied={(1, 0)})
    assert (1, 0) not in past_ally and past_ally[(2, 0)].cost == 2  # through the ally, not ending there
    assert moves(corridor, (0, 0), 6, blocked={(1, 0)}, occupied={(1, 0)}).keys() == {(0, 0)}
    assert (0, 1) not in moves(corridor, (0, 0), 6)


def test_rtw_movement_a_large_creature_needs_room_for_its_footprint() -> None:
    """A 2 x 2 footprint moves by its top-left square; every square it would fill must be open."""
    board = Board.from_rows(["....", "....", "..#."])
    found = moves(board, (0, 0), 6, side=2)
    assert (2, 0) in found and (1, 1) not in found  # (2, 2) is solid


def duel(rows: list[str], **over: Any) -> dict[str, Any]:
    return fight(rows, [creature("A", [0, 0])], [creature("B", [6, 0], target={"health": 18})], **over)


def test_rtw_fight_melee_fighters_move_before_they_attack() -> None:
    """A policy moves toward the target it picks until that target is in its attack's range: A (Movement 6)
    ends next to B, six squares away, and strikes in the same turn; the move is an event with its path."""
    log = narrate(load(duel(["......."])), seed=1, script=[MISS] * 4)
    (first, *_) = kinds(log, "move")
    assert [(c["who"], c["stat"], c["from"], c["to"]) for c in first["changes"]] == [
        ("A", "x", 0, 5),
        ("A", "y", 0, 0),
    ]
    assert first["text"].startswith("A moves toward B: (0, 0) -> (1, 0) -> (2, 0) -> (3, 0) -> (4, 0) -> (5, 0),")
    assert "5 of 6 Movement" in first["text"] and "[rtw: Movement; docs/rtw.md#silent-movement]" in first["text"]
    order = [e["kind"] for e in log.events if e["kind"] in ("move", "attack")]
    assert order[:2] == ["move", "attack"]
    assert next(e for e in log.events if e["kind"] == "attack")["target"] == "B"


def test_rtw_fight_movement_stat_and_no_move_in_reach() -> None:
    """`movement` per combatant (default 6): with 2 A gets only two squares nearer; a combatant already in reach
    attacks from where it stands."""
    data = fight(["........"], [creature("A", [0, 0], movement=2)], [creature("B", [7, 0], movement=0)], max_rounds=1)
    log = narrate(load(data), seed=1, script=[MISS] * 2)
    moved = [(c["who"], c["stat"], c["to"]) for e in kinds(log, "move") for c in e["changes"]]
    assert moved == [("A", "x", 2), ("A", "y", 0)]
    near = fight(["...."], [creature("A", [0, 0])], [creature("B", [1, 0])], max_rounds=1)
    assert not kinds(narrate(load(near), seed=1, script=[MISS] * 2), "move")
    with pytest.raises(InputError) as err:
        load(fight(["...."], [creature("A", [0, 0], movement=-1)], [creature("B", [3, 0])]))
    assert err.value.field == "sides[0].combatants[0].movement"


def test_rtw_fight_an_archer_moves_only_until_its_shot_is_clear() -> None:
    """Projectile X: within X squares with a path clear of solid squares: behind the wall the archer steps out
    to the first square with a clear shot, and shoots."""
    rows = ["..#.....", "..#.....", "........"]
    data = fight(rows, [archer("Archer", [0, 0])], [creature("B", [5, 0], movement=0)], max_rounds=1)
    log = narrate(load(data), seed=1, script=[MISS] * 2)
    (move,) = kinds(log, "move")
    to = {c["stat"]: c["to"] for c in move["changes"]}
    # (1, 2), two steps away, has no clear shot (its path to B crosses the wall at (2, 1)); (2, 2) has.
    assert (to["x"], to["y"]) == (2, 2)
    assert [e["attacker"] for e in kinds(log, "attack")] == ["Archer"]


def test_rtw_fight_an_archer_whose_line_is_blocked_by_a_combatant_moves_to_a_clear_line() -> None:
    """Attacking 101, Projectile: it "cannot go through solid objects or other combatants": the move planner
    treats a standing combatant in the line as the attack does, so an archer whose only line runs through its
    ally moves to a square with a clear line and shoots (only a combatant with no foe in reach even after moving
    holds its ground)."""
    rows = ["......", "......"]
    side0 = [archer("Archer", [0, 0]), creature("Ally", [2, 0], movement=0)]
    data = fight(rows, side0, [creature("B", [5, 0], movement=0)], max_rounds=1)
    log = narrate(load(data), seed=1, script=[MISS] * 3)
    moves_of = [e for e in kinds(log, "move") if e["changes"][0]["who"] == "Archer"]
    assert moves_of, "the archer held its ground behind its ally"
    assert not any("holds its ground" in e.get("text", "") and "Archer" in e.get("text", "") for e in log.events)
    assert next((e["attacker"], e["target"]) for e in kinds(log, "attack")) == ("Archer", "B")


def test_rtw_fight_difficult_terrain_slows_the_approach() -> None:
    """The brush between them costs 1 more a square: A (Movement 6) reaches B, ten squares away and standing
    still, in round 2 on open ground and only in round 3 through the brush."""

    def first_attack_round(rows: list[str]) -> int:
        data = fight(rows, [creature("A", [0, 0])], [creature("B", [10, 0], movement=0)], max_rounds=4)
        log = narrate(load(data), seed=1, script=[MISS] * 8)
        rounds = 1
        for e in log.events:
            rounds += e["kind"] == "round"
            if e["kind"] == "attack" and e["attacker"] == "A":
                return rounds
        return -1

    assert first_attack_round(["..........."]) == 2
    assert first_attack_round([".~~~~~....."]) == 3


def test_rtw_fight_no_passing_through_an_enemy() -> None:
    """ "it cannot pass through an enemy's space": in a corridor with a foe in the way, A (focus Far) cannot get
    past it: it moves up to it, and strikes the one in the way."""
    data = fight(
        ["......."],
        [creature("A", [0, 0], focus="Far")],
        [creature("Wall", [3, 0], movement=0), creature("Far", [6, 0], movement=0)],
        max_rounds=1,
    )
    log = narrate(load(data), seed=1, script=[MISS] * 4)
    moved = [(c["who"], c["stat"], c["to"]) for e in kinds(log, "move") for c in e["changes"]]
    assert moved == [("A", "x", 2), ("A", "y", 0)]
    assert next((e["attacker"], e["target"]) for e in kinds(log, "attack")) == ("A", "Wall")


def test_rtw_fight_map_movement_replays(tmp_path: Path) -> None:
    """The moves are events: a narrated fight's log replays to the same state (replay checks every change)."""
    loaded = load(yaml.safe_load((EXAMPLES / "fights" / "rtw-moving-skirmish.yaml").read_text()))
    for seed in (1, 2):
        played = narrate(loaded, seed=seed)
        assert kinds(played, "move")
        path = tmp_path / f"moves-{seed}.jsonl"
        write_log(played, path)
        rebuilt = replay(path)
        assert rebuilt.matches, rebuilt.mismatches


def test_rtw_fight_map_exact_duel_with_movement_agrees_with_both_samplers() -> None:
    """Exact map duels include movement: across brush and past a rock, the exact duel agrees with the table and
    the direct sampler; without movement the same duel is a stalemate (nobody reaches anybody)."""
    rows = ["...#....", ".~~.....", "........"]
    data = fight(rows, [creature("A", [0, 0])], [creature("B", [7, 2], movement=4, target={"health": 18})])
    loaded = load(data)
    exact = exact_duel(loaded)
    assert exact.draw == 0 and sum(exact.wins) + exact.beyond == 1
    n = 20_000
    for method in ("table", "direct"):
        sim = simulate_fights(loaded, n, seed=5, method=method)  # type: ignore[arg-type]
        for side in range(2):
            p = float(exact.wins[side])
            assert abs(sim.wins(side) / n - p) <= 5 * math.sqrt(p * (1 - p) / n), (method, side)
    still = fight(rows, [creature("A", [0, 0], movement=0)], [creature("B", [7, 2], movement=0)])
    assert exact_duel(load(still)).wins == [0, 0]


def test_rtw_fight_four_combatants_starting_apart_now_resolve() -> None:
    """issue 15: "a 4-combatant map fight written from the docs ended in a draw 58.5% of the time, because the
    melee fighters never reached anyone". The example fight (two melee fighters, two archers, nine squares apart)
    is always a draw without movement and almost never with it."""
    data = yaml.safe_load((EXAMPLES / "fights" / "rtw-moving-skirmish.yaml").read_text())
    n = 1000
    moving = simulate_fights(load(data), n, seed=2)
    assert moving.draws / n < 0.02
    for side in data["sides"]:
        for comb in side["combatants"]:
            comb["movement"] = 0
    still = simulate_fights(load(data), n, seed=2)
    assert still.draws == n


def test_rtw_encounter_move_is_the_gms_free_move_and_a_position_is_not_adjusted() -> None:
    """The GM's free move is the encounter API's `move` (where a creature stands is kept by the game's rules: an
    `adjust` of `x` is refused naming `stat`): no Movement is counted, and the next turn plays from the new square
    (B moved next to A is struck without a move of its own); A's square is refused naming `to`."""
    data = fight(["........"], [creature("A", [0, 0])], [creature("B", [7, 0], movement=0)], max_rounds=3)
    enc = Encounter.create(data, seed=1)
    with pytest.raises(InputError) as err:
        enc.act({"kind": "adjust", "combatant": "B", "stat": "x", "value": 1})
    assert err.value.field == "stat" and "kept by the game's rules" in err.value.message, err.value.message
    enc.act({"kind": "move", "combatant": "B", "to": [1, 0]})
    events = enc.act({"kind": "auto"})
    assert not [e for e in events if e["kind"] == "move"]
    assert [e["target"] for e in events if e["kind"] == "attack"] == ["B"]
    seq = enc.seq
    with pytest.raises(InputError) as err:
        enc.act({"kind": "move", "combatant": "B", "to": [0, 0]})  # onto A's square
    assert err.value.field == "to" and enc.seq == seq
