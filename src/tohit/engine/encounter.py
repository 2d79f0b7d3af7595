"""A live encounter (docs/architecture.md, "The live encounter and its events"): a fight file and its event log, folded
into the current state, where a game master's actions append events.

The rules are the game's, run by the engine as a narrated fight runs them: an attack the game master names is
the game's `step` (on the attacker's turn, `next_actor`) or `turn` (out of turn) with the choice handed over
as a `GMChoice`, "auto" is one `step` of the fight (the side's policy picks), "end turn" is the game's own
`end_turn`, so what an attack does (damage, AP, Shell, statuses...) is the game's `consequences` and never a
copy. The actions are typed (`engine.actions`). Every action appends events shaped as `tohit fight --log`
writes them (the export is a log `tohit replay` checks); an undo is one more event that sets back what the last
action changed. A roll before the first turn (initiative) is part of the start, so whose turn it is is known
from the first moment.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from tohit.core.errors import InputError, short_repr
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.gm_words import written
from tohit.core.fight.order import TURN
from tohit.core.fight.state import State, change
from tohit.core.grid.movement import reachable
from tohit.core.roles import listed
from tohit.engine import cancel, durations, gm_hand, gm_many, presence, roster_change, turn_delay
from tohit.engine import plan as plan_odds
from tohit.engine.actions import AnyAction, parse_action
from tohit.engine.doors import door_events, map_doors, synced, with_door_stats
from tohit.engine.fight import play
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.events import start_event
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.modes import Narration
from tohit.engine.fight.replay import apply_changes, unfinished_event
from tohit.engine.plan import Plan
from tohit.engine.seeds import fresh_seed


@dataclass
class Encounter:
    """One encounter: its fight, its events (numbered from 0, the start), and the state they fold into."""

    fight: LoadedFight
    data: dict[str, Any]
    events: list[dict[str, Any]]
    state: State
    seed: int
    #: Per event number, the action it belongs to (its first event's number); undo events carry their own.
    actions: list[int] = field(default_factory=list)
    #: Whether the last attack the game master named was played on its turn in the game's order (None before any).
    in_turn: bool | None = None

    # -- building --------------------------------------------------------------------------------------------
    @staticmethod
    def create(data: dict[str, Any], *, source: str = "<encounter>", seed: int | None = None) -> Encounter:
        """A new encounter from a fight given as a mapping: its start event and starting state."""
        fight = fight_from_dict(copy.deepcopy(data), source=source, live=True)
        if seed is None:
            seed = fight.spec.seed if fight.spec.seed is not None else fresh_seed()
        state = with_door_stats(fight, initial_state(fight, 1))
        found = Encounter(fight, data, [start_event(fight, seed, state, source)], state, seed, [0])
        ctx = found._context(np.random.default_rng([seed, 0]))
        if fight.rules.opening_pending(state):  # a roll before the first turn (initiative): part of the start
            fight.rules.opening(ctx)
        # The loop's end check runs after the start too: a fight decided before anyone acts (no foe standing) is
        # over at once, with its winner, as a narrated fight of the same file is (never a fight with nobody's turn).
        play.close_if_decided(ctx)
        found.state = ctx.state
        for n, event in enumerate(ctx.log, start=1):
            event["n"], event["action"] = n, 0
            found.events.append(event)
            found.actions.append(0)
        return found

    @staticmethod
    def restore(data: dict[str, Any], events: list[dict[str, Any]], *, source: str = "<encounter>") -> Encounter:
        """An encounter rebuilt from its fight and stored events (each change checked against the state)."""
        if not events or events[0].get("kind") != "start":
            raise InputError("the stored events do not begin with the start event", source=source)
        fight = fight_from_dict(copy.deepcopy(data), source=source, live=True)
        start = with_door_stats(fight, initial_state(fight, 1))
        per = {k: [int(x) for x in v[0]] for k, v in start.per.items()}
        if not _keeps_order(events[0]):  # stored before a live encounter kept the file's order: it keeps none
            per.pop(TURN, None)
        fights = {k: int(v[0]) for k, v in start.fight.items()}
        index = {name: c for c, name in enumerate(fight.roster.names)}
        actions = [0]
        for n, event in enumerate(events[1:], start=1):
            if "sides" in event:  # a combatant joined or left (or that was undone): the fight and state it leaves
                fight = roster_change.fight_for(data, event["sides"], roster_change.blocks_of(data, events), source)
                row = event["state"]
                index = {name: c for c, name in enumerate(fight.roster.names)}
                per = {k: [int(row["combatants"][name][k]) for name in fight.roster.names]
                       for k in row["combatants"][fight.roster.names[0]]}  # fmt: skip
                fights = {k: int(v) for k, v in row["fight"].items()}
                for k, v in initial_state(fight, 1).per.items():  # a stat the game keeps since the row was stored
                    per.setdefault(k, [int(x) for x in v[0]])
            apply_changes(fights, per, index, event, f"event {n}", source)
            actions.append(int(event.get("action", n)))
        state = State(
            {k: np.asarray([v], dtype=np.int64) for k, v in per.items()},
            {k: np.asarray([v], dtype=np.int64) for k, v in fights.items()},
        )
        fight = synced(fight, roster_change.current_mapping(data, fight, events), state, source)
        return Encounter(fight, data, list(events), state, int(events[0]["seed"]), actions)

    def fork(self) -> Encounter:
        """A copy that acts without changing this one (an action tried on it and refused, or not stored, leaves
        this one as it was): its own lists of events and actions; the state is shared, as no step writes its
        input state (each array is copied on its first change)."""
        return replace(self, events=list(self.events), actions=list(self.actions))

    # -- reading ---------------------------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        """The number of the last event (0: just started)."""
        return len(self.events) - 1

    @property
    def over(self) -> bool:
        return self.events[-1]["kind"] == "end"

    def state_json(self) -> dict[str, Any]:
        """The state as a fight event records it: `{"fight": {...}, "combatants": {name: {stat: value}}}`."""
        return self.state.row(self.fight.roster)

    def exported(self) -> list[dict[str, Any]]:
        """The log as `tohit replay` reads it: the events, closed mid-fight by an event saying where the fight
        stands (its round, whose turn) and its state, which replay checks."""
        if self.over:
            return list(self.events)
        state = self.state_json()
        return [*self.events, unfinished_event(len(self.events), state["fight"].get("round"), self.next_turn(), state)]

    def standing(self) -> list[str]:
        up = self.fight.rules.standing(self.fight, self.state)[0]
        return [name for name, on in zip(self.fight.roster.names, up.tolist(), strict=True) if on]

    def next_turn(self) -> str | None:
        """Who acts next in the game's turn order (whose turn "auto" plays), read from the state by the game's
        `next_actor` (no dice), or None when the fight is over."""
        if self.over or self._done():
            return None
        found = self.fight.rules.next_actor(self.fight, self.state)
        return None if found is None else self.fight.roster.names[found]

    def check_targets(self, attacker: str, attack: str | None, targets: list[str]) -> None:
        """The attacker, its attack and the targets named checked as the attack itself checks them (an InputError
        naming the field: no such combatant, a target named twice, more than the attack may take)."""
        actor, a, _ = self._attack({"attacker": attacker, "attack": attack, "targets": targets})
        self._targets(actor, a, targets)

    def plan(self, attacker: str, attack: str | None, targets: list[str], placement: str | None = None) -> Plan:
        """The plan of the attack on `targets` in words, as the game's own turn decides it (one named: a Multi
        ability's every foe, an area's catch, allies in it included; several: those the game lets it take): the
        turn the roll plays, played on a copy (dice of a fixed seed: what comes before the rolls, a move on the map
        and whom an area catches, is known before them), nothing changed. It gives whom the attack rolls against,
        the move the game makes first (where to, in its words), the game's words when it rolls against none of the
        named (it holds its ground), or the rules' message when they refuse the attack now (nothing played)."""
        cancel.check()  # before each turn played: stopped when its asker went away (a deadline, a client gone)
        action = {"attacker": attacker, "attack": attack, "targets": targets, "placement": placement}
        fork = self.fork()
        try:
            ctx = fork._gm_attack({k: v for k, v in action.items() if v is not None}, [0], None)
        except InputError as exc:  # an attack the rules refuse now (an ally, a cost unpaid, a foe out of reach)
            return Plan(list(targets), refused=exc.message)
        names = self.fight.roster.names
        actor, a, target = self._attack(action)
        choice = GMChoice(actor, a, target, placement, self._targets(actor, a, targets))
        log = ctx.log
        found = [e["target"] for e in log if e.get("kind") == "attack" and e.get("attacker") == attacker]
        reached = list(dict.fromkeys([*targets, *found]))
        plan = Plan(reached, choice=choice, in_turn=bool(fork.in_turn), after=ctx.state)
        if "x" in self.state.per and "y" in self.state.per:
            was = [int(self.state.per[k][0, actor]) for k in "xy"]
            now = [int(ctx.state.per[k][0, actor]) for k in "xy"]
            if now != was:
                plan.moves_to = now
                mine = [e for e in log if e["kind"] == "move" and any(c["who"] == names[actor] for c in e["changes"])]
                plan.move = " ".join(e["text"] for e in mine if e["text"])
        if not found:  # what the turn did instead of attacking: its narration-only words (it holds its ground)
            said = [e for e in log if e["text"]]
            plan.idle = " ".join(e["text"] for e in ([e for e in said if not e["changes"]] or said))
        return plan

    def reached(self, attacker: str, attack: str | None, targets: list[str], placement: str | None = None) -> list[str]:
        """Every creature the attack on `targets` reaches, as the game's own turn decides it (`plan`): its attacks'
        targets kept, nothing changed. An attack the rules refuse now reaches the targets named only (its preview
        says why, in the rules' words)."""
        return self.plan(attacker, attack, targets, placement).reached

    def preview(
        self, attacker: str, attack: str | None, targets: list[str], placement: str | None = None
    ) -> list[dict[str, Any]]:
        """The exact odds of the attack on each creature it reaches, from the plan the roll will play (`plan`),
        changing nothing: the turn played on the exact chain (`engine.plan`), so each creature's odds are those of
        the first roll against it as that turn makes it (stats, statuses, Shell, guard... as the fight would
        resolve it; on a map from where the game moves first, with the grid's cover and reach). Per creature each
        result's probability and the mean damage (within the depth; the rest is `beyond_depth`); with `moves_to`
        ([x, y]) and `move` (the game's words) when the attacker moves first. A named creature the attack does
        not roll against has `reach` instead, the game's words (it holds its ground; or the rules refuse the
        attack now: their message), and no odds. Several named that the attack refuses together (more than it
        takes, one of them an ally...): each one's own preview, as if named alone."""
        self._attack({"attacker": attacker, "attack": attack, "targets": targets})
        names = self.fight.roster.names
        for name in targets:
            if name not in names:
                raise InputError(f"no combatant {short_repr(name)}; combatants: {', '.join(names)}", field="targets")
        plan = self.plan(attacker, attack, targets, placement)
        if plan.refused is not None and len(targets) > 1:  # named together as the attack may not take them: each
            each = (self.preview(attacker, attack, [name], placement) for name in targets)  # one's own plan
            return [next(row for row in rows if row["name"] == name) for name, rows in zip(targets, each, strict=True)]
        if plan.refused is not None or plan.choice is None:
            return [{"name": name, "reach": plan.refused} for name in targets]
        played = plan_odds.play(self.fight, self.state, plan.choice, plan.in_turn, self.fight.max_rounds)
        rolled = [names[c] for c in played.seen]
        out = []
        for name in dict.fromkeys([*plan.reached, *rolled]):
            cancel.check()  # between targets: stopped when its asker went away (a deadline, a client gone)
            c = names.index(name)
            row: dict[str, Any] = {"name": name}
            if c in played.seen:
                row.update(plan_odds.odds(self.fight, played.seen[c]))
            else:  # the map's words for why this one is out of reach from where the turn leaves it, and the game's
                said = plan.idle or f"{attacker}'s attack makes no roll against {name} this turn"
                choice = plan.choice
                why = plan_odds.map_words(self.fight, plan.after or self.state, choice.actor, choice.attack, name)
                row["reach"] = said if why is None else f"{why}; {said}"
            if plan.moves_to is not None:
                row.update(moves_to=plan.moves_to, move=plan.move)
            out.append(row)
        return out

    @property
    def has_map(self) -> bool:
        """True when the game has map rules and this fight a map (the web table then draws it)."""
        rules = self.fight.system.map_rules()
        return rules is not None and rules.fight_scenario(self.fight, self.state, 0, 0, None) is not None

    def attack_of(self, attacker: str, attack: str | None, target: str) -> tuple[int, int, int]:
        """The attacker's, its attack's and the target's numbers in the fight, each checked as an attack the game
        master names is (an InputError naming the field: a combatant that is down, an attack it has not...)."""
        return self._attack({"attacker": attacker, "attack": attack, "targets": [target]})

    # -- acting ----------------------------------------------------------------------------------------------
    def act(self, given: AnyAction | dict[str, Any]) -> list[dict[str, Any]]:
        """Apply one game master's action (an `engine.actions` type, or a mapping read as one: an InputError
        naming the field when it is none); the events it appended (already numbered)."""
        parsed = parse_action(given) if isinstance(given, dict) else given
        action = parsed.model_dump(exclude_none=True, exclude={"expected_seq"})
        kind = action["kind"]
        if kind != "undo" and self.over:
            raise InputError("the fight is over: undo, or start a new encounter", field="kind")
        seed = action.get("seed")
        entropy = [self.seed, self.seq] if seed is None else seed
        rng = np.random.default_rng(entropy)
        before = durations.mark(self)
        if kind == "undo":
            events = self._undo()
        elif kind in _HAND:  # the GM's hand: a stat or condition through the game's consequences, a roll, a reveal
            events = _HAND[kind](self, action, rng)
        elif kind == "move":
            events = self._move(action)
        elif kind == "door":
            events, self.state = door_events(self.fight, self.state, action)
        elif kind in roster_change.ROSTER_KINDS:
            events = roster_change.join(self, action) if kind == "join" else roster_change.leave(self, action)
        else:
            events = self._play(kind, action, entropy, rng)
        if kind != "undo":  # a turn ended or started: the durations that count then (engine/durations.py)
            events = [*events, *durations.tick(self, before, durations.mark(self), kind)]
        # The one end check: after every action, of any kind (an attack, the GM's hand, a join, an undo), a fight
        # the rules call decided ends here, with its winner, whoever decided it.
        ctx = self._context(rng)
        if play.close_if_decided(ctx):
            self.state = ctx.state
            events = [*events, *ctx.log]
        return self._append(events)

    def _play(self, kind: str, action: dict[str, Any], entropy: Any, rng: np.random.Generator) -> list[dict[str, Any]]:
        """A step of the game's own rules: "auto" (the side's policy picks), "end_turn", or the GM's attack."""
        script, by_target = _script(action.get("dice"))
        if kind == "auto":
            if by_target:  # the choice is the game's: a set typed for a target it may not attack is never read
                message = "type dice per target with an attack that names its targets (auto takes one set of dice)"
                raise InputError(message, field="dice")
            ctx = self._context(rng, script=script, by_target=by_target)
            play.step(ctx)
            _all_read(ctx)
        elif kind == "end_turn":
            ctx = self._context(rng)
            self.fight.rules.end_turn(ctx)
        else:
            ctx = self._gm_attack(action, entropy, script, by_target)
        self.state = ctx.state
        return ctx.log

    def _gm_attack(
        self,
        action: dict[str, Any],
        entropy: Any,
        script: list[dict[str, list[int]]] | None,
        by_target: dict[str, dict[str, list[int]]] | None = None,
    ) -> Narration:
        """The game master's attack. Where it is the attacker's turn in the game's order (`next_actor`), it is the
        game's own step with the choice handed over, so what comes before that turn comes first (a new round
        where the last one is done: AP restored, penalties faded); out of turn, the game's `turn` for that
        attacker alone."""
        actor, attack, target = self._attack(action)
        targets = self._targets(actor, attack, action["targets"])
        self._check_dice(actor, attack, target, script or [])
        self._check_by_target(actor, attack, by_target or {})
        placement = action.get("placement")
        if placement is not None and (not isinstance(placement, str) or not self.has_map):
            raise InputError("a placement in words (the map's `range`), on an encounter with a map", field="placement")
        choice = GMChoice(actor, attack, target, placement, targets)
        ctx = self._context(np.random.default_rng(entropy), script=script, by_target=by_target)
        in_turn = self.fight.rules.next_actor(self.fight, self.state) == actor
        play.step(ctx, choice, in_turn=in_turn)
        _all_read(ctx)
        self.in_turn = in_turn
        return ctx

    def _context(
        self,
        rng: np.random.Generator,
        script: list[dict[str, list[int]]] | None = None,
        by_target: dict[str, dict[str, list[int]]] | None = None,
    ) -> Narration:
        typed = copy.deepcopy(by_target)  # consumed as the rolls read it
        return Narration(self.fight, self.state, rng, max_rounds=self.fight.max_rounds, script=script, by_target=typed)

    def _done(self) -> bool:
        done, _ = play.decided(self.fight, self.state, self.fight.max_rounds)
        return bool(done[0])

    def _attack(self, action: dict[str, Any]) -> tuple[int, int, int]:
        names = self.fight.roster.names
        attacker = action.get("attacker")
        if attacker not in names:
            raise InputError(f"no combatant {short_repr(attacker)}; combatants: {', '.join(names)}", field="attacker")
        actor = names.index(attacker)
        if attacker not in self.standing():
            rules = self.fight.rules
            health = int(self.state.per[rules.health][0, actor])
            why = (
                f"it is down ({rules.health_label} {health})"
                if health <= 0
                else "it is not standing (Helpless, knocked out or out of the fight)"
            )
            raise InputError(f"{attacker} cannot act: {why}", field="attacker")
        attacks = [a.name for a in self.fight.combatants[actor].attacks]
        name = action.get("attack") or attacks[0]
        if name not in attacks:
            raise InputError(
                f"{attacker} has no attack {short_repr(name)}; attacks: {', '.join(attacks)}", field="attack"
            )
        targets = action.get("targets")
        if not isinstance(targets, list) or not targets:
            raise InputError("name the target(s): a list of combatant names", field="targets")
        if targets[0] not in names:
            raise InputError(f"no combatant {short_repr(targets[0])}; combatants: {', '.join(names)}", field="targets")
        return actor, attacks.index(name), names.index(targets[0])

    def _targets(self, actor: int, attack: int, targets: list[str]) -> tuple[int, ...]:
        """The targets named, as numbers (the primary first): each a combatant, none twice, and no more than the
        game lets this attack take (`max_targets`: an InputError on `targets` in the game's words) nor any the game
        says cannot share it (`targets_problem`), never a silent choice among the names given. Whether the rules
        allow each one now is the turn's to say."""
        names, rules = self.fight.roster.names, self.fight.rules
        for name in targets:
            if name not in names:
                raise InputError(f"no combatant {short_repr(name)}; combatants: {', '.join(names)}", field="targets")
        twice = next((name for i, name in enumerate(targets) if name in targets[:i]), None)
        if twice is not None:
            raise InputError(f"{twice} is named twice: name each target once", field="targets")
        most = rules.max_targets(self.fight, actor, attack)
        if len(targets) > most:
            raise InputError(f"{rules.targets_rule(self.fight, actor, attack)}; got {len(targets)}", field="targets")
        problem = rules.targets_problem(self.fight, actor, attack, targets)
        if problem is not None:
            raise InputError(problem, field="targets")
        return tuple(names.index(name) for name in targets)

    def _check_dice(self, actor: int, attack: int, target: int, script: list[dict[str, list[int]]]) -> None:
        """Faces typed by hand for the first resolve are read by their roles first, so a face off its die is
        refused naming the role (`dice.<role>`) before anything changes."""
        if not script:
            return
        roles = self.fight.roles(actor, attack, target)
        for name, faces in script[0].items():
            role = roles.get(name)
            if role is None:
                raise InputError(f"no dice role {short_repr(name)}; roles: {listed(roles)}", field=f"dice.{name}")
            try:
                role.read(faces)
            except InputError as exc:
                raise InputError(exc.message, field=f"dice.{name}") from None

    def _check_by_target(self, actor: int, attack: int, by_target: dict[str, dict[str, list[int]]]) -> None:
        """Faces typed per target are read by that target's roles first: a name that is no combatant is refused
        naming `dice.<target>`, a role it has not or a face off its die naming `dice.<target>.<role>`, and a role
        rolled once for the whole attack typed in two targets' sets naming the second."""
        names = self.fight.roster.names
        once: dict[str, str] = {}
        for who, faces in by_target.items():
            if who not in names:
                raise InputError(f"no combatant {short_repr(who)}; combatants: {', '.join(names)}", field=f"dice.{who}")
            roles = self.fight.roles(actor, attack, names.index(who))
            for name, typed in faces.items():
                role = roles.get(name)
                where = f"dice.{who}.{name}"
                if role is None:
                    raise InputError(f"no dice role {short_repr(name)}; roles: {listed(roles)}", field=where)
                if role.scope == "attack" and name in once:
                    raise InputError(
                        f"{role.label} is rolled once for the whole attack: type it once (given for {once[name]})",
                        field=where,
                    )
                if role.scope == "attack":
                    once[name] = who
                try:
                    role.read(typed)
                except InputError as exc:
                    raise InputError(exc.message, field=where) from None

    def _move(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """The game master moves a combatant on the map (a free move, outside the game's movement rules): one
        event changing its position stats `x` and `y`, so undo and replay read it as any change. The map is
        drawn again from the new positions by the game's map rules, which refuse a square off the board, solid,
        or taken (naming `to`), and a square shut off by walls (a free move does not pass a wall), and nothing is
        kept then."""
        names = self.fight.roster.names
        who, to = action.get("combatant"), action.get("to")
        if not self.has_map or "x" not in self.state.per or "y" not in self.state.per:
            raise InputError("only a combatant on a map moves (this encounter has no map)", field="kind")
        if not isinstance(who, str) or who not in names:
            raise InputError(f"no combatant {short_repr(who)}; combatants: {', '.join(names)}", field="combatant")
        if not isinstance(to, list) or len(to) != 2 or not all(_whole(v) and 0 <= v < 10_000 for v in to):
            raise InputError("the square to move to: [x, y]", field="to")
        c = names.index(who)
        where = [int(self.state.per["x"][0, c]), int(self.state.per["y"][0, c])]
        ctx = self._context(np.random.default_rng(0))
        info: dict[str, Any] = {"combatant": who, "to": list(to), "from": where, "free": True}
        moved = [change(s, [0], int(v), c) for s, v, was in zip("xy", to, where, strict=True) if v != was]
        ctx.emit("move", moved, **info)
        rules = self.fight.system.map_rules()
        assert rules is not None  # has_map
        try:
            view = rules.view(rules.fight_scenario(self.fight, ctx.state, c, 0, None) or {}, place=False)
        except InputError as exc:
            raise InputError(exc.message, field="to") from None
        board, side = view.field.board, view.field.creature(who).footprint.side
        if board.has_walls and tuple(to) not in reachable(board, (where[0], where[1]), side):
            raise InputError(f"a wall stands between {who} and {tuple(to)}: a move does not pass walls", field="to")
        self.state = ctx.state
        return ctx.log

    def _undo(self) -> list[dict[str, Any]]:
        """One event that sets back every change of the last action not yet undone (latest first)."""
        undone = {int(e["undoes"]) for e in self.events if e.get("kind") == "undo"}
        starts = sorted({a for a, e in zip(self.actions, self.events, strict=True) if a > 0 and e["kind"] != "undo"})
        left = [a for a in starts if a not in undone]
        if not left:
            raise InputError("nothing to undo", field="kind")
        target = left[-1]
        group = [e for a, e in zip(self.actions, self.events, strict=True) if a == target and e["kind"] != "undo"]
        last = target + len(group) - 1
        if any(e["kind"] in roster_change.ROSTER_KINDS for e in group):  # the roster and state before the action
            before = Encounter.restore(self.data, self.events[:target], source=self.fight.source)
            sides, row = roster_change.sides_of(before.fight), before.state_json()
            event = {"kind": "undo", "text": "", "changes": [], "undoes": target, "last": last, "sides": sides}
            self.fight, self.state = before.fight, before.state
            return [written(event | {"state": row}, self.fight.rules.gm_phrases)]
        names = self.fight.roster.names
        # Each stat the action changed goes back to its value before the action's first change of it: one change
        # per stat, so the undo event reads as any event does (each change from the value it finds).
        back: dict[tuple[str | None, str], int] = {}
        for event in reversed(group):
            for ch in reversed(event.get("changes", [])):
                back[(ch["who"], ch["stat"])] = int(ch["from"])
        changes = [
            change(stat, [0], value, None if who is None else names.index(who)) for (who, stat), value in back.items()
        ]
        ctx = self._context(np.random.default_rng(0))
        ctx.emit("undo", changes, undoes=target, last=last)
        self.state = ctx.state
        return ctx.log

    def _append(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Number the events and keep them, each marked with its action (the number of the action's first)."""
        first = len(self.events)
        for i, event in enumerate(events):
            event["n"] = first + i
            event["action"] = first
            self.events.append(event)
            self.actions.append(first)
        # A door opened or closed: the fight as the file it plays now (its roster after any join) with those doors.
        if map_doors(self.fight):
            mapping = roster_change.current_mapping(self.data, self.fight, self.events)
            self.fight = synced(self.fight, mapping, self.state, self.fight.source)
        return events


def _adjust(enc: Encounter, action: dict[str, Any], _: np.random.Generator) -> list[dict[str, Any]]:
    """An adjust of one combatant, or of several at once (engine/gm_many.py)."""
    return gm_many.many(enc, action, gm_hand.adjust) if action.get("combatants") else gm_hand.adjust(enc, action)


def _condition(enc: Encounter, action: dict[str, Any], _: np.random.Generator) -> list[dict[str, Any]]:
    """A condition of one combatant or several, with its duration (engine/durations.py)."""
    durations.check(enc, action)
    one = gm_many.many(enc, action, gm_hand.condition) if action.get("combatants") else gm_hand.condition(enc, action)
    return durations.stamp(enc, action, one)


#: The GM's hand (engine/gm_hand.py, gm_many.py, turn_delay.py): actions outside the game's rules, each one event.
_HAND: dict[str, Callable[[Encounter, dict[str, Any], np.random.Generator], list[dict[str, Any]]]] = {
    "adjust": _adjust,
    "condition": _condition,
    "dice": gm_hand.roll,
    "reveal": lambda enc, action, _: presence.reveal(enc, action),
    "hide": lambda enc, action, _: presence.hide(enc, action),
    "note": lambda enc, action, _: gm_many.note(enc, action),
    "delay": lambda enc, action, _: turn_delay.delay(enc, action),
}


def _keeps_order(start: dict[str, Any]) -> bool:
    """Whether the start event's state keeps the round's order (a `turn` stat: core/fight/order.py)."""
    state = start.get("state")
    rows = state.get("combatants") if isinstance(state, dict) else None
    first = next(iter(rows.values()), None) if isinstance(rows, dict) else None
    return isinstance(first, dict) and TURN in first


def _script(dice: Any) -> tuple[list[dict[str, list[int]]] | None, dict[str, dict[str, list[int]]] | None]:
    """The faces the game master rolled by hand, as (script, by target): a mapping of role -> faces (one attack)
    or a list of them (one per attack or counterattack, in order) is a script; a mapping of target name -> such
    a mapping gives each target's own set (each read by the first attack on that target)."""
    if dice is None:
        return None, None
    if isinstance(dice, dict) and dice and all(isinstance(v, dict) for v in dice.values()):
        return None, {str(who): _faces(item, f"dice.{who}") for who, item in dice.items()}
    items = dice if isinstance(dice, list) else [dice]
    return [_faces(item, "dice") for item in items], None


def _faces(item: Any, where: str) -> dict[str, list[int]]:
    """One set of faces typed by hand: role -> a list of whole faces, else an InputError naming `where`."""
    if not isinstance(item, dict) or not all(
        isinstance(k, str) and isinstance(v, list) and all(isinstance(f, int) and not isinstance(f, bool) for f in v)
        for k, v in item.items()
    ):
        raise InputError(
            "dice: a mapping of role to a list of faces, a list of such mappings, or one per target name", field=where
        )
    return {k: list(v) for k, v in item.items()}


def _all_read(ctx: Narration) -> None:
    """Faces typed for a target the attack never rolled against are refused, naming `dice.<target>`: nothing
    typed is dropped in silence."""
    for who in ctx.by_target or {}:
        raise InputError(
            f"no roll of this attack is against {who}: type dice for the targets it reaches", field=f"dice.{who}"
        )


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
