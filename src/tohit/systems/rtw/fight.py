"""Reclaim the Wild fights: Health, Peril, Falling in Battle, Weapon Durability, area attacks (issue 8; rtw page).

Rules applied between attacks (the attack itself is the system's `resolve`, which reports what a fight
applies: `falls`, `peril`, `durability_used`, `burning_wear`, `cost_spent`):
- Health: a hit costs its damage; Health never goes below 0. The target block's `health`, else its Max
  Health (4 x Hearts unless `max_health`), is where a combatant starts.
- Peril [rtw: Peril, docs/rtw.md#silent-peril]: Health <= Hearts (shown as the `peril` stat, when Hearts are given).
- Falling in Battle: at 0 Health a creature perishes or falls Helpless, as the attack's `at_zero_health`
  says; Heroes (`hero: true`) and mindless sources always leave it Helpless. A Helpless or perished
  combatant takes no actions: a side with nobody else is beaten. Policies leave Helpless foes alone ("foes
  will then turn to fight the remaining Heroes").
- Area attacks (`attack.area`) catch the chosen foe and the next foes in file order, up to the attack's
  `area_size` (default: every foe), each with its own roll To-Hit (rtw: one roll per target); they skip
  Helpless creatures, which an area does not harm (Falling in Battle).
- Weapon Durability [rtw: Weapon Durability]: at the end of the encounter each weapon used successfully in
  it loses 1 Durability (a weapon with no `durability` given never wears). A Burning weapon also loses 1
  for each foe it hits (Status Effects), during the fight; a weapon at 0 Durability has shattered and
  cannot be used. Attacks with the same weapon share it.
- Magic and Stamina: an attack's `cost` is spent hit or miss, from the combatant's `magic` / `stamina`
  pools when given (an attack it cannot pay for is not usable); without a pool, costs are not counted.
- Statuses [rtw: Landing the Blow; Status Effects]: an attack's additional `effect` that lands (the
  system's `effect_landed`: rolled only when the attack hits; a missed Effect still deals damage) puts its
  status on the target, as an event: Off-Balance, Prone, Halted, Blinded, Dazzled or Invisible, each kept as a
  0/1 stat, or Distracted, kept as the bitmask of its sources (the attackers whose effect landed), and played on
  the attacks that follow until it ends (Off-Balance at the start of the creature's next turn; Prone when it
  stands up at the start of its next turn, unless Halted; Halted, Blinded, Dazzled and Distracted at the end of
  its next turn; Invisible when an attack hits it or at the end of its own attack). Statuses given in a
  combatant's file are its starting state; another effect name is refused at load. Policy `best` reads them
  (`odds_fields`). See `rtw_status`, which also lists the choices made where the rules are silent.

On a map (`map`, and each combatant's `position` and `size`; attacks give `attack.range` as a mapping, as in
a scenario file) each attack reaches what the grid says from where its user stands: see `rtw_map` (the
options) and `rtw_map_turn` (the attack). A combatant with no foe in reach first moves toward the foe its policy
picks, with its `movement` (default 6; Movement, in the game's other pages): see `rtw_fight_move`. One that
still has no foe in reach holds its ground and skips its attack.

Turn order: the page gives none: the order in the file, sides alternating, one attack per turn.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, NamedTuple

import numpy as np
from pydantic import Field, ValidationError

from tohit.core.errors import InputError
from tohit.core.fight.consequence import ATTACKER, DEFENDER, Item, changes, events
from tohit.core.fight.contract import FightContext, GMChoice, LoadedFight
from tohit.core.fight.rows import rows_of
from tohit.core.fight.spec import map_raw_combatants
from tohit.core.fight.state import BoolArray, IntArray, State, gather
from tohit.core.grid.models import AnyRange, MapSpec, MeleeRange, Range, SquareField, TargetsWithinRange, WeaponRange
from tohit.core.grid.reach import AREA_TYPES
from tohit.core.grid.sizes import MIN_COLOSSAL_SIDE, SizeCategory
from tohit.core.loader import validation_error
from tohit.core.models import Model
from tohit.systems.rtw import consequences, narrate
from tohit.systems.rtw.consequences import (
    HELPLESS,
    durability_after_encounter,
    fall_outcome,
)
from tohit.systems.rtw.fight_map import FightMap
from tohit.systems.rtw.fight_move import file_positions, grid_at, move_and_attack
from tohit.systems.rtw.fight_status import (
    REACTIONS,
    TARGET_FLAGS,
    StatusPlay,
    move_sight_statuses,
    status_play,
)
from tohit.systems.rtw.live import RtwLive
from tohit.systems.rtw.rules import HIT
from tohit.systems.rtw.stat_readings import READINGS
from tohit.systems.rtw.tables import HARD_TO_HIT_LEVELS
from tohit.systems.rtw.tactical import GRID_RANGE, RANGE_TAG, grid_ranges_in_schema, rules_range

NO_POOL = -1
UNBREAKABLE = -1


class Flags(NamedTuple):
    """What a fight's attacks and combatants have, to skip what none of them needs."""

    #: Some weapon can shatter mid-fight (Burning, with Durability).
    burning: bool
    #: Some combatant counts a Magic or Stamina cost.
    pools: bool
    #: Some attack is an area attack.
    area: bool
    #: Some weapon has a Durability to lose.
    wears: bool


class WeaponSlots(NamedTuple):
    """(combatants, attacks) -> the weapon slot of each attack (-1: unarmed), and each combatant's weapons."""

    slot: IntArray
    weapons: list[list[Any]]


class FallTables(NamedTuple):
    """Per combatant its Hearts (-1: not given); (attacker, attack, target): what 0 Health makes of the target."""

    hearts: IntArray
    code: IntArray
    #: The one code of every attack on every target, when they share one (else -1).
    only: int = -1


class AreaTables(NamedTuple):
    """(combatants, attacks): whether the attack is an area attack, and how many foes it may catch."""

    area: BoolArray
    reach: IntArray


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
        " Difficult Terrain costs 1 more) [Movement]; Heroes typically have 6.",
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
        description="How many foes an area attack catches: the chosen one and the next (default: every foe).",
    )
    grid_range: Range | None = Field(
        default=None,
        description="The attack's range on a map, filled in from attack.range when that is a mapping (give"
        " attack.range, not this).",
    )


class RtwFight(RtwLive):
    system_id = "rtw"
    health = "health"
    health_label = "Health"
    readings = READINGS
    condition_stats = ("helpless", "perished")
    combatant_extra = RtwCombatant
    attack_extra = RtwAttack
    #: Peril and Falling in Battle follow from the Health the fight applies (the system's `in_peril` and
    #: `fall_outcome`), so an attack's table does not depend on the target's Health.
    outcome_fields = ("result", "damage", "durability_used", "burning_wear", "effect_landed")
    target_stats = ("health",)
    table_stats = ()
    table_clip: ClassVar[dict[str, str]] = {}
    odds_stats = ()
    always_usable = False
    bookkeeping = ("dealt", "used")
    standing_stats = ("health", "helpless", "perished")
    turn_order: ClassVar[str] = (
        "File order, sides alternating (the page gives no initiative rule; docs/rtw.md#silent-turn-order); each"
        " round every combatant that is neither Helpless nor perished makes one attack."
    )

    # -- setup -------------------------------------------------------------------------------------------------
    def fight_fields(self) -> dict[str, Any]:
        return {
            "map": (
                MapSpec | None,
                Field(default=None, description="The battlefield: rows of '.' and '#', or width, height and solid."),
            )
        }

    def input_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """`attack.range` may be a grid range mapping, as in a scenario file (`prepare`)."""
        return grid_ranges_in_schema(schema)

    def prepare(self, data: dict[str, Any]) -> dict[str, Any]:
        """Attacks whose `attack.range` is a mapping (a grid range, as in a scenario file): the mapping goes to
        the entry's `grid_range`, the rules get its range name; on a map a plain `melee` (the default) is
        `{type: melee}` and any other plain range needs its mapping."""
        if not isinstance(data, dict):
            return data
        data = move_sight_statuses(data)
        on_map = data.get("map") is not None
        out = dict(data)
        library = data.get("attacks")
        if isinstance(library, dict):
            out["attacks"] = {k: _grid_entry(v, f"attacks.{k}", on_map) for k, v in library.items()}

        def grid_entries(comb: dict[str, Any], where: str) -> dict[str, Any]:
            attacks = comb.get("attacks")
            if not isinstance(attacks, list):
                return comb
            return {**comb, "attacks": [_grid_entry(e, f"{where}.attacks[{k}]", on_map) for k, e in enumerate(attacks)]}

        out = map_raw_combatants(out, grid_entries)
        return out

    def check(self, fight: LoadedFight) -> None:
        for c, comb in enumerate(fight.combatants):
            if comb.target.health is None and comb.target.health_max is None:
                raise InputError(
                    "a combatant in a fight needs its Health (or Hearts, for 4 x Hearts)",
                    field=f"{fight.paths[c]}.target.health",
                )
            if fight.spec.map is None and comb.position is not None:
                raise InputError(
                    "a position is a square of the map: give the fight's map as well",
                    field=f"{fight.paths[c]}.position",
                )
            if fight.spec.map is None and comb.swarm:
                raise InputError(
                    "a Swarm is affected once per square it fills on the map: give the fight's map as well",
                    field=f"{fight.paths[c]}.swarm",
                )
        if fight.spec.map is not None:
            fight.memo("rtw_map", lambda: grid_at(fight, file_positions(fight)))
        status_play(fight)  # refuses an effect the fight does not play

    @staticmethod
    def grid(fight: LoadedFight) -> FightMap | None:
        """The fight's map and what each attack reaches on it (None without a map)."""
        found: FightMap | None = fight.memo("rtw_map", lambda: None)  # built by `check` when there is a map
        return found

    def _weapons(self, fight: LoadedFight) -> WeaponSlots:
        """(combatants, attacks) -> weapon slot of each attack (-1: unarmed); each combatant's weapons."""

        def build() -> WeaponSlots:
            slot = np.full((fight.roster.size, fight.max_attacks), -1, dtype=np.int64)
            weapons: list[list[Any]] = []
            for c, comb in enumerate(fight.combatants):
                mine: list[Any] = []
                seen: dict[str, int] = {}
                for a, entry in enumerate(comb.attacks):
                    weapon = entry.attacker.weapon
                    if weapon is None:
                        continue
                    k = weapon.model_dump_json()
                    if k not in seen:
                        seen[k] = len(mine)
                        mine.append(weapon)
                    slot[c, a] = seen[k]
                weapons.append(mine)
            found = WeaponSlots(slot, weapons)
            return found

        return fight.memo("rtw_weapons", build)

    def initial(self, fight: LoadedFight, combatant: int) -> dict[str, int]:
        comb = fight.combatants[combatant]
        target = comb.target
        health = target.health if target.health is not None else target.health_max
        out = {
            "health": int(health),
            "helpless": int(target.helpless),
            "perished": 0,
            "peril": int(target.hearts is not None and health <= target.hearts),
            "magic": NO_POOL if comb.magic is None else comb.magic,
            "stamina": NO_POOL if comb.stamina is None else comb.stamina,
            "dealt": 0,
        }
        _, weapons = self._weapons(fight)
        width = max(len(w) for w in weapons) if weapons else 0
        for w in range(width):
            mine = weapons[combatant]
            d = mine[w].durability if w < len(mine) else None
            out[f"durability{w}"] = UNBREAKABLE if d is None else int(d)
            out[f"used{w}"] = 0
        play = status_play(fight)
        if play is not None:
            out.update(play.initial(fight, combatant))
        if fight.spec.map is not None:  # where it stands: moves change it (rtw_fight_move)
            out["x"], out["y"] = file_positions(fight)[combatant]
        return out

    def standing(self, fight: LoadedFight, state: State) -> BoolArray:
        return (state.per["health"] > 0) & (state.per["helpless"] == 0) & (state.per["perished"] == 0)

    def _flags(self, fight: LoadedFight) -> Flags:
        """(some weapon can shatter mid-fight (Burning, with Durability), some cost is counted, some area, some
        weapon has a Durability to lose)."""

        def build() -> Flags:
            burning = pools = area = wears = False
            for comb in fight.combatants:
                pools |= comb.magic is not None or comb.stamina is not None
                for entry in comb.attacks:
                    w = entry.attacker.weapon
                    burning |= w is not None and w.burning and w.durability is not None
                    wears |= w is not None and w.durability is not None
                    area |= entry.attack.area
            found = Flags(burning, pools, area, wears)
            return found

        return fight.memo("rtw_flags", build)

    def _fall_tables(self, fight: LoadedFight) -> FallTables:
        """Per combatant its Hearts (-1: not given), and (attacker, attack, target): what a creature brought to 0
        Health becomes (the system's `fall_outcome`: Heroes and mindless sources Helpless, else the attack's
        `at_zero_health`). Peril and Falling in Battle depend on the Health left, which the fight applies."""

        def build() -> FallTables:
            size = fight.roster.size
            hearts = np.asarray([-1 if c.target.hearts is None else c.target.hearts for c in fight.combatants])
            code = np.zeros((size, fight.max_attacks, size), dtype=np.int64)
            used: set[int] = set()
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    for t in range(size):
                        code[c, a, t] = fall_outcome(
                            hero=fight.target(t).hero,
                            mindless=entry.attack.mindless,
                            choice=entry.attack.at_zero_health,
                        )
                        used.add(int(code[c, a, t]))
            found = FallTables(hearts.astype(np.int64), code, used.pop() if len(used) == 1 else -1)
            return found

        return fight.memo("rtw_fall_tables", build)

    def _wearable(self, fight: LoadedFight) -> BoolArray:
        """(combatants, attacks): the attack's weapon has a Durability (a weapon without one never wears, so
        whether it was used successfully is not kept)."""

        def build() -> BoolArray:
            found = np.zeros((fight.roster.size, fight.max_attacks), dtype=bool)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    found[c, a] = entry.attacker.weapon is not None and entry.attacker.weapon.durability is not None
            return found

        return fight.memo("rtw_wearable", build)

    def usable_of(self, fight: LoadedFight, state: State, who: IntArray) -> BoolArray:
        burning, pools, _, _ = self._flags(fight)
        if not burning and not pools:
            return rows_of(fight.has_attack, who)
        return super().usable_of(fight, state, who)

    def usable(self, fight: LoadedFight, state: State) -> BoolArray:
        """(fights, combatants, attacks): a weapon not shattered, and Magic / Stamina for the cost."""
        burning, pools, _, _ = self._flags(fight)
        if not burning and not pools:
            return np.broadcast_to(fight.has_attack[None], (state.n, *fight.has_attack.shape))
        slot, _ = self._weapons(fight)
        costs = self._costs(fight)
        ok = np.broadcast_to(fight.has_attack[None], (state.n, *fight.has_attack.shape)).copy()
        for w in range(slot.max(initial=-1) + 1):
            broken = state.per[f"durability{w}"] == 0  # (n, C)
            ok &= ~(broken[:, :, None] & (slot == w)[None])
        for pool, i in (("magic", 0), ("stamina", 1)):
            have = state.per[pool][:, :, None]
            ok &= (have == NO_POOL) | (have >= costs[None, :, :, i])
        return ok

    def _costs(self, fight: LoadedFight) -> IntArray:
        """(combatants, attacks, 2): Magic and Stamina each attack costs."""

        def build() -> IntArray:
            found = np.zeros((fight.roster.size, fight.max_attacks, 2), dtype=np.int64)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    found[c, a] = (entry.attack.cost.magic, entry.attack.cost.stamina)
            return found

        return fight.memo("rtw_costs", build)

    # -- a turn ----------------------------------------------------------------------------------------------
    def turn(self, ctx: FightContext, acting: BoolArray, actor: IntArray, choice: GMChoice | None = None) -> None:
        """A turn: its start (Off-Balance ends, a Prone creature stands up), the attack (by policy, or the game
        master's `choice`), its end (Halted, Blinded, Dazzled end); without statuses in play, the attack only."""
        play = status_play(ctx.fight)
        if play is None:
            self._attack_turn(ctx, acting, actor, None, choice)
            return
        start = ctx.parent
        can = self._turn_start(ctx, play, acting, actor)
        if can.any():
            self._attack_turn(ctx, can, actor, play, choice)
        rows = _rows_since(ctx, start)
        self._turn_end(ctx, play, acting[rows], actor[rows])

    def _turn_start(self, ctx: FightContext, play: StatusPlay, acting: BoolArray, actor: IntArray) -> BoolArray:
        """Off-Balance ends at the beginning of the creature's next turn; a Prone creature stands up (half its
        Movement), unless Halted: then it cannot, and cannot attack while Prone (Status Effects). Returns who
        attacks this turn."""
        rows = np.flatnonzero(acting)
        c = actor[rows]
        if "off_balance" in play.stats:
            on = gather(ctx.state.per["off_balance"], rows, c) == 1
            if on.any():
                ctx.emit(
                    "status_ends",
                    [ctx.set("off_balance", rows[on], 0, c[on])],
                    self.text(
                        ctx,
                        lambda: narrate.off_balance_ends(self.name(ctx, c)),
                    ),
                )
        can = acting
        if "prone" in play.stats:
            prone = gather(ctx.state.per["prone"], rows, c) == 1
            halted = np.zeros_like(prone)
            if "halted" in play.stats:
                halted = gather(ctx.state.per["halted"], rows, c) == 1
            up = prone & ~halted
            if up.any():
                ctx.emit(
                    "stands_up",
                    [ctx.set("prone", rows[up], 0, c[up])],
                    self.text(ctx, lambda: narrate.stands_up(self.name(ctx, c))),
                )
            stuck = prone & halted
            if stuck.any():
                can = acting.copy()
                can[rows[stuck]] = False
                ctx.emit(
                    "prone",
                    (),
                    self.text(
                        ctx,
                        lambda: narrate.prone_and_halted(self.name(ctx, c)),
                    ),
                )
        return can

    def _turn_end(self, ctx: FightContext, play: StatusPlay, acting: BoolArray, actor: IntArray) -> None:
        """Blinded and Dazzled end at the end of the creature's next turn (Status Effects); Halted and Distracted
        too (the page gives no end: the fight's choice; every source of a Distraction at once)."""
        rows = np.flatnonzero(acting)
        c = actor[rows]
        for stat in ("halted", "blinded", "dazzled", "distracted"):
            if stat not in play.stats:
                continue
            on = gather(ctx.state.per[stat], rows, c) != 0
            if on.any():
                chosen = stat in ("halted", "distracted")
                ctx.emit(
                    "status_ends",
                    [ctx.set(stat, rows[on], 0, c[on])],
                    self.text(
                        ctx, lambda stat=stat, chosen=chosen: narrate.status_ends(self.name(ctx, c), stat, chosen)
                    ),
                )

    def _read(self, play: StatusPlay | None) -> tuple[str, ...] | None:
        """The outcome fields a resolve reads: `effect_landed` only when some attack has an effect."""
        if play is not None and play.has_effects:
            return None
        return tuple(f for f in self.outcome_fields if f != "effect_landed")

    @staticmethod
    def _status_note(ctx: FightContext, play: StatusPlay | None, actor: IntArray, target: IntArray) -> str:
        if play is None or not ctx.narrating:
            return ""
        why = play.why(ctx.state, int(actor[0]), int(target[0]))
        return f" ({why})" if why else ""

    def _attack_turn(
        self,
        ctx: FightContext,
        acting: BoolArray,
        actor: IntArray,
        play: StatusPlay | None,
        choice: GMChoice | None = None,
    ) -> None:
        grid = self.grid(ctx.fight)
        if grid is not None:
            move_and_attack(self, ctx, acting, actor, play, choice)
            return
        options = self.options(ctx, actor)
        idx, attack, target = ctx.choose_actions(acting, actor, options, choice)
        actor, acting = actor[idx], acting[idx] & (attack >= 0)
        if not acting.any():
            return
        fight = ctx.fight
        read = self._read(play)
        self._pay(ctx, acting, actor, attack)
        if not self._flags(fight)[2]:  # no area attack: one roll on the chosen foe, every fight at once
            extra = None if play is None else play.fields(ctx.state, actor, attack, target)
            note = self._status_note(ctx, play, actor, target)
            idx, out = ctx.resolve(acting, actor, attack, target, extra, note=note, fields=read)
            self._apply(ctx, acting[idx], actor[idx], attack[idx], target[idx], out, play)
            self._attacked(ctx, play, acting[idx], actor[idx])
            return
        # The foes each attack catches: the chosen one, and for an area attack the next standing foes.
        caught = self._caught(ctx, acting, actor, attack, target)  # (n, C) in file order
        for t in range(fight.roster.size):
            mask = caught[:, t]
            if not mask.any():
                continue
            tt = np.full(ctx.n, t, dtype=np.int64)
            extra = None if play is None else play.fields(ctx.state, actor, attack, tt)
            note = self._status_note(ctx, play, actor, tt)
            idx, out = ctx.resolve(mask, actor, attack, tt, extra, note=note, fields=read)
            actor, attack, acting, caught = actor[idx], attack[idx], acting[idx], caught[idx]
            self._apply(ctx, mask[idx], actor, attack, tt[idx], out, play)
        self._attacked(ctx, play, acting, actor)

    def _attacked(self, ctx: FightContext, play: StatusPlay | None, acting: BoolArray, actor: IntArray) -> None:
        """Invisibility ends at the end of the creature's own attack (Status Effects: Invisibility: "once you
        ... make an attack (at the attack's end)"), hit or miss."""
        if play is None or "invisible" not in play.stats:
            return
        rows = np.flatnonzero(acting)
        c = actor[rows]
        on = gather(ctx.state.per["invisible"], rows, c) == 1
        if on.any():
            ctx.emit(
                "status_ends",
                [ctx.set("invisible", rows[on], 0, c[on])],
                self.text(
                    ctx,
                    lambda: narrate.invisibility_ends_attacking(self.name(ctx, c)),
                ),
            )

    def override_value(self, field: str, code: int) -> Any:
        """Target-block overrides: the Hard-to-Hit level (map, Blinded, Dazzled), the Reaction ("none" while
        Off-Balance), the status flags."""
        if field == "hard_to_hit":
            return HARD_TO_HIT_LEVELS[code]
        if field == "reaction":
            return REACTIONS[code]
        if field in TARGET_FLAGS:
            return bool(code)
        return code

    def odds_fields(
        self, ctx: FightContext, rows: IntArray, actor: int, attack: int, target: int
    ) -> dict[str, IntArray]:
        """Policy `best` reads the statuses as a resolve does: the target's Off-Balance, Prone and Halted, and the
        Hard to Hit the attacker's Blinded, Dazzled or Distracted and the target's Invisibility make (without a map;
        on a map `_best_scores` reads them)."""
        play = status_play(ctx.fight)
        if play is None:
            return {}
        n = rows.size
        full = np.full
        return play.fields(
            ctx.state, full(n, actor, np.int64), full(n, attack, np.int64), full(n, target, np.int64), rows=rows
        )

    def _pay(self, ctx: FightContext, acting: BoolArray, actor: IntArray, attack: IntArray) -> None:
        if not self._flags(ctx.fight)[1]:
            return
        costs = self._costs(ctx.fight)
        rows = np.flatnonzero(acting)
        c, a = actor[rows], attack[rows]
        changes = []
        for pool, i in (("magic", 0), ("stamina", 1)):
            have = ctx.state.per[pool][rows, c]
            cost = costs[c, a, i]
            pays = (have != NO_POOL) & (cost > 0)
            if pays.any():
                changes.append(ctx.set(pool, rows[pays], have[pays] - cost[pays], c[pays]))
        if changes:
            ctx.emit("cost", changes, self.text(ctx, lambda: narrate.cost(self.name(ctx, c))))

    def _caught(
        self, ctx: FightContext, acting: BoolArray, actor: IntArray, attack: IntArray, target: IntArray
    ) -> BoolArray:
        fight = ctx.fight
        n, size = ctx.n, fight.roster.size
        caught = np.zeros((n, size), dtype=bool)
        rows = np.flatnonzero(acting)
        caught[rows, target[rows]] = True
        if not self._flags(fight)[2]:
            return caught
        area, reach = self._area(fight)
        is_area = acting & area[np.maximum(actor, 0), np.maximum(attack, 0)]
        if is_area.any():
            # Foes standing (Helpless ones are skipped), from the chosen one on in file order, then wrapping.
            who = np.maximum(actor, 0)
            foes = fight.roster.foes()[who] & ctx.standing()
            ahead = (np.arange(size)[None, :] - target[:, None]) % size  # 0 for the chosen foe
            rank = np.where(foes, ahead, size + 1)
            order = np.argsort(rank, axis=1, kind="stable")
            limit = reach[who, np.maximum(attack, 0)]
            position = np.empty_like(order)
            np.put_along_axis(position, order, np.arange(size)[None, :].repeat(n, axis=0), axis=1)
            within = foes & (position < limit[:, None])
            caught = np.where(is_area[:, None], within, caught)
        return caught

    def _area(self, fight: LoadedFight) -> AreaTables:
        def build() -> AreaTables:
            area = np.zeros((fight.roster.size, fight.max_attacks), dtype=bool)
            reach = np.ones((fight.roster.size, fight.max_attacks), dtype=np.int64)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    area[c, a] = entry.attack.area
                    reach[c, a] = fight.roster.size if entry.area_size is None else entry.area_size
            found = AreaTables(area, reach)
            return found

        return fight.memo("rtw_area", build)

    def _apply(
        self,
        ctx: FightContext,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        out: dict[str, Any],
        play: StatusPlay | None = None,
    ) -> None:
        """Health, Falling in Battle, Peril, the effect's status, weapon use and Burning wear of one resolved
        attack on `target` (`consequences.apply`; emitted and narrated here)."""
        rows = np.flatnonzero(mask & (out["result"] == HIT))
        if rows.size == 0:
            return
        fight = ctx.fight
        a, t, k = actor[rows], target[rows], attack[rows]
        per = ctx.state.per
        hearts, fall_code, only = self._fall_tables(fight)
        grid = self.grid(fight) is not None  # damage dealt counts foes only (an area on a map may catch allies)
        invisible = play is not None and "invisible" in play.stats
        effects = play is not None and play.has_effects
        wear = bool(self._flags(fight)[3])
        effect = status_now = None
        if effects:
            assert play is not None
            effect = play.effect[a, k]
            status_now = np.zeros(rows.size, dtype=np.int64)
            for i, stat in enumerate(play.stats):
                sel = effect == i
                if sel.any():
                    status_now[sel] = gather(per[stat], rows[sel], t[sel])
        slot = durability = None
        slots = 0
        if wear:
            slot_of, weapons = self._weapons(fight)
            slot = np.where(self._wearable(fight)[a, k], slot_of[a, k], -1)
            durability = np.zeros(rows.size, dtype=np.int64)
            for ww in np.unique(slot[slot >= 0]).tolist():
                sel = slot == ww
                durability[sel] = gather(per[f"durability{ww}"], rows[sel], a[sel])
            slots = max(len(mine) for mine in weapons)
        before = consequences.Before(
            health=gather(per["health"], rows, t),
            dealt=gather(per["dealt"], rows, a),
            foe=fight.roster.are_foes(a, t) if grid else np.broadcast_to(True, rows.shape),
            hearts=hearts.take(t),
            fall=np.broadcast_to(only, rows.shape)
            if only >= 0
            else gather(fall_code.reshape(-1, fall_code.shape[2]), a * fall_code.shape[1] + k, t),
            attacker=a,
            invisible=gather(per["invisible"], rows, t) if invisible else None,
            statuses=play.stats if play is not None else (),
            effect=effect,
            status_now=status_now,
            slot=slot,
            durability=durability,
            slots=slots,
        )
        outcome = consequences.Outcome(
            np.broadcast_to(HIT, rows.shape),  # the rows are the hits
            out["damage"].take(rows),
            out["effect_landed"].take(rows) if effects else None,
            out["durability_used"].take(rows) if wear else None,
            out["burning_wear"].take(rows) if wear else None,
        )
        applied = consequences.apply(before, outcome)
        who = {DEFENDER: t, ATTACKER: a}
        for kind, items in events(applied.items):
            text = self._said(ctx, kind, items, before, outcome, applied, t, play) if ctx.narrating else ""
            ctx.emit(kind, changes(items, rows, who), text)

    def _said(
        self,
        ctx: FightContext,
        kind: str,
        items: tuple[Item, ...],
        before: consequences.Before,
        outcome: consequences.Outcome,
        applied: consequences.Applied,
        target: IntArray,
        play: StatusPlay | None,
    ) -> str:
        """Narrated (one fight: its one attack is row 0): the sentence of an event of `kind`."""
        name = self.name(ctx, target)
        if kind == "damage":
            return narrate.damage(name, int(outcome.damage[0]), int(before.health[0]), int(applied.health_after[0]))
        if kind == "peril":
            return narrate.peril(name)
        if kind == "falls":
            return narrate.falls(name, "falls Helpless" if items[0].part == HELPLESS else "perishes")
        if kind == "status_ends":
            return narrate.invisibility_ends_struck(name)
        if kind == "status":
            assert play is not None
            stat, by = items[0].stat, int(before.attacker[0])
            names = ctx.fight.roster.names
            source = names[by] if stat == "distracted" else None
            return narrate.status_lands(name, stat, source, bool(items[0].rows.size), bool(play.boss[int(target[0])]))
        if kind == "durability":
            assert before.durability is not None
            return narrate.burning_wear(int(before.durability[0]))
        return ""

    def finish(self, ctx: FightContext, rows: Any) -> None:
        """The end of the encounter: each weapon used successfully loses 1 Durability; at 0 it shatters."""
        slot, weapons = self._weapons(ctx.fight)
        rows = np.asarray(rows, dtype=np.int64)
        for w in range(slot.max(initial=-1) + 1):
            used = ctx.state.per[f"used{w}"][rows] == 1
            dur = ctx.state.per[f"durability{w}"][rows]
            wears = used & (dur > 0)
            r, c = np.nonzero(wears)
            if r.size == 0:
                continue
            left, _ = durability_after_encounter(dur[r, c], True)
            ctx.emit(
                "durability",
                [ctx.set(f"durability{w}", rows[r], left, c), ctx.set(f"used{w}", rows[r], 0, c)],
                self.text(
                    ctx,
                    lambda c=c, w=w, left=left: narrate.durability(
                        ctx.fight.roster.names[int(c[0])], weapons[int(c[0])][w].name or "weapon", int(left[0])
                    ),
                ),
            )


def _rows_since(ctx: FightContext, start: IntArray) -> IntArray:
    """For each row now, its row at the start of the turn (the turn's expansions, read from `ctx.parent`)."""
    if not np.array_equal(start, np.arange(start.size)):  # pragma: no cover - a turn starts a step's rows
        raise RuntimeError("a Reclaim the Wild turn must start on the step's own rows")
    parent: IntArray = ctx.parent
    return parent


def _grid_entry(entry: Any, where: str, on_map: bool) -> Any:
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


RULES = RtwFight()
