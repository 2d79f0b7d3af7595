"""Braces: opposed Brace rolls against the foe's Stamina (success) and Strength (struggle).

Sources (the game's other pages "Braces", with its defaults where the braces page was cut off):
- Grapple (needs a hold from Take Hold): success: -1 guard to the foe and it is grappled; struggle: the
  foe may pay 1 stamina to resist (else it is grappled).
- Shove: success: -1 guard and the foe is pushed out of your span or hold; struggle: the foe may pay 1
  stamina to resist.
- Disarm and break [Breaking and Disarming Arms]: a success disarms the foe or breaks its defending
  armament; a struggle does so unless the foe pays 1 stamina (tohit's reading, as for Grapple and Shove).
- Stand Fast: regain Guard equal to the Brace roll, up to maximum Guard + Strength (not opposed).
"Beats" is strictly greater (docs/wsswnn.md#silent-action-dice). Guard damage from a brace is reduced by Unflinching.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tohit.core.outcome import NULL_CODE, NULL_INT
from tohit.core.steps import Steps
from tohit.systems.wsswnn.fields import EFFECT_OF, FAILURE, STRUGGLE, SUCCESS
from tohit.systems.wsswnn.models import Target

Array = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]
C_BRACES = "wsswnn: Braces (docs/wsswnn.md#silent-braces)"
C_STAND_FAST = "wsswnn: Braces, Stand Fast (docs/wsswnn.md#silent-braces; docs/wsswnn.md#silent-stats)"
#: Braces whose success also inflicts -1 guard.
GUARD_BRACES = ("grapple", "shove")
EFFECT_TEXT = {
    "grapple": "grappled",
    "shove": "shoved out of your span or hold",
    "disarm": "disarmed",
    "break": "its defending armament breaks",
}


@dataclass
class BraceOutcome:
    """Arrays of one opposed brace (rows where no brace was rolled hold nulls / zeros)."""

    code: Array  # SUCCESS / STRUGGLE / FAILURE, NULL_CODE where not rolled
    effect: Array  # index into EFFECT_LABELS, NULL_CODE where none
    resist: Array  # stamina the foe may pay to resist, NULL_INT where it cannot
    guard_damage: Array  # guard the foe loses from the brace (0 where none)
    roll: Array  # the brace roll, NULL_INT where not rolled


def opposed_brace(
    brace: str,
    roll: Array,
    rolled: Mask,
    target: Target,
    steps: Steps,
    *,
    why: str,
) -> BraceOutcome:
    """Brace `roll` against the foe's Stamina / Strength, on the rows where `rolled` holds."""
    stamina = int(target.stamina or 0)
    strength = int(target.strength or 0)
    success = rolled & (roll > stamina)
    struggle = rolled & ~success & (roll > strength)
    code = np.where(rolled, np.select([success, struggle], [SUCCESS, STRUGGLE], FAILURE), NULL_CODE)
    landed = success | struggle
    effect = np.where(landed, EFFECT_OF[brace], NULL_CODE)
    can_pay = stamina >= 1
    resist = np.where(struggle & can_pay, 1, NULL_INT)
    per_hit = max(0, 1 - target.unflinching) if brace in GUARD_BRACES else 0
    guard_damage = np.where(success, per_hit, 0)
    if steps.when(rolled):
        name = brace.replace("_", " ").capitalize()
        unless = " unless it pays 1 stamina to resist" if can_pay else " (it has no stamina to pay to resist)"
        for mask, label, verdict in (
            (success, "success", f"beats Stamina {stamina}: success, the foe is {EFFECT_TEXT[brace]}"),
            (
                struggle,
                "struggle",
                f"beats only Strength {strength}: struggle, the foe is {EFFECT_TEXT[brace]}{unless}",
            ),
            (
                rolled & ~landed,
                "failure",
                f"does not beat Strength {strength} (or Stamina {stamina}): failure, nothing happens",
            ),
        ):
            steps.note(
                "brace",
                "{why}: {brace} brace {roll} " + verdict,
                clause=C_BRACES,
                value=label,
                why=why,
                brace=name,
                roll=roll,
                where=mask,
            )
        if brace in GUARD_BRACES:
            reduced = f" (-1, Unflinching {target.unflinching})" if target.unflinching else ""
            steps.note(
                "brace_guard",
                "{brace} success: -{gd} guard to the foe{reduced}",
                clause=C_BRACES,
                value=per_hit,
                brace=name,
                gd=per_hit,
                reduced=reduced,
                where=success,
            )
    return BraceOutcome(
        code.astype(np.int64),
        effect.astype(np.int64),
        resist.astype(np.int64),
        guard_damage.astype(np.int64),
        np.where(rolled, roll, NULL_INT).astype(np.int64),
    )
