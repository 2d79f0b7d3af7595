"""The store: encounters as append-only events (SQLAlchemy 2; SQLite by default, PostgreSQL by URL), its schema
kept by Alembic migrations shipped in this package. It knows rows, not rules: it never imports the engine."""
