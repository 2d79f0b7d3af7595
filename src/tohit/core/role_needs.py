"""When a roll reads each of its dice roles, declared by the game beside the roles themselves (`System.needs`, next
to `System.roles`; docs/architecture.md, "Games declare their dice").

A role is read
- always (`ALWAYS`, the default: a game that declares nothing has every role read by every roll);
- never in this fight (`never(clause)`: a role the fight's rules do not read, e.g. a Critical's dice a rule rolls
  later itself);
- only when other roles' faces show something (`only(after, reads, clause)`): `after` names the roles whose faces
  decide it, `reads` says, per row of the game's own `resolve` of those faces, whether this role is then read (the
  damage dice only on a hit; a Critical Hit's severity die only on a Critical Hit).

`clause` cites the rule that makes the role conditional (the page's clause, or the docs' reading where the page is
silent). The engine answers the dice route from these declarations: it resolves the faces typed so far with every
face the `after` roles not typed yet may show, and a role is needed when `reads` holds for some of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tohit.core.outcome import Outcome

#: Per row of a resolve's outcome: whether the role is read then.
Reads = Callable[[Outcome], npt.NDArray[np.bool_]]


@dataclass(frozen=True)
class Need:
    """When a role is read: by every roll (`reads` None, `after` empty), by none (`after` empty, `reads` false for
    every row), or when the roles `after` show what `reads` asks of the outcome they give."""

    after: tuple[str, ...] = ()
    reads: Reads | None = None
    #: The rule that makes the role conditional or unread, as the page or the docs name it.
    clause: str = ""


def _no_row(out: Outcome) -> npt.NDArray[np.bool_]:
    return np.zeros(out.n, dtype=bool)


#: Read by every roll.
ALWAYS = Need()


def never(clause: str) -> Need:
    """A role the fight's rules never read (`clause`: why)."""
    return Need(reads=_no_row, clause=clause)


def only(after: tuple[str, ...], reads: Reads, clause: str) -> Need:
    """A role read only when the roles `after` show what `reads` asks of the outcome (`clause`: the rule)."""
    return Need(after=after, reads=reads, clause=clause)


def flag_set(field: str) -> Reads:
    """`reads` for a flag field: the rows where it is set (e.g. "critical")."""

    def reads(out: Outcome) -> npt.NDArray[np.bool_]:
        return np.asarray(out[field] == 1, dtype=bool)

    return reads
