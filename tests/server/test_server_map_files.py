"""Over HTTP nothing a client sends names a file on the server (issue 40, part 3): a UVTT map whose `image` is a
file name (as the Foundry-to-UVTT script writes it) is a 422 naming `uvtt.image`, and a fight whose map's
picture names a UVTT file is a 422 naming `map.picture.uvtt`; neither creates an encounter nor reads the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from fastapi.testclient import TestClient

from tests.grid.uvtt_fixtures import cellar, cellar_fight, write_uvtt
from tests.server.conftest import ADMIN


def encounters(client: TestClient) -> int:
    return len(client.get("/v1/encounters", headers={"Authorization": f"Bearer {ADMIN}"}).json())


def test_an_uploaded_map_whose_image_is_a_file_name_is_a_422_naming_uvtt_image(client: TestClient) -> None:
    before = encounters(client)
    converted = {**cellar(), "image": "foundry-cellar.png"}  # as tests/grid/uvtt/foundry-cellar.uvtt has it
    answer = client.post("/v1/encounters", json={"fight": cellar_fight(), "uvtt": converted})
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["field"] == "uvtt.image"
    assert "foundry-cellar.png" in error["message"] and "names a file on the server" in error["message"]
    assert encounters(client) == before


def test_a_fight_whose_picture_names_a_file_is_a_422_and_the_file_is_not_read(
    client: TestClient, tmp_path: Path
) -> None:
    before = encounters(client)
    secret = write_uvtt(tmp_path, cellar(), "on-the-server.dd2vtt")
    fight = cellar_fight()
    fight["map"] = {"width": 10, "height": 4, "picture": {"uvtt": str(secret), "pixels_per_grid": 10}}
    answer = client.post("/v1/encounters", json={"fight": fight})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == "map.picture.uvtt"
    answer = client.post("/v1/encounters", json={"text": yaml.safe_dump(fight), "name": "f.yaml"})
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "map.picture.uvtt"
    assert encounters(client) == before


def test_a_map_given_as_a_file_name_over_http_says_it_means_uvtt(client: TestClient) -> None:
    fight = {**cellar_fight(), "map": "cellar.dd2vtt"}
    answer = client.post("/v1/encounters", json={"fight": fight})
    assert answer.status_code == 422, answer.text
    assert "{uvtt: 'cellar.dd2vtt'}" in answer.json()["error"]["message"]


def test_an_uploaded_map_replaces_a_fight_map_that_named_a_file(client: TestClient, tmp_path: Path) -> None:
    fight = cellar_fight()
    fight["map"] = {"width": 10, "height": 4, "picture": {"uvtt": str(tmp_path / "x.dd2vtt"), "pixels_per_grid": 10}}
    answer = client.post("/v1/encounters", json={"fight": fight, "uvtt": cellar()})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    gm = {"Authorization": f"Bearer {made['gm_token']}"}
    picture = client.get(f"/v1/encounters/{made['id']}/picture", headers=gm)
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/png"


def test_a_picture_is_made_once_and_then_read_as_made(client: TestClient, monkeypatch: Any) -> None:
    """Issue 38, item 2: an encounter's picture is made once (in the pool's "picture" lane, its size checked from
    the image's header before any decoding) and kept: three GETs make it once, and each answers the same bytes."""
    from tohit.server import pictures

    made: list[int] = []
    real = pictures.picture

    def counted(fight: dict[str, Any], *caps: int) -> Any:
        made.append(1)
        return real(fight, *caps)

    monkeypatch.setattr(pictures, "picture", counted)
    created = client.post("/v1/encounters", json={"fight": cellar_fight(), "uvtt": cellar()}).json()
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    answers = [client.get(f"/v1/encounters/{created['id']}/picture", headers=gm) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert answers[0].content[:4] == b"\x89PNG" and len({a.content for a in answers}) == 1
    assert made == [1]


def test_a_picture_over_the_pixel_cap_is_a_422_naming_it(tmp_path: Path) -> None:
    """Issue 38, item 8: the pixel cap is a flag (`--max-pixels`, Settings.max_pixels): a map whose picture is over
    it (its size read from the image's header) creates no encounter, a 422 naming the picture and the flag; an
    encounter made under a higher cap answers its picture's GET with the same 422 once the cap is lowered."""
    from tohit.server.app import Settings, create_app

    db = f"sqlite:///{tmp_path / 'pixels.db'}"
    pixels = 10 * 10 * 4 * 10  # the cellar's picture: 10 x 4 squares of 10 pixels
    with TestClient(create_app(Settings(db=db, admin_token=ADMIN, workers=0, max_pixels=pixels - 1))) as low:
        answer = low.post("/v1/encounters", json={"fight": cellar_fight(), "uvtt": cellar()})
        assert answer.status_code == 422, answer.text
        error = answer.json()["error"]
        assert error["field"] == "map.picture.image" and "--max-pixels" in error["message"], error
        assert f"{pixels:,}" in error["message"]
    with TestClient(create_app(Settings(db=db, admin_token=ADMIN, workers=0, max_pixels=pixels))) as high:
        created = high.post("/v1/encounters", json={"fight": cellar_fight(), "uvtt": cellar()})
        assert created.status_code == 201, created.text
    gm = {"Authorization": f"Bearer {created.json()['gm_token']}"}
    with TestClient(create_app(Settings(db=db, admin_token=ADMIN, workers=0, max_pixels=pixels - 1))) as low:
        answer = low.get(f"/v1/encounters/{created.json()['id']}/picture", headers=gm)
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]["field"] == "map.picture.image"
