"""FullPlate: the To-Hit Roll as the trace reads it, clauses 1, 3, 8 and 9 of rules.py's list.

The effective THAC0 and the natural needed against each creature, the creature a shot into melee
picks, the comparison with its AC (the natural-20 window) and Automatic Hits (clause 8: a natural 1
is rolled again; docs/fullplate.md#silent-automatic-hit).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tohit.core.steps import Steps, each_text, rows_text
from tohit.core.system import Dice
from tohit.systems.fullplate.circumstances import OFF_HAND_ROW
from tohit.systems.fullplate.damage import Array, Mask
from tohit.systems.fullplate.melee import faces
from tohit.systems.fullplate.models import Target
from tohit.systems.fullplate.situation import PAGE, Defender, Situation, Term
from tohit.systems.fullplate.window import Chance, percent_text


def thac0_text(thac0: int, terms: Sequence[Term], effective: int) -> str:
    """ "THAC0 14 - 1 (Enhancement) + 4 (target_cover_50) = 17": bonuses subtract, penalties add."""
    parts = [f"THAC0 {thac0}"]
    for t in terms:
        sign = "-" if t.bonus > 0 else "+" if t.bonus < 0 else "±"
        parts.append(f"{sign} {abs(t.bonus)} ({t.label})")
    return " ".join(parts) + f" = {effective}"


def note_setup(
    sit: Situation,
    target: Target,
    defenders: Sequence[Defender],
    chances: Sequence[Chance],
    automatic: bool,
    steps: Steps,
) -> None:
    if not steps.enabled:
        return
    enh = sit.enhancement
    if enh.to_hit or enh.damage or any(d.special_defence_level for d in defenders):
        steps.note(
            "enhancement",
            "Enhancement {hit:+d} to hit, {dmg:+d} to damage: {desc}",
            clause=f"{PAGE}, Enhancement",
            value=enh.to_hit,
            hit=enh.to_hit,
            dmg=enh.damage,
            desc=enh.text,
        )
    if sit.hand.off_hand and not sit.hand.penalty:
        steps.note(
            "off_hand",
            "{desc}: no Off-Hand penalty",
            clause=f"{PAGE}, Main-Hand vs Off-Hand",
            value=0,
            desc=sit.hand.text,
        )
    for a in sit.rows:
        main_hand = a.row.id == OFF_HAND_ROW
        steps.note(
            "circumstance",
            "{desc}{note}: {mod:+d} to hit{ff}",
            clause=f"{PAGE}, " + ("Main-Hand vs Off-Hand" if main_hand else f"Circumstantial Modifiers: {a.row.group}"),
            value=a.modifier,
            desc=a.row.text,
            note=f" ({a.note})" if a.note else "",
            mod=a.modifier,
            ff=", Flatfooted" if a.row.flatfooted else "",
        )
    for r in sit.replaced:
        steps.note(
            "circumstance_replaced",
            "{row} ({mod:+d}, {named}) is replaced by {by} ({by_mod:+d}): one scale, {scale}; the row worse"
            " for the attacker is used",
            clause=f"{PAGE}, Circumstantial Modifiers (docs/fullplate.md#silent-modifier-scales)",
            value=r.row.row.id,
            row=r.row.row.id,
            mod=r.row.modifier,
            named=r.row.where,
            by=r.by.row.id,
            by_mod=r.by.modifier,
            scale=r.row.row.scale,
        )
    steps.note(
        "effective_thac0",
        "Effective THAC0 = {desc}",
        clause=f"{PAGE}, Effective thac0; Circumstantial Modifiers",
        value=sit.effective_thac0,
        desc=thac0_text(sit.thac0, sit.terms, sit.effective_thac0),
    )
    melee = len(defenders) > 1
    # The intended target first, then each creature beside it that has its own stats
    # (docs/fullplate.md#silent-firing-into-melee).
    ordered = [len(defenders) - 1, *range(len(defenders) - 1)]
    for i in ordered:
        d = defenders[i]
        if not d.own:
            continue
        who = f"{d.name}: " if melee else ""
        if d.flatfooted:
            steps.note(
                "flatfooted",
                "{who}Flatfooted ({by}): loses Dodge and shield AC: {desc} -> AC {ac} (never above base 10 from this)",
                clause="fullplate: Defending, Flatfooted (docs/fullplate.md#silent-flatfooted)",
                value=d.ac + d.defence[1],
                who=who,
                by=d.flatfooted_by,
                desc=d.ac_text,
                ac=d.ac + d.defence[1],
            )
        if d.defence[1]:
            kind, level = d.defence
            steps.note(
                "defence",
                "{who}Defence[{kind}] {level}: +{level} AC against this attack: AC {before} -> {ac}",
                clause="fullplate: Defence[Type] (docs/fullplate.md#silent-flatfooted)",
                value=d.ac,
                kind=kind.replace("_", " ").title(),
                level=level,
                who=who,
                before=d.ac + level,
                ac=d.ac,
            )
    if automatic:
        return
    like = [d.name for d in defenders if not d.own]
    for i in ordered:
        d = defenders[i]
        if not d.own:
            continue
        who = ""
        if melee:
            who = f" ({d.name}"
            if i == len(defenders) - 1 and like:
                who += f"; also {', '.join(like)}: no stats of their own, judged as the intended target"
            who += ")"
        note_needed(sit, d, chances[i], who, steps)


def note_needed(sit: Situation, d: Defender, c: Chance, who: str, steps: Steps) -> None:
    """ "needs N+ on the d20 (P%)", P the exact chance to hit (window.py), or "cannot hit (0%)"."""
    extra = ""
    if c.shortfall > 0:
        extra = f" (a natural 20 is short by {c.shortfall}" + (
            ": inside the 10-point window)"
            if c.halvings == 0
            else f", damage halved {c.halvings}x"
            + (
                ")"
                if c.survives == 1
                else f": it hits only with damage rolls that stay at half a point or more, {c.survives} of them)"
            )
        )
    if c.need is None:
        text = (
            "Against AC {ac}{who}: cannot hit (0%): even a natural 20 is short by {s}, and {k} halvings leave"
            " every damage roll below half a point"
        )
    else:
        text = "Against AC {ac}{who}: needs {need}+ on the d20 ({pct}){extra}"
    steps.note(
        "natural_needed",
        text,
        clause=f"{PAGE}, Making The Roll; Fumbles and Criticals",
        value=c.need,
        ac=d.ac,
        who=who,
        need=c.need,
        pct=percent_text(c.chance),
        extra=extra,
        s=c.shortfall,
        k=c.halvings,
    )


def note_pick(
    candidates: Sequence[tuple[int, str, int]],
    defenders: Sequence[Defender],
    index: Array,
    dice: Dice,
    steps: Steps,
) -> None:
    """Firing Into Melee: the pick die's faces, the creature struck, and how it is judged."""
    if not steps.enabled:
        return
    weights = [w for _, _, w in candidates]
    split = ", ".join(f"{f} {name}" for (_, name, _), f in zip(candidates, faces(weights), strict=True))
    standing = {i for i, _, _ in candidates}
    down = [d.name for i, d in enumerate(defenders) if i not in standing]
    if down:
        split += f"; {', '.join(down)} down, out of the melee"
    judged = [
        f"judged against its own AC {d.ac}"
        if d.own
        else f"who has no stats of its own: judged as the intended target (AC {d.ac})"
        for d in defenders
    ]
    names = np.asarray([d.name for d in defenders], dtype=object)[index]
    how = np.asarray(judged, dtype=object)[index]
    steps.note(
        "firing_into_melee",
        "firing into melee: {dice} ({split}): the shot goes to {who}, {how}",
        clause=f"{PAGE}, Firing Into Melee (docs/fullplate.md#silent-firing-into-melee)",
        value=names,
        dice=dice.text("pick"),
        split=split,
        who=names,
        how=how,
    )


def note_compare(
    roll: Array,
    ac: int | Array,
    nat: Array,
    shortfall: Array,
    halved: Array,
    steps: Steps,
) -> None:
    if not steps.enabled:
        return
    fumble = nat == 1
    window = ~fumble & (nat == 20) & (shortfall > 0)
    hits = ~fumble & ~window & (roll <= ac)
    misses = ~fumble & ~window & ~hits
    if steps.when(fumble):
        steps.note(
            "fumble",
            "natural 1: a Fumble, the attack fails",
            clause=f"{PAGE}, Fumbles and Criticals",
            value=True,
            where=fumble,
        )
    if steps.when(window):
        steps.note(
            "natural_20",
            "natural 20: AC {ac} is {s} below {roll}{how}",
            clause=f"{PAGE}, Fumbles and Criticals (natural 20 window)",
            value=halved,
            where=window,
            ac=ac,
            s=shortfall,
            roll=roll,
            how=rows_text(
                shortfall <= 10,
                ", within 10: the attack hits",
                each_text(": {k} halving(s) of the damage (one per 5, or part of 5, after the first 10)", k=halved),
            ),
        )
    if steps.when(hits):
        steps.note(
            "compare",
            "{roll} vs AC {ac}: a hit (by {m})",
            clause=f"{PAGE}, Making The Roll",
            value="hit",
            where=hits,
            roll=roll,
            ac=ac,
            m=ac - roll,
        )
    if steps.when(misses):
        steps.note(
            "compare",
            "{roll} vs AC {ac}: a miss (AC {ac} is better than {roll})",
            clause=f"{PAGE}, Making The Roll",
            value="miss",
            where=misses,
            roll=roll,
            ac=ac,
        )


def automatic(eff: int, nat: Array, dice: Dice, steps: Steps) -> tuple[Mask, Mask, Array]:
    """Clause 8: an Automatic Hit hits; a natural 1 is rolled again, no Fumble if that would hit AC 0."""
    reroll = dice["reroll"]["total"]
    again = eff - reroll
    saved = (reroll != 1) & ((again <= 0) | ((reroll == 20) & (again <= 10)))
    fumbled = (nat == 1) & ~saved
    zeros = np.zeros(len(nat), dtype=np.int64)
    if steps.when(nat == 1):
        steps.note(
            "automatic_hit",
            "Automatic Hit, natural 1: rolled again: {eff} - {dice} = {again}: {verdict}",
            clause=f"{PAGE}, Automatic Hits",
            value=~fumbled,
            where=nat == 1,
            eff=eff,
            dice=dice.text("reroll"),
            again=again,
            verdict=rows_text(saved, "hits AC 0: no Fumble, the Automatic Hit hits", "a Fumble"),
        )
    if steps.when(nat != 1):
        steps.note(
            "automatic_hit",
            "Automatic Hit: it hits; the roll only decides a Critical Hit",
            clause=f"{PAGE}, Automatic Hits",
            value=True,
            where=nat != 1,
        )
    return ~fumbled, fumbled, zeros
