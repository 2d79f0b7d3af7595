"""What a target presents to one attack: its Hard-to-Hit level and its Guard Stats (scalar rules, no dice).

Sources: rtw "Landing the Blow" and "Attacking Foes behind Cover", Status Effects (Blinded, Dazzled,
Distracted, Frozen, Halted, Hard to Hit, Helplessness, Invisibility, Off-Balance, Prone),
docs/rtw.md#silent-defence-stat, docs/rtw.md#silent-hard-to-hit. Each function returns its value with the reasons, in
words, for the trace.
"""

from __future__ import annotations

from dataclasses import dataclass

from tohit.systems.rtw.models import Attack, Attacker, Target
from tohit.systems.rtw.tables import (
    HARD_TO_HIT_LEVELS,
    PRONE_EXPOSED_RANGES,
    GuardStat,
    HardToHit,
)

CLAUSE_GUARD = (
    "rtw: Landing the Blow (docs/rtw.md#silent-defence-stat); Status Effects (docs/rtw.md#silent-status-effects)"
)


@dataclass(frozen=True)
class Standing:
    """The target's effective Hard-to-Hit level against this attack, why, and the clauses that say so."""

    level: HardToHit
    reasons: tuple[str, ...]
    sources: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return "; ".join(self.reasons)

    @property
    def clause(self) -> str:
        """E.g. "Status Effects: Blinded, Hard to Hit (docs/rtw.md#silent-hard-to-hit)"."""
        cited = [s for s in self.sources if s != "cover"]
        pages = []
        if "cover" in self.sources:
            pages.append("rtw: Attacking Foes behind Cover")
        pages.append("Status Effects: " + ", ".join([*cited, "Hard to Hit"]))
        return "; ".join(pages) + " (docs/rtw.md#silent-hard-to-hit)"


def _rank(level: HardToHit) -> int:
    return HARD_TO_HIT_LEVELS.index(level)


def is_prone(target: Target) -> bool:
    """Prone, or Helpless (a Helpless creature falls Prone, Status Effects: Helplessness)."""
    return target.prone or target.helpless


def hard_to_hit(attacker: Attacker, attack: Attack, target: Target, *, several_are_extreme: bool = False) -> Standing:
    """The target's Hard-to-Hit level: the highest source replaces the others, never stacks
    (docs/rtw.md#silent-hard-to-hit).

    Sources: the level given (cover, Defend, a Projectile with a foe adjacent: fed by the grid), the attacker's
    Blinded (Extremely; a Mini-Boss or Boss is merely Dazzled), Dazzled (Hard), Distracted (Hard, except the
    distraction), an Invisible target (the attacker counts as Blinded), Prone (Hard against all but Melee,
    Line and X-targets attacks). Then Prone against Melee, Line and X-targets: never Hard to Hit; then the
    source of a Distraction drops one level (Extremely to Hard, Hard to none).
    """
    sources: list[tuple[HardToHit, str, str]] = []
    if target.hard_to_hit != "none":
        word = "Extremely Hard to Hit" if target.hard_to_hit == "extreme" else "Hard to Hit"
        sources.append((target.hard_to_hit, f"{word} (cover or other circumstances)", "cover"))
    blind_level: HardToHit = "hard" if attacker.boss else "extreme"
    boss_note = " (a Boss is merely Dazzled)" if attacker.boss else ""
    if attacker.blinded:
        sources.append((blind_level, f"attacker Blinded{boss_note}", "Blinded"))
    if target.invisible:
        sources.append((blind_level, f"target Invisible: attacker treated as Blinded{boss_note}", "Invisibility"))
    if attacker.dazzled:
        sources.append(("hard", "attacker Dazzled", "Dazzled"))
    if attacker.distracted and not target.distracting:
        sources.append(("hard", "attacker Distracted by another foe", "Distracted"))
    exposed = attack.range in PRONE_EXPOSED_RANGES
    prone_word = "Helpless, so Prone," if target.helpless else "Prone"
    if is_prone(target) and not exposed:
        sources.append(("hard", f"{prone_word} against a {attack.range} attack", "Prone"))

    level: HardToHit = "none"
    for src, _, _ in sources:
        if _rank(src) > _rank(level):
            level = src
    reasons = [why for _, why, _ in sources]
    cited = [name for _, _, name in sources]
    if several_are_extreme and len(sources) >= 2 and level == "hard":
        level = "extreme"
        reasons.append("Hard to Hit for several reasons: Extremely (GM option)")
    if is_prone(target) and exposed and level != "none":
        level = "none"
        reasons.append(f"but {prone_word} it cannot be Hard to Hit against a {attack.range} attack")
        cited.append("Prone")
    if attacker.distracted and target.distracting and level != "none":
        level = HARD_TO_HIT_LEVELS[_rank(level) - 1]
        reasons.append("the source of the Distraction drops one level")
        cited.append("Distracted")
    return Standing(level, tuple(reasons) or ("not Hard to Hit",), tuple(dict.fromkeys(cited)))


@dataclass(frozen=True)
class Guard:
    """The Guard Stats this attack faces, after conditions, with the reasons they changed."""

    evasion: int
    concentration: int | None
    vitality: int | None
    reasons: tuple[str, ...]

    def stat(self, name: GuardStat) -> int | None:
        return {"evasion": self.evasion, "concentration": self.concentration, "vitality": self.vitality}[name]


def guard_stats(attack: Attack, target: Target) -> Guard:
    """Helpless: all Guard Stats 0. Halted (and Frozen, which Halts): Evasion 0. Prone: no Evasion against Melee,
    Line and X-targets attacks (Status Effects)."""
    if target.helpless:
        return Guard(0, 0, 0, ("Helpless: Guard Stats 0",))
    evasion, reasons = target.evasion, []
    if target.frozen:
        evasion, reasons = 0, ["Frozen (Halted): Evasion 0"]
    elif target.halted:
        evasion, reasons = 0, ["Halted: Evasion 0"]
    elif target.prone and attack.range in PRONE_EXPOSED_RANGES:
        evasion, reasons = 0, [f"Prone: no Evasion against a {attack.range} attack"]
    return Guard(evasion, target.concentration, target.vitality, tuple(reasons))


@dataclass(frozen=True)
class Defence:
    """The number a Roll To-Hit must equal or exceed, and how it was chosen."""

    value: int
    text: str


def defence_stat(name: GuardStat, guard: Guard, off_balance: bool) -> Defence:
    """The stat the attack names; against Concentration or Vitality the higher of it and Evasion, unless the
    defender is Off-Balance (docs/rtw.md#silent-defence-stat)."""
    named = guard.stat(name)
    if named is None:
        raise ValueError(f"target has no {name}")
    label = name.capitalize()
    if name == "evasion":
        return Defence(named, f"Evasion {named}")
    if off_balance:
        return Defence(named, f"{label} {named} (Off-Balance: Evasion cannot stand in)")
    if guard.evasion > named:
        return Defence(guard.evasion, f"Evasion {guard.evasion} (in place of {label} {named})")
    return Defence(named, f"{label} {named} (not below Evasion {guard.evasion})")
