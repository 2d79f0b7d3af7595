"""The store's tables: an encounter (its fight file, tokens stored hashed, the engine version it was played
with), its events, append-only and unique on (encounter, seq), and its players' links (one a combatant)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, UniqueConstraint, func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The store's declarative base."""


class EncounterRow(Base):
    __tablename__ = "encounters"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    system: Mapped[str] = mapped_column(String(64))
    engine_version: Mapped[str] = mapped_column(String(32))
    fight: Mapped[str] = mapped_column(Text)
    gm_hash: Mapped[str] = mapped_column(String(64))
    view_hash: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class EventRow(Base):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("encounter_id", "seq", name="uq_events_encounter_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    encounter_id: Mapped[str] = mapped_column(String(32), ForeignKey("encounters.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    body: Mapped[str] = mapped_column(Text)


class PlayerLinkRow(Base):
    """A player's link (server/player_links.py): the combatant it plays, its token's hash (null: revoked) and
    the generation it was made from (a new link for the combatant is the next one, so a revoked or replaced token
    never comes back)."""

    __tablename__ = "player_links"

    encounter_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("encounters.id", ondelete="CASCADE"), primary_key=True
    )
    combatant: Mapped[str] = mapped_column(String(200), primary_key=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    generation: Mapped[int] = mapped_column(Integer)
