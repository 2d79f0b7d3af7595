"""The CPU work of the stateless routes, as plain functions of plain data (picklable, so a process pool can run
them): each answers with the same JSON as the CLI's `--json`."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from tohit.core.errors import InputError, short_repr
from tohit.engine import cancel
from tohit.engine.encounter import Encounter
from tohit.engine.fight.exact import OverStates, OverTime, exact_duel
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.run import simulate_fights
from tohit.engine.odds import odds
from tohit.engine.roll import roll
from tohit.engine.scenario import Loaded, from_dict
from tohit.engine.simulate import simulate
from tohit.server.cache import Lru
from tohit.server.limits import over
from tohit.server.players_view import PlayersView
from tohit.server.read_models import exact

T = TypeVar("T")

#: Encounters a pool worker rebuilt for previews, by (id, seq): the next preview of the same state reuses one.
REBUILT: Lru[tuple[str, int], Encounter] = Lru(4)


@dataclass(frozen=True)
class Caps:
    """The caps a job checks itself: dice against one target (`--max-dice`), dice against
    all the targets together, and the bytes of its answer."""

    dice: int
    target_dice: int
    response: int


def watched_call(cancelled: Callable[[], bool], fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)`, stopped at its next `cancel.check()` once `cancelled()` (work run in a server thread)."""
    with cancel.watched(cancelled):
        return fn(*args)


def dice_capped(scenario: dict[str, Any], caps: Caps) -> Loaded:
    """The scenario loaded, and refused (a 422 naming the cap and its flag) when its attack rolls more than
    `caps.dice` dice against one target, or more than `caps.target_dice` against all of them together, counted
    as each role counts its dice at first (`Role.dice_count`; what open rolls add is bounded by the depth cap)."""
    loaded = from_dict(scenario, source="scenario")
    system, found = loaded.system, loaded.scenario
    total = 0
    for target in found.targets:
        count = sum(role.dice_count() for role in system.roles(found, target).values())
        if count > caps.dice:
            raise InputError(
                f"the attack rolls {count:,} dice against {short_repr(target.name)}, over the cap max-dice ="
                f" {caps.dice:,} (tohit serve --max-dice)",
                field="max-dice",
            )
        total += count
    if total > caps.target_dice:
        raise over("the dice rolled against all the targets number", total, "max-target-dice", caps.target_dice)
    return loaded


def sized(answer: T, caps: Caps) -> T:
    """`answer`, refused (a 422 naming max-response) when its JSON is larger than `caps.response` bytes."""
    size = len(json.dumps(answer, separators=(",", ":"), default=str))
    if size > caps.response:
        raise over("the answer's bytes number", size, "max-response", caps.response)
    return answer


def roll_job(scenario: dict[str, Any], seed: int | None, caps: Caps) -> dict[str, Any]:
    return sized(roll(dice_capped(scenario, caps), seed).to_json(), caps)


def odds_job(scenario: dict[str, Any], depth: int | None, caps: Caps) -> dict[str, Any]:
    """Checked for cancellation after each target."""
    return sized(odds(dice_capped(scenario, caps), depth, cancel.progress_check).to_json(), caps)


def simulate_job(scenario: dict[str, Any], n: int, seed: int | None, caps: Caps) -> dict[str, Any]:
    """Checked for cancellation after each chunk of attacks."""
    return sized(simulate(dice_capped(scenario, caps), n, seed).to_json(), caps)


def aim_job(scenario: dict[str, Any], top: int) -> list[dict[str, Any]]:
    from tohit.api import aim

    return aim(scenario, top=top)


def fights_simulate_job(fight: dict[str, Any], n: int, seed: int | None, caps: Caps) -> dict[str, Any]:
    """Checked for cancellation at each step of each batch of fights."""
    return sized(simulate_fights(fight_from_dict(fight, source="fight"), n, seed).to_json(), caps)


def fights_exact_job(fight: dict[str, Any], max_states: int, seconds: float) -> dict[str, Any]:
    """Over the server's caps on states or time: a 422 naming the cap and its flag."""
    loaded = fight_from_dict(fight, source="fight")
    try:
        return exact_duel(loaded, limit=max_states, seconds=seconds).to_json()
    except (OverStates, OverTime) as exc:
        name, value = (
            ("max-states", f"{max_states:,}") if isinstance(exc, OverStates) else ("exact-seconds", f"{seconds:g}")
        )
        raise InputError(
            f"{exc.message} (the cap {name} = {value}: tohit serve --{name})", field=name, source=exc.source
        ) from None


@dataclass(frozen=True)
class Asked:
    """What a preview asks: the attacker, its attack, the targets and the placement (server/bodies.py)."""

    attacker: str
    attack: str | None
    targets: list[str]
    placement: str | None


def preview_job(key: tuple[str, int], fight: dict[str, Any], events: list[dict[str, Any]], source: str,
                players: bool, asked: Asked, own: tuple[str, ...] = ()) -> dict[str, Any]:  # fmt: skip
    """An encounter's preview (its exact odds per target) in a pool worker: the encounter `key` (its id and seq)
    rebuilt from its fight and events, or the one this worker last rebuilt at that seq; the players' view
    (`players`; `own`, a player's link's combatant, shown whole) or the GM's."""
    enc = REBUILT.get(key)
    if enc is None:
        enc = REBUILT[key] = Encounter.restore(fight, events, source=source)
    ask = PlayersView(enc, own=own).preview if players else enc.preview
    return {"seq": enc.seq, "targets": exact(ask(asked.attacker, asked.attack, asked.targets, asked.placement))}
