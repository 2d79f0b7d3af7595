"""The work caps of `tohit serve` (issue 16, item 2): each one set by a flag, and going over one answers a 422
naming it, whether the body announces its size or comes in chunks, and whether the depth is the request's or the
scenario's own."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tests.server.conftest import ADMIN
from tohit.cli.app import app as cli
from tohit.server.app import Settings, create_app

CEIL = yaml.safe_load((EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml").read_text())
DUEL = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())


def capped(tmp_path: Path, **caps: Any) -> TestClient:
    db = f"sqlite:///{tmp_path / 'caps.db'}"
    return TestClient(create_app(Settings(db=db, admin_token=ADMIN, workers=0, **caps)))


def chunks(data: bytes, size: int = 4096) -> Iterator[bytes]:
    """A body sent in chunks, with no Content-Length."""
    for i in range(0, len(data), size):
        yield data[i : i + size]


def test_serve_body_in_chunks_over_the_cap_is_refused_naming_it(tmp_path: Path) -> None:
    with capped(tmp_path, max_body=10_000) as client:
        body = b'{"scenario": {}, "pad": "' + b" " * 20_000 + b'"}'
        response = client.post("/v1/roll", content=chunks(body), headers={"content-type": "application/json"})
        assert "content-length" not in {k.lower() for k in response.request.headers}
        assert response.status_code == 413
        error = response.json()["error"]
        assert error["field"] == "body" and "--max-body" in error["message"]


def test_serve_body_in_chunks_under_the_cap_is_served(tmp_path: Path) -> None:
    import json

    with capped(tmp_path) as client:
        body = json.dumps({"scenario": CEIL, "seed": 3}).encode()
        response = client.post("/v1/roll", content=chunks(body, 64), headers={"content-type": "application/json"})
        assert response.status_code == 200, response.text
        assert response.json()["targets"][0]["damage"] == 14


@pytest.mark.parametrize("path", ["/v1/odds", "/v1/simulate", "/v1/aim"])
def test_serve_scenario_depth_over_the_cap_is_refused_naming_it(tmp_path: Path, path: str) -> None:
    with capped(tmp_path, max_depth=3) as client:
        scenario = {**CEIL, "options": {**CEIL.get("options", {}), "depth": 10}}
        response = client.post(path, json={"scenario": scenario, "n": 10})
        assert response.status_code == 422
        assert response.json()["error"]["field"] == "max-depth"


def test_serve_exact_duel_over_the_states_cap_is_refused_naming_it(tmp_path: Path) -> None:
    with capped(tmp_path, max_states=5) as client:
        response = client.post("/v1/fights/exact", json={"fight": DUEL})
        assert response.status_code == 422, response.text
        error = response.json()["error"]
        assert error["field"] == "max-states" and "--max-states" in error["message"]


def test_serve_exact_duel_over_the_time_cap_is_refused_naming_it(tmp_path: Path) -> None:
    with capped(tmp_path, exact_seconds=1e-6) as client:
        response = client.post("/v1/fights/exact", json={"fight": DUEL})
        assert response.status_code == 422, response.text
        error = response.json()["error"]
        assert error["field"] == "exact-seconds" and "--exact-seconds" in error["message"]


def test_serve_exact_duel_time_cap_stays_below_the_request_deadline() -> None:
    """A duel too long for both is refused by its own cap (a 422 naming it) before the deadline's 503: the cap is
    kept at four fifths of the deadline at most."""
    assert Settings(exact_seconds=30.0, request_seconds=30.0).exact_cap == 24.0
    assert Settings(exact_seconds=2.0, request_seconds=30.0).exact_cap == 2.0
    assert Settings(exact_seconds=30.0, request_seconds=5.0).exact_cap == 4.0


def test_serve_every_cap_is_a_flag(served_settings: list[Settings], tmp_path: Path) -> None:
    flags = {
        "--max-trials": "11",
        "--max-fights": "12",
        "--max-depth": "13",
        "--max-states": "14",
        "--exact-seconds": "1.5",
        "--max-body": "1000",
        "--max-placements": "7",
        "--max-dice": "9",
    }
    args = ["serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'flags.db'}"]
    args += [x for kv in flags.items() for x in kv]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    (settings,) = served_settings
    assert (settings.max_trials, settings.max_fights, settings.max_depth, settings.max_states) == (11, 12, 13, 14)
    assert (settings.exact_seconds, settings.max_body, settings.admin_token) == (1.5, 1000, ADMIN)
    assert (settings.max_placements, settings.max_dice) == (7, 9)
    assert f"/docs?token={ADMIN}" in result.output


def test_serve_keeps_what_it_holds_at_start_out_of_the_collectors_full_passes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The objects of the server's start (some 130,000) are frozen before it serves: a full collection no
    longer walks them all, which stopped every thread for 80-170 ms in the middle of requests (the p99 of a
    durable attack with 8 clients)."""
    from tohit.server import listening

    frozen: list[int] = []
    monkeypatch.setattr(listening, "run", lambda *a: frozen.append(gc.get_freeze_count()) or True)
    monkeypatch.setenv("TOHIT_ADMIN_TOKEN", ADMIN)
    gc.unfreeze()
    try:
        result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'frozen.db'}"])
    finally:
        gc.unfreeze()  # the objects `serve` froze are not left frozen for the tests after this one
    assert result.exit_code == 0, result.output
    assert frozen and frozen[0] > 10_000


def test_serve_aim_placements_over_the_cap_are_refused_naming_it(tmp_path: Path) -> None:
    """`n` placements of /v1/aim past the cap: a 422 naming max-placements and its flag, not a silent cut."""
    scenario = yaml.safe_load((EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml").read_text())
    with capped(tmp_path, max_placements=3) as client:
        refused = client.post("/v1/aim", json={"scenario": scenario, "n": 4})
        served = client.post("/v1/aim", json={"scenario": scenario, "n": 3})
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["field"] == "max-placements" and "--max-placements" in error["message"]
    assert served.status_code == 200 and 1 <= len(served.json()) <= 3  # a cone has fewer placements here


@pytest.mark.parametrize("path", ["/v1/roll", "/v1/odds", "/v1/simulate"])
def test_serve_dice_over_the_cap_are_refused_naming_it(tmp_path: Path, path: str) -> None:
    """An attack rolling more dice against one target than --max-dice: a 422 naming the cap, before any work;
    at the cap it is served. (Ceil's attack rolls 2d6 offense, 2d6 defense and the Critical's 2d6: 6 dice.)"""
    with capped(tmp_path, max_dice=5) as client:
        refused = client.post(path, json={"scenario": CEIL, "n": 10})
    with capped(tmp_path, max_dice=6) as client:
        served = client.post(path, json={"scenario": CEIL, "n": 10})
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["field"] == "max-dice" and "--max-dice" in error["message"] and "Bandit" in error["message"]
    assert served.status_code == 200, served.text
