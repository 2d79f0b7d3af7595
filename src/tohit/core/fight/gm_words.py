"""The game master's words for the kinds of event every game has (docs/players.md, "Events are data, told to
each audience"): the engine's own events (a turn, a round, the GM's hand, a join, a door, an undo...), each
written from the event's data alone. A game words its own kinds in its package (`FightRules.gm_phrases`), and may
word a common kind its own way there too: its table is read first (`core/fight/words.gm_told`).
"""

from __future__ import annotations

from collections.abc import Mapping

from tohit.core.fight.words import GmPhrase

#: The common phrases, by kind.
GM_PHRASES: Mapping[str, GmPhrase] = {}
