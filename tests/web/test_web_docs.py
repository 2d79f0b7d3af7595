"""The API docs page in a real browser (issue 28, item 13): `/docs` renders Swagger UI with no network (every
request the page makes goes to the server itself, and any other is refused), its policy blocks nothing the
page needs, and the token of the login line's link is put in as the bearer token."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.web.conftest import ADMIN, Table

pytestmark = pytest.mark.browser


def test_web_docs_render_offline_from_the_server_itself(page: Any, table: Table) -> None:
    elsewhere: list[str] = []
    refused: list[str] = []

    def only_the_server(route: Any) -> None:
        if urlsplit(route.request.url).netloc == urlsplit(table.base).netloc:
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_server)
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    answer = page.goto(f"{table.base}/docs?token={ADMIN}")
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    page.wait_for_selector(".swagger-ui .opblock-tag", timeout=30_000)
    assert page.locator(".opblock-summary-path", has_text="/v1/roll").count() >= 1
    page.click(".swagger-ui .btn.authorize")
    page.wait_for_selector(".auth-container >> text=Authorized", timeout=10_000)  # the link's token, put in
    assert elsewhere == [] and refused == []
