"""Kaiser RPG fights: AP, Counterattacks, LP (Attacking and Defending, the game's other pages).

Rules applied between attacks (the attack itself is the system's `resolve`):
- AP [Action Points]: every combatant has 6 AP at the start of each round; unused AP is lost at its end.
  Round 1 starts with each combatant's `target.ap` (default 6: a surprised combatant may start lower).
- An attack costs its `ap_cost` (default 3) AP; a combatant without the AP for any of its attacks passes.
- A Successful Attack costs the defender 1 AP, never below 0; a hit at 0 AP makes it Flat-Footed (no
  Active actions or Reactions) until the round ends [Attacking and Defending, Successful Attack; Action Points].
- A Failed hand-to-hand or point-blank attack gives the defender a Counter bonus of floor(DoS / 2); a
  defender with 1 AP left counterattacks at once (1 AP) with its first hand-to-hand or point-blank attack,
  the bonus added to its Offensive Roll [Attacking and Defending, Failed Attack; Counter]. A counterattack is not
  itself countered.
- LP lost = damage, never below 0 LP; at 0 LP a combatant is unconscious and out of the fight
  [Critical: "LP at or below 0 means unconscious"].
- Critical [Critical]: a single hit costing half or more of the target's current LP (the system's
  own `is_critical`, fed the LP the target has in the fight before the hit) causes a Critical. Its level is
  2d6 (no Open Roll or Fumble) + floor(damage / 10), any amount above 20 halved (`critical_level`). The
  target makes a Physical Resistance check: 2d6 + its PhR (the combatant's `physical_resistance`), with no
  Open Roll or Fumble ("A Resistance Check cannot have an Open Roll or a Fumble", Dice;
  docs/kaiser.md#silent-open-rolls covers the Offensive and Defensive Rolls only). Its Degrees of Failure are the
  points its total is below the level, DoF = max(0, level - PhR total) (Dice: "1 Degree of Failure for each point
  below the target difficulty"; a tie is no failure). Each DoF gives -1 to all actions (an All Action Penalty on its
  Offensive Rolls, counterattacks included, and its Defensive Rolls) and costs 1 AP (never below 0). A penalty from a
  Critical of DoF 5 or less fades by 1 at the start of each round; from DoF 6 or more it lasts (it recovers by
  Regeneration, after the fight); DoF 16 or more knocks the target unconscious wherever it was hit (out of the fight).
  Penalties of several Criticals add up.

Choices where the rules are silent (docs/fights.md): a combatant without `physical_resistance` resists with
PhR 3, a new character's (Presence 3 + the Constitution modifier +0 of an average Constitution 5; the trace
says so); a hit that leaves its target at 0 LP rolls no Critical (the target is unconscious
anyway); the fading part of the penalty is one pool that fades by 1 a round, whatever the number of
Criticals behind it; the All Action Penalty does not apply to the PhR check itself (a Resistance Check is not
an action); AP lost to a Critical at 0 AP does not make the target Flat-Footed (only a hit does); hit
locations are not rolled (the sources have no General Hit Location Table), so a DoF 6+ head hit and the
lost limbs of DoF 11+ are not played. Policy `best` and the preview read the attack as the turn resolves it: the
defender's `def_mod` (Multiple Defense and All Action Penalties in it), the attacker's All Action Penalty.

Turn order: the order in the file, sides alternating (first of each side, then second of each...). A
round goes round that order again and again: on its turn each standing combatant with the AP for one of
its attacks makes one attack (chosen by its policy); the round ends when nobody has the AP for an attack.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from pydantic import Field

from tohit.core.fight.bindings import StatBinding
from tohit.core.fight.consequence import ATTACKER, DEFENDER, changes, of_kind
from tohit.core.fight.contract import ALL, FightContext, LoadedFight, Rows
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.order import kept
from tohit.core.fight.rolls import FightRoll
from tohit.core.fight.rows import (
    column_bits,
    gather_stats,
    min_rows,
    pair_rows,
    read_cells,
    rows_after,
    rows_of,
    select,
    stat_cells,
    take_at,
)
from tohit.core.fight.state import BoolArray, IntArray, State, every_row, gather
from tohit.core.models import Model
from tohit.systems.kaiser import consequences, narrate, players
from tohit.systems.kaiser.cells import cells as _cells
from tohit.systems.kaiser.cells import maybe_set as _maybe_set
from tohit.systems.kaiser.cells import split as _split
from tohit.systems.kaiser.consequences import critical_level
from tohit.systems.kaiser.rules import HIT
from tohit.systems.kaiser.stat_readings import READINGS
from tohit.systems.kaiser.turns import AP_PER_ROUND, NO_ATTACK, KaiserTurns, spendable_ap

#: Each earlier Defensive Roll in the round puts the next at this much less (the Multiple Defense Penalty).
MDP_STEP = 2
DEFAULT_AP_COST = 3
COUNTER_AP = 1
CLOSE = ("hand_to_hand", "point_blank")
#: The outcome fields `_consequences` reads (a counterattack is not itself countered).
CONSEQUENCES = ("result", "damage", "ap_lost", "flat_footed")
#: PhR of a combatant whose file gives none: Presence 3 (a new character's) + the Constitution modifier of an
#: average Constitution 5 (+0): "Resistance values are calculated by adding your Presence to the applicable
#: Modifier" [Final Steps].
DEFAULT_PHR = 3


class KaiserCombatant(Model):
    """Kaiser fight fields of a combatant."""

    physical_resistance: int | None = Field(
        default=None,
        ge=0,
        le=100,
        description="Physical Resistance (PhR) = Presence + Constitution modifier, added to the 2d6 check against a"
        " Critical; none: PhR 3 (a new character's Presence 3, Constitution modifier +0).",
    )


def _degrees_of_failure(args: Mapping[str, Any], faces: Mapping[str, IntArray]) -> IntArray:
    """A Critical's Degrees of Failure [Critical]: level 2d6 (the `critical` dice) + `base` (= floor(damage / 10)),
    above 20 halved, against the PhR check 2d6 (the `phr` dice) + `phr`; DoF = max(0, level - check). Neither roll
    is open nor fumbles."""
    level = critical_level(_total(faces["critical"]), 10 * np.asarray(args["base"]))
    out: IntArray = np.maximum(0, level - (_total(faces["phr"]) + np.asarray(args["phr"])))
    return out


def _total(faces: IntArray) -> IntArray:
    """Each row's sum of its dice (rows, dice), die by die: numpy sums a short last axis row by row, far slower."""
    total: IntArray = faces[:, 0].copy()
    for die in range(1, faces.shape[1]):
        total += faces[:, die]
    return total


#: The roll a Critical makes (its arguments: `base` and `phr`): the level's 2d6 are the faces the attack's own
#: `critical` role showed (typed with the attack's dice at the table), the PhR check's 2d6 are rolled after it.
CRITICAL = FightRoll("critical", (("critical", (6, 6)), ("phr", (6, 6))), _degrees_of_failure, ("critical",))
#: The same roll with the level's 2d6 rolled anew, as a fight with the Multiple Defense Penalty has always rolled
#: it (its defense comes between the attack and the Critical; docs/kaiser.md#silent-critical).
CRITICAL_ROLLED_AFTER_DEFENSE = FightRoll("critical", CRITICAL.dice, _degrees_of_failure)


def dof_table(base: int, phr: int) -> tuple[IntArray, tuple[int, ...]]:
    """The exact distribution of a Critical's Degrees of Failure (`CRITICAL`, every face weighed): its values and
    their weights over 6**4."""
    return CRITICAL.exact_table({"base": base, "phr": phr})


class KaiserAttack(Model):
    """Kaiser fight fields of an attack."""

    ap_cost: int = Field(
        default=DEFAULT_AP_COST,
        ge=1,
        le=AP_PER_ROUND,
        description="AP this attack costs (a combatant has 6 AP a round).",
    )


class KaiserFight(KaiserTurns):
    system_id = "kaiser"
    health = "lp"
    health_label = "LP"
    readings = READINGS
    condition_stats = ("flat_footed", "knocked_out")
    attack_extra = KaiserAttack
    combatant_extra = KaiserCombatant
    outcome_fields = ("result", "damage", "ap_lost", "flat_footed", "counter_bonus", "counterattack")
    #: Damage Dealt = (DoS - Absorption - AV) x Base Damage: a Successful Attack of 0 Units still hits, for 0.
    hit_says_no_damage = True
    #: A delayed turn [the page is silent on turn order: docs/kaiser.md#silent-turn-order]: a live encounter keeps
    #: the round's order, the file's until the GM delays a turn; the round goes round that order, so a turn may be
    #: delayed after one whose place is before its own (it comes round again this round).
    keeps_order = True
    order_goes_round = True
    players_phrases = players.PHRASES
    unseen_attack = players.UNSEEN_ATTACK
    gm_phrases = narrate.GM_PHRASES
    #: LP and AP change what a hit costs the defender (a Critical, AP lost, a Counterattack), not its damage;
    #: damage beyond the LP left changes nothing, so the exact chain caps it there.
    bindings = (
        StatBinding("lp", outcome=False, clip="damage"),
        StatBinding("ap"),
        # The Defensive Roll's modifiers: the target block's, minus the All Action Penalty.
        StatBinding("def_mod", field="modifiers", odds=True),
    )
    #: The fight rolls a Critical's level itself, with the PhR check (`CRITICAL`, a declared roll); a told fight
    #: reads the level's faces from those the system's own `critical` role showed in the attack.
    unused_roles = ("critical",)
    standing_stats = ("lp", "knocked_out")
    turn_order: ClassVar[str] = (
        "File order, sides alternating (docs/kaiser.md#silent-turn-order); a round goes round that order until"
        " nobody has the AP for an attack"
        " (6 AP a round, an attack costs its ap_cost); a Counterattack (1 AP) follows a failed close attack at once."
    )

    def initial(self, fight: LoadedFight, combatant: int) -> dict[str, int]:
        target = fight.target(combatant)
        return {
            "lp": int(target.lp),
            "ap": int(target.ap),
            "flat_footed": 0,
            "dealt": 0,
            "penalty": 0,
            "fading": 0,
            "def_mod": int(target.modifiers),
            "mdp": 0,
            "knocked_out": 0,
        }

    def fight_stats(self, fight: LoadedFight) -> dict[str, int]:
        return {"cursor": 0}

    def unread_roles(self, fight: LoadedFight) -> tuple[str, ...]:
        """With the Multiple Defense Penalty a Critical's level is rolled anew after the defense
        (docs/kaiser.md#silent-critical): the attack's own `critical` dice are never read in that fight."""
        return ("critical",) if fight.spec.options.multiple_defense_penalty else ()

    def standing(self, fight: LoadedFight, state: State) -> BoolArray:
        """Above 0 LP and not knocked out by a Critical of 16 DoF or more [Critical]."""
        out: BoolArray = state.per["lp"] > 0
        knocked = state.per["knocked_out"]
        if _maybe_set(knocked):  # rare: only a Critical of 16 DoF or more
            out &= knocked == 0
        return out

    # -- static tables -----------------------------------------------------------------------------------
    def _phr(self, fight: LoadedFight) -> IntArray:
        """Per combatant, its Physical Resistance (`DEFAULT_PHR` when the file gives none)."""

        def build() -> IntArray:
            found = np.asarray(
                [DEFAULT_PHR if c.physical_resistance is None else c.physical_resistance for c in fight.combatants],
                dtype=np.int64,
            )
            return found

        return fight.memo("kaiser_phr", build)

    def _counter_attack(self, fight: LoadedFight) -> IntArray:
        """Per combatant, the attack it counterattacks with (its first close attack), or -1."""

        def build() -> IntArray:
            found = np.full(fight.roster.size, -1, dtype=np.int64)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    if entry.attack.range in CLOSE:
                        found[c] = a
                        break
            return found

        return fight.memo("kaiser_counter", build)

    def usable(self, fight: LoadedFight, state: State) -> BoolArray:
        """(fights, combatants, attacks): standing, with the AP for that attack (none while Flat-Footed)."""
        costs = self._costs(fight)
        ok = spendable_ap(state.per)[:, :, None] >= costs[None, :, :]
        return ok & self.standing(fight, state)[:, :, None]

    # -- one step ------------------------------------------------------------------------------------------
    def step(self, ctx: FightContext, choice: GMChoice | None = None) -> None:
        fight = ctx.fight
        slot, acting = self._advance(ctx)
        actor = self._at(fight, ctx.state, slot)  # a slot of the order in every row, found or not
        if not acting.all():
            actor = np.where(acting, actor, -1)
        if acting.any():
            ctx.emit(
                "turn",
                [ctx.set("cursor", acting, take_at(self._order(fight).following, slot))],
                combatant=lambda: self._name(ctx, actor),
                round=lambda: int(ctx.state.fight["round"][0]),
            )
        self.turn(ctx, acting, actor, choice, paid=choice is None)

    def _advance(self, ctx: FightContext) -> tuple[IntArray, BoolArray]:
        """To the next turn: where nobody has the AP for an attack, the round limit or a new round; (slot,
        found) of the turn that comes."""
        slot, found = self._next(ctx)
        new_round = ~found
        if new_round.any():
            late = ctx.stop_at_round_limit(new_round)
            new_round &= ~late
            found &= ~late
            rows = np.flatnonzero(new_round)
            self._round_start(ctx, rows)
            if rows.size:  # the new round's first turn, on those rows alone
                slot[rows], found[rows] = self._next(ctx, rows)
        return slot, found

    def turn(
        self,
        ctx: FightContext,
        acting: BoolArray,
        actor: IntArray,
        choice: GMChoice | None = None,
        *,
        paid: bool = False,
    ) -> None:
        """A turn: an attack it has the AP for, on a standing foe (by policy, or the game master's `choice`), its
        AP spent, the attack resolved and its consequences applied, then the defender's Counterattack where it may
        take one. `paid`: every acting combatant is known to have the AP for its cheapest attack and not to be
        Flat-Footed (the turn order found it so), so that where each one's attacks all cost the same, it has the
        AP for each of them (its AP not read again)."""
        fight = ctx.fight
        state = ctx.state
        who = np.maximum(actor, 0)
        standing = ctx.standing()
        if paid and self._one_cost_each(fight):  # rows not acting have no options either way
            attacks_ok = rows_of(self._costs(fight) < NO_ATTACK, who)
        else:
            mine = gather_stats(state.per, ("ap", "flat_footed"), every_row(ctx.n), who)
            own_ap = mine["ap"] * (mine["flat_footed"] == 0)
            attacks_ok = own_ap[:, None] >= rows_of(self._costs(fight), who)  # (n, A); Flat-Footed: no AP to act
        foes = rows_of(fight.roster.foe_matrix, who) & standing  # (n, C)
        options = pair_rows(attacks_ok, foes)
        idx, attack, target = ctx.choose_actions(acting, actor, options, choice)
        actor, acting = actor[idx], acting[idx] & (attack >= 0)
        if not acting.any():
            return

        costs = self._costs(fight)
        rows = np.flatnonzero(acting)
        by, used = take_at(actor, rows), take_at(attack, rows)
        acting_cells = stat_cells(ctx.state.per, rows, by)  # the attackers': AP read and written, the penalty read
        (spent,) = read_cells(ctx.state.per, ("ap",), acting_cells).values()
        spent -= gather(costs, by, used)  # in place: a fresh array of this step's
        ctx.emit(
            "ap_spent",
            [ctx.set("ap", rows, spent, by, cells=acting_cells)],
            combatant=lambda: self._name(ctx, actor),
            cost=lambda: int(costs[actor[0], attack[0]]),
        )

        fields: dict[str, IntArray] | None = None
        penalties = ctx.state.per["penalty"]
        penalty = read_cells(ctx.state.per, ("penalty",), acting_cells)["penalty"] if _maybe_set(penalties) else None
        if penalty is not None and (penalty > 0).any():  # the All Action Penalty on the Offensive Roll
            fields = {"modifiers": gather(self._modifiers(fight), by, used) - penalty}  # on the attacks' rows

        def note() -> str:  # told: one fight, rows == [0]
            shown = 0 if fields is None or penalty is None else int(penalty[0])
            return narrate.penalty_note(shown) if shown else ""

        # The attacks' rows alone (`resolve_at`): the outcome's fields one entry per row of `at`.
        idx, at, out = ctx.resolve_at(rows, by, used, take_at(target, rows), fields, note=note)
        if idx is not ALL:
            actor, target = actor[idx], target[idx]
        self._defended(ctx, target, at)
        n = ctx.n
        idx = self._consequences(ctx, actor, target, out, at)
        if idx is not ALL:  # the exact chain expanded the rows (a Critical's PhR check): the fields follow them
            actor, target = actor[idx], target[idx]
            at, read = rows_after(at, idx, n)
            out = {k: v.take(read) for k, v in out.items()}

        # Counterattack: the defender of a failed close attack, with 1 AP left, strikes back at once.
        countering = np.flatnonzero(out["counterattack"] == 1)  # places among `at`
        maybe = at.take(countering)
        if maybe.size == 0:
            return
        t, a = take_at(target, maybe), take_at(actor, maybe)
        counter_with = self._counter_attack(fight)
        theirs = stat_cells(ctx.state.per, maybe, t)  # the defenders' cells: AP read and written, the penalty read
        on_t = read_cells(ctx.state.per, ("ap", "flat_footed"), theirs)
        up = ctx.standing()
        t_ap = on_t["ap"]
        ok = (take_at(counter_with, t) >= 0) & (t_ap >= COUNTER_AP) & (on_t["flat_footed"] == 0)
        ok &= take_at(np.ascontiguousarray(up).reshape(-1), theirs) & gather(up, maybe, a)
        if not ok.any():
            return
        # The counterattacks' rows alone: resolved there (`resolve_at`), no array of the batch's size made for them.
        rows, t, t_ap, countering, theirs = select(ok, maybe, t, t_ap, countering, theirs)
        bonus = out["counter_bonus"].take(countering)  # on the counterattacks' rows
        ctx.emit(
            "counter",
            [ctx.set("ap", rows, t_ap - COUNTER_AP, t, cells=theirs)],
            combatant=lambda: self._name(ctx, target),
            target=lambda: self._name(ctx, actor),
            cost=COUNTER_AP,
            bonus=lambda: int(bonus[0]),
        )
        with_attack = take_at(counter_with, t)
        penalties = ctx.state.per["penalty"]
        c_penalty = read_cells(ctx.state.per, ("penalty",), theirs)["penalty"] if _maybe_set(penalties) else 0
        modifiers = gather(self._modifiers(fight), t, with_attack) + bonus - c_penalty

        def counter_note() -> str:  # told: one fight, rows == [0]
            return narrate.counter_note(int(bonus[0]), int(np.asarray(c_penalty).reshape(-1)[0]))

        idx, at, cout = ctx.resolve_at(
            rows,
            t,
            with_attack,
            take_at(actor, rows),
            {"modifiers": modifiers},
            kind="counter",
            note=counter_note,
            fields=CONSEQUENCES,
        )
        if idx is not ALL:
            actor, target = actor[idx], target[idx]
        self._defended(ctx, actor, at)
        self._consequences(ctx, target, actor, cout, at)

    def odds_fields(
        self, ctx: FightContext, rows: IntArray, actor: int, attack: int, target: int
    ) -> dict[str, IntArray]:
        """The Offensive Roll's modifiers less the attacker's All Action Penalty [Critical], as `turn` resolves it."""
        penalty = ctx.state.per["penalty"][rows, actor]
        return {"modifiers": self._modifiers(ctx.fight)[actor, attack] - penalty} if penalty.any() else {}

    # -- helpers ---------------------------------------------------------------------------------------------
    def _modifiers(self, fight: LoadedFight) -> IntArray:
        """(combatants, attacks): each attack's own `modifiers` (the Counter bonus adds to them)."""

        def build() -> IntArray:
            found = np.zeros((fight.roster.size, fight.max_attacks), dtype=np.int64)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    found[c, a] = entry.attack.modifiers
            return found

        return fight.memo("kaiser_modifiers", build)

    def _next(self, ctx: FightContext, rows: IntArray | None = None) -> tuple[IntArray, BoolArray]:
        """The next slot of the turn order, from the cursor, whose combatant can attack; found or not (on the
        fights `rows` alone, when given)."""
        fight = ctx.fight
        state = ctx.state
        size = fight.roster.size
        table = None if kept(state) else self._next_slots(fight)
        if rows is not None and table is None:
            whole = self._next(ctx)
            return whole[0][rows], whole[1][rows]
        ap, flat, up, cursor = state.per["ap"], state.per["flat_footed"], ctx.standing(), state.fight["cursor"]
        if rows is not None:
            ap, flat, cursor = ap.take(rows, axis=0), flat.take(rows, axis=0), cursor.take(rows)
            up = up.take(rows, axis=0)
        can = self._order(fight).can_pay(ap)  # (n, C)
        can &= flat == 0
        can &= up
        if cursor.size and int(cursor.max()) >= size:  # past the last (a roster change after the last slot): the first
            cursor = cursor % size
        if table is not None:  # the file's order: one lookup by cursor and who can attack
            code = column_bits(can)
            code += cursor << size
            return take_at(table.slot, code), take_at(table.found, code)
        nearest = np.minimum(min_rows(self._distance(fight, state, cursor) + size * ~can), size)  # size: nobody can
        found: BoolArray = nearest < size
        slot = cursor + np.minimum(nearest, size - 1)
        slot = np.where(slot >= size, slot - size, slot)
        return slot.astype(np.int64), found

    def _round_start(self, ctx: FightContext, rows: IntArray) -> None:
        """A new round on the fights `rows`: 6 AP for everyone standing, Flat-Footed ends, the order starts again."""
        if rows.size == 0:
            return
        standing = ctx.standing().take(rows, axis=0)  # the step knows it already
        r_idx, c_idx = _cells(standing)
        rr = take_at(rows, r_idx)
        new_round = take_at(ctx.state.fight["round"], rows) + 1
        changed = [
            ctx.set("round", rows, new_round),
            ctx.set("cursor", rows, 0),
            ctx.set("ap", rr, AP_PER_ROUND, c_idx),
        ]
        flat_footed = ctx.state.per["flat_footed"]
        if _maybe_set(flat_footed):  # an event keeps no empty change: none to build where nobody is Flat-Footed
            fr, fc = _cells(flat_footed.take(rows, axis=0) != 0)
            changed.append(ctx.set("flat_footed", take_at(rows, fr), 0, fc))
        ctx.emit(
            "round",
            changed,
            round=lambda: int(new_round[0]),
            ap=AP_PER_ROUND,
        )
        self._fade(ctx, rows)
        mdp = ctx.state.per["mdp"].take(rows, axis=0)
        at = np.flatnonzero(mdp != 0)  # the cells of those who defended (`_cells`, their values read by the same index)
        if at.size:  # the Multiple Defense Penalty counts the defenses of one round
            mr, mc = _split(at, mdp.shape[1])
            r = take_at(rows, mr)
            theirs = stat_cells(ctx.state.per, r, mc)
            restored = read_cells(ctx.state.per, ("def_mod",), theirs)["def_mod"] + mdp.reshape(-1).take(at)
            ctx.emit(
                "defense_restored",
                [ctx.set("def_mod", r, restored, mc, cells=theirs), ctx.set("mdp", r, 0, mc, cells=theirs)],
                combatants=lambda: [ctx.fight.roster.names[int(c)] for c in mc],
            )

    def _defended(self, ctx: FightContext, defender: IntArray, rows: IntArray) -> None:
        """The Multiple Defense Penalty (docs/kaiser.md#silent-multiple-defense-penalty): "2 attacks -2, 3 attacks
        -4, 4 attacks -6, and so on": each Defensive Roll a defender has made this round puts its later ones at -2
        more (the `mdp` stat, restored at the round's start). Option `multiple_defense_penalty` (default true).
        `rows`: the fights of the attacks defended."""
        if not ctx.fight.spec.options.multiple_defense_penalty:
            return
        if rows.size == 0:
            return
        d = take_at(defender, rows)
        at = stat_cells(ctx.state.per, rows, d)
        mdp, def_mod = read_cells(ctx.state.per, ("mdp", "def_mod"), at).values()
        ctx.emit(
            "defense",
            [
                ctx.set("mdp", rows, mdp + MDP_STEP, d, cells=at),
                ctx.set("def_mod", rows, def_mod - MDP_STEP, d, cells=at),
            ],
            combatant=lambda: self._name(ctx, d),
            defenses=lambda: int(mdp[0]) // MDP_STEP + 1,
            penalty=lambda: int(mdp[0]) + MDP_STEP,
        )

    def _consequences(
        self, ctx: FightContext, attacker: IntArray, defender: IntArray, out: dict[str, IntArray], at: IntArray
    ) -> Rows:
        """What a resolved attack does (`consequences.apply`; emitted and narrated here): LP lost (and damage
        dealt), AP lost, Flat-Footed, then a Critical (hits only). Returns the re-indexing of the rows (the exact
        chain expands them by the PhR check's outcomes). `at`: the fights of the attacks, `out`'s fields one entry
        per row of it (`resolve_at`'s)."""
        read = np.flatnonzero(out["result"] == HIT)  # places among `at`, where the fields are read
        rows = at.take(read)
        if rows.size == 0:
            return ALL
        d, a = defender.take(rows), attacker.take(rows)
        state = ctx.state
        at_d, at_a = stat_cells(state.per, rows, d), stat_cells(state.per, rows, a)
        on_d = read_cells(state.per, ("lp", "ap"), at_d)
        before = consequences.Before(on_d["lp"], on_d["ap"], read_cells(state.per, ("dealt",), at_a)["dealt"])
        damage, ap_lost, flat_footed = (out[k].take(read) for k in CONSEQUENCES[1:])
        outcome = consequences.Outcome(None, damage, ap_lost, flat_footed)  # the rows of hits alone
        applied = consequences.apply(before, outcome)
        who = {DEFENDER: d, ATTACKER: a}
        for kind in ("damage", "ap_lost", "flat_footed"):
            items = of_kind(applied.items, kind)
            if items:
                # The hit's damage, which may be more than the LP it leaves: the damage event says it.
                hit: dict[str, Any] = {"damage": lambda: int(outcome.damage[0])} if kind == "damage" else {}
                written = changes(items, rows, who, {DEFENDER: at_d, ATTACKER: at_a})
                ctx.emit(kind, written, combatant=lambda: self._name(ctx, defender), **hit)
        crit = applied.critical
        if crit.size == 0:
            return ALL
        return self._critical(ctx, rows[crit], d[crit], outcome.damage[crit], defender)

    def _critical(self, ctx: FightContext, rows: IntArray, who: IntArray, damage: IntArray, defender: IntArray) -> Rows:
        """A Critical [Critical] on the targets `who` of fights `rows`, hit for `damage` (`defender`:
        every row's target): level 2d6 + floor(damage / 10) (above 20 halved) against the target's PhR check
        2d6 + PhR (neither open nor fumbling); each DoF is -1 to all its actions and costs 1 AP; the penalty of
        DoF <= 5 fades 1 a round, of DoF 6+ lasts; DoF 16+ knocks it unconscious. One roll (`CRITICAL`), the
        same call in every mode; the level's dice are those the attack's own `critical` role showed."""
        fight = ctx.fight
        phr = take_at(self._phr(fight), who)
        base = damage // 10
        roll = CRITICAL_ROLLED_AFTER_DEFENSE if fight.spec.options.multiple_defense_penalty else CRITICAL
        rolled = ctx.roll(rows, roll, {"base": base, "phr": phr})
        if rolled.idx is ALL:  # the rows as they were: read those of the Criticals alone
            (failed,) = select(rolled.value.take(rows) > 0, rows)
        else:
            mask = np.zeros(ctx.n, dtype=bool)
            mask[rows] = True
            failed = np.flatnonzero(mask[rolled.idx] & (rolled.value > 0))
        hit, k = defender[rolled.idx].take(failed), rolled.value.take(failed)

        def faces(role: str) -> list[int]:  # told: one fight, rows == [0]
            return [int(f) for f in rolled.faces[role][0]]

        critical: dict[str, Any] = {
            "combatant": lambda: self._name(ctx, who),
            "damage": lambda: int(damage[0]),
            "level_dice": lambda: faces("critical"),
            "base": lambda: int(base[0]),
            "level": lambda: int(critical_level(sum(faces("critical")), int(damage[0]))),
            "phr_dice": lambda: faces("phr"),
            "phr": lambda: int(phr[0]),
            "default_phr": lambda: fight.combatants[int(who[0])].physical_resistance is None,
        }
        if failed.size == 0:
            ctx.tell("critical", dof=0, **critical)
            return rolled.idx
        stats = consequences.CriticalBefore._fields  # penalty, fading, def_mod, ap
        before = consequences.CriticalBefore(**gather_stats(ctx.state.per, stats, failed, hit))
        items = consequences.critical_after(before, k)
        ctx.emit("critical", changes(items, failed, {DEFENDER: hit}), dof=lambda: int(k[0]), **critical)
        return rolled.idx

    def _fade(self, ctx: FightContext, rows: IntArray) -> None:
        """A new round: the All Action Penalty of Criticals of DoF 5 or less fades by 1 [Critical]."""
        if not _maybe_set(ctx.state.per["fading"]):
            return
        fading = ctx.state.per["fading"].take(rows, axis=0)
        fr, fc = _cells(fading > 0)
        if fr.size == 0:
            return
        r = take_at(rows, fr)
        state = ctx.state
        penalty, def_mod = gather_stats(state.per, ("penalty", "def_mod"), r, fc).values()
        ctx.emit(
            "penalty_fades",
            [
                ctx.set("fading", r, fading[fr, fc] - 1, fc),
                ctx.set("penalty", r, penalty - 1, fc),
                ctx.set("def_mod", r, def_mod + 1, fc),
            ],
        )

    @staticmethod
    def _name(ctx: FightContext, who: IntArray) -> str:
        return ctx.fight.roster.names[int(who[0])]


RULES = KaiserFight()
