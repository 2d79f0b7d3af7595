"""`tohit serve` under abuse (issue 28): what an attacker or a busy evening sends gets a clear 4xx, never a 500."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.server.conftest import ADMIN, free_port
from tohit.server import jobs
from tohit.server.app import Settings, create_app

DUEL = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
HUGE = "99999999999999999999"
CEIL_SCENARIO = yaml.safe_load((EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml").read_text())


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


# -- items 3 and 16: the pool heals, and its workers die with the server ---------------------------------------
CEIL = yaml.safe_load((EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml").read_text())


def pooled(tmp_path: Path) -> TestClient:
    settings = Settings(db=f"sqlite:///{tmp_path / 'tohit.db'}", admin_token=ADMIN, workers=1)
    return TestClient(create_app(settings), raise_server_exceptions=False)


def workers_started(before: set[int]) -> list[int]:
    return [p.pid for p in multiprocessing.active_children() if p.pid is not None and p.pid not in before]


def test_abuse_a_worker_killed_under_a_request_costs_that_request_a_503_and_the_next_one_succeeds(
    tmp_path: Path,
) -> None:
    before = {p.pid for p in multiprocessing.active_children() if p.pid is not None}
    with pooled(tmp_path) as client:
        assert client.post("/v1/odds", json={"scenario": CEIL, "seed": 3}).status_code == 200
        (worker,) = workers_started(before)
        answers: list[httpx.Response] = []
        heavy = {"fight": DUEL, "n": 1_000_000, "seed": 1}
        thread = threading.Thread(target=lambda: answers.append(client.post("/v1/fights/simulate", json=heavy)))
        thread.start()
        time.sleep(1.0)  # the worker is busy with it
        os.kill(worker, signal.SIGKILL)
        thread.join(60)
        (lost,) = answers
        assert lost.status_code == 503, lost.text
        assert lost.headers["retry-after"] == "1"
        assert "worker" in lost.json()["error"]["message"]
        for _ in range(3):
            again = client.post("/v1/odds", json={"scenario": CEIL, "seed": 3})
            assert again.status_code == 200, again.text


def test_abuse_a_worker_killed_while_idle_costs_no_request(tmp_path: Path) -> None:
    before = {p.pid for p in multiprocessing.active_children() if p.pid is not None}
    with pooled(tmp_path) as client:
        assert client.post("/v1/odds", json={"scenario": CEIL, "seed": 3}).status_code == 200
        (worker,) = workers_started(before)
        os.kill(worker, signal.SIGKILL)
        time.sleep(0.5)  # the pool notices its worker gone
        again = client.post("/v1/odds", json={"scenario": CEIL, "seed": 3})
        assert again.status_code == 200, again.text


def hungry(*args: Any) -> dict[str, Any]:
    """A job that asks for a terabyte (a real MemoryError, raised in the worker)."""
    return {"size": len(bytearray(1 << 40))}


def test_abuse_a_worker_out_of_memory_is_a_422_not_a_500(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "odds_job", hungry)
    with pooled(tmp_path) as client:
        answer = client.post("/v1/odds", json={"scenario": CEIL, "seed": 3})
        assert answer.status_code == 422, answer.text
        assert "memory" in answer.json()["error"]["message"]
        assert client.post("/v1/simulate", json={"scenario": CEIL, "n": 1000}).status_code == 200  # the worker lives on


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def alive(pid: int) -> bool:
    """A process that exists and is not a zombie (a dead child its new parent has not reaped yet)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def serve(tmp_path: Path, port: int) -> Any:
    from tests.server.test_server_process import start

    return start(f"sqlite:///{tmp_path / 'tohit.db'}", port, workers=2)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_abuse_pool_workers_die_with_a_server_killed_with_kill_9(tmp_path: Path) -> None:
    port = free_port()
    proc = serve(tmp_path, port)
    try:
        assert httpx.post(f"http://127.0.0.1:{port}/v1/odds", json={"scenario": CEIL}, timeout=30).status_code == 200
        workers = children(proc.pid)
        assert len(workers) == 2
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 10
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(w) for w in workers)
    finally:
        proc.kill()
        proc.wait(10)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_abuse_a_pool_worker_ends_on_sigterm_and_the_server_replaces_it(tmp_path: Path) -> None:
    port = free_port()
    proc = serve(tmp_path, port)
    base = f"http://127.0.0.1:{port}"
    try:
        assert httpx.post(f"{base}/v1/odds", json={"scenario": CEIL}, timeout=30).status_code == 200
        worker = children(proc.pid)[0]
        os.kill(worker, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(worker)
        time.sleep(0.5)
        assert httpx.post(f"{base}/v1/odds", json={"scenario": CEIL}, timeout=30).status_code == 200
    finally:
        proc.kill()
        proc.wait(10)


# -- item 14: the API's contract --------------------------------------------------------------------------------
def test_abuse_a_wrong_method_is_a_405_that_says_what_is_allowed(client: TestClient) -> None:
    answer = client.put("/v1/roll", json={})
    assert answer.status_code == 405
    assert answer.headers["allow"] == "POST"
    assert answer.json()["error"]["message"]


def test_abuse_an_unknown_system_is_a_404(client: TestClient) -> None:
    answer = client.get("/v1/systems/chess/schema")
    assert answer.status_code == 404 and answer.json()["error"]["field"] == "system"


def test_abuse_openapi_has_a_bearer_scheme_and_the_encounter_routes_use_it(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    assert doc["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    operation = doc["paths"]["/v1/encounters/{encounter_id}"]["get"]
    assert operation["security"] == [{"bearer": []}]
    assert all(p["in"] != "header" for p in operation.get("parameters", []))
    assert "security" not in doc["paths"]["/v1/roll"]["post"]


def test_abuse_openapi_documents_the_stream_as_server_sent_events(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    content = doc["paths"]["/v1/encounters/{encounter_id}/stream"]["get"]["responses"]["200"]["content"]
    assert list(content) == ["text/event-stream"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/roll", {"scenario": CEIL_SCENARIO, "seed": 3}),
        ("/v1/odds", {"scenario": CEIL_SCENARIO}),
        ("/v1/simulate", {"scenario": CEIL_SCENARIO, "n": 500, "seed": 1}),
        ("/v1/fights/simulate", {"fight": DUEL, "n": 50, "seed": 1}),
        ("/v1/fights/exact", {"fight": DUEL}),
    ],
)
def test_abuse_openapi_response_schemas_hold_what_the_routes_answer(
    client: TestClient, path: str, body: dict[str, Any]
) -> None:
    import jsonschema

    doc = client.get("/openapi.json").json()
    schema = doc["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema != {}
    answer = client.post(path, json=body)
    assert answer.status_code == 200, answer.text
    jsonschema.Draft202012Validator(schema).validate(answer.json())
    systems = doc["paths"]["/v1/systems"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert systems["type"] == "array" and "$ref" in systems["items"]


# -- item 15: strict JSON bodies --------------------------------------------------------------------------------
def post_text(client: TestClient, path: str, text: str, token: str | None = None) -> httpx.Response:
    headers = {"Content-Type": "application/json", **(bearer(token) if token else {})}
    return client.post(path, content=text.encode(), headers=headers)


def test_abuse_a_body_with_a_duplicate_key_is_refused_naming_the_key(client: TestClient) -> None:
    answer = post_text(client, "/v1/roll", '{"scenario": {}, "scenario": {"system": "kaiser"}}')
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == "body"
    assert "'scenario' twice" in answer.json()["error"]["message"]
    nested = '{"scenario": {"system": "kaiser", "system": "rtw"}}'
    assert post_text(client, "/v1/odds", nested).status_code == 422
    enc = new_encounter(client)
    action = '{"kind": "adjust", "combatant": "a", "stat": "lp", "value": 1, "value": 2}'
    refused = post_text(client, f"/v1/encounters/{enc['id']}/actions", action, enc["gm_token"])
    assert refused.status_code == 422 and "'value' twice" in refused.json()["error"]["message"]
    events = client.get(f"/v1/encounters/{enc['id']}/events", headers=bearer(enc["gm_token"])).json()
    assert len(events) == 1  # nothing written


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/roll", {"scenario": CEIL_SCENARIO, "seed": True}, "seed"),
        ("/v1/simulate", {"scenario": CEIL_SCENARIO, "n": True}, "n"),
        ("/v1/fights/simulate", {"fight": DUEL, "n": True}, "n"),
        ("/v1/encounters", {"fight": DUEL, "seed": False}, "seed"),
    ],
)
def test_abuse_true_is_not_a_number(client: TestClient, path: str, body: dict[str, Any], field: str) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == field


def test_abuse_true_is_not_an_adjusted_value(client: TestClient) -> None:
    enc = new_encounter(client)
    action = {"kind": "adjust", "combatant": "x", "stat": "lp", "value": True}
    answer = client.post(f"/v1/encounters/{enc['id']}/actions", json=action, headers=bearer(enc["gm_token"]))
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "value", answer.text


def test_abuse_a_body_that_is_not_json_is_still_a_422(client: TestClient) -> None:
    answer = post_text(client, "/v1/roll", '{"scenario": ')
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "body"


# -- item 6: connection limits and timeouts ---------------------------------------------------------------------
def idle_sockets(port: int, count: int) -> list[socket.socket]:
    found = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        found.append(s)
    return found


def test_abuse_idle_connections_past_the_cap_are_refused_and_the_idle_ones_closed(tmp_path: Path) -> None:
    from tests.server.test_server_process import start

    port = free_port()
    options = ("--max-connections", "20", "--max-connections-per-address", "20", "--header-seconds", "1")
    proc = start(f"sqlite:///{tmp_path / 'tohit.db'}", port, 0, *options)
    try:
        idle = idle_sockets(port, 30)
        time.sleep(0.3)
        refused = 0
        for s in idle[20:]:
            s.settimeout(5)
            answer = s.recv(4096)
            refused += answer.startswith(b"HTTP/1.1 503")
        assert refused == 10
        idle[0].settimeout(5)
        assert idle[0].recv(4096) == b""  # closed by the server: no request within --header-seconds
        answer = httpx.get(f"http://127.0.0.1:{port}/v1/systems", timeout=10)
        assert answer.status_code == 200
        for s in idle:
            s.close()
    finally:
        proc.kill()
        proc.wait(10)


def trickling(port: int, count: int, source: str) -> list[socket.socket]:
    """`count` connections from `source` that send a roll's headers and one byte of its 1,000-byte body."""
    found = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
        s.sendall(
            b"POST /v1/roll HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"
        )
        found.append(s)
    return found


def test_abuse_one_address_trickling_bodies_locks_nobody_out(tmp_path: Path) -> None:
    """Issue 38, item 3: one address that holds connections open, trickling request bodies, takes at most its share
    of the slots (`--max-connections-per-address`, by default half of `--max-connections`): its connections past the
    share are a 503 at once, a client from another address is served, and the trickling ones are closed once their
    body is late (`--body-seconds`)."""
    from tests.server.test_server_process import start

    port = free_port()
    options = ("--max-connections", "40", "--body-seconds", "2")
    proc = start(f"sqlite:///{tmp_path / 'tohit.db'}", port, 0, *options)
    try:
        held = trickling(port, 40, "127.0.0.2")
        time.sleep(0.3)
        refused = 0
        for s in held[20:]:
            s.settimeout(5)
            refused += s.recv(4096).startswith(b"HTTP/1.1 503")
        assert refused == 20
        assert httpx.get(f"http://127.0.0.1:{port}/v1/systems", timeout=10).status_code == 200
        held[0].settimeout(10)
        assert held[0].recv(4096) == b""  # closed by the server: the body not whole within --body-seconds
        for s in held:
            s.close()
    finally:
        proc.kill()
        proc.wait(10)


def test_abuse_x_forwarded_for_is_believed_from_nobody_by_default(tmp_path: Path) -> None:
    """Issue 38, item 3: the creation cap counts the connection's address; a client's own X-Forwarded-For does not
    move it elsewhere (uvicorn believed it from 127.0.0.1), unless `--forwarded-allow-ips` names the proxy."""
    from tests.server.test_server_process import start

    port = free_port()
    fight = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
    proc = start(f"sqlite:///{tmp_path / 'tohit.db'}", port, 0, "--creates-per-minute", "2")
    try:
        url = f"http://127.0.0.1:{port}/v1/encounters"
        codes = [
            httpx.post(url, json={"fight": fight}, headers={"X-Forwarded-For": f"10.0.0.{k}"}, timeout=30).status_code
            for k in range(4)
        ]
        assert codes == [201, 201, 429, 429], codes
    finally:
        proc.kill()
        proc.wait(10)


def test_abuse_running_out_of_descriptors_is_logged_once(tmp_path: Path) -> None:
    from tests.server.test_server_process import start

    port = free_port()
    options = ("--max-connections", "1000", "--header-seconds", "3")
    proc = start(f"sqlite:///{tmp_path / 'tohit.db'}", port, 0, *options, files=128)
    try:
        idle: list[socket.socket] = []
        for _ in range(200):  # past the server's 128 descriptors: the kernel queues the rest
            try:
                idle += idle_sockets(port, 1)
            except OSError:
                break
        time.sleep(2.5)  # the event loop tries to accept again each second
        for s in idle:
            s.close()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/v1/systems", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            raise AssertionError("the server did not come back")
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    assert proc.stdout is not None
    log = proc.stdout.read()
    assert log.count("out of file descriptors") == 1, log[-3000:]
    assert "Traceback" not in log and "out of system resource" not in log, log[-3000:]


# -- item 5: dice entropy stays server-side ---------------------------------------------------------------------
def test_abuse_what_the_view_token_reads_holds_no_seed_and_the_gm_export_replays(
    client: TestClient, tmp_path: Path
) -> None:
    from tohit.engine.fight.replay import replay

    enc = new_encounter(client)
    eid, gm, view = enc["id"], bearer(enc["gm_token"]), bearer(enc["view_token"])
    for _ in range(300):  # to the end: a log replays once it is over
        if client.get(f"/v1/encounters/{eid}", headers=gm).json()["over"]:
            break
        assert client.post(f"/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=gm).status_code == 201
    for path in ("", "/events", "/events.jsonl", "/sheet"):
        assert '"seed"' not in client.get(f"/v1/encounters/{eid}{path}", headers=view).text, path
    with client.stream("GET", f"/v1/encounters/{eid}/stream?after=-1", headers=view) as stream:
        text = ""
        for chunk in stream.iter_text():
            text += chunk
            if text.count("event: ") >= 4:
                break
    assert text.count("event: ") >= 4 and '"seed"' not in text
    export = client.get(f"/v1/encounters/{eid}/events.jsonl", headers=gm).text
    assert '"seed"' in export
    assert json.loads(export.splitlines()[0])["seed"] == 1  # the seed the encounter was made with
    log = tmp_path / "gm.jsonl"
    log.write_text(export)
    rebuilt = replay(log)
    assert rebuilt.matches, rebuilt.mismatches


def test_abuse_encounters_made_from_one_example_roll_different_dice_unless_given_a_seed(client: TestClient) -> None:
    examples = client.get("/v1/examples").json()
    example = examples[0]["id"]

    def start_seed(body: dict[str, Any]) -> int:
        made = client.post("/v1/encounters", json=body).json()
        events = client.get(f"/v1/encounters/{made['id']}/events", headers=bearer(made["gm_token"])).json()
        return int(events[0]["seed"])

    assert start_seed({"example": example}) != start_seed({"example": example})
    assert start_seed({"example": example, "seed": 7}) == start_seed({"example": example, "seed": 7}) == 7


# -- item 11: encounters and fights obey --max-depth -------------------------------------------------------------
@pytest.mark.parametrize("path", ["/v1/encounters", "/v1/fights/simulate", "/v1/fights/exact"])
def test_abuse_a_fight_options_depth_over_the_cap_is_refused(client: TestClient, path: str) -> None:
    deep = {**DUEL, "options": {"depth": 40}}
    answer = client.post(path, json={"fight": deep, "n": 10} if "simulate" in path else {"fight": deep})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == "max-depth"
    assert "options.depth 40" in answer.json()["error"]["message"]
    within = client.post("/v1/encounters", json={"fight": {**DUEL, "options": {"depth": 20}}})
    assert within.status_code == 201


def test_abuse_a_text_fight_with_a_deep_options_depth_is_refused(client: TestClient) -> None:
    text = yaml.safe_dump({**DUEL, "options": {"depth": 30}})
    answer = client.post("/v1/encounters", json={"text": text, "name": "deep.yaml"})
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "max-depth"


# -- item 7: creation rate and name lengths ----------------------------------------------------------------------
def test_abuse_creation_past_the_rate_from_one_address_is_a_429_with_retry_after(tmp_path: Path) -> None:
    settings = Settings(db=f"sqlite:///{tmp_path / 't.db'}", admin_token=ADMIN, workers=0, creates_per_minute=3)
    with TestClient(create_app(settings)) as client:
        for _ in range(3):
            assert client.post("/v1/encounters", json={"fight": DUEL}).status_code == 201
        answer = client.post("/v1/encounters", json={"fight": DUEL})
        assert answer.status_code == 429, answer.text
        assert answer.json()["error"]["field"] == "creates-per-minute"
        assert 1 <= int(answer.headers["retry-after"]) <= 20
        assert client.get("/v1/encounters", headers=bearer(ADMIN)).json().__len__() == 3


def test_abuse_the_creation_rate_refills_one_each_60_over_n_seconds() -> None:
    from tohit.server.limits import CreationRate

    rate = CreationRate(6)  # a burst of 6, then one each 10 s
    assert [rate.take("a", 0.0) for _ in range(6)] == [None] * 6
    assert rate.take("a", 0.0) == pytest.approx(10.0)
    assert rate.take("b", 0.0) is None  # another address: its own bucket
    assert rate.take("a", 9.0) == pytest.approx(1.0)
    assert rate.take("a", 10.5) is None
    rate.forget(1000.0)
    assert rate.buckets == {}


def test_abuse_a_name_of_half_a_million_characters_is_refused(client: TestClient) -> None:
    import copy

    fight = copy.deepcopy(DUEL)
    fight["sides"][0]["combatants"][0]["name"] = "x" * 500_000
    answer = client.post("/v1/encounters", json={"fight": fight})
    assert answer.status_code == 422, answer.text[:300]
    assert answer.json()["error"]["field"] == "sides[0].combatants[0].name"
    assert "500,000 characters" in answer.json()["error"]["message"]
    keyed = {**DUEL, "x" * 300: 1}
    assert client.post("/v1/encounters", json={"fight": keyed}).json()["error"]["field"] == "the top: a key"


@pytest.mark.parametrize("field", ["attacker", "attack", "combatant", "stat"])
def test_abuse_a_long_name_in_an_action_is_refused(client: TestClient, field: str) -> None:
    enc = new_encounter(client)
    names = enc["state"]["combatants"]
    first = next(iter(names))
    given = (
        {"kind": "attack", "attacker": first, "targets": [first]}
        if field in ("attacker", "attack")
        else {"kind": "adjust", "combatant": first, "stat": "hp", "value": 1}
    )
    action = {**given, field: "y" * 201}  # an action of the kind that takes the field, its name too long
    answer = client.post(f"/v1/encounters/{enc['id']}/actions", json=action, headers=bearer(enc["gm_token"]))
    assert answer.status_code == 422 and answer.json()["error"]["field"] == field


# -- item 4: a stream re-checks its token -----------------------------------------------------------------------
def follow(client: TestClient, eid: str, token: str, into: list[str]) -> threading.Thread:
    """A follower of the encounter's stream, in a thread: what it reads, until the stream ends."""

    def read() -> None:
        with client.stream("GET", f"/v1/encounters/{eid}/stream", headers=bearer(token)) as stream:
            for chunk in stream.iter_text():
                into.append(chunk)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def test_abuse_a_stream_ends_when_its_view_token_is_replaced(client: TestClient) -> None:
    enc = new_encounter(client)
    eid, gm = enc["id"], bearer(enc["gm_token"])
    view: list[str] = []
    mine: list[str] = []
    viewer, keeper = follow(client, eid, enc["view_token"], view), follow(client, eid, enc["gm_token"], mine)
    time.sleep(0.3)
    assert client.post(f"/v1/encounters/{eid}/view_token", headers=gm).status_code == 201
    viewer.join(10)
    assert not viewer.is_alive()
    assert "event: end" in "".join(view) and "no longer opens" in "".join(view)
    assert client.post(f"/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=gm).status_code == 201
    time.sleep(0.3)
    assert keeper.is_alive()  # the GM's stream goes on, and shows the action
    assert "event: " in "".join(mine) and "event: end" not in "".join(mine)
    assert client.delete(f"/v1/encounters/{eid}", headers=gm).status_code == 204
    keeper.join(10)
    assert not keeper.is_alive()
    assert "the encounter was deleted" in "".join(mine)


def test_abuse_a_store_busy_past_its_timeout_is_a_503_and_nothing_is_written(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database that cannot take the write now (SQLite's lock held by another process past the busy timeout) is a
    503 with Retry-After, never a 500, whose message does not claim that nothing was written (at COMMIT that is
    not known) but says to read the seq and send again with expected_seq; here nothing of the action is kept,
    and the same action then lands."""
    import sqlite3

    from sqlalchemy.exc import OperationalError

    from tohit.store.db import Store

    enc = new_encounter(client)
    gm = {"Authorization": f"Bearer {enc['gm_token']}"}
    before = client.get(f"/v1/encounters/{enc['id']}", headers=gm).json()["seq"]
    real = Store.append

    def locked(self: Store, encounter_id: str, expected: int, events: Any) -> None:
        raise OperationalError("INSERT INTO events", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(Store, "append", locked)
    answer = client.post(f"/v1/encounters/{enc['id']}/actions", json={"kind": "auto"}, headers=gm)
    assert answer.status_code == 503, answer.text
    message = answer.json()["error"]["message"]
    assert answer.headers["Retry-After"] and "nothing was written" not in message
    assert "expected_seq" in message and "seq" in message.replace("expected_seq", "")
    assert client.get(f"/v1/encounters/{enc['id']}", headers=gm).json()["seq"] == before
    monkeypatch.setattr(Store, "append", real)
    again = client.post(
        f"/v1/encounters/{enc['id']}/actions", json={"kind": "auto", "expected_seq": before}, headers=gm
    )
    assert again.status_code == 201, again.text
