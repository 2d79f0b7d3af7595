"""Rounds of one turn each: the turn structure most systems share (a game with action points, say, has its
own).

Each round, every combatant able to act takes one turn, in the round's order: the order in the file, sides
alternating, unless the fight keeps its order itself (an initiative roll, or a live encounter's kept order:
core/fight/order.py). A step plays one turn in every fight of the batch; when a fight's round has no turn left, its
end comes (the system's `round_end` hook, say an effect phase), then the next round starts in that step (the
`round_start` hook), or the fight ends as a draw when `max_rounds` is over. A system whose turns hold several
actions (`holds_turn`) keeps the cursor on the acting combatant: it acts again, one action a step, while it is
`able`.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from tohit.core.fight.contract import FightContext, FightRules, LoadedFight
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.order import TURN, NextPlaces, kept, kept_places, order_places, round_order
from tohit.core.fight.rows import (
    any_groups,
    any_rows,
    first_rows,
    packed_bits,
    packed_rows,
    pair_rows,
    rows_of,
    take_at,
    take_rows,
)
from tohit.core.fight.state import BoolArray, IntArray, State, every_row


def turn_of(ctx: FightContext, actor: IntArray) -> dict[str, Any]:
    """A turn event's details when a fight is told (`combatant`, `round`: the common phrase words them), each made
    only then."""

    def who() -> str | None:
        return None if ctx.n != 1 or int(actor[0]) < 0 else ctx.fight.roster.names[int(actor[0])]

    return {"combatant": who, "round": lambda: int(ctx.state.fight["round"][0])}


class RoundRules(FightRules):
    """One turn per combatant per round; subclasses say who can act and what a turn does."""

    #: True when the round's order is the file order in every fight; False when it is rolled per fight
    #: (then each combatant's `turn` stat is its place in its fight's order: the subclass keeps it).
    static_order: ClassVar[bool] = True
    #: True when every attack a combatant has is always usable (no costs, no shattered weapons).
    always_usable: ClassVar[bool] = True
    #: True when a turn holds several actions (action points): a step plays one action, and the cursor stays on the
    #: acting combatant, who acts again while `able` (the system makes it unable when its turn is over).
    holds_turn: ClassVar[bool] = False

    def fight_stats(self, fight: LoadedFight) -> dict[str, int]:
        """`cursor`: the next place in the round's order."""
        return {"cursor": 0}

    # -- hooks -----------------------------------------------------------------------------------------------
    def able(self, fight: LoadedFight, state: State) -> BoolArray:
        """(fights, combatants): who can take a turn now (default: whoever is standing)."""
        return self.standing(fight, state)

    def round_start(self, ctx: FightContext, rows: IntArray) -> None:
        """Events at the start of a round after the first (refills, a new initiative order); none by default."""

    def round_end(self, ctx: FightContext, rows: IntArray) -> None:
        """Events at the end of a round whose turns are over, before the round limit and the next round (an effect
        phase); none by default. Its events draw no dice (the rows do not expand)."""

    def options(self, ctx: FightContext, actor: IntArray) -> BoolArray:
        """(fights, attacks, combatants): the attacks the actor may use on each foe (default: every attack it
        has, on every standing foe)."""
        fight = ctx.fight
        who = np.maximum(actor, 0)
        foes = rows_of(fight.roster.foe_matrix, who) & ctx.standing()
        if self.always_usable and fight.has_attack.shape[1] == 1:  # one attack: the foes alone (as below)
            return foes[:, None, :]
        usable = (  # (n, A)
            rows_of(fight.has_attack, who) if self.always_usable else self.usable_of(fight, ctx.state, who)
        )
        if usable.shape[1] == 1:
            return foes[:, None, :]
        return pair_rows(usable, foes)

    def turn(self, ctx: FightContext, acting: BoolArray, actor: IntArray, choice: GMChoice | None = None) -> None:
        """A turn: pick an attack and a foe by policy (or the game master's `choice`), and attack (systems may do
        more: skip, brace...)."""
        options = self.options(ctx, actor)
        idx, attack, target = ctx.choose_actions(acting, actor, options, choice)
        actor, acting = actor[idx], acting[idx] & (attack >= 0)
        if acting.any():
            self.attack(ctx, acting, actor, attack, target)

    def attack(self, ctx: FightContext, mask: BoolArray, actor: IntArray, attack: IntArray, target: IntArray) -> None:
        """Resolve the attack and apply what it does (subclasses)."""
        raise NotImplementedError

    # -- the step ------------------------------------------------------------------------------------------------
    def step(self, ctx: FightContext, choice: GMChoice | None = None) -> None:
        slot, acting, actor = self._advance(ctx)  # actor: -1 where nobody acts
        if not acting.any():
            return
        ctx.emit("turn", [ctx.set("cursor", acting, slot if self.holds_turn else slot + 1)], **turn_of(ctx, actor))
        self.turn(ctx, acting, actor, choice)

    def _advance(self, ctx: FightContext) -> tuple[IntArray, BoolArray, IntArray]:
        """To the next turn: where a fight's round has no turn left, its end (`round_end`), then the round limit
        or the next round (`round_start`); (place, found, who) of the turn that comes (who: -1 where none is)."""
        # Without a round_start hook, a new round changes nobody's ability to act: the first able place of
        # the next round is read from the same `able` as the rest of this round's.
        hooks = ("round_start", "round_end", "able")
        same_able = all(getattr(type(self), h) is getattr(RoundRules, h) for h in hooks)
        if same_able and (packed := packed_rows(ctx.standing())) is not None:
            tables = _tables(ctx.fight, ctx.state)
            if tables is not None:
                return self._advance_by_bits(ctx, packed, *tables)
        slot, found, actor, first = self._next(ctx, with_first=same_able)
        new_round = ~found
        if new_round.any() and type(self).round_end is not RoundRules.round_end:
            self.round_end(ctx, np.flatnonzero(new_round))
            new_round &= self._sides_up(ctx)  # a fight the round's end decided starts no new round
        if new_round.any():
            late = ctx.stop_at_round_limit(new_round)
            new_round &= ~late
            found &= ~late
            rows = np.flatnonzero(new_round)
            if rows.size:
                self._new_round(ctx, rows)
                slot2, found2, actor2, _ = first if first is not None else self._next(ctx)
                slot = np.where(new_round, slot2, slot)
                found = np.where(new_round, found2, found)
                actor = np.where(new_round, actor2, actor)
        return slot, found, actor  # -1 where none is (`_next`'s who)

    def _advance_by_bits(
        self, ctx: FightContext, packed: Any, table: NextPlaces, base: IntArray | None
    ) -> tuple[IntArray, BoolArray, IntArray]:
        """`_advance` without hooks, who can act read as one byte of bits a fight: the next place looked up by the
        fight's order (`base`, its offset in `table`: None for the file's order), cursor and those bits
        (`NextPlaces`), and where a round starts, by the order and those bits alone (the cursor at 0: nobody's
        ability to act changes between rounds); each answer looked up once a fight."""
        size = ctx.fight.roster.size
        bits = packed_bits(packed, size)  # bit c: combatant c able
        if base is not None:
            bits += base
        at = np.minimum(ctx.state.fight["cursor"], size)
        at *= 256
        at += bits
        actor = table.acting.take(at)
        new_round = actor < 0  # no place left this round (`acting` is -1 exactly where `found` is False)
        if new_round.any():
            new_round &= ~ctx.stop_at_round_limit(new_round)
            every = bool(new_round.all())
            rows = every_row(new_round.size) if every else np.flatnonzero(new_round)  # every row: one whole write
            if rows.size:
                self._new_round(ctx, rows)
                if every:
                    at = bits
                    actor = table.acting.take(at)
                else:  # the new round's rows alone: the others keep their place and actor
                    first = take_at(bits, rows)
                    at[rows] = first
                    actor[rows] = take_at(table.acting, first)
        return table.slot.take(at), actor >= 0, actor

    def _new_round(self, ctx: FightContext, rows: IntArray) -> None:
        """The next round starts in the fights at `rows`: its number, the cursor at the first place, `round_start`."""
        new = take_at(ctx.state.fight["round"], rows)
        new += 1  # in place: a fresh array of this call's
        ctx.emit("round", [ctx.set("round", rows, new), ctx.set("cursor", rows, 0)], round=lambda: int(new[0]))
        self.round_start(ctx, rows)

    # -- the turn order, read and ended (a live encounter) -----------------------------------------------------
    def next_actor(self, fight: LoadedFight, state: State) -> int | None:
        """Whose turn comes next in fight 0 of `state`, read from the state without dice: the first place at or
        after the cursor whose combatant can act this round; where none is left, the first of the next round (as
        `round_start` leaves them: `able_next_round`). None while the order waits on a roll (`opening`)."""
        if self.opening_pending(state):
            return None
        able = self.standing(fight, state) if type(self).able is RoundRules.able else self.able(fight, state)
        _, found, who, _ = self._next_at(fight, state, able)
        if bool(found[0]):
            return int(who[0])
        up = self.able_next_round(fight, state)
        order = self._order_of(fight, state)
        for c in order:
            if bool(up[0, c]):
                return int(c)
        return None

    def stat_range(self, fight: LoadedFight, stat: str) -> tuple[int, int] | None:
        """Where the order is rolled per fight, each combatant's place in it (`turn`) is the rules' (a place set by
        hand would leave another place empty); the rest as `FightRules.stat_range`."""
        if stat == "turn" and not self.static_order:
            return None
        return super().stat_range(fight, stat)

    def able_next_round(self, fight: LoadedFight, state: State) -> BoolArray:
        """(fights, combatants): who can act at the start of the next round (default: whoever is standing)."""
        return self.standing(fight, state)

    def _order_of(self, fight: LoadedFight, state: State) -> list[int]:
        """Fight 0's round order (combatant numbers, place by place)."""
        return round_order(fight, state)

    def end_turn(self, ctx: FightContext) -> None:
        """The game master ends the turn that comes (one fight): where the round has no turn left, the next round
        starts first (its end, the round limit, its start); then the cursor moves past that turn's place, and
        where the round has no turn left after it, the next round starts at once. The cursor never leaves the
        order: it stays between 0 and the number of places."""
        slot, found, actor = self._advance(ctx)
        if not bool(found[0]):
            ctx.emit("end_turn", [])
            return
        who = ctx.fight.roster.names[int(actor[0])]
        ctx.emit("end_turn", [ctx.set("cursor", found, slot + 1)], combatant=who)
        _, left, _, _ = self._next(ctx)
        if not bool(left[0]):
            self._advance(ctx)

    @staticmethod
    def _sides_up(ctx: FightContext) -> BoolArray:
        """(fights,): two sides or more still have someone standing."""
        ups = any_groups(ctx.standing(), ctx.fight.roster.side_members)
        if len(ups) == 2:
            both: BoolArray = ups[0] & ups[1]
            return both
        sides = sum(up.astype(np.int64) for up in ups)
        out: BoolArray = np.asarray(sides) >= 2
        return out

    def _next(self, ctx: FightContext, *, with_first: bool = False) -> tuple[IntArray, BoolArray, IntArray, Any]:
        """The first place at or after the cursor whose combatant can act, this round: (place, found, who; who -1
        where none is found), and with `with_first` the same from the round's first place (else None)."""
        able = ctx.standing() if type(self).able is RoundRules.able else self.able(ctx.fight, ctx.state)  # (n, C)
        return self._next_at(ctx.fight, ctx.state, able, with_first=with_first)

    def _next_at(
        self, fight: LoadedFight, state: State, able: BoolArray, *, with_first: bool = False
    ) -> tuple[IntArray, BoolArray, IntArray, Any]:
        """`_next` for who is `able` in `state`."""
        size = fight.roster.size
        cursor = state.fight["cursor"]
        packed = packed_rows(able)
        if packed is not None and (tables := _tables(fight, state)) is not None:
            return _next_by_bits(fight, packed, cursor, *tables, with_first=with_first)
        if not kept(state):  # the file's order (core/fight/order.py)
            order = fight.order_array
            by_place = able if fight.order_is_identity else np.take(able, order, axis=1)  # (n, places), in C order
            order_rows: Any = None
        else:  # each combatant's `turn` stat is its place in its fight's order
            order_rows, flat = order_places(fight, state.per[TURN])
            by_place = np.ascontiguousarray(able).reshape(-1).take(flat)  # able[i, order_rows[i, j]]
        cand = by_place & rows_of(fight.places_from, np.minimum(cursor, size))  # places at or after the cursor
        slot = first_rows(cand)
        found = any_rows(cand)
        who = fight.order_array.take(slot) if order_rows is None else take_rows(order_rows, slot)
        first = None
        if with_first:
            slot0 = first_rows(by_place)
            who0 = fight.order_array.take(slot0) if order_rows is None else take_rows(order_rows, slot0)
            found0 = any_rows(by_place)
            first = (slot0, found0, np.where(found0, who0, -1), None)
        return slot, found, np.where(found, who, -1), first

    @staticmethod
    def name(ctx: FightContext, who: IntArray) -> str:
        return ctx.fight.roster.names[int(np.asarray(who).reshape(-1)[0])]


def _tables(fight: LoadedFight, state: State) -> tuple[NextPlaces, IntArray | None] | None:
    """The table of next places for the fights' orders (`NextPlaces`), and per fight its order's offset in it: the
    file's order's (offset None) or the kept orders' (`kept_places`); None where the kept orders take no table."""
    if not kept(state):
        return fight.memo("next_places", lambda: NextPlaces.build(fight)), None
    return kept_places(fight, state.per[TURN])


def _next_by_bits(
    fight: LoadedFight, packed: Any, cursor: IntArray, table: NextPlaces, base: IntArray | None, *, with_first: bool
) -> tuple[IntArray, BoolArray, IntArray, Any]:
    """`RoundRules._next_at` by table, who is able read as one integer a fight (`packed_rows`: byte c is combatant
    c), its bytes gathered into one byte of bits, the answers looked up by order (`base`: see `_advance_by_bits`),
    cursor and those bits (`NextPlaces`)."""
    size = fight.roster.size
    bits = packed_bits(packed, size)  # bit c: combatant c able
    if base is not None:
        bits += base
    at = np.minimum(cursor, size)
    at *= 256
    at += bits
    first = None
    if with_first:  # from the round's first place: the cursor at 0
        first = (table.slot.take(bits), table.found.take(bits), table.acting.take(bits), None)
    return table.slot.take(at), table.found.take(at), table.acting.take(at), first
