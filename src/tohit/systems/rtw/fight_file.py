"""Reclaim the Wild fight files: what a combatant and an attack entry add to the common fight file,
and an attack's grid range given as a mapping, as in a scenario file (`RtwFight.prepare`).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, ValidationError

from tohit.core.errors import InputError
from tohit.core.grid.models import AnyRange, MeleeRange, Range, SquareField, TargetsWithinRange, WeaponRange
from tohit.core.grid.reach import AREA_TYPES
from tohit.core.grid.sizes import MIN_COLOSSAL_SIDE, SizeCategory
from tohit.core.loader import validation_error
from tohit.core.models import Model
from tohit.systems.rtw.tactical import GRID_RANGE, RANGE_TAG, rules_range


class RtwCombatant(Model):
    """Reclaim the Wild fight fields of a combatant."""

    magic: int | None = Field(default=None, ge=0, le=100_000, description="Magic to spend (none: not counted).")
    stamina: int | None = Field(default=None, ge=0, le=100_000, description="Stamina to spend (none: not counted).")
    position: SquareField | None = Field(
        default=None, description="On a map: [x, y] of the top-left square of its footprint where it starts."
    )
    movement: int = Field(
        default=6,
        ge=0,
        le=100,
        description="On a map: Movement, the squares it may move on its turn before attacking (1-2-1 diagonals;"
        " Difficult Terrain costs 1 more) (docs/rtw.md#silent-movement); Heroes typically have 6.",
    )
    size: SizeCategory | Annotated[float, Field(gt=0, le=10_000)] = Field(
        default="medium", description="On a map: a size category (diminutive ... colossal) or a height in feet."
    )
    squares: int | None = Field(
        default=None, ge=MIN_COLOSSAL_SIDE, le=1000, description="On a map: side of a Colossal footprint above 6."
    )
    swarm: bool = Field(
        default=False,
        description="On a map: a Swarm (an 'X Targets/Squares within Y' attack may affect it once per square).",
    )
    blinded: bool = Field(
        default=False,
        description="Blinded at the start (given as attacker.blinded): every foe Extremely Hard to Hit until the"
        " end of its next turn.",
    )
    dazzled: bool = Field(
        default=False,
        description="Dazzled at the start (given as attacker.dazzled): every foe Hard to Hit until the end of its"
        " next turn.",
    )
    invisible: bool = Field(
        default=False,
        description="Invisible at the start (given as target.invisible): its attackers are treated as Blinded until"
        " an attack hits it or it makes an attack.",
    )
    distracted_by: list[str] = Field(
        default_factory=list,
        max_length=64,
        description="Distracted at the start, by these foes (names): every other foe Hard to Hit, these one level"
        " less, until the end of its next turn.",
    )


class RtwAttack(Model):
    """Reclaim the Wild fight fields of an attack."""

    area_size: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="How many foes an area attack catches with no map: the chosen one and the next (default: the"
        " range's count in Abstract Combat when the range is given with its size, e.g. Burst 1: 2; else every foe).",
    )
    grid_range: Range | None = Field(
        default=None,
        description="The attack's range on a map, filled in from attack.range when that is a mapping (give"
        " attack.range, not this).",
    )


def grid_entry(entry: Any, where: str, on_map: bool) -> Any:
    """One attack entry of the raw file with its grid range split off (see `RtwFight.prepare`)."""
    if not isinstance(entry, dict):
        return entry
    attack = entry.get("attack", {})
    if not isinstance(attack, dict):
        return entry
    raw = attack.get("range", "melee")
    rng: AnyRange
    if isinstance(raw, dict):
        try:
            rng = GRID_RANGE.validate_python(raw)
        except ValidationError as exc:
            err = validation_error(exc, source="", prefix=f"{where}.attack.range")
            raise InputError(err.message, field=RANGE_TAG.sub(r"\1", err.field or "")) from None
    elif on_map and raw == "melee":
        rng = MeleeRange(type="melee")
    elif on_map:
        raise InputError(
            f"on a map, give the range as a mapping, e.g. {{type: {raw}, size: 3}}", field=f"{where}.attack.range"
        )
    else:
        return entry
    new_attack = {**attack, "range": rules_range(rng)}
    if on_map:  # the grid decides whether the attack is aimed at one creature alone
        # A Weapon range is its Basic Attacks' (rtw: Attack Ranges, Weapon): an area if one of them is.
        basics = ([rng.chosen()] if rng.use else rng.basic_attacks) if isinstance(rng, WeaponRange) else []
        plain = [b.range for b in basics] if isinstance(rng, WeaponRange) else [rng]
        new_attack["area"] = any(
            r.type in AREA_TYPES or (isinstance(r, TargetsWithinRange) and r.count > 1) for r in plain
        )
    return {**entry, "attack": new_attack, "grid_range": rng.model_dump(mode="json", exclude_none=True)}
