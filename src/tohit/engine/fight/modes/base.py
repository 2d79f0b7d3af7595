"""What every mode of a fight step shares (docs/architecture.md, "One fight driver"): the batch's
state, its events (each applied at once by the pure `apply`), the round limit and the choice of actions.

A fight module's `step` reads `ctx.state`, emits events and asks `ctx.resolve` for attack outcomes. The same
step code runs in every mode; how the dice are fed is the mode's own (`modes.narrate`, `modes.sample`,
`modes.table`, `modes.exact`).

Expansions change the rows: `resolve` and `choose` return `idx`, the parent row of each new row, and the
caller re-indexes what it holds with it (`actor = actor[idx]`). Outside the exact chain `idx` is `ALL`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from tohit.core.fight.contract import ALL, LoadedFight, Mode, Rows
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.gm_words import GM_PHRASES
from tohit.core.fight.order import TURN
from tohit.core.fight.rolls import FightRoll, Rolled
from tohit.core.fight.rows import rows_after, spread
from tohit.core.fight.state import BoolArray, Change, Event, IntArray, State, apply_event_changes, change, every_row
from tohit.core.fight.words import Words, gm_told, said, told
from tohit.engine.fight import policy
from tohit.engine.fight.choice import forced_choice
from tohit.engine.fight.outcomes import expected_damage


class StepContext(ABC):
    """The state of a batch during one step, and the operations a fight module uses on it (`FightContext`)."""

    mode: Mode

    def __init__(
        self,
        fight: LoadedFight,
        state: State,
        rng: np.random.Generator | None = None,
        *,
        max_rounds: int | None = None,
        standing: BoolArray | None = None,
    ) -> None:
        self.fight, self.state = fight, state
        #: Who is standing in `state` (the rules' `standing`), kept until an event changes what it reads;
        #: a caller that has it already for this very state passes it.
        self._standing = standing
        self._standing_stats = fight.rules.standing_stats
        #: Rounds after this one are not played (None in the exact chain, which has no round limit).
        self.max_rounds = max_rounds
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.parent: IntArray = every_row(state.n)  # read-only: an expansion replaces it, never writes it
        self._owned: set[tuple[bool, str]] = set()
        #: The stats an event of this context changed, as (per combatant, name): the play loop's drops copy them.
        self.written: set[tuple[bool, str]] = set()
        #: Narrate mode: forced faces for the next resolves (empty elsewhere).
        self.script: list[dict[str, list[int]]] = []
        #: Narrated events as JSON (each change with its `from` value), in order (empty elsewhere).
        self.log: list[dict[str, Any]] = []

    def own_input(self) -> None:
        """Declare the input state's arrays this context's own: nobody reads them after the step (a Monte Carlo
        batch's loop, which made them and drops its previous state), so the step writes them in place instead of
        copying each array on its first change. A step's own code still reads what it read before an event from
        the arrays it gathered, never from a view it kept of the state. The `turn` stat stays copied on change:
        the round's order is kept while that array is the same object (`core/fight/order.py`). Nor is a read-only
        stat (a group's batch holds an unwritten stat as one row for every fight): it is tiled into an array of
        its own at its first write (`state.own_copy`)."""
        per = self.state.per
        self._owned = {(True, k) for k in per if k != TURN and per[k].flags.writeable} | {
            (False, k) for k in self.state.fight
        }

    @property
    def narrating(self) -> bool:
        return self.mode == "narrate"

    @property
    def n(self) -> int:
        return self.state.n

    # -- events ----------------------------------------------------------------------------------------
    @property
    def known_standing(self) -> BoolArray | None:
        """`standing()` when it is still valid for the current state (None once an event may have changed it)."""
        return self._standing

    def standing(self) -> BoolArray:
        """(fights, combatants): who is able to act now (the rules' `standing`, computed once per change)."""
        if self._standing is None:
            self._standing = self.fight.rules.standing(self.fight, self.state)
        return self._standing

    def keep_standing(self, standing: BoolArray) -> None:
        """The rules' `standing` of the state as it is now, as the step knows it (FightContext.keep_standing)."""
        self._standing = standing

    def emit(self, kind: str, changes: Sequence[Change], text: Words | None = None, **info: Any) -> None:
        """Record an event and apply it to the state. Its words are made only when the fight is told (narration):
        a batch never builds them. The game master's phrase for its kind writes them from the event's data
        (`gm_said`), unless the step gives `text` (and any detail given as a function is made then too)."""
        self._log_event(kind, changes, text, info)

    def _log_event(self, kind: str, changes: Sequence[Change], text: Words | None, info: dict[str, Any]) -> None:
        """`emit`'s work."""
        kept = tuple(c for c in changes if c.size)
        if not kept and not self.narrating:
            return
        if self._standing is not None and (
            self._standing_stats is None or any(c.stat in self._standing_stats for c in kept if c.per_combatant)
        ):
            self._standing = None
        if self.narrating:
            event = Event(kind, kept, "" if text is None else said(text), told(info))
            data = self.event_json(event)
            if text is None:
                data["text"] = self.gm_said(data)
            self.log.append(data)
        # The step's input state is never written: each array is copied on its first change in this step.
        self.state = apply_event_changes(self.state, kept, self._owned)
        self.written.update((c.per_combatant, c.stat) for c in kept)

    def gm_said(self, event: Mapping[str, Any]) -> str:
        """The game master's words for `event`, from its data: the game's phrase for its kind, else the common
        one (core/fight/gm_words.py)."""
        return gm_told(event, self.fight.rules.gm_phrases, GM_PHRASES)

    def tell(
        self,
        kind: str,
        words: Callable[..., str | None] | None = None,
        *,
        when: Callable[[], bool] | None = None,
        **info: Any,
    ) -> None:
        """An event that changes nothing, for the table, when `when()` is true (always if not given): the game
        master's phrase for its kind words it from `info` (details given as functions are made only then), or
        `words` makes its text, None for no event. Only a told fight (narration) calls it; a batch has no such
        event."""
        if not self.narrating or (when is not None and not when()):
            return
        if words is None:
            self.emit(kind, (), **info)
            return
        text = words()
        if text is not None:
            self._log_event(kind, (), text, info)

    def event_json(self, event: Event) -> dict[str, Any]:
        names = self.fight.roster.names
        changes = []
        for ch in event.changes:
            for k in range(ch.rows.size):
                row = int(ch.rows[k])
                if ch.who is None:
                    before = int(self.state.fight[ch.stat][row])
                    who = None
                else:
                    before = int(self.state.per[ch.stat][row, ch.who[k]])
                    who = names[int(ch.who[k])]
                changes.append({"who": who, "stat": ch.stat, "from": before, "to": int(ch.to[k])})
        return {"kind": event.kind, "text": event.text, "changes": changes, **event.info}

    def last_round(self) -> BoolArray:
        """Rows whose current round is the last one played (`max_rounds`; never in the exact chain)."""
        if self.max_rounds is None:
            return np.zeros(self.n, dtype=bool)
        return np.asarray(self.state.fight["round"] >= self.max_rounds)

    def stop_at_round_limit(self, new_round: BoolArray) -> BoolArray:
        """Of the fights about to start a new round, end those whose last round was played as draws.

        Returns them, for the caller to drop from this step.
        """
        late = new_round & self.last_round()
        if late.any():
            self.round_limit(late)
        return late

    def round_limit(self, rows: BoolArray) -> None:
        """Instead of starting another round, end these fights as draws at `max_rounds`."""
        self.emit("round_limit", [self.set("round", rows, (self.max_rounds or 0) + 1)], max_rounds=self.max_rounds)

    def set(self, stat: str, rows: Any, to: Any, who: Any = None, *, cells: IntArray | None = None) -> Change:
        """A change (helper for fight modules): `rows` may be a mask or an index array; `cells`: with an index
        array, its cells of `who` where the step read them (`stat_cells`)."""
        n = self.n
        r = np.asarray(rows)
        if r.dtype == bool:
            r = every_row(n) if r.size == n and r.all() else np.flatnonzero(r)
        if r.size != n:
            who, to = _at_rows(who, r, n), _at_rows(to, r, n)
        return change(stat, r, to, who, cells)

    # -- choices -----------------------------------------------------------------------------------------
    def choose_actions(
        self, acting: BoolArray, actor: IntArray, options: BoolArray, choice: GMChoice | None = None
    ) -> tuple[Rows, IntArray, IntArray]:
        """(idx, attack, target) per row by each actor's policy (`policy.choose_actions`), or the game master's
        `choice` (an InputError when the rules do not allow it now)."""
        if choice is not None:
            return ALL, *forced_choice(self.fight, acting, actor, options, choice)
        return policy.choose_actions(self, acting, actor, options)

    def expected_damage(
        self,
        c: int,
        a: int,
        t: int,
        stats: dict[str, int],
        overrides: dict[str, int] | None = None,
        groups: dict[str, int] | None = None,
        attacker_groups: dict[str, int] | None = None,
    ) -> float:
        """Mean damage of combatant c's attack a on t (`outcomes.expected_damage`)."""
        return expected_damage(self.fight, c, a, t, stats, overrides, groups, attacker_groups)

    # -- how the dice are fed: the mode's own ----------------------------------------------------------------
    @abstractmethod
    def choose(self, allowed: BoolArray) -> tuple[Rows, IntArray]:
        """A uniform choice among the True columns of each row of `allowed` (rows with none: -1)."""

    @abstractmethod
    def die(self, mask: BoolArray, sides: IntArray) -> tuple[Rows, IntArray]:
        """A face of a d`sides` (per row) for the rows of `mask`; 0 elsewhere."""

    @abstractmethod
    def draw(
        self, mask: BoolArray, which: IntArray, tables: Sequence[tuple[IntArray, Sequence[int]]]
    ) -> tuple[Rows, IntArray]:
        """A value for each row of `mask`, drawn from the exact integer distribution tables[which[row]] (its
        values and their weights); 0 elsewhere (a roll a fight module makes besides the attacks, e.g. a
        Physical Resistance check against a Critical)."""

    @abstractmethod
    def roll(self, rows: IntArray, roll: FightRoll, args: Mapping[str, Any]) -> Rolled:
        """The game's declared `roll` for each of `rows` (`args`: one value per row of `rows`, or one for all):
        rolled face by face when told, drawn when sampled, each value weighed in the exact chain."""

    @abstractmethod
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
        """Resolve combatant actor's attack against target in the rows of `mask`.

        Returns (idx, outcome): the outcome's fields (those the fight module declared) per row after
        any expansion; rows outside `mask` get 0. `attack_fields` override fields of the attack block per
        row (e.g. a Counter bonus on the modifiers); a key "target.<field>" overrides that field of the target
        block instead, as a code the rules decode (e.g. on a map: Hard to Hit from cover), and a key
        "attacker.<field>" a field of the attacker block the same way (e.g. grappled by a foe). `fields`
        narrows the declared outcome fields to those this resolve's caller reads (exact mode then merges
        outcomes that differ only elsewhere). `shared` (a dict the caller keeps across the resolves of one
        ability) makes roles of scope "attack" one roll for every target of the ability (e.g. one hit
        die for a Multi ability). `note` (words, or a function making them) follows the attack's name in a told
        fight; `said_fields` makes attack fields that only a told fight's trace reads (the outcome does not
        depend on them), so a batch never builds them.
        """

    def resolve_at(
        self,
        rows: IntArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray] | None = None,
        *,
        kind: str = "attack",
        note: Words = "",
        fields: tuple[str, ...] | None = None,
    ) -> tuple[Rows, IntArray, dict[str, IntArray]]:
        """`resolve` on the fights `rows` alone, given and returned at those rows (FightContext.resolve_at). Here:
        through `resolve`, each argument spread over the batch (0 off `rows`) and each field read back at the rows
        the attacks are on after its re-indexing; a mode that can resolve the rows alone does so instead."""
        n = self.n
        mask = np.zeros(n, dtype=bool)
        mask[rows] = True
        overrides = {f: spread(v, rows, n) for f, v in (attack_fields or {}).items()}
        idx, out = self.resolve(
            mask,
            spread(actor, rows, n),
            spread(attack, rows, n),
            spread(target, rows, n),
            overrides,
            kind=kind,
            note=note,
            fields=fields,
        )
        at = rows if idx is ALL else rows_after(rows, idx, n)[0]
        return idx, at, {f: v.take(at) for f, v in out.items()}


def _at_rows(values: Any, rows: IntArray, n: int) -> Any:
    """`values` at `rows` when it holds one value per row of the batch (`n`), else as given (one value, or one per
    row of `rows`)."""
    if type(values) is np.ndarray:  # the usual case, without `isscalar`'s checks (some 0.5 us a call)
        return values.take(rows, axis=0) if values.ndim and values.shape[0] == n else values
    if values is None or np.isscalar(values):
        return values
    arr = np.asarray(values)
    return arr.take(rows, axis=0) if arr.ndim and arr.shape[0] == n else values
