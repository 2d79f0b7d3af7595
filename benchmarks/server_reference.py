"""The references `bench_server` measures `tohit serve` against, served by the same uvicorn: a bare FastAPI route
returning a constant, and one doing one durable SQLite insert (WAL, like the store's)."""

from __future__ import annotations

import sqlite3
import sys
from typing import Any

from fastapi import FastAPI


def create(db: str) -> FastAPI:
    app = FastAPI()
    connection = sqlite3.connect(db, check_same_thread=False, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, body TEXT)")

    @app.post("/constant")
    async def constant() -> dict[str, Any]:
        return {"ok": True}

    @app.post("/insert")
    def insert(body: dict[str, Any]) -> dict[str, Any]:
        cursor = connection.execute("INSERT INTO rows (body) VALUES (?)", (str(body),))
        return {"id": cursor.lastrowid}

    return app


if __name__ == "__main__":
    import uvicorn

    uvicorn.run(create(sys.argv[1]), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
