"""The API's docs page: Swagger UI served by the server itself, from the copy the
`fastapi-offline` package ships, so that `/docs` renders with no network and its URL (which may hold the
admin token) is never sent to another site. The page runs no inline script, so its Content-Security-Policy
allows scripts from the server alone."""

from __future__ import annotations

from functools import cache
from importlib import resources

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response

from tohit.server.errors import ApiError

#: The page's policy: everything from the server itself; Swagger UI sets inline styles and shows data: images.
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:;"
    " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

#: The packaged files the page loads, by the name it loads them by, with their media type.
ASSETS = {"swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css", "favicon.png": "image/png"}

#: Starts Swagger UI on the API's OpenAPI document; a `token` in the page's URL (the login line's link) is
#: put in as the bearer token, so "Try it out" sends it.
INIT = """\
window.addEventListener("load", function () {
  var token = new URLSearchParams(window.location.search).get("token");
  var ui = SwaggerUIBundle({
    url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true, presets: [SwaggerUIBundle.presets.apis],
    onComplete: function () { if (token) { ui.preauthorizeApiKey("bearer", token); } }
  });
});
"""

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}: API docs</title>
<link rel="icon" href="/docs/assets/favicon.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
"""


@cache
def asset(name: str) -> bytes:
    """A packaged Swagger UI file (read once)."""
    return (resources.files("fastapi_offline") / "static" / name).read_bytes()


def mount_docs(app: FastAPI, title: str) -> None:
    """`GET /docs` and the files it loads, on `app` (whose own CDN-loading docs pages are turned off)."""
    headers = {"Content-Security-Policy": POLICY}

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(PAGE.format(title=title), headers={**headers, "Cache-Control": "no-store"})

    @app.get("/docs/assets/{name}", include_in_schema=False)
    async def docs_asset(name: str) -> Response:
        if name == "init.js":
            return Response(INIT, media_type="text/javascript", headers=headers)
        if name not in ASSETS:
            raise ApiError(404, f"no docs file {name!r:.40}", "name")
        cached = {**headers, "Cache-Control": "public, max-age=86400"}
        return Response(asset(name), media_type=ASSETS[name], headers=cached)
