"""A game master's choice for one turn of a live encounter (`GMChoice`): the fight contract hands it to a game's
`step` and `turn` (core/fight/contract.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GMChoice:
    """A game master's choice for one turn of a live encounter (one fight, narrated), handed to the game's
    `step` / `turn` as an argument: who acts, with which of its attacks (its number) on whom, and where an attack
    on a map goes (a placement in the grid's own words, e.g. "Blast 2 at (2, 1)"; None: the game's choice).

    `target` is the primary target (the one a single-target attack reads); `targets` every target named, the
    primary first (never more than the game's `max_targets`). One named: whom else the attack reaches is the
    game's (a Multi ability's every foe, an area's next foes); several: exactly those."""

    actor: int
    attack: int
    target: int
    placement: str | None = None
    targets: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.targets:
            object.__setattr__(self, "targets", (self.target,))
        elif self.targets[0] != self.target:
            raise ValueError("a choice's targets begin with its primary target")

    @property
    def several(self) -> bool:
        """True when the game master named more than one target (each then exactly as named)."""
        return len(self.targets) > 1
