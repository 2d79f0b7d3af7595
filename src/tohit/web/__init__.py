"""The web table: pages served by `tohit serve` itself, a view of the /v1 routes.

The pages hold no rules: they ask the server for the state, previews, dice roles, targets and cover, and send
the game master's actions. Every asset is a local file of this package (plain ES modules, one stylesheet), so
the table works without internet:

- `/` (home): the encounters, and a new encounter from a bundled example or an uploaded fight file;
- `/encounters/{id}?token=...` (tracker): the GM token shows the controls, the view token a read-only view
  that follows the game live over the event stream;
- `/static/...`: the modules and the stylesheet.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(str(resources.files("tohit.web").joinpath("static")))


def _page(name: str) -> HTMLResponse:
    text = (STATIC / name).read_text(encoding="utf-8")
    return HTMLResponse(text, headers={"Cache-Control": "no-cache"})


def mount_pages(app: FastAPI) -> None:
    """Add the pages and their static files to the app (outside /v1 and outside the OpenAPI schema)."""

    @app.get("/", include_in_schema=False)
    async def home() -> HTMLResponse:
        return _page("index.html")

    @app.get("/encounters/{encounter_id}", include_in_schema=False)
    async def tracker(encounter_id: str) -> HTMLResponse:
        return _page("tracker.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
