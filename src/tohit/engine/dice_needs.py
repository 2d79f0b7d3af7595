"""Which dice a hand-rolled attack needs, and when, answered from the game's declaration (`System.needs`,
tohit.core.role_needs; docs/architecture.md, "Games declare their dice"): entering dice asks first for the dice
every roll needs, and for a critical's dice only once a critical happens.

Nothing is tried with probe faces. The attack is planned as the roll will play it (`Encounter.plan`, and the same
turn on the exact chain: the situation of the first roll against the target, its stats and what the turn hands
it), and each role's declaration is read there: a role read always is "always" (but "never" when none of its
faces changes what the turn reads of the roll: the server rolls it); one the fight never reads
(`FightRules.unread_roles`), or an attack that makes no roll against that creature, "never"; one read only when
other roles show something is "conditional" when some of their faces call for it and others do not (the game's
own `resolve` of those faces says which), else "always" or "never". With the faces typed so far, a role is still
needed when some faces the untyped roles may show call for it. Roles that read a varying number of faces (open
rolls) are always asked, and an attack the rules refuse now asks for every role, so the refusal is the attack's
own.

Where the attack rolls against several targets, each with its own set (`dice` by target name), `Per` names that
target and the sets typed for the others.

The plan plays the turn a few times, so the steps check between them for work cancelled (`engine/cancel`).
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from tohit.core.errors import InputError
from tohit.core.role_needs import ALWAYS, never
from tohit.core.roles import Role
from tohit.core.steps import Silent
from tohit.core.support import Columns
from tohit.core.system import AnySystem, Dice
from tohit.engine import cancel
from tohit.engine import plan as plan_odds
from tohit.engine.encounter import Encounter
from tohit.engine.fight.situation import Situation, Values, blocks, narrated_values, situation_values
from tohit.engine.fight.situation import roles as situation_roles

When = Literal["always", "conditional", "never"]
#: One target's set among several: its name and the sets typed for the other targets (None: one set for all).
Per = tuple[str, dict[str, dict[str, list[int]]]] | None
#: Whether a role is read by every row of the faces still open ("all"), by some ("some") or by none ("none").
Share = Literal["all", "some", "none"]


def _outcome(enc: Encounter, action: dict[str, Any], faces: dict[str, list[int]]) -> Any:
    """What the attack does now with these faces, tried on a copy: its events' kinds, words and changes, or
    ("refused", the rules' message). The route's one try of the attack (with no faces: is it refused now?)."""
    try:
        events = enc.fork().act({**action, "dice": faces})
    except InputError as error:
        return ("refused", str(error))
    return [(e.get("kind"), e.get("text"), e.get("changes")) for e in events]


class Roll(NamedTuple):
    """The first roll the attack makes against a creature, as the roll will play it: its situations, and the
    outcome fields the turn reads of it."""

    situations: list[Situation]
    fields: tuple[str, ...]


def _first_roll(enc: Encounter, action: dict[str, Any], target: str) -> Roll:
    """The first roll the attack makes against `target` (no situation: none against that creature this turn)."""
    cancel.check()
    plan = enc.plan(action["attacker"], action.get("attack"), action["targets"], action.get("placement"))
    if plan.choice is None:
        return Roll([], ())
    played = plan_odds.play(enc.fight, enc.state, plan.choice, plan.in_turn, enc.fight.max_rounds)
    t = enc.fight.roster.names.index(target)
    fields = played.fields.get(t) or enc.fight.rules.outcome_fields
    return Roll([s for s, _ in played.seen.get(t, {}).values()], fields)


def _rows(roles: dict[str, Role], open_: tuple[str, ...], given: dict[str, Columns], depth: int) -> dict[str, Columns]:
    """Every combination of the faces the roles `open_` may show (their supports, to `depth`), with the faces
    `given` and one face of every other role (which the declaration says does not decide)."""
    supports = {name: roles[name].support(depth).columns for name in open_}
    sizes = [len(next(iter(cols.values()))) for cols in supports.values()]
    grid = np.indices(sizes, dtype=np.int64).reshape(len(sizes), -1) if sizes else np.zeros((0, 1), np.int64)
    n = grid.shape[1]
    out: dict[str, Columns] = {}
    for i, (name, cols) in enumerate(supports.items()):
        out[name] = {c: v[grid[i]] for c, v in cols.items()}
    for name, role in roles.items():
        if name not in out:
            cols = given.get(name) or {c: v[:1] for c, v in role.support(depth).columns.items()}
            out[name] = {c: np.repeat(np.asarray(v[:1], dtype=np.int64), n) for c, v in cols.items()}
    return out


def _values(enc: Encounter, s: Situation) -> Values:
    """What the roll of situation `s` reads: the situation's own values over the stats the fight has now (those
    it does not key by, e.g. the health a hit may take to 0, as the narrated roll reads them)."""
    rules = enc.fight.rules
    now = narrated_values(rules, s, enc.state.per, 0, {})
    own = situation_values(rules, s)
    return own[0], {**now[1], **own[1]}, {**now[2], **own[2]}


def share(
    system: AnySystem,
    scenario: Any,
    target: Any,
    roles: dict[str, Role],
    role: str,
    given: dict[str, list[int]],
    fields: tuple[str, ...],
    unread: bool = False,
) -> Share:
    """Whether the roll of `scenario` on `target` reads `role` with the faces `given`, as its game declares
    (`system.needs`): for every, some or none of the faces the roles the declaration waits on may still show (the
    game's own `resolve` of them says). A role read by every roll is not asked when none of its faces changes the
    `fields` the turn reads of the roll (the server rolls it); one the fight never reads (`unread`) is never."""
    if role not in roles:  # the roll as the turn makes it has no such die (its situation's roles differ)
        return "none"
    need = never("") if unread else system.needs(scenario, target).get(role, ALWAYS)
    read = {name: roles[name].read(faces) for name, faces in given.items() if name in roles}
    depth = system.depth(scenario)
    if need.reads is None:
        out = system.resolve(scenario, target, Dice(_rows(roles, (role,), read, depth)), Silent())
        return "all" if any(len(np.unique(out[f])) > 1 for f in fields) else "none"
    open_ = tuple(name for name in need.after if name in roles and name not in read)
    columns = _rows(roles, open_, read, depth)
    reads: npt.NDArray[np.bool_] = need.reads(system.resolve(scenario, target, Dice(columns), Silent()))
    return "all" if bool(reads.all()) else "some" if bool(reads.any()) else "none"


def _share(enc: Encounter, s: Situation, fields: tuple[str, ...], role: str, given: dict[str, list[int]]) -> Share:
    """`share` for the roll of situation `s` in the encounter."""
    fight = enc.fight
    scenario, target = blocks(fight, s.c, s.a, s.t, _values(enc, s))
    roles = situation_roles(fight, s, scenario, target)
    unread = role in fight.rules.unread_roles(fight)
    return share(fight.system, scenario, target, roles, role, given, fields, unread)


def _shares(enc: Encounter, roll: Roll, role: str, given: dict[str, list[int]]) -> set[Share]:
    """`_share` over every situation of the roll ("none" when the attack makes no roll against the creature)."""
    return {_share(enc, s, roll.fields, role, given) for s in roll.situations} or {"none"}


def when_needed(enc: Encounter, action: dict[str, Any], roles: list[dict[str, Any]]) -> dict[str, When]:
    """Each role's "always" / "conditional" / "never" (see the module docstring); every role "always" when the
    attack itself is refused now (say its attacker is down), so the page still asks and the refusal is the
    attack's own."""
    if isinstance(_outcome(enc, action, {}), tuple):
        return {role["role"]: "always" for role in roles}
    roll = _first_roll(enc, action, action["targets"][0])
    out: dict[str, When] = {}
    for role in roles:
        shares = {"all"} if not role["sides"] else _shares(enc, roll, role["role"], {})
        out[role["role"]] = "always" if shares == {"all"} else "never" if shares == {"none"} else "conditional"
    return out


def still_needed(
    enc: Encounter, action: dict[str, Any], roles: list[dict[str, Any]], given: dict[str, list[int]], per: Per = None
) -> list[str]:
    """The roles not in `given` that the attack still reads with the faces given (a critical's dice after a
    Critical Hit): those the declaration calls for with some faces the untyped roles may show. `per`: `given` is
    that target's set; a role rolled once for the whole attack that another target's set holds is not asked."""
    typed = {r for faces in (per[1].values() if per else []) for r in faces}
    roll = _first_roll(enc, action, per[0] if per else action["targets"][0])
    out = []
    for role in roles:
        if role["role"] in given or (role.get("scope") == "attack" and role["role"] in typed):
            continue
        if not role["sides"] or _shares(enc, roll, role["role"], given) - {"none"}:
            out.append(role["role"])
    return out
