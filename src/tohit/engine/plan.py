"""The odds of the plan an attack of a live encounter will play: the preview is the action
(docs/architecture.md, "The live encounter and its events": a preview is the plan the roll will play, on the
map, with its exact odds).

Nothing here knows a game's rules: the plan is the game's own turn, the one the roll plays (`Encounter.plan`
plays it narrated on a copy for its words: the move the game makes first, whom the attack reaches, or why it
reaches nobody). Its odds are that same turn played on the exact chain (`play`): every die enumerated, nothing
changed, and the situation of the first roll the attacker makes against each creature recorded with its
probability (`Planning`): the stats the roll reads then, and the overrides the turn hands it (on a map the grid's
Hard to Hit from cover or the Projectile rule, seen from where the move ended; the statuses folded in). A
creature's odds (`odds`) are those situations' exact tables, mixed by their probabilities: what the roll then
plays, exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.errors import InputError
from tohit.core.fight.contract import LoadedFight, Rows
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.state import BoolArray, IntArray, State
from tohit.core.fight.words import Words
from tohit.engine import cancel
from tohit.engine.fight import play as loop
from tohit.engine.fight.modes import Exact
from tohit.engine.fight.outcome_table import mean_damage
from tohit.engine.fight.outcomes import outcome_table
from tohit.engine.fight.situation import Situation

#: Rows the exact chain of a preview's turn may hold: past them, a roll follows each row's likeliest outcome
#: instead of branching on every one, so the odds of a creature rolled against later are those given that outcome
#: (exact whenever they do not hang on it, as in an area attack whose rolls are each against another creature).
MAX_ROWS = 20_000

#: Per creature (its number), each situation of the attacker's first roll against it (keyed by its values) and
#: that situation's probability.
Seen = dict[int, dict[tuple[int, ...], tuple[Situation, Fraction]]]


@dataclass
class Plan:
    """The plan of an attack in words, as the game's own turn plays it (`Encounter.plan`)."""

    #: Every creature the attack rolls against (the named first); the named alone when the rules refuse it.
    reached: list[str]
    #: The rules refuse the attack now (an ally named, a cost unpaid, a foe out of reach while another is in
    #: reach...): their message, and nothing is played.
    refused: str | None = None
    #: Where the attacker moves first (the game's move toward the foe named), when it does.
    moves_to: list[int] | None = None
    #: The game's words for that move.
    move: str = ""
    #: The game's words when the turn rolls against none of the named (on a map: it holds its ground).
    idle: str = ""
    #: The game master's choice as the turn takes it, and whether it is the attacker's turn in the game's order.
    choice: GMChoice | None = None
    in_turn: bool = False
    #: The state the narrated turn leaves (where its move ended).
    after: State | None = None


class Planning(Exact):
    """The exact chain of one turn, recording the situation of the first roll `attacker` makes against each
    creature, with its probability (the row's weight over the denominator when the roll is made)."""

    def __init__(self, fight: LoadedFight, state: State, attacker: int, max_rounds: int | None) -> None:
        super().__init__(fight, state)
        #: As the roll's narrated turn has it: a round past the limit ends the fight instead of attacking.
        self.max_rounds = max_rounds
        self.attacker = attacker
        #: (rows, combatants): the attacker has rolled against that creature in that row.
        self.rolled: BoolArray = np.zeros((state.n, fight.roster.size), dtype=bool)
        self.seen: Seen = {}
        #: Per creature, the outcome fields the turn reads of the first roll against it (None: every one the
        #: fight reads), as the turn hands them to `resolve`.
        self.fields: dict[int, tuple[str, ...] | None] = {}

    def _expand(self, idx: IntArray, weights: npt.NDArray[np.object_] | None = None, denominator: int = 1) -> None:
        super()._expand(idx, weights, denominator)
        self.rolled = self.rolled[idx]

    def resolve(
        self,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray] | None = None,
        *,
        kind: str = "attack",
        note: Words = "",
        fields: tuple[str, ...] | None = None,
        shared: dict[str, Any] | None = None,
        said_fields: Callable[[], dict[str, IntArray]] | None = None,
    ) -> tuple[Rows, dict[str, IntArray]]:
        cancel.check()  # between rolls: stopped when its asker went away (a deadline, a client gone)
        if kind == "attack":
            self._record(mask, actor, attack, target, attack_fields or {}, kind, fields)
        weight, denominator = self.weight, self.denominator
        idx, out = super().resolve(
            mask,
            actor,
            attack,
            target,
            attack_fields,
            kind=kind,
            note=note,
            fields=fields,
            shared=shared,
            said_fields=said_fields,
        )
        if self.n <= MAX_ROWS:
            return idx, out
        return self._likeliest(np.asarray(idx), out, weight, denominator)

    def _likeliest(
        self, idx: IntArray, out: dict[str, IntArray], weight: npt.NDArray[np.object_], denominator: int
    ) -> tuple[Rows, dict[str, IntArray]]:
        """The rows of the roll just made cut back to one per row before it: its likeliest outcome (the first of
        equals), with that row's whole probability (the chain stays within `MAX_ROWS`)."""
        best: dict[int, int] = {}
        for k, (parent, w) in enumerate(zip(idx.tolist(), self.weight.tolist(), strict=True)):
            if parent not in best or w > self.weight[best[parent]]:
                best[parent] = k
        keep = np.asarray([best[p] for p in sorted(best)], dtype=np.int64)
        self.state = self.state.take(keep)
        self._standing = None if self._standing is None else self._standing[keep]
        self._owned = {(True, k) for k in self.state.per} | {(False, k) for k in self.state.fight}
        self.parent = self.parent[keep]
        self.rolled = self.rolled[keep]
        self.weight, self.denominator = weight[idx[keep]], denominator
        return idx[keep], {f: v[keep] for f, v in out.items()}

    def _record(
        self,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray],
        kind: str,
        fields: tuple[str, ...] | None = None,
    ) -> None:
        n = self.n
        actor = np.broadcast_to(np.asarray(actor, dtype=np.int64), (n,))
        target = np.broadcast_to(np.asarray(target, dtype=np.int64), (n,))
        first = np.asarray(mask, dtype=bool) & (actor == self.attacker) & (target >= 0)
        first &= ~self.rolled[np.arange(n), np.maximum(target, 0)]
        rows = np.flatnonzero(first)
        if rows.size == 0:
            return
        key, keys = self.situations(actor, attack, target, attack_fields, self.fight.rules.bound.attacker_for(kind))
        for r in rows.tolist():
            s = key.decode(keys[r].tolist())
            held = self.seen.setdefault(int(target[r]), {})
            self.fields[int(target[r])] = fields
            p = Fraction(int(self.weight[r]), self.denominator)
            was = held.get(s.values)
            held[s.values] = (s, p if was is None else was[1] + p)
        self.rolled[rows, target[rows]] = True


def play(fight: LoadedFight, state: State, choice: GMChoice, in_turn: bool, max_rounds: int | None) -> Planning:
    """The game master's attack `choice` played on the exact chain as the roll plays it (`Encounter._gm_attack`):
    on the attacker's turn in the game's order the game's own step (what comes before that turn first), out of
    turn the game's `turn` for that attacker alone."""
    ctx = Planning(fight, state, choice.actor, max_rounds)
    loop.step(ctx, choice, in_turn=in_turn)
    return ctx


def odds(fight: LoadedFight, seen: dict[tuple[int, ...], tuple[Situation, Fraction]]) -> dict[str, Any]:
    """A creature's odds from the situations of the first roll against it (given it is rolled): each result's
    probability, the mean damage within the depth (as `tohit odds`), the probability beyond the depth."""
    labels = fight.system.field("result").labels
    made = sum((p for _, p in seen.values()), Fraction(0))
    result: dict[str, Fraction] = {}
    finite = dealt = beyond = Fraction(0)
    for s, p in seen.values():
        table = outcome_table(fight, s)
        q = p / made
        for code, w in zip(table.columns["result"].tolist(), table.weights, strict=True):
            label = labels[code] if 0 <= code < len(labels) else str(code)
            result[label] = result.get(label, Fraction(0)) + q * Fraction(w, table.total)
        inside = q * Fraction(sum(table.weights), table.total)
        finite += inside
        dealt += inside * mean_damage(table)
        beyond += q * Fraction(table.remainder, table.total)
    return {"result": result, "mean_damage": dealt / finite if finite else Fraction(0), "beyond_depth": beyond}


def map_words(fight: LoadedFight, state: State, actor: int, attack: int, name: str) -> str | None:
    """The map's words for why the attack does not reach `name` from where the attacker stands in `state`, as `POST
    .../map` says it (the game's map rules placing the range on that target: "the path to ... is blocked by a
    wall"); None when the fight has no map, the range is not placed on one target (an area), or the map has it in
    reach."""
    rules = fight.system.map_rules()
    data = None if rules is None else rules.fight_scenario(fight, state, actor, attack, None)
    if rules is None or data is None:
        return None
    try:
        if "target" not in type(rules.view(data, place=False).range).model_fields:
            return None
        placed = rules.fight_scenario(fight, state, actor, attack, {"target": name})
    except InputError:
        return None
    try:
        rules.view(placed or {}, place=True)
    except InputError as exc:
        return exc.message
    return None
