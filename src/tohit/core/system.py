"""What a rule system is (docs/architecture.md, "The one idea").

A system declares its id, its pydantic models, its outcome fields and its dice roles, and writes its rules
once, in `resolve`, as array code over a batch of faces. The engine feeds that one `resolve` three ways:
forced or seeded faces for a traced roll (n = 1), every point of the exact support for odds, and seeded
batches for simulation. A system module never imports the engine or an interface.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar, Generic, cast

from pydantic import create_model

from tohit.core.models import AttackerT, AttackT, OptionsT, Scenario, TargetT, input_schema
from tohit.core.outcome import Field, Outcome
from tohit.core.role_needs import Need
from tohit.core.roles import Role
from tohit.core.steps import Steps
from tohit.core.support import Columns

if TYPE_CHECKING:
    from tohit.core.grid.rules import MapRules


class Dice:
    """The faces fed to one `resolve` call: role name -> columns (arrays of n), plus trace text.

    `text` holds, per role, the faces in words for each attack when rolling at the table (a str, or an
    object array with one str per attack); batches have none.
    """

    def __init__(self, values: Mapping[str, Columns], text: Mapping[str, Any] | None = None) -> None:
        self._values = dict(values)
        self._text = dict(text or {})

    def __getitem__(self, role: str) -> Columns:
        return self._values[role]

    def __contains__(self, role: object) -> bool:
        return role in self._values

    def text(self, role: str) -> Any:
        """The faces of `role` in words when rolling ("2d6 (6, 6)", one per attack), else the role's name."""
        return self._text.get(role, role)


@dataclass(frozen=True)
class ModifierRow:
    """One row of a system's modifier table (`tohit modifiers SYSTEM`)."""

    id: str
    group: str
    modifier: str
    description: str
    #: The scale the row measures, for tables where rows on one scale replace each other ("" when none).
    scale: str = ""


class System(ABC, Generic[AttackerT, AttackT, TargetT, OptionsT]):
    """A rule system. Subclasses set the class attributes and implement `roles` and `resolve`."""

    id: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    #: The rulebook page's file name (the chapter the game's rules come from).
    page: ClassVar[str]
    #: Where the page is silent: (anchor, title, text) of each reading tohit takes where its page says nothing or
    #: can be read two ways, in the project's own words. `tohit reference` lists them (docs/<id>.md, section
    #: "Where the page is silent", each at `#silent-<anchor>`), and traces cite them by that address.
    silent: ClassVar[tuple[tuple[str, str, str], ...]] = ()
    attacker_model: ClassVar[type[Any]]
    attack_model: ClassVar[type[Any]]
    target_model: ClassVar[type[Any]]
    options_model: ClassVar[type[Any]]
    fields: ClassVar[tuple[Field, ...]]
    #: Depth to which exact odds follow open-ended dice, unless the scenario's `options.depth` says.
    default_depth: ClassVar[int] = 0
    #: True when every conditional note in `resolve` passes `where=`: `roll --times N` then traces N attacks
    #: in one vectorised call; otherwise it rolls them one by one.
    batch_trace: ClassVar[bool] = False
    #: Roles that feed only fields with `in_odds=False` (e.g. dice for a critical's level): odds and the
    #: table sampler hold them at one value instead of crossing them into the joint support. A generic test
    #: checks the claim: varying them leaves every reported field unchanged.
    detail_roles: ClassVar[frozenset[str]] = frozenset()
    #: Each dice role's name in the rulebook's words, by role key (the label its `Role` carries, shown where a
    #: person types or reads its faces); a game that declares none has its roles named by their keys in words.
    role_labels: ClassVar[Mapping[str, str]] = {}
    #: The module of the game's package that holds its fight rules (a module-level `RULES`, a
    #: `tohit.core.fight.contract.FightRules`), e.g. "tohit.systems.<id>.fight"; None: the game has none.
    fight_module: ClassVar[str | None] = None

    @classmethod
    @cache
    def scenario_model(cls) -> type[Scenario[AttackerT, AttackT, TargetT, OptionsT]]:
        """The pydantic model of a whole scenario file for this system (also its JSON Schema)."""
        name = "".join(p.capitalize() for p in cls.id.replace("-", "_").split("_")) + "Scenario"
        base = Scenario[cls.attacker_model, cls.attack_model, cls.target_model, cls.options_model]  # type: ignore[name-defined]
        return cast(type[Scenario[AttackerT, AttackT, TargetT, OptionsT]], create_model(name, __base__=base))

    @classmethod
    def scenario_schema(cls) -> dict[str, Any]:
        """The JSON Schema of a scenario file (`tohit schema SYSTEM`): what the loader accepts, checks across
        fields aside. A system whose models read a shorthand before validating may widen it here."""
        return input_schema(cls.scenario_model().model_json_schema(), cls.id)

    @abstractmethod
    def roles(self, scenario: Scenario[AttackerT, AttackT, TargetT, OptionsT], target: TargetT) -> dict[str, Role]:
        """The dice roles this attack may need against `target`, by name."""

    def needs(self, scenario: Scenario[AttackerT, AttackT, TargetT, OptionsT], target: TargetT) -> Mapping[str, Need]:
        """When the roll reads each of its `roles` (tohit.core.role_needs): always, never in this fight, or only
        when other roles' faces show something (the damage dice only on a hit). A role not named is read by every
        roll (the default: every role, always)."""
        return {}

    @abstractmethod
    def resolve(
        self,
        scenario: Scenario[AttackerT, AttackT, TargetT, OptionsT],
        target: TargetT,
        dice: Dice,
        steps: Steps,
    ) -> Outcome:
        """The rules, as array code: faces in (arrays of n), outcome arrays out."""

    def check(self, scenario: Scenario[AttackerT, AttackT, TargetT, OptionsT]) -> None:
        """Cross-field checks beyond the models; raise InputError(field=...) on a problem."""

    def scenario_json(self, scenario: Scenario[AttackerT, AttackT, TargetT, OptionsT]) -> dict[str, Any]:
        """Extra keys for the JSON of roll, odds and simulate (e.g. the squares a grid attack covers)."""
        return {}

    def target_json(self, scenario: Scenario[AttackerT, AttackT, TargetT, OptionsT], target: TargetT) -> dict[str, Any]:
        """Extra keys for one target in that JSON (e.g. its cover)."""
        return {}

    def depth(self, scenario: Scenario[AttackerT, AttackT, TargetT, OptionsT]) -> int:
        chosen = getattr(scenario.options, "depth", None)
        return self.default_depth if chosen is None else int(chosen)

    def map_rules(self) -> MapRules | None:
        """The game's map rules (`tohit.core.grid.rules`), read by `tohit map` and `tohit aim`; None (the
        default): this game has no map, and those commands refuse its scenarios on the `system` field."""
        return None

    def modifiers(self) -> Sequence[ModifierRow]:
        """The system's named modifier rows, if it has a table of them."""
        return ()

    def starter(self, fight: bool = False) -> str | None:
        """A commented starter scenario (or, with `fight`, a starter fight file) for `tohit new`: the text of
        `starter.yaml` / `starter-fight.yaml` in the game's package; None when it ships none."""
        package = type(self).__module__.rpartition(".")[0]
        name = "starter-fight.yaml" if fight else "starter.yaml"
        try:
            return resources.files(package).joinpath(name).read_text(encoding="utf-8")
        except (FileNotFoundError, ModuleNotFoundError):
            return None

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)


#: A system of any models (what the registry holds).
AnySystem = System[Any, Any, Any, Any]
