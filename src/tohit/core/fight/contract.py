"""The fight contract: what a game's package writes so that tohit can fight it (docs/architecture.md, "The fight
contract"), and what the engine hands it while a fight runs.

- `FightRules`: a game's fight rules (its `fight.py`, named by the system's `fight_module`): the stats a
  fight tracks, how they feed the system's `resolve` (its `bindings`, core/fight/bindings.py), turn order,
  what each outcome does to the state (as events), who is still standing. The attack itself stays the
  system's `resolve`. Class attributes under "Hints" only speed up the exact chain and the samplers; a game
  may leave them at their defaults.
- `LoadedFight`: a validated fight file with its system, rules and static lookups.
- `FightContext`: the operations a step uses (resolve an attack, emit events, draw, choose); the engine
  implements it three ways (narrate, sample, enumerate), so a game never imports the engine.

A game master's choice for a turn, handed to `step` and `turn`, is a `GMChoice` (core/fight/gm_choice.py).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, Literal, Protocol, TypeVar

import numpy as np

from tohit.core.errors import InputError
from tohit.core.fight.audience import HEALTH_WORDS, UNSEEN_ATTACK, Phrase
from tohit.core.fight.bindings import Bindings, Side, StatBinding, check_bindings, check_stats
from tohit.core.fight.consequence import OTHER, Item, item
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.readings import StatReading, reading_of
from tohit.core.fight.rolls import FightRoll, Rolled
from tohit.core.fight.rows import take_rows
from tohit.core.fight.state import BoolArray, Change, IntArray, Roster, State
from tohit.core.fight.words import GmPhrase, Words
from tohit.core.models import Model, Scenario
from tohit.core.roles import Role
from tohit.core.system import AnySystem

Mode = Literal["narrate", "sample", "enumerate"]
#: The identity re-indexing (a view, no copy): what `resolve` and `choose` return when rows do not expand.
ALL: Any = slice(None)
Rows = Any  # an index array, or ALL
T = TypeVar("T")


#: The range a stat takes when its game declares none (`FightRules.stat_range`): what a whole number in a
#: fight may be.
ANY_VALUE = (-(10**9), 10**9)


class NoExtra(Model):
    """No extra fields."""


class TableHints:
    """Optional hints that only make the exact chain and the samplers faster: a game may leave every one at its
    default and fights the same (only slower). Kept apart from the rules a game must write (`FightRules`)."""

    #: Dice roles whose outcome no fight rule reads: Monte Carlo does not roll them (narration still does).
    unused_roles: ClassVar[tuple[str, ...]] = ()
    #: Stats kept for reports only, left out of the exact chain's state (e.g. damage dealt).
    bookkeeping: ClassVar[tuple[str, ...]] = ("dealt",)
    #: The per-combatant stats `standing` reads (a step keeps its result until an event changes one of
    #: them); None: any change may.
    standing_stats: ClassVar[tuple[str, ...] | None] = None
    #: Bound stats `steady` may find steady in a fight (the table sampler asks about these only; default none).
    steady_stats: ClassVar[tuple[str, ...]] = ()

    def steady(self, fight: LoadedFight, stat: str, value: int) -> bool:
        """Whether no step or event of `fight` can change `stat` (one of `steady_stats`) while every combatant
        holds `value`: the table sampler then keys a batch's draws by that one value, read once, instead of
        reading the stat on every resolve (the same draws). Default: never."""
        return False


class FightRules(TableHints, ABC):
    """One game's fight rules; see the module docstring. What a game must write: `system_id`, `health`,
    `health_label`, `turn_order`, `readings`, `initial`, `standing`, `step` (and `turn`, for live play); the
    rest has defaults."""

    system_id: ClassVar[str]
    #: The stat that is a combatant's health (policies `weakest`, survivors' remaining health).
    health: ClassVar[str]
    #: How the rulebook names it, for narration ("LP", "HP", "Health", "life").
    health_label: ClassVar[str]
    #: Per-combatant stats that are conditions (a page shows each as a chip while it is not 0; a scalar stat's
    #: `narrate_value` names them when it is a list or a mapping, e.g. a bitmask of statuses).
    condition_stats: ClassVar[tuple[str, ...]] = ()
    #: Extra fields of a combatant, of one of its attacks, and of the fight file.
    combatant_extra: ClassVar[type[Model]] = NoExtra
    attack_extra: ClassVar[type[Model]] = NoExtra
    #: Outcome fields the fight reads (exact mode groups outcomes by these).
    outcome_fields: ClassVar[tuple[str, ...]] = ("result", "damage")
    #: How the stats the fight keeps feed every resolve: one `StatBinding` per stat and block it feeds
    #: (core/fight/bindings.py); checked when the rules are loaded (`rules_for`). The engine reads `bound`.
    bindings: ClassVar[tuple[StatBinding, ...]] = ()
    #: Turn order in words, for the docs and `tohit fight --help`.
    turn_order: ClassVar[str]
    #: How each per-combatant stat reads to a person (its label in the rulebook's words and its kind: health,
    #: condition, reference, flag, number or internal; core/fight/readings.py): the CLI's state table, the
    #: server's `shown` and the web table's cards read the state through it. Every stat a game keeps has one.
    readings: ClassVar[Mapping[str, StatReading]] = {}
    #: What a per-item stat (a reading's `per="item"`) counts, in the rulebook's word: where one table shows
    #: several combatants' items, its row reads "Durability (weapon 1)" and each cell names the combatant's own.
    item_word: ClassVar[str] = "item"
    #: Whether a hit's line says its damage when it is 0 ("hit, 0 damage"): a game where every hit deals damage by
    #: a formula that can come to 0. Elsewhere a hit of 0 says nothing of damage (a buff, a hold, a hit whose harm
    #: is not to health).
    hit_says_no_damage: ClassVar[bool] = False
    #: Where the round goes in the file's order: what the game offers instead of delaying a turn, in its words
    #: (engine/turn_delay.py); None: the common words (end the turn instead).
    delay_refused: ClassVar[str | None] = None
    #: Where the round goes in the file's order: a live encounter keeps that order as its own (each combatant's
    #: place, its `turn` stat, the file's until the game master delays a turn: core/fight/order.py), so a combatant
    #: may delay its turn; False: it may not (`delay_refused`). A fight the engine runs keeps no such order.
    keeps_order: ClassVar[bool] = False
    #: The round goes round its order again and again (until nobody can act), so a delayed turn may come after
    #: one whose place is before its own (engine/turn_delay.py).
    order_goes_round: ClassVar[bool] = False
    #: What the players are told (core/fight/audience.py, docs/players.md): the game's phrase for a kind of event
    #: it tells the players its own way, the kinds whose words hold no number of a combatant kept from them (told
    #: as written), and its health words from unhurt to down.
    players_phrases: ClassVar[Mapping[str, Phrase]] = {}
    #: The game master's words for each kind of event the game's step emits, written from the event's data
    #: (core/fight/words.py `gm_told`): the step hands `emit` the data, never the sentence.
    gm_phrases: ClassVar[Mapping[str, GmPhrase]] = {}
    players_same: ClassVar[frozenset[str]] = frozenset()
    #: What the players notice of an attack by a combatant hidden from them entirely, before its result, in the
    #: game's words (`{verb}`, `{target}`): e.g. "something strikes Ceil from the dark".
    unseen_attack: ClassVar[str] = UNSEEN_ATTACK
    health_words: ClassVar[tuple[str, str, str, str]] = HEALTH_WORDS

    #: True once `check_declarations` passed (`checked`).
    _checked: bool = False

    @cached_property
    def bound(self) -> Bindings:
        """The bindings as the engine reads them (the subsets each path keys by), derived once."""
        return Bindings(tuple(self.bindings))

    def unread_roles(self, fight: LoadedFight) -> tuple[str, ...]:
        """Dice roles this fight never reads, whatever their faces (core/role_needs.py): they feed only what the
        fight does not play (Severity points whose effects are not played), or the fight rolls them anew later.
        The dice route never asks for them; the samplers still roll them (unlike `unused_roles`), so seeded
        fights keep their draws. None by default."""
        return ()

    def check_declarations(self, system: AnySystem) -> None:
        """Refuse a wrong declaration (core/fight/bindings.py): a binding of a stat the fight does not keep, bound
        twice to one block, feeding a field the system's block lacks, clipping a field that is not an outcome
        field, ...; and a stat that `standing_stats`, `condition_stats` or `bookkeeping` names but the fight
        does not keep. An InputError on `system`, in one line naming the game and the stat."""
        models: dict[Side, Any] = {"target": system.target_model, "attacker": system.attacker_model}
        check_bindings(system.id, tuple(self.bindings), self.readings, self.outcome_fields, models)
        named = {"standing_stats": self.standing_stats or (), "condition_stats": self.condition_stats}
        named["steady_stats"] = self.steady_stats
        if type(self).bookkeeping is not TableHints.bookkeeping:
            named["bookkeeping"] = self.bookkeeping
        check_stats(system.id, self.readings, named)

    def checked(self, system: AnySystem) -> FightRules:
        """These rules, their declarations checked against `system` the first time (`check_declarations`)."""
        if not self._checked:
            self.check_declarations(system)
            self._checked = True
        return self

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
        self, ctx: FightContext, rows: IntArray, actor: int, attack: int, target: int
    ) -> dict[str, IntArray]:
        """Policy `best`: the overrides (attack fields, and "target.<field>" codes; one per entry of `rows`, the
        state's rows) that combatant actor's attack on target would be resolved with now, e.g. from statuses (say
        Prone, or the attacker's Blinded as the target's Hard to Hit) or a penalty on the attacker's roll; its
        expected damage is read at them, beside the stats bound with `odds`. Default: none."""
        return {}

    def for_check(self, scenario: Any) -> Any:
        """The scenario the system's `check` sees at load (e.g. with a row that changes during the fight)."""
        return scenario

    def fight_fields(self) -> dict[str, Any]:
        """Extra top-level fields of the fight file, as pydantic `create_model` field definitions (e.g. a `map`)."""
        return {}

    def prepare(self, data: dict[str, Any]) -> dict[str, Any]:
        """The raw fight file before validation, for a system to fill what its fight implies (default: as is)."""
        return data

    def input_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """The fight file's JSON Schema widened to what `prepare` reads before validation (default: as is)."""
        return schema

    def check(self, fight: LoadedFight) -> None:
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
    def step(self, ctx: FightContext, choice: GMChoice | None = None) -> None:
        """Advance every fight in `ctx.state` by one step (at most a round's turn), by emitting events; in a live
        encounter, the turn it plays is the game master's `choice` (whose actor is `next_actor`'s)."""

    def turn(self, ctx: FightContext, acting: BoolArray, actor: IntArray, choice: GMChoice | None = None) -> None:
        """One turn of combatant actor[i] in each fight i where `acting`: what it does, the attack and target
        chosen through `ctx.choose_actions` (its policy; in a live encounter, the game master's `choice`), and
        every consequence as events. `step` calls it in turn order; a live encounter calls it for whoever the game
        master names. Games whose `step` does not go through `turn` cannot be played live."""
        raise NotImplementedError(f"{self.system_id}: no turn outside the fight's own order")

    # -- the turn order, for a live encounter (one fight) -------------------------------------------------------
    def next_actor(self, fight: LoadedFight, state: State) -> int | None:
        """Whose turn `step` plays next in fight 0 of `state`, read from the state alone (no dice); None when
        nobody's (the fight is decided, or the order waits on a roll: `opening_pending`)."""
        raise NotImplementedError(f"{self.system_id}: no turn order to read outside the fight's own step")

    def end_turn(self, ctx: FightContext) -> None:
        """The game master ends the turn that comes (fight 0), as the game's rules end a turn: the order moves on
        and never leaves itself, and a new round starts where the rules start one. Default: an event that only
        marks it."""
        ctx.emit("end_turn", [])

    def may_act(self, fight: LoadedFight, state: State) -> BoolArray:
        """(fights, combatants): who may still take a turn in the round, so that a delayed turn comes after theirs
        (engine/turn_delay.py). Default: whoever is standing."""
        return self.standing(fight, state)

    def opening_pending(self, state: State) -> bool:
        """True while fight 0 waits on a roll before its first turn (an initiative roll: `opening`)."""
        return False

    def opening(self, ctx: FightContext) -> None:
        """What is rolled once before the first turn (e.g. initiative), where `opening_pending`; `step` plays it
        in a fight the engine runs, a live encounter at its start. None by default."""

    def max_targets(self, fight: LoadedFight, actor: int, attack: int) -> int:
        """How many targets a game master may name for combatant actor's attack (its number) in a live encounter
        (`GMChoice.targets`); the server and the page ask it. Default: one (an attack names one target)."""
        return 1

    def targets_rule(self, fight: LoadedFight, actor: int, attack: int) -> str:
        """Why no more than `max_targets` may be named, in the game's words (the error when more are)."""
        return f"{fight.attack(actor, attack).name} takes one target"

    def targets_problem(self, fight: LoadedFight, actor: int, attack: int, targets: list[str]) -> str | None:
        """Why the targets named (within `max_targets`) cannot share this attack, in the game's words (the error
        on `targets` when they cannot); None when they can. Default: None."""
        return None

    def stat_range(self, fight: LoadedFight, stat: str) -> tuple[int, int] | None:
        """The values a per-combatant stat may take (both ends included), for a game master's adjust; None: the
        rules keep it (not set by hand). Default: None for a stat the game keeps internal (its reading's kind
        `internal`: what the rules track for themselves, a position the map's move sets), else its reading's
        `values`; 0 or 1 for a flag or a condition that is on or off; a combatant's number + 1 for a reference (0:
        none), one bit per combatant with `bits`; health from 0 (its top is each combatant's own:
        `health_maximum`); else `ANY_VALUE`."""
        reading = reading_of(self.readings, stat)
        if reading is not None and reading.kind == "internal":
            return None
        if reading is not None and reading.values is not None:
            return reading.values
        if reading is not None and (reading.kind == "flag" or (reading.kind == "condition" and not reading.named)):
            return (0, 1)
        if reading is not None and reading.kind == "reference":
            return (0, 2**fight.roster.size - 1) if reading.bits else (0, fight.roster.size)
        if stat == self.health:
            return (0, ANY_VALUE[1])
        return ANY_VALUE

    def health_maximum(self, fight: LoadedFight, combatant: int) -> int:
        """The most health the combatant may have: healing stops there (a game master's adjust included). Default:
        what it starts the fight with (the file gives its current health and no maximum)."""
        return int(self.initial(fight, combatant)[self.health])

    def by_hand(self, fight: LoadedFight, state: State, combatant: int, stat: str, to: int) -> tuple[Item, ...]:
        """A stat of the combatant set by a game master's hand (fight 0 of `state`), as the game's consequences say it
        goes (docs/architecture.md, "One fight driver"): the change itself (event kind "adjust", whose OTHER: the
        combatant, row 0), then what the rules make of it (thresholds crossed, a state a heal ends...), each an `Item`
        naming its clause. Default: the change alone. Games write theirs in their `consequences.py`."""
        return (item("adjust", stat, [0], to, OTHER, combatant=combatant),)

    def condition_ends(self, condition: str) -> str | None:
        """When a condition (its rulebook word) ends by the game's rules, as a live encounter's duration counts it:
        "start_of_turn" or "end_of_turn" of the creature's next turn (engine/durations.py); None where the rules
        give none (the default): it lasts until cleared."""
        return None

    def condition_bits(self, stat: str) -> Mapping[str, int]:
        """The statuses a bitmask stat (a condition reading that is `named`) holds that a game master sets and clears
        one by one: each by its rulebook word, with its bit. None by default (the rules keep the stat whole)."""
        return {}

    def item_names(self, fight: LoadedFight, combatant: int) -> list[str]:
        """The names of the combatant's items its per-item stats count (a reading's `per="item"`: `durability0` is
        its first weapon's), in their numbers' order, for their labels; none by default (labelled 1, 2, ...)."""
        return []

    def finish(self, ctx: FightContext, rows: Any) -> None:
        """Events at the end of the encounter for the fights at `rows` (e.g. durability); none by default."""

    def health_of(self, state: State) -> Any:
        return state.per[self.health]

    def usable_of(self, fight: LoadedFight, state: State, who: IntArray) -> BoolArray:
        """(fights, attacks): the attacks combatant who[i] may use now in fight i (`usable`, one row each)."""
        out: BoolArray = take_rows(self.usable(fight, state), who)
        return out

    def usable(self, fight: LoadedFight, state: State) -> BoolArray:
        """(fights, combatants, attacks): attacks each combatant may use now (default: all)."""
        return np.ones((state.n, fight.roster.size, fight.max_attacks), dtype=bool) & fight.has_attack[None]


def rules_for(system: AnySystem) -> FightRules:
    """The fight rules of a system (the `RULES` of the module its `fight_module` names), or an InputError on
    `system` when it has none or declares them wrong (`FightRules.check_declarations`, the first time)."""
    if system.fight_module is None:
        raise InputError(f"system {system.id!r} has no fight rules yet", field="system")
    rules: FightRules = importlib.import_module(system.fight_module).RULES
    return rules.checked(system)


@dataclass
class LoadedFight:
    """A validated fight with its system, its fight rules and lookups the engine needs."""

    system: AnySystem
    rules: FightRules
    spec: Any
    source: str
    roster: Roster
    combatants: list[Any]
    #: Turn order in the file, sides alternating (combatant indices).
    file_order: tuple[int, ...]
    policy: tuple[str, ...]
    focus: tuple[int, ...]
    #: Per combatant, its place in the file ("sides[0].combatants[1]") for error messages.
    paths: tuple[str, ...] = ()
    #: A live encounter's fight: its game master may set any condition or status the game names (the gm hand's
    #: `condition`), so the rules keep every one; a fight the engine runs keeps only those its file can need (a
    #: stat nothing sets stays at its start, which the file's blocks already say), and runs as fast as before.
    live: bool = False
    _scenarios: dict[tuple[int, int, int], Any] = field(default_factory=dict, repr=False)
    _roles: dict[tuple[int, int, int], dict[str, Role]] = field(default_factory=dict, repr=False)
    _memo: dict[str, Any] = field(default_factory=dict, repr=False)

    def memo(self, name: str, build: Callable[[], T]) -> T:
        """The static table `name` of this fight (a game's lookup built from the file, e.g. each attack's cost),
        built once by `build`; typed by what `build` returns."""
        try:
            found: T = self._memo[name]
        except KeyError:
            found = self._memo[name] = build()
        return found

    @property
    def max_rounds(self) -> int:
        return int(self.spec.max_rounds)

    @cached_property
    def order_array(self) -> IntArray:
        """`file_order` as an array."""
        return np.asarray(self.file_order, dtype=np.int64)

    @cached_property
    def order_is_identity(self) -> bool:
        """The turn order is the combatants' own order (as in a duel, or sides of one)."""
        return self.file_order == tuple(range(self.roster.size))

    @cached_property
    def places_from(self) -> BoolArray:
        """(places + 1, places): row k is True at the places k and after (a round's turns still to come)."""
        size = self.roster.size
        out: BoolArray = np.arange(size)[None, :] >= np.arange(size + 1)[:, None]
        return out

    def combatant_columns(self, n: int) -> IntArray:
        """(n, combatants): 0, 1, ... in every row (cached per n)."""
        size = self.roster.size
        return self.memo(f"combatant_columns_{n}", lambda: np.broadcast_to(np.arange(size, dtype=np.int64), (n, size)))

    @cached_property
    def max_attacks(self) -> int:
        return max(len(c.attacks) for c in self.combatants)

    @cached_property
    def has_attack(self) -> BoolArray:
        """(combatants, attacks): True where the combatant has an attack at that index."""
        out = np.zeros((self.roster.size, self.max_attacks), dtype=bool)
        for i, c in enumerate(self.combatants):
            out[i, : len(c.attacks)] = True
        return out

    def attack(self, c: int, a: int) -> Any:
        return self.combatants[c].attacks[a]

    def target(self, c: int) -> Any:
        return self.combatants[c].target

    def scenario(self, c: int, a: int, t: int) -> Scenario[Any, Any, Any, Any]:
        """The scenario of combatant c's attack a against combatant t (validated parts, built once)."""
        key = (c, a, t)
        found = self._scenarios.get(key)
        if found is None:
            entry = self.attack(c, a)
            found = self.system.scenario_model().model_construct(
                system=self.system.id,
                attacker=entry.attacker,
                attack=entry.attack,
                targets=[self.target(t)],
                dice={},
                options=self.spec.options,
                seed=None,
            )
            self._scenarios[key] = found
        return found

    def roles(self, c: int, a: int, t: int) -> dict[str, Role]:
        key = (c, a, t)
        found = self._roles.get(key)
        if found is None:
            found = self.system.roles(self.scenario(c, a, t), self.target(t))
            self._roles[key] = found
        return found


class FightContext(Protocol):
    """What a game's fight step reads and does (the engine's `StepContext` implements it in three modes).

    A game never asks which mode it runs in: it draws its dice through `choose`, `die`, `draw`, `roll` and
    `resolve`, which every mode implements, and hands its words over lazily (`emit`'s text, `tell`, a resolve's
    `note`), made only when the fight is told.

    Expansions change the rows: `resolve`, `choose`, `die`, `draw` and `choose_actions` return `idx`, the parent
    row of each new row, and the caller re-indexes what it holds with it (`actor = actor[idx]`); in "narrate"
    and "sample" mode `idx` is `ALL`.
    """

    fight: LoadedFight
    state: State
    parent: IntArray

    @property
    def n(self) -> int: ...

    def standing(self) -> BoolArray:
        """(fights, combatants): who is able to act now."""

    def keep_standing(self, standing: BoolArray) -> None:
        """Who is able to act in the state as it is now, as the step knows it after its events (the rules'
        `standing` of that state, e.g. as before an attack less those it brought down), so that the next
        `standing()` and the play loop's end check read it instead of the stats again; the next event that writes
        a stat `standing` reads drops it."""

    def emit(self, kind: str, changes: Sequence[Change], text: Words | None = None, **info: Any) -> None:
        """Record an event and apply it to the state; its words are made only when the fight is told: the game
        master's phrase for its kind writes them from the event's data (`FightRules.gm_phrases`) unless `text`
        gives them (and details given as functions are made then too)."""

    def tell(
        self,
        kind: str,
        words: Callable[..., str | None] | None = None,
        *,
        when: Callable[[], bool] | None = None,
        **info: Any,
    ) -> None:
        """An event that changes nothing, only for a told fight, when `when()` is true (always if not given): the
        game master's phrase for its kind words it from `info`, or `words` makes its text (None: no event)."""

    def set(self, stat: str, rows: Any, to: Any, who: Any = None, *, cells: IntArray | None = None) -> Change:
        """A change of `stat` at `rows` (of combatant `who`, or of the fight when None) to `to`; `cells`: the rows'
        cells of `who` where the step read the stat (`rows.stat_cells`), written through as they are: made from the
        state as it is, they hold until a `resolve_at`, `resolve` or `roll` may re-index the rows (the exact chain's
        expansion), so a step makes them after the last such call before the write."""

    def stop_at_round_limit(self, new_round: BoolArray) -> BoolArray:
        """The fights at `new_round` past `max_rounds`: ended as draws; returns them."""

    def choose(self, allowed: BoolArray) -> tuple[Rows, IntArray]:
        """One allowed column per row, uniformly at random (exact mode: one row per choice)."""

    def die(self, mask: BoolArray, sides: IntArray) -> tuple[Rows, IntArray]:
        """A die of `sides[i]` faces per row where `mask`."""

    def draw(
        self, mask: BoolArray, which: IntArray, tables: Sequence[tuple[IntArray, Sequence[int]]]
    ) -> tuple[Rows, IntArray]:
        """A value per row of `mask` from the exact integer distribution tables[which[row]] (values, weights)."""

    def roll(self, rows: IntArray, roll: FightRoll, args: Mapping[str, Any]) -> Rolled:
        """The game's declared `roll` for each of `rows` (its `args` one per row, or one for all): rolled face by
        face when told, drawn when sampled, every value weighed in the exact chain."""

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
        """The outcome of combatant actor's attack on target (the system's `resolve`) per row where `mask`:
        the declared outcome fields (or `fields`), 0 outside `mask`. `attack_fields` override the attack block
        per row ("target.<field>" / "attacker.<field>": a field of that block, as a code the rules decode);
        `shared` makes roles of scope "attack" one roll for every target of one ability. `note` and `said_fields`
        (attack fields the outcome does not depend on) are only for a told fight's words."""

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
        """`resolve` on the fights `rows` (increasing) alone, everything given and returned at those rows: `actor`,
        `attack`, `target` and `attack_fields` one entry per row of `rows`. Returns (idx, at, outcome): the
        re-indexing of the batch's rows (`resolve`'s), the batch's rows the attacks are on after it (`rows` where
        idx is ALL), and the outcome's fields one entry per row of `at`. For an attack on a few of the batch's rows
        (a reaction, such as a counterattack): no array of the batch's size is made for it where the mode need not.
        No `shared` dice and no `said_fields`: an ability's several targets and trace-only fields go through
        `resolve`."""

    def choose_actions(
        self, acting: BoolArray, actor: IntArray, options: BoolArray, choice: GMChoice | None = None
    ) -> tuple[Rows, IntArray, IntArray]:
        """(idx, attack, target) per row by each actor's policy, or the game master's `choice` (one fight; an
        InputError when the rules do not allow it now); `options` is (rows, attacks, combatants)."""

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
        """Mean damage of combatant c's attack a on t (exact odds at the system's depth)."""
