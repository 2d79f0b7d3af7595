"""Fresh dice unless the GM asks (issue 38, item 5): an encounter created over HTTP from a file that has its own
`seed:` (every starter has one, and the examples are public) gets server-side entropy, so nobody who has the file
predicts its rolls; the file's seed is kept only with `"keep_seed": true`; a seed in the body is the GM's own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES

FILE = (EXAMPLES / "fights" / "kaiser-duel.yaml").read_text()
FILE_SEED = int(yaml.safe_load(FILE)["seed"])


def _seed(client: TestClient, body: dict[str, Any]) -> int:
    """The seed of the encounter the body creates, as the GM's events give it (the start event)."""
    made = client.post("/v1/encounters", json=body)
    assert made.status_code == 201, made.text
    gm = {"Authorization": f"Bearer {made.json()['gm_token']}"}
    events = client.get(f"/v1/encounters/{made.json()['id']}/events", params={"after": -1}, headers=gm).json()
    return int(events[0]["seed"])


def test_an_uploaded_files_own_seed_is_not_kept_unless_the_gm_asks(client: TestClient, tmp_path: Path) -> None:
    """Two encounters from the same uploaded file with `seed: 7` get other dice than the file's and than each other;
    with `keep_seed` the file's seed is kept; a seed in the body is used as given."""
    fresh = {_seed(client, {"text": FILE, "name": "duel.yaml"}) for _ in range(2)}
    assert FILE_SEED not in fresh and len(fresh) == 2
    assert _seed(client, {"text": FILE, "name": "duel.yaml", "keep_seed": True}) == FILE_SEED
    assert _seed(client, {"text": FILE, "name": "duel.yaml", "seed": 123}) == 123
    assert _seed(client, {"example": "file/kaiser-duel"}) != FILE_SEED


def test_the_players_view_never_says_which_seed(client: TestClient) -> None:
    """The view token's events carry no seed, kept or fresh."""
    made = client.post("/v1/encounters", json={"text": FILE, "name": "duel.yaml", "keep_seed": True}).json()
    view = {"Authorization": f"Bearer {made['view_token']}"}
    events = client.get(f"/v1/encounters/{made['id']}/events", params={"after": -1}, headers=view).json()
    assert "seed" not in events[0] and str(FILE_SEED) not in str(events[0].get("text", ""))
