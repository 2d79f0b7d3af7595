"""The OpenAPI document refuses what the server refuses, and takes what it takes (issue 38, item 7, "The
contract is exact"): each body below is judged by the document's own schema for its route and by the server,
and the two agree. Integers are integers as JSON Schema counts them (4.0 is one, 4.5 is not: the server takes
4.0 as 4, engine/actions.py `Whole`); the fields a game's file requires are required (`{"scenario": {}}` is
refused by both); the file fields' envelope takes every bundled example; every encounter route declares its
answer."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator

from tests.conftest import EXAMPLES
from tests.server.conftest import ADMIN
from tohit.server.app import Settings, create_app

DOCUMENT = create_app(Settings(workers=0, admin_token=ADMIN, db="sqlite:///unused.db")).openapi()
CEIL = yaml.safe_load((EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml").read_text())
DUEL = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())


def body_schema(route: str) -> dict[str, Any]:
    """The document's schema of the JSON body of POST `route`, with the document's components to resolve it."""
    content = DOCUMENT["paths"][route]["post"]["requestBody"]["content"]["application/json"]
    return {**content["schema"], "components": DOCUMENT["components"]}


def documented(route: str, body: Any) -> bool:
    """Whether the document's schema takes `body` for POST `route`."""
    return Draft202012Validator(body_schema(route)).is_valid(body)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(db=f"sqlite:///{tmp_path / 'exact.db'}", admin_token=ADMIN, workers=0)
    with TestClient(create_app(settings)) as found:
        yield found


#: (what, route, body, whether both take it): a body the document takes is served; one it refuses is a 422.
CASES = [
    ("n 4.0", "/v1/simulate", {"scenario": CEIL, "n": 4.0}, True),
    ("n 1e3, seed 3.0", "/v1/simulate", {"scenario": CEIL, "n": 1e3, "seed": 3.0}, True),
    ("n 4.5", "/v1/simulate", {"scenario": CEIL, "n": 4.5}, False),
    ("n true", "/v1/simulate", {"scenario": CEIL, "n": True}, False),
    ("n string 4", "/v1/simulate", {"scenario": CEIL, "n": "4"}, False),
    ("n 0.0", "/v1/simulate", {"scenario": CEIL, "n": 0.0}, False),
    ("depth 3.0", "/v1/odds", {"scenario": CEIL, "depth": 3.0}, True),
    ("seed 2**128 - 1", "/v1/roll", {"scenario": CEIL, "seed": 2**128 - 1}, True),
    ("seed 2**128", "/v1/roll", {"scenario": CEIL, "seed": 2**128}, False),
    ("seed 7.0", "/v1/roll", {"scenario": CEIL, "seed": 7.0}, True),
    ("scenario {}", "/v1/roll", {"scenario": {}}, False),
    ("unknown system", "/v1/roll", {"scenario": {**CEIL, "system": "no-such-game"}}, False),
    ("no targets", "/v1/roll", {"scenario": {k: v for k, v in CEIL.items() if k != "targets"}}, False),
    ("targets []", "/v1/roll", {"scenario": {**CEIL, "targets": []}}, False),
    ("fight n 20.0, seed 1.0", "/v1/fights/simulate", {"fight": DUEL, "n": 20.0, "seed": 1.0}, True),
    ("fight {}", "/v1/fights/simulate", {"fight": {}}, False),
    ("one side", "/v1/fights/simulate", {"fight": {**DUEL, "sides": DUEL["sides"][:1]}}, False),
    ("create seed 2.0", "/v1/encounters", {"fight": DUEL, "seed": 2.0}, True),
    ("create fight {}", "/v1/encounters", {"fight": {}}, False),
    ("create fight without sides", "/v1/encounters", {"fight": {"system": "kaiser"}}, False),
]


@pytest.mark.parametrize(("route", "body", "taken"), [c[1:] for c in CASES], ids=[f"{c[1]} {c[0]}" for c in CASES])
def test_the_document_and_the_server_agree(client: TestClient, route: str, body: Any, taken: bool) -> None:
    assert documented(route, body) is taken, body_schema(route)
    answer = client.post(route, json=copy.deepcopy(body))
    if taken:
        assert answer.status_code < 300, answer.text
    else:
        assert answer.status_code == 422, answer.text


def test_an_integral_float_is_the_integer_it_is(client: TestClient) -> None:
    """n 4.0 simulates 4 attacks, as n 4 does; the answer says 4 (an integer)."""
    as_float = client.post("/v1/simulate", json={"scenario": CEIL, "n": 4.0, "seed": 3}).json()
    as_int = client.post("/v1/simulate", json={"scenario": CEIL, "n": 4, "seed": 3}).json()
    assert as_float == as_int and as_float["n"] == 4 and isinstance(as_float["n"], int)


def test_an_action_takes_integral_floats_as_its_document_says(client: TestClient) -> None:
    """An action's seq, and an undo's, given as 1.0: the document takes them, so does the server."""
    created = client.post("/v1/encounters", json={"fight": DUEL, "seed": 2}).json()
    auth = {"Authorization": f"Bearer {created['gm_token']}"}
    at = f"/v1/encounters/{created['id']}"
    action = {"kind": "auto", "expected_seq": float(created["seq"])}
    assert documented("/v1/encounters/{encounter_id}/actions", action)
    acted = client.post(f"{at}/actions", json=action, headers=auth)
    assert acted.status_code == 201, acted.text
    undo = {"expected_seq": float(acted.json()["seq"])}
    assert documented("/v1/encounters/{encounter_id}/undo", undo)
    assert client.post(f"{at}/undo", json=undo, headers=auth).status_code == 201
    half = {"kind": "auto", "expected_seq": 0.5}
    assert not documented("/v1/encounters/{encounter_id}/actions", half)
    assert client.post(f"{at}/actions", json=half, headers=auth).status_code == 422


def _files(kind: str) -> Iterator[Path]:
    for path in sorted(EXAMPLES.rglob("*.yaml")):
        if (path.parent.name == "fights") == (kind == "fight"):
            yield path


def test_every_bundled_file_fits_the_document() -> None:
    """The envelope refuses none of the files the server takes: every bundled scenario fits ScenarioBody, every
    bundled fight FightBody and CreateBody."""
    scenarios, fights = list(_files("scenario")), list(_files("fight"))
    assert len(scenarios) > 10 and len(fights) > 5
    for path in scenarios:
        assert documented("/v1/roll", {"scenario": yaml.safe_load(path.read_text())}), path
    for path in fights:
        fight = yaml.safe_load(path.read_text())
        assert documented("/v1/fights/simulate", {"fight": fight}), path
        assert documented("/v1/encounters", {"fight": fight}), path


def test_every_integer_of_a_body_is_documented_as_an_integer() -> None:
    """No body field is documented with pydantic's own words for a bound (`ge`, `le`): JSON Schema's are
    `minimum` and `maximum`, and a bound a client does not read is no bound. An integer's bounds are integers
    (the seed's top, 2**128 - 1, is no float's)."""
    found = []

    def walk(schema: Any, where: str) -> None:
        if isinstance(schema, dict):
            found.extend(f"{where}.{word}" for word in ("ge", "le", "gt", "lt") if word in schema)
            if schema.get("type") == "integer":
                found.extend(f"{where}.{w}" for w in ("minimum", "maximum") if isinstance(schema.get(w), float))
            for key, value in schema.items():
                walk(value, f"{where}.{key}")
        elif isinstance(schema, list):
            for i, value in enumerate(schema):
                walk(value, f"{where}[{i}]")

    walk(DOCUMENT["components"]["schemas"], "components")
    assert not found


def test_every_encounter_route_declares_its_answer() -> None:
    """Each encounter route's 2xx answer is a typed model (a `$ref`, or an array of them), a non-JSON media type
    with its schema, or a 204 with no body."""
    untyped = []
    for path, operations in DOCUMENT["paths"].items():
        if not path.startswith("/v1/encounters"):
            continue
        for method, operation in operations.items():
            answers = {s: r for s, r in operation["responses"].items() if s.startswith("2")}
            assert len(answers) == 1, (method, path)
            ((status, answer),) = answers.items()
            if status == "204":
                assert "content" not in answer, (method, path)
                continue
            for media, described in answer["content"].items():
                schema = described.get("schema", {})
                typed = "$ref" in schema or "$ref" in schema.get("items", {})
                if media == "application/json" and not typed:
                    untyped.append((method, path))
                elif media != "application/json" and "type" not in schema:
                    untyped.append((method, path, media))
    assert not untyped
