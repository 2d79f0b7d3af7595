"""Which dice a hand-rolled attack needs, and when: entering dice asks first for the dice every roll needs,
and for a critical's dice only once a critical happens.

Read from the fight itself, never from a game's name: an attack is tried on a copy of the encounter with faces
typed for each role, and a role "matters" when other faces of it change what the attack does (its events'
words and changes; the trace, which repeats the faces, aside). A role that matters whatever the other dice show
is needed by every roll ("always"); one that matters only for some (a severity die read on a Critical Hit, the
damage dice read on a hit) is "conditional", asked once the first dice show it is needed; one that never
matters in a fight is "never" asked (e.g. a role the fight's rules do not read: the server rolls it).

The probes are a fixed set of faces (each die's lowest, its highest, and draws from a fixed seed), so the same
encounter always answers the same; roles that read a varying number of faces (open rolls) are always asked.

Where the attack rolls against several targets, each with its own set (`dice` by target name), the probes vary
one target's set (`Per`: that target and the sets typed for the others).

Each probe tries the attack a few times, so the probes check between them for work cancelled (`engine/cancel`).
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

import numpy as np

from tohit.core.errors import InputError
from tohit.engine import cancel

When = Literal["always", "conditional", "never"]
#: Draws of the other dice per role (besides each die's lowest and highest faces).
PROBES = 16
PROBE_SEED = 29
#: One target's set among several: its name and the sets typed for the other targets (None: one set for all).
Per = tuple[str, dict[str, dict[str, list[int]]]] | None


class Tryable(Protocol):
    """What the probes need of an encounter: a copy that acts without changing it."""

    def fork(self) -> Any: ...


def _outcome(enc: Tryable, action: dict[str, Any], faces: dict[str, list[int]], per: Per = None) -> Any:
    """What the attack does with these faces (`per`: as one target's set): its events' kinds, words and changes
    (the trace left out)."""
    dice: Any = faces if per is None else {**per[1], per[0]: faces}
    try:
        events = enc.fork().act({**action, "dice": dice})
    except InputError as error:
        return ("refused", str(error))
    return [(e.get("kind"), e.get("text"), e.get("changes")) for e in events]


def _variants(sides: list[int]) -> list[list[int]]:
    """A die's faces to compare: all lowest, all highest, and the middle."""
    return [[1] * len(sides), list(sides), [max(1, s // 2) for s in sides]]


def _probes(roles: list[dict[str, Any]], skip: str, given: dict[str, list[int]]) -> list[dict[str, list[int]]]:
    """Faces of the roles other than `skip` not given (finite dice only): all lowest, all highest, seeded draws."""
    free = [r for r in roles if r["role"] != skip and r["role"] not in given and r["sides"]]
    rng = np.random.default_rng(PROBE_SEED)
    out = [{r["role"]: [1] * len(r["sides"]) for r in free}, {r["role"]: list(r["sides"]) for r in free}]
    for _ in range(PROBES if free else 0):
        out.append({r["role"]: [int(rng.integers(1, s + 1)) for s in r["sides"]] for r in free})
    return out


def matters(
    enc: Tryable,
    action: dict[str, Any],
    roles: list[dict[str, Any]],
    role: dict[str, Any],
    given: dict[str, Any],
    per: Per = None,
) -> list[bool]:
    """Per probe of the other dice (with the faces `given`): whether other faces of `role` change the attack.
    Stopped between probes once its asker went away (a deadline, a client gone)."""
    out = []
    for probe in _probes(roles, role["role"], given):
        cancel.check()
        variants = _variants(role["sides"])
        seen = {repr(_outcome(enc, action, {**given, **probe, role["role"]: v}, per)) for v in variants}
        out.append(len(seen) > 1)
    return out


def when_needed(enc: Tryable, action: dict[str, Any], roles: list[dict[str, Any]]) -> dict[str, When]:
    """Each role's "always" / "conditional" / "never" (see the module docstring); every role "always" when the
    attack itself is refused now (say its attacker is down), so the page still asks and the refusal is the
    attack's own."""
    if isinstance(_outcome(enc, action, {}), tuple):
        return {role["role"]: "always" for role in roles}
    out: dict[str, When] = {}
    for role in roles:
        if not role["sides"]:
            out[role["role"]] = "always"
            continue
        seen = matters(enc, action, roles, role, {})
        out[role["role"]] = "always" if all(seen) else "conditional" if any(seen) else "never"
    return out


def still_needed(
    enc: Tryable, action: dict[str, Any], roles: list[dict[str, Any]], given: dict[str, list[int]], per: Per = None
) -> list[str]:
    """The roles not in `given` that the attack still reads with the faces given (a critical's dice after a
    Critical Hit): whose faces change what it does, whatever the other untyped dice show. `per`: `given` is
    that target's set; a role rolled once for the whole attack that another target's set holds is not asked."""
    typed = {r for faces in (per[1].values() if per else []) for r in faces}
    out = []
    for role in roles:
        if role["role"] in given or (role.get("scope") == "attack" and role["role"] in typed):
            continue
        if not role["sides"] or any(matters(enc, action, roles, role, given, per)):
            out.append(role["role"])
    return out
