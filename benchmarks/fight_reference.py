"""Plain-Python fights: the same fight rules written as an ordinary loop, one fight and one attack at a time.

This is the reference the fight benchmarks measure against ("a plain Python loop over the same rules"),
and an independent oracle for the tests: it shares no code with the engine's rules (only the rulebook's
tables), so agreement between the two is evidence for both.
"""

from __future__ import annotations

import random
from typing import Any

from tohit.systems.kaiser.tables import characteristic_modifier, fumble_dice_count

CLOSE = ("hand_to_hand", "point_blank")


def kaiser_roll(rng: random.Random, advantage: int, special: bool) -> tuple[int, bool]:
    """(what the dice count, fumbled): 2d6 with advantage, open on double 6, fumble on double 1."""
    dice = sorted(rng.randint(1, 6) for _ in range(2 + abs(advantage)))
    lo, hi = (dice[-2], dice[-1]) if advantage >= 0 else (dice[0], dice[1])
    if special and lo == hi == 6:
        total = 12
        while True:
            d = rng.randint(1, 6)
            total += d
            if d != 6:
                return total, False
    if special and lo == hi == 1:
        return fumble_dice_count(rng.randint(1, 6) + rng.randint(1, 6)), True
    return lo + hi, False


def kaiser_fight(fight: Any, rng: random.Random) -> tuple[int, int]:
    """One Kaiser fight (policies first / weakest / random), with the Multiple Defense Penalty unless the file turns
    it off; (winning side or -1, rounds)."""
    combs = fight.combatants
    side = list(fight.roster.side)
    special = fight.spec.options.open_rolls_and_fumbles
    lp = [c.target.lp for c in combs]
    ap = [c.target.ap for c in combs]
    order = list(fight.file_order)
    size = len(combs)
    policy = list(fight.policy)
    # Criticals [damage/critical.md]: PhR (3 when not given), the All Action Penalty, its part that fades by 1 a
    # round (from Criticals of 5 DoF or less), and unconscious from a Critical of 16 DoF or more.
    phr = [3 if c.physical_resistance is None else c.physical_resistance for c in combs]
    penalty = [0] * len(combs)
    fading = [0] * len(combs)
    knocked_out = [False] * len(combs)
    # The Multiple Defense Penalty (option `multiple_defense_penalty`, on unless the file turns it off): each
    # Defensive Roll a defender has made this round puts its later ones at -2 more, restored at the round's start
    # (docs/kaiser.md#silent-multiple-defense-penalty).
    mdp_step = 2 if fight.spec.options.multiple_defense_penalty else 0
    defenses = [0] * len(combs)
    counter_with = []
    for c in combs:
        found = -1
        for a, entry in enumerate(c.attacks):
            if entry.attack.range in CLOSE:
                found = a
                break
        counter_with.append(found)

    def attack(att: int, a: int, dfn: int, bonus: int) -> None:
        """Resolve one attack and apply it; a failed close attack may bring a counterattack (bonus < 0: none)."""
        entry = combs[att].attacks[a]
        tgt = combs[dfn].target
        o, of = kaiser_roll(rng, entry.attack.advantage, special)
        off = o + entry.attacker.offensive_skill + entry.attack.modifiers + max(bonus, 0) - penalty[att]
        if of:
            off = max(off, 0)
        d, df = kaiser_roll(rng, tgt.advantage, special)
        dfs = d + tgt.defensive_skill + tgt.modifiers - penalty[dfn] - mdp_step * defenses[dfn]
        defenses[dfn] += 1
        if df:
            dfs = max(dfs, 0)
        dos = off - dfs
        if dos > 0:
            av = tgt.armor.get(entry.attacker.weapon.damage_type, 0)
            units = max(0, dos - tgt.absorption - av)
            base = max(1, entry.attacker.weapon.damage + characteristic_modifier(entry.attacker.strength))
            before = lp[dfn]
            damage = units * base
            lp[dfn] = max(0, before - damage)
            if ap[dfn] > 0:
                ap[dfn] -= 1
            if damage > 0 and 2 * damage >= before and lp[dfn] > 0:  # a Critical the target lives through
                level = rng.randint(1, 6) + rng.randint(1, 6) + damage // 10
                if level > 20:
                    level = 20 + (level - 20) // 2
                dof = level - (rng.randint(1, 6) + rng.randint(1, 6) + phr[dfn])
                if dof > 0:
                    penalty[dfn] += dof
                    if dof <= 5:
                        fading[dfn] += dof
                    ap[dfn] = max(0, ap[dfn] - dof)
                    if dof >= 16:
                        knocked_out[dfn] = True
        elif (  # a counterattack is not countered
            dos < 0 and entry.attack.range in CLOSE and bonus < 0 and ap[dfn] >= 1 and counter_with[dfn] >= 0
        ):
            ap[dfn] -= 1
            attack(dfn, counter_with[dfn], att, (-dos) // 2)

    def up(c: int) -> bool:
        return lp[c] > 0 and not knocked_out[c]

    def over() -> int | None:
        alive = {side[c] for c in range(size) if up(c)}
        if len(alive) <= 1:
            return alive.pop() if alive else -1
        return None

    rnd, cursor = 1, 0
    while True:
        done = over()
        if done is not None:
            return done, rnd
        slot = -1
        for j in range(size):
            s = (cursor + j) % size
            c = order[s]
            if up(c) and any(ap[c] >= e.ap_cost for e in combs[c].attacks):
                slot = s
                break
        if slot < 0:
            rnd += 1
            if rnd > fight.max_rounds:
                return -1, fight.max_rounds
            for c in range(size):
                defenses[c] = 0
                if up(c):
                    ap[c] = 6
                if fading[c] > 0:
                    fading[c] -= 1
                    penalty[c] -= 1
            cursor = 0
            continue
        actor = order[slot]
        cursor = (slot + 1) % size
        a = next(i for i, e in enumerate(combs[actor].attacks) if ap[actor] >= e.ap_cost)
        foes = [t for t in range(size) if side[t] != side[actor] and up(t)]
        if policy[actor] == "weakest":
            target = min(foes, key=lambda t: (lp[t], t))
        elif policy[actor] == "random":
            target = foes[rng.randrange(len(foes))]
        else:
            target = foes[0]
        ap[actor] -= combs[actor].attacks[a].ap_cost
        attack(actor, a, target, -1)


def _rounds(
    fight: Any,
    rng: random.Random,
    act: Any,
    standing: Any,
    health: list[int],
    *,
    actions: int = 1,
    order: list[int] | None = None,
) -> tuple[int, int]:
    """One turn per standing combatant per round, file order with sides alternating (or `order`), of `actions`
    attacks each; (winner or -1, rounds)."""
    side = list(fight.roster.side)
    size = len(side)
    order = list(fight.file_order) if order is None else order
    policy = list(fight.policy)

    def over() -> int | None:
        alive = {side[c] for c in range(size) if standing(c)}
        if len(alive) <= 1:
            return alive.pop() if alive else -1
        return None

    for rnd in range(1, fight.max_rounds + 1):
        for c in order:
            done = over()
            if done is not None:
                return done, rnd
            if not standing(c):
                continue
            for _ in range(actions):
                foes = [t for t in range(size) if side[t] != side[c] and standing(t)]
                if not foes:
                    break
                if policy[c] == "weakest":
                    target = min(foes, key=lambda t: (health[t], t))
                elif policy[c] == "random":
                    target = foes[rng.randrange(len(foes))]
                else:
                    target = foes[0]
                act(c, target)
        done = over()
        if done is not None:
            return done, rnd
    return -1, fight.max_rounds


def fullplate_fight(fight: Any, rng: random.Random) -> tuple[int, int]:
    """One FullPlate fight: THAC0 - d20 vs AC, natural 1 misses, natural-20 window with halvings, damage dice
    + damage bonus + Enhancement (at least 1), HP down to 0. Plain melee attacks only (no circumstance rows,
    ammunition, Special Defence or resistances): the bench and test fights use no more."""
    combs = fight.combatants
    hp = [c.target.hp for c in combs]
    for c in combs:
        entry = c.attacks[0]
        t = c.target
        if entry.attack.circumstances or t.circumstances or entry.attacker.ammunition or t.special_defence:
            raise ValueError("the plain reference plays plain melee attacks only")
        if t.resistance_pct or t.vulnerability_pct or t.flatfooted or t.defence or entry.attacker.to_hit_bonus:
            raise ValueError("the plain reference plays plain melee attacks only")

    def roll(expr: Any) -> int:
        total = expr.constant
        for term in expr.terms:
            faces = sorted((rng.randint(1, term.sides) for _ in range(term.count)), reverse=term.highest)
            total += term.sign * sum(faces[: term.keep])
        return int(total)

    def act(c: int, t: int) -> None:
        weapon = combs[c].attacks[0].attacker.weapon
        bonus = combs[c].attacks[0].attacker.damage_bonus
        ac = combs[t].target.ac
        nat = rng.randint(1, 20)
        to_hit = combs[c].attacks[0].attacker.thac0 - weapon.enhancement - nat
        if nat == 1:
            return
        short = to_hit - ac
        if to_hit > ac and nat != 20:
            return
        damage = max(1, roll(weapon.dice) + bonus + weapon.damage_enhancement_value)
        k = (short - 10 + 4) // 5 if nat == 20 and short > 10 else 0
        if k:
            whole = damage >> k
            if whole == 0:
                if 2 * damage < (1 << k):
                    return  # below 0.5: a miss
                whole = 1
            damage = whole
        hp[t] = max(0, hp[t] - damage)

    return _rounds(fight, rng, act, lambda c: hp[c] > 0, hp)


def rtw_fight(fight: Any, rng: random.Random) -> tuple[int, int]:
    """One Reclaim the Wild fight: Basic melee attacks only (2d6 + Accuracy + weapon ACC >= Evasion; a natural
    12 that hits is a Critical Hit and adds the Attack Power again; damage Weapon + Combat - Defense, at least 1);
    Health down to 0, then Helpless (Heroes) or perished: either way out of the fight."""
    combs = fight.combatants
    for c in combs:
        entry, t = c.attacks[0], c.target
        plain = entry.attack.kind == "basic" and entry.attack.against == "evasion" and not entry.attack.area
        plain = plain and entry.attacker.weapon is not None and not entry.attacker.weapon.crit_range
        plain = plain and not (t.resistance or t.vulnerable or t.immune or t.hard_to_hit != "none" or t.prone)
        if not plain or t.reaction != "none" or entry.attack.effect is not None:
            raise ValueError("the plain reference plays Basic melee attacks vs Evasion only")
    health = [c.target.health if c.target.health is not None else c.target.health_max for c in combs]

    def act(c: int, t: int) -> None:
        entry = combs[c].attacks[0]
        weapon = entry.attacker.weapon
        natural = rng.randint(1, 6) + rng.randint(1, 6)
        if natural + entry.attacker.accuracy + weapon.acc < combs[t].target.evasion:
            return
        raw = weapon.attack_power + entry.attacker.combat
        if natural == 12:
            raw += weapon.attack_power
        health[t] = max(0, health[t] - max(1, raw - combs[t].target.defense))

    return _rounds(fight, rng, act, lambda c: health[c] > 0, health)


def wsswnn_fight(fight: Any, rng: random.Random) -> tuple[int, int]:
    """One WSSWNN fight: plain melee attacks (Attack die - its penalty; a hit beats Guard, a block beats only
    Agility; lethal = result - Guard - Armor, blunted capped at Strength + 1; guard damage on a hit or block,
    less Unflinching; awareness damage on a hit); initiative by Maneuver against the foes' highest Awareness."""
    combs = fight.combatants
    size = len(combs)
    side = list(fight.roster.side)
    for c in combs:
        entry = c.attacks[0]
        if entry.attack.kind != "melee" or entry.attack.advantage or entry.attack.mighty_blow or c.target.grappled:
            raise ValueError("the plain reference plays plain melee attacks only")
        if entry.attack.modifier or entry.attacker.weapon is None or entry.attacker.weapon.on_block:
            raise ValueError("the plain reference plays plain melee attacks only")
        if c.stand_fast_at is not None or c.skip_at is not None:
            raise ValueError("the plain reference plays plain melee attacks only")
    life = [c.target.life for c in combs]
    guard = [c.target.guard for c in combs]
    aware = [c.target.awareness or 0 for c in combs]
    # Initiative: those who beat their foes' highest Awareness first; each group in file order.
    first = []
    for c in range(size):
        die = combs[c].attacker.maneuver_die
        best = max(aware[t] for t in range(size) if side[t] != side[c])
        if die is None:
            first.append(False)
            continue
        roll = rng.randint(1, int(die[1:])) - combs[c].attacker.penalty_of("maneuver")
        first.append(roll > best)
    order = [c for c in fight.file_order if first[c]] + [c for c in fight.file_order if not first[c]]
    policy = list(fight.policy)

    def over() -> int | None:
        alive = {side[c] for c in range(size) if life[c] > 0}
        if len(alive) <= 1:
            return alive.pop() if alive else -1
        return None

    for rnd in range(1, fight.max_rounds + 1):
        for c in order:
            done = over()
            if done is not None:
                return done, rnd
            if life[c] <= 0:
                continue
            foes = [t for t in range(size) if side[t] != side[c] and life[t] > 0]
            if policy[c] == "weakest":
                t = min(foes, key=lambda x: (life[x], x))
            elif policy[c] == "random":
                t = foes[rng.randrange(len(foes))]
            else:
                t = foes[0]
            attacker = combs[c].attacks[0].attacker
            weapon = attacker.weapon
            result = rng.randint(1, int(attacker.attack_die[1:])) - attacker.penalty_of("attack")
            target = combs[t].target
            hit = result > guard[t]
            block = not hit and result > target.agility
            if hit:
                lethal = max(0, result - guard[t] - target.armor) if weapon.lethal else 0
                if weapon.blunted:
                    lethal = min(lethal, attacker.strength + 1)
                life[t] = max(0, life[t] - lethal)
                aware[t] = max(0, aware[t] - weapon.awareness_damage)
            if hit or block:
                guard[t] = max(0, guard[t] - max(0, weapon.guard_damage - target.unflinching))
        done = over()
        if done is not None:
            return done, rnd
    return -1, fight.max_rounds


def last_odyssey_fight(fight: Any, rng: random.Random) -> tuple[int, int]:
    """One Last Odyssey fight: single-target physical or magical attacks between front-row characters of no
    known element (x1), no statuses or buffs: d10 <= max(1, 7 + Accuracy - Evasion) hits; base = max(1, Attack -
    Defense + d10); x the ability's multipliers, x2 for magic on an active Shell or physical on none; rounded to
    nearest, halves up; the Shell a pool of points that breaks into HP only with an overflow of at least the HP
    left (decisions 5)."""
    from fractions import Fraction

    combs = fight.combatants
    for c in combs:
        attack, t = c.attacks[0].attack, c.target
        plain = attack.kind in ("physical", "magical") and "multi" not in attack.type and not attack.knock_out
        plain = plain and t.element is None  # no element known for the target: x1 whatever the ability's
        plain = plain and not (t.statuses or t.buffs or c.attacker.statuses or c.attacker.buffs or t.body_armor)
        if not plain or t.row != "front" or t.element_multiplier is not None or t.shell_element is not None:
            raise ValueError("the plain reference plays plain single-target attacks only")
    hp = [c.target.hp for c in combs]
    shell = [0 if c.target.shell is False else int(c.target.shell) for c in combs]

    def act(c: int, t: int) -> None:
        attacker, attack = combs[c].attacks[0].attacker, combs[c].attacks[0].attack
        target = combs[t].target
        physical = attack.kind == "physical"
        accuracy = attacker.physical_accuracy if physical else attacker.magical_accuracy
        power = attacker.physical_attack if physical else attacker.magical_attack
        defense = target.physical_defense if physical else target.magical_defense
        die = rng.randint(1, 10)
        if die > max(1, 7 + accuracy - target.evasion):
            return
        base = max(1, power - defense + die)
        m = Fraction(1)
        for x in attack.multipliers:
            m *= x
        if (not physical) == (shell[t] > 0):
            m *= 2
        exact = base * m
        damage = int(exact + Fraction(1, 2)) if exact >= 0 else 0  # nearest, halves up
        if shell[t] > 0:
            if damage >= shell[t]:
                overflow = damage - shell[t]
                shell[t] = 0
                if overflow >= hp[t]:
                    hp[t] = 0
            else:
                shell[t] -= damage
        else:
            hp[t] = max(0, hp[t] - damage)

    # The turn structure [The-Combat-Round.md, Starting-Battles.md]: `action_points` abilities a turn, by
    # Initiative (highest first, ties in file order) unless `turn_order: file`; no calls, no Poisoned.
    options = fight.spec.options
    if any(c.call is not None for c in combs):
        raise ValueError("the plain reference plays no calls of initiative")
    order = list(fight.file_order)
    if options.turn_order == "initiative":
        order.sort(key=lambda c: -(combs[c].initiative or 0))  # stable: ties keep the file's order
    return _rounds(fight, rng, act, lambda c: hp[c] > 0, hp, actions=options.action_points, order=order)


def last_odyssey_duel(fight: Any, rng: random.Random) -> tuple[int, int]:
    """One Last Odyssey fight (a duel, or more combatants) with statuses and the Bonus Tracker (policy first):
    front-row characters of no known element (x1), single-target abilities, no knock-out or Body Armor. Each
    turn the user takes the first of its abilities, in file order, that can still do something, on the first
    character in file order it can change (a status on a foe that lacks it, a debuff on a foe above -7, a Self
    buff on its unburned user below +7, an Ally buff on a standing unburned ally, itself included, below +7;
    any attack on the first standing foe); an attack its user's status makes miss (Paralyzed: physical,
    Silenced: magical) only when it has nothing else. Physical / magical attacks as in
    `last_odyssey_fight`, with the tracker added to each statistic, Blinded halving the user's base
    accuracies, Petrified the target's base Evasion, Paralyzed (Silenced) making physical (magical) attacks
    miss. A status ability lands when d10 - Status Accuracy + Resistance <= 5 (no natural 1), a debuff moves
    the foe's tracker down `levels` steps, a buff its user's up, stopping at -7 / +7 (Statuses.md,
    Buffs-and-Debuffs.md)."""
    from fractions import Fraction

    from tohit.systems.last_odyssey.tables import BONUS_TRACKER, STATUS_OF_ELEMENT

    combs = fight.combatants
    side = list(fight.roster.side)
    if set(fight.policy) != {"first"}:
        raise ValueError("the reference duel plays policy first")
    options = fight.spec.options
    if (options.action_points, options.turn_order, options.effect_phase) != (1, "file", False):
        raise ValueError("the reference duel plays one ability a turn in file order, without the Effect Phase")
    for c in combs:
        t = c.target
        for entry in c.attacks:
            a = entry.attack
            if "multi" in a.type or a.knock_out or t.element is not None or t.body_armor or t.row != "front":
                raise ValueError("the reference duel plays plain single-target abilities only")
    hp = [c.target.hp for c in combs]
    shell = [0 if c.target.shell is False else int(c.target.shell) for c in combs]
    statuses = [set(c.attacker.statuses) | set(c.target.statuses) for c in combs]
    tracker = [{**c.attacker.buffs, **c.target.buffs} for c in combs]

    def step(c: int, stat: str) -> int:
        return int(tracker[c].get(stat, 0))

    def move(c: int, stat: str, levels: int) -> None:
        i = BONUS_TRACKER.index(step(c, stat)) + levels
        tracker[c][stat] = BONUS_TRACKER[min(max(i, 0), len(BONUS_TRACKER) - 1)]

    def accuracy(c: int, stat: str) -> int:
        base = getattr(combs[c].attacks[0].attacker, stat)
        return (base // 2 if "blinded" in statuses[c] else base) + step(c, stat)

    def inflicts(a: Any) -> str:
        return str(a.status) if a.status is not None else STATUS_OF_ELEMENT[a.element]

    def useful(c: int, t: int, a: Any) -> bool:
        if hp[t] <= 0:
            return False
        if a.kind == "status":
            return side[t] != side[c] and inflicts(a) not in statuses[t]
        if a.kind == "debuff":
            return side[t] != side[c] and step(t, a.stat) > -7
        if a.kind == "buff":
            mine = t == c if "self" in a.type else side[t] == side[c]
            return mine and step(t, a.stat) < 7 and "burned" not in statuses[t]
        return side[t] != side[c]

    def misses(c: int, a: Any) -> bool:
        return (a.kind == "physical" and "paralyzed" in statuses[c]) or (
            a.kind == "magical" and "silenced" in statuses[c]
        )

    def act(c: int, _foe: int) -> None:
        usable = []
        for entry in combs[c].attacks:
            on = [t for t in range(len(combs)) if useful(c, t, entry.attack)]
            if on:
                usable.append((entry, on[0]))
        if not usable:
            return
        hitting = [u for u in usable if not misses(c, u[0].attack)]
        entry, t = (hitting or usable)[0]
        a, user, target = entry.attack, entry.attacker, combs[t].target
        if a.kind == "buff":
            move(t, a.stat, a.levels)
            return
        if a.kind == "debuff":
            move(t, a.stat, -a.levels)
            return
        die = rng.randint(1, 10)
        if a.kind == "status":
            if die - accuracy(c, "status_accuracy") + target.resistance + step(t, "resistance") <= 5:
                statuses[t].add(inflicts(a))
            return
        physical = a.kind == "physical"
        acc = accuracy(c, "physical_accuracy" if physical else "magical_accuracy")
        evasion = (target.evasion // 2 if "petrified" in statuses[t] else target.evasion) + step(t, "evasion")
        if die > max(1, 7 + acc - evasion) or ("paralyzed" if physical else "silenced") in statuses[c]:
            return
        power = (user.physical_attack if physical else user.magical_attack) + step(
            c, "physical_attack" if physical else "magical_attack"
        )
        defense = (target.physical_defense if physical else target.magical_defense) + step(
            t, "physical_defense" if physical else "magical_defense"
        )
        base = max(1, power - defense + die)
        m = Fraction(1)
        for x in a.multipliers:
            m *= x
        if (not physical) == (shell[t] > 0):
            m *= 2
        exact = base * m
        damage = int(exact + Fraction(1, 2))  # nearest, halves up
        if shell[t] > 0:
            if damage >= shell[t]:
                overflow = damage - shell[t]
                shell[t] = 0
                if overflow >= hp[t]:
                    hp[t] = 0
            else:
                shell[t] -= damage
        else:
            hp[t] = max(0, hp[t] - damage)

    return _rounds(fight, rng, act, lambda c: hp[c] > 0, hp)
