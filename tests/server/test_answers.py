"""The OpenAPI document describes what the routes answer (server/answers.py): every 2xx answer has a typed
schema (no open or empty object but where an open object is the truth), each route's content types are right,
and the real answers of every bundled example fight, read with the GM's and the view token, validate against
the document's own schemas (their objects closed: a key the document forgets fails here). The models describe
and never filter: no route that names one converts its answer through it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest
import yaml
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator

from tests.conftest import EXAMPLES
from tests.grid.uvtt_fixtures import CELLAR_SPOTS, cellar, cellar_fight
from tests.server.conftest import ADMIN
from tohit.server import answers, players_view
from tohit.server.app import Settings, create_app

DOCUMENT = create_app(Settings(workers=0, admin_token=ADMIN, db="sqlite:///unused.db")).openapi()
JSON = "application/json"
#: The routes whose 2xx answer is not JSON, and its media types.
NOT_JSON = {
    ("get", "/v1/encounters/{encounter_id}/picture"): {"image/png", "image/webp"},
    ("get", "/v1/encounters/{encounter_id}/events.jsonl"): {"application/x-ndjson"},
    ("get", "/v1/encounters/{encounter_id}/stream"): {"text/event-stream"},
}
#: Where an open object is the truth: the JSON Schema of a game's scenario files (any JSON Schema keys), and an
#: output's dice by role (each role's own faces and words: the CLI's `--json`, engine/output_schemas.py).
OPEN = {"#/components/schemas/ScenarioSchema", "/v1/roll 200 .dice.*", "/v1/roll 200 .rolls.dice.*"}


def _operations() -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    for path, operations in DOCUMENT["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if status.startswith("2"):
                    yield method, path, status, response


def _open_objects(schema: Any, where: str, seen: set[str], top: bool = False) -> Iterator[str]:
    """Each place in `schema` (refs followed) that is an object of any keys; at the `top`, a schema that says
    nothing too (deeper, an empty schema is a value of any JSON type, e.g. a trace step's value)."""
    if not isinstance(schema, dict):
        return
    ref = schema.get("$ref")
    if ref is not None:
        if ref not in seen:
            seen.add(ref)
            name = ref.rsplit("/", 1)[-1]
            yield from _open_objects(DOCUMENT["components"]["schemas"][name], ref, seen, top)
        return
    if top and set(schema) <= {"title", "description"}:
        yield where
        return
    if schema.get("type") == "object" and not schema.get("properties"):
        extra = schema.get("additionalProperties", True)
        if extra is True or extra == {}:
            yield where
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for part in schema.get(key, []):
            yield from _open_objects(part, where, seen, top)
    if isinstance(schema.get("items"), dict):
        yield from _open_objects(schema["items"], where, seen, top)
    for name, part in schema.get("properties", {}).items():
        yield from _open_objects(part, f"{where}.{name}", seen)
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _open_objects(schema["additionalProperties"], f"{where}.*", seen)


def test_every_json_answer_has_a_typed_schema() -> None:
    """No 2xx JSON answer is described as an open or empty object, at any depth, but where that is the truth."""
    found = set()
    for method, path, status, response in _operations():
        if (method, path) in NOT_JSON or status == "204":
            continue
        schema = response["content"][JSON]["schema"]
        found |= set(_open_objects(schema, f"{path} {status} ", set(), top=True))
    assert found <= OPEN, sorted(found - OPEN)


def test_open_objects_are_found() -> None:
    """The check above finds an open object, an empty schema and one under a ref."""
    assert list(_open_objects({"type": "object", "additionalProperties": True}, "a", set())) == ["a"]
    assert list(_open_objects({"title": "x"}, "b", set(), top=True)) == ["b"]
    assert list(_open_objects({"type": "array", "items": {"type": "object"}}, "c", set())) == ["c"]
    closed = {"type": "object", "additionalProperties": {"type": "integer"}}
    assert list(_open_objects(closed, "d", set())) == []


def test_each_route_answers_its_content_types() -> None:
    """JSON routes answer application/json only; the picture an image, the log NDJSON, the stream SSE."""
    for method, path, status, response in _operations():
        if status == "204":
            assert "content" not in response, path
            continue
        assert set(response["content"]) == NOT_JSON.get((method, path), {JSON}), (method, path)
        assert response["description"], (method, path)


def test_the_models_describe_and_never_filter() -> None:
    """A route documented by a model keeps its answer as built: FastAPI converts it through no response model (a
    key the model forgot would vanish, a value it refused would be a 500)."""
    app = create_app(Settings(workers=0, admin_token=ADMIN, db="sqlite:///unused.db"))
    documented = [r for r in app.routes if isinstance(r, APIRoute) and r.path.startswith("/v1/")]
    assert len(documented) > 20
    for route in documented:
        if any(str(status).startswith("2") and "model" in r for status, r in route.responses.items()):
            assert route.response_field is None, route.path


def test_the_health_words_are_the_players_views() -> None:
    """A hidden combatant's health reads as one of the players' view's words, and the document lists the same."""
    assert set(get_args(answers.HealthText)) == set(players_view.WORDS)


class Checked:
    """A client whose JSON answers are checked against the document's schema for their route and status."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.seen: set[tuple[str, str]] = set()

    def __call__(
        self, method: str, url: str, route: str, token: str | None = None, refused: bool = False, **kw: Any
    ) -> Any:
        """The answer (JSON read, else its bytes), checked; `refused`: a 422 answers None."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = self.client.request(method, url, headers=headers, **kw)
        if refused and answer.status_code == 422:
            return None
        assert answer.status_code < 300, (url, answer.text)
        response = DOCUMENT["paths"][route][method.lower()]["responses"][str(answer.status_code)]
        kind = answer.headers["content-type"].split(";")[0]
        assert kind in response["content"], (url, kind)
        if kind == JSON:
            schema = {**response["content"][JSON]["schema"], "components": DOCUMENT["components"]}
            errors = [
                f"{list(e.absolute_path)}: {e.message}" for e in Draft202012Validator(schema).iter_errors(answer.json())
            ]
            assert not errors, (url, errors[:5])
        self.seen.add((method.lower(), route))
        return answer.json() if kind == JSON else answer.content


@pytest.fixture
def checked(tmp_path: Path) -> Iterator[Checked]:
    settings = Settings(
        db=f"sqlite:///{tmp_path / 'tohit.db'}", admin_token=ADMIN, workers=0, creates_per_minute=10_000
    )
    with TestClient(create_app(settings)) as client:
        yield Checked(client)


E = "/v1/encounters/{encounter_id}"


def _play(call: Checked, created: dict[str, Any], autos: int) -> bool:
    """Read everything of one encounter with each token, acting between reads (GM: the actions, undo); whether
    some foe took dice typed by hand."""
    eid, gm, view = created["id"], created["gm_token"], created["view_token"]
    at = f"/v1/encounters/{eid}"
    sheet = call("GET", f"{at}/sheet", f"{E}/sheet", gm)
    first = sheet["combatants"][0]
    foes = [c["name"] for c in sheet["combatants"] if c["side"] != first["side"]]
    attack = {"attacker": first["name"], "attack": first["attacks"][0], "targets": foes[-1:]}
    call("POST", f"{at}/dice", f"{E}/dice", gm, json=attack)
    for foe in foes:  # the players read the odds on a foe the GM has shown them (a hidden one's: a 403)
        reveal = {"kind": "reveal", "combatant": foe, "to_players": True}
        call("POST", f"{at}/actions", f"{E}/actions", gm, json=reveal)
    call("POST", f"{at}/preview", f"{E}/preview", view, json=attack)
    faces = [
        call("POST", f"{at}/dice", f"{E}/dice", view, True, json={**attack, "targets": [foe], "dice": {}})
        for foe in foes
    ]
    typed = any(found is not None and "needed" in found for found in faces)
    for foe in foes:  # hidden again: the reads below answer a hidden combatant's shape too
        hide = {"kind": "reveal", "combatant": foe, "to_players": False}
        call("POST", f"{at}/actions", f"{E}/actions", gm, json=hide)
    if sheet["map"]:
        for name in first["attacks"]:
            call("POST", f"{at}/map", f"{E}/map", view, json={"attacker": first["name"], "attack": name})
            call("POST", f"{at}/aim", f"{E}/aim", gm, json={"attacker": first["name"], "attack": name})
    for _ in range(autos):
        found = call("POST", f"{at}/actions", f"{E}/actions", gm, json={"kind": "auto"})
        if found["state"]["fight"].get("over"):
            break
    call("POST", f"{at}/undo", f"{E}/undo", gm)
    for token in (gm, view):
        call("GET", at, E, token)
        call("GET", f"{at}/sheet", f"{E}/sheet", token)
        call("GET", f"{at}/events", f"{E}/events", token)
        call("GET", f"{at}/events.jsonl", f"{E}/events.jsonl", token)
    return typed


def test_every_bundled_example_answers_as_documented(checked: Checked) -> None:
    """Each bundled example fight, played a few turns: every JSON answer of every encounter route, with the GM's
    and the view token, validates against the document (closed objects: no key it does not list)."""
    examples = checked("GET", "/v1/examples", "/v1/examples")
    assert len(examples) >= 10
    typed = []
    for example in examples:
        created = checked("POST", "/v1/encounters", "/v1/encounters", json={"example": example["id"], "seed": 3})
        typed.append(_play(checked, created, autos=12))
    assert sum(typed) >= 10
    last = created["id"]
    checked("PATCH", f"/v1/encounters/{last}", E, created["gm_token"], json={"name": "renamed"})
    checked("POST", f"/v1/encounters/{last}/view_token", f"{E}/view_token", created["gm_token"])
    checked("GET", "/v1/encounters", "/v1/encounters", ADMIN)
    checked("GET", "/v1/systems/rtw/schema", "/v1/systems/{system_id}/schema")
    scenario = yaml.safe_load((EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml").read_text())
    checked("POST", "/v1/aim", "/v1/aim", json={"scenario": scenario})


def test_a_map_with_a_picture_and_doors_answers_as_documented(checked: Checked) -> None:
    """A fight on a UVTT map (walls, a door, a picture): its map, its picture (an image) and a door action. The
    foes in the east room stand in sight of the open door: the players read the odds on creatures their
    characters see."""
    spots = {**CELLAR_SPOTS, "Moblin": [7, 1], "Bokoblin Archer": [8, 2]}
    created = checked("POST", "/v1/encounters", "/v1/encounters", json={"fight": cellar_fight(spots), "uvtt": cellar()})
    eid, gm = created["id"], created["gm_token"]
    found = checked("POST", f"/v1/encounters/{eid}/map", f"{E}/map", gm, json={"attacker": "Link"})
    assert found["doors"] and found["walls"] and found["picture"]
    assert checked("GET", f"/v1/encounters/{eid}/picture", f"{E}/picture", gm)[:4] == b"\x89PNG"
    door = {"kind": "door", "door": 0, "closed": False}
    checked("POST", f"/v1/encounters/{eid}/actions", f"{E}/actions", gm, json=door)
    _play(checked, created, autos=4)


def test_the_players_view_of_hidden_creatures_answers_as_documented(checked: Checked) -> None:
    """The view token's shapes for hidden combatants: a Multi preview's rows of hidden creatures also reached (a
    name only), and the map of a hidden attacker (its attack left out)."""
    cops = yaml.safe_load((EXAMPLES / "fights" / "last-odyssey-cops.yaml").read_text())
    created = checked("POST", "/v1/encounters", "/v1/encounters", json={"fight": cops, "seed": 3})
    eid, gm, view = created["id"], created["gm_token"], created["view_token"]
    reveal = {"kind": "reveal", "combatant": "Cop 1", "to_players": True}
    checked("POST", f"/v1/encounters/{eid}/actions", f"{E}/actions", gm, json=reveal)
    asked = {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 1"]}
    rows = checked("POST", f"/v1/encounters/{eid}/preview", f"{E}/preview", view, json=asked)["targets"]
    assert {"name": "Cop 2", "hidden": True} in rows
    fight = yaml.safe_load((EXAMPLES / "fights" / "rtw-map.yaml").read_text())
    created = checked("POST", "/v1/encounters", "/v1/encounters", json={"fight": fight, "seed": 3})
    foe = fight["sides"][1]["combatants"][0]["name"]
    found = checked("POST", f"/v1/encounters/{created['id']}/map", f"{E}/map", created["view_token"],
                    json={"attacker": foe})  # fmt: skip
    assert found["squares"] == [] and found["creatures"]
