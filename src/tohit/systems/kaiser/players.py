"""What the players are told of Kaiser's own events (core/fight/audience.py; docs/players.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tohit.core.fight.audience import Audience, Phrase, attack_said


def counter(event: Mapping[str, Any], audience: Audience) -> str:
    """A Counterattack for the players: the game's words where it is about nobody kept from them, else told as an
    attack ("Ceil counterattacks Bandit chief with long sword: hit"), never its Counter bonus."""
    if not audience.touches(event):
        return str(event.get("text") or "")
    return attack_said(event, audience, "counterattacks")


PHRASES: Mapping[str, Phrase] = {"counter": counter}
