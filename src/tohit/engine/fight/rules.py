"""What a system's fight rules provide (one module per system under `tohit.engine.fight.systems`).

The attack rules stay in the system (its `resolve`); a fight module adds what happens between attacks:
the stats a fight tracks, turn order, what each outcome does to the state (as events), who is still
standing, and which stats change the odds. Fight modules live in the engine layer, so systems never
import them (imports point down).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from tohit.core.errors import InputError, short_repr
from tohit.core.models import Model
from tohit.engine.fight.state import BoolArray, IntArray, State

if TYPE_CHECKING:
    from tohit.engine.fight.context import StepContext
    from tohit.engine.fight.model import LoadedFight


class NoExtra(Model):
    """No extra fields."""


class FightRules(ABC):
    """One system's fight rules; see the module docstring."""

    system_id: ClassVar[str]
    #: The stat that is a combatant's health (policies `weakest`, survivors' remaining health).
    health: ClassVar[str]
    #: How the rulebook names it, for narration ("LP", "HP", "Health", "life").
    health_label: ClassVar[str]
    #: Extra fields of a combatant, of one of its attacks, and of the fight file.
    combatant_extra: ClassVar[type[Model]] = NoExtra
    attack_extra: ClassVar[type[Model]] = NoExtra
    #: Outcome fields the fight reads (exact mode groups outcomes by these).
    outcome_fields: ClassVar[tuple[str, ...]] = ("result", "damage")
    #: State stats fed into the target model by name on every resolve (their values change in a fight).
    target_stats: ClassVar[tuple[str, ...]] = ()
    #: State stats fed into the attacker block by name (e.g. WSSWNN's own Guard for Stand Fast); exact tables
    #: are keyed by them.
    attacker_stats: ClassVar[tuple[str, ...]] = ()
    #: Target stats the system reads as plain Python values (in an `if`): never fed as arrays; rows are
    #: grouped by `group_value` (small ints from 0) and each group gets `field_value`; a narrated fight gets
    #: `narrate_value` of the stat itself. (Last Odyssey: whether a Shell is active.)
    scalar_stats: ClassVar[tuple[str, ...]] = ()
    #: The same for the attacker block: the attacker's own stats the system reads as plain values, grouped by
    #: `group_value` and fed as `field_value` (narrated: `narrate_value`). (Last Odyssey: the user's statuses.)
    attacker_scalar_stats: ClassVar[tuple[str, ...]] = ()
    #: Target field fed from each stat, when its name differs (stat -> field).
    stat_fields: ClassVar[dict[str, str]] = {}
    #: The subset of `target_stats` that changes the `outcome_fields` (exact tables are keyed by these).
    table_stats: ClassVar[tuple[str, ...] | None] = None
    #: Outcome fields the exact chain may cap at a target stat (e.g. {"damage": "lp"}: damage beyond the
    #: LP left changes nothing), so that outcomes the fight cannot tell apart merge.
    table_clip: ClassVar[dict[str, str]] = {}
    #: The subset of `target_stats` that changes an attack's expected damage (policy `best`).
    odds_stats: ClassVar[tuple[str, ...]] = ()
    #: The subsets of `scalar_stats` (the target's) and `attacker_scalar_stats` (the attacker's) that change an
    #: attack's expected damage (policy `best` reads them at their current groups; default: none, the file's
    #: blocks). (Last Odyssey: the statuses, the Bonus Tracker and whether a Shell is active.)
    odds_scalar_stats: ClassVar[tuple[str, ...]] = ()
    odds_attacker_scalar_stats: ClassVar[tuple[str, ...]] = ()
    #: Dice roles whose outcome no fight rule reads: Monte Carlo does not roll them (narration still does).
    unused_roles: ClassVar[tuple[str, ...]] = ()
    #: Stats kept for reports only, left out of the exact chain's state (e.g. damage dealt).
    bookkeeping: ClassVar[tuple[str, ...]] = ("dealt",)
    #: The per-combatant stats `standing` reads (a step keeps its result until an event changes one of
    #: them); None: any change may.
    standing_stats: ClassVar[tuple[str, ...] | None] = None
    #: Turn order in words, for the docs and `tohit fight --help`.
    turn_order: ClassVar[str]

    def group_value(self, stat: str, values: Any) -> Any:
        """The group of each value of a scalar stat (small ints from 0; their product over a resolve's scalar
        stats, times attackers x attacks x targets, must stay below 2**62)."""
        return values

    def field_value(self, stat: str, group: int) -> Any:
        """The plain value a group of a scalar stat feeds to the target block."""
        return group

    def override_value(self, field: str, code: int) -> Any:
        """The value of a target-block field a resolve overrides by code ("target.<field>"; default: the code), or
        of an attacker-block field ("attacker.<field>")."""
        return code

    def narrate_value(self, stat: str, value: int) -> Any:
        """The value a narrated fight feeds for a scalar stat (default: its group's)."""
        return self.field_value(stat, int(self.group_value(stat, value)))

    def odds_fields(
        self, ctx: StepContext, rows: IntArray, actor: int, attack: int, target: int
    ) -> dict[str, IntArray]:
        """Policy `best`: the "target.<field>" overrides (codes, one per entry of `rows`, the state's rows) that
        combatant actor's attack on target would be resolved with now, e.g. from statuses (Reclaim the Wild:
        Prone, Off-Balance, the attacker's Blinded as the target's Hard to Hit); its expected damage is read at
        them, beside `odds_stats`. Default: none."""
        return {}

    def for_check(self, scenario: Any) -> Any:
        """The scenario the system's `check` sees at load (e.g. with a row that changes during the fight)."""
        return scenario

    def fight_fields(self) -> dict[str, Any]:
        """Extra top-level fields of the fight file, as pydantic `create_model` field definitions (rtw: `map`)."""
        return {}

    def prepare(self, data: dict[str, Any]) -> dict[str, Any]:
        """The raw fight file before validation, for a system to fill what its fight implies (default: as is)."""
        return data

    def check(self, fight: LoadedFight) -> None:  # noqa: B027 (optional hook)
        """Cross-field checks a fight needs beyond the system's (e.g. a health to fight with); raise
        InputError(field="sides[0].combatants[1].target.hp") naming the field (`fight.paths[c]`)."""

    @abstractmethod
    def initial(self, fight: LoadedFight, combatant: int) -> dict[str, int]:
        """The starting per-combatant stats (every combatant gets the same keys)."""

    def fight_stats(self, fight: LoadedFight) -> dict[str, int]:
        """Starting per-fight values besides the engine's own (round, over, winner, cut)."""
        return {}

    @abstractmethod
    def standing(self, fight: LoadedFight, state: State) -> BoolArray:
        """(fights, combatants): who is still able to act (a side with none has lost)."""

    @abstractmethod
    def step(self, ctx: StepContext) -> None:
        """Advance every fight in `ctx.state` by one step (at most a round's turn), by emitting events."""

    def finish(self, ctx: StepContext, rows: Any) -> None:  # noqa: B027 (optional hook; nothing by default)
        """Events at the end of the encounter for the fights at `rows` (e.g. durability); none by default."""

    def health_of(self, state: State) -> Any:
        return state.per[self.health]

    def usable_of(self, fight: LoadedFight, state: State, who: IntArray) -> BoolArray:
        """(fights, attacks): the attacks combatant who[i] may use now in fight i (`usable`, one row each)."""
        from tohit.engine.fight.rows import take_rows

        out: BoolArray = take_rows(self.usable(fight, state), who)
        return out

    def usable(self, fight: LoadedFight, state: State) -> BoolArray:
        """(fights, combatants, attacks): attacks each combatant may use now (default: all)."""
        return np.ones((state.n, fight.roster.size, fight.max_attacks), dtype=bool) & fight.has_attack[None]


def rules_for(system_id: str) -> FightRules:
    """The fight rules of a system, or an InputError on `system` when it has none yet."""
    module_name = f"tohit.engine.fight.systems.{system_id.replace('-', '_')}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise InputError(f"system {short_repr(system_id)} has no fight rules yet", field="system") from None
    rules: FightRules = module.RULES
    return rules
