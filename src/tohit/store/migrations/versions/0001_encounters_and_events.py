"""Encounters and their append-only events.

Revision ID: 0001
Revises:
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "encounters",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("system", sa.String(64), nullable=False),
        sa.Column("engine_version", sa.String(32), nullable=False),
        sa.Column("fight", sa.Text(), nullable=False),
        sa.Column("gm_hash", sa.String(64), nullable=False),
        sa.Column("view_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("encounter_id", sa.String(32), sa.ForeignKey("encounters.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.UniqueConstraint("encounter_id", "seq", name="uq_events_encounter_seq"),
    )
    op.create_index("ix_events_encounter_id", "events", ["encounter_id"])


def downgrade() -> None:
    op.drop_index("ix_events_encounter_id", table_name="events")
    op.drop_table("events")
    op.drop_table("encounters")
