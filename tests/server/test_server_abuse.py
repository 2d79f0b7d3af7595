"""`tohit serve` under abuse (issue 28): what an attacker or a busy evening sends gets a clear 4xx, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.server.conftest import ADMIN

DUEL = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
HUGE = "99999999999999999999"


def new_encounter(client: TestClient) -> dict[str, Any]:
    response = client.post("/v1/encounters", json={"name": "duel", "fight": DUEL, "seed": 1})
    assert response.status_code == 201, response.text
    found: dict[str, Any] = response.json()
    return found


# -- item 8: 500s -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("token", ["Bearer caf\xe9", "Bearer \xff\xfe", f"Bearer {ADMIN}\xe9"])
def test_abuse_a_non_ascii_authorization_header_is_a_403_not_a_500(client: TestClient, token: str) -> None:
    enc = new_encounter(client)
    header = {"Authorization": token.encode("latin-1")}
    answer = client.get(f"/v1/encounters/{enc['id']}", headers=header)  # type: ignore[dict-item]
    assert answer.status_code == 403, answer.text
    assert answer.json()["error"]["field"] == "Authorization"
    listing = client.get("/v1/encounters", headers=header)  # type: ignore[dict-item]
    assert listing.status_code == 403, listing.text


@pytest.mark.parametrize("after", [HUGE, "-" + HUGE, "2147483648", "-2"])
def test_abuse_events_after_a_huge_seq_is_a_422_naming_after(client: TestClient, after: str) -> None:
    enc = new_encounter(client)
    answer = client.get(f"/v1/encounters/{enc['id']}/events?after={after}", headers=bearer(enc["gm_token"]))
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == "after"


def test_abuse_stream_after_a_huge_seq_is_a_422_naming_after(client: TestClient) -> None:
    enc = new_encounter(client)
    answer = client.get(f"/v1/encounters/{enc['id']}/stream?after={HUGE}", headers=bearer(enc["view_token"]))
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == "after"


def test_abuse_events_after_the_largest_seq_is_an_empty_list(client: TestClient) -> None:
    enc = new_encounter(client)
    answer = client.get(f"/v1/encounters/{enc['id']}/events?after=2147483647", headers=bearer(enc["gm_token"]))
    assert answer.status_code == 200 and answer.json() == []


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# -- item 13: headers on every answer ---------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/v1/systems", "/v1/systems/chess/schema", "/", "/docs", "/openapi.json"])
def test_abuse_every_answer_sends_the_security_headers(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
