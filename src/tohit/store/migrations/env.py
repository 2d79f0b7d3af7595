"""Alembic's environment for the store: run with the connection the store hands over (store/db.py)."""

from __future__ import annotations

from alembic import context

from tohit.store.models import Base

connection = context.config.attributes.get("connection")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
