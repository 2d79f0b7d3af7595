"""The players' links: one per combatant a player plays (its token kept hashed, null once revoked).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_links",
        sa.Column(
            "encounter_id",
            sa.String(32),
            sa.ForeignKey("encounters.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("combatant", sa.String(200), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("generation", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_links")
