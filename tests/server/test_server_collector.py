"""A flat tail (issue 38, item 6): `tohit serve` freezes, after each full collection, what that collection found
alive, so the next full pass walks only what came since (server/collector.py; benchmarks/bench_server_gc.py
measures it). What is frozen is still freed by reference counting."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tohit.cli.app import app as cli
from tohit.server import collector


@pytest.fixture
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    collector.stop_freezing()
    gc.unfreeze()


class Held:
    """An object the collector tracks (it has a __dict__), to be held and let go."""


def test_collector_a_full_pass_freezes_what_it_found_alive_and_refcounting_still_frees_it(unfrozen: None) -> None:
    collector.freeze_survivors()
    collector.freeze_survivors()  # once only
    assert gc.callbacks.count(collector._freeze_survivors) == 1
    kept = [Held() for _ in range(1000)]
    gc.collect()
    assert gc.get_freeze_count() >= len(kept)
    walked = {id(o) for o in gc.get_objects()}  # what the next full pass walks
    assert not walked & {id(k) for k in kept}
    gone = weakref.ref(kept[0])
    del kept
    assert gone() is None  # frozen, and freed all the same when the last reference goes


def test_collector_young_passes_freeze_nothing(unfrozen: None) -> None:
    collector.freeze_survivors()
    gc.collect(1)
    assert gc.get_freeze_count() == 0


def test_serve_freezes_each_full_passs_survivors(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, unfrozen: None
) -> None:
    from tohit.server import listening

    installed: list[bool] = []
    monkeypatch.setattr(
        listening, "run", lambda *a: installed.append(collector._freeze_survivors in gc.callbacks) or True
    )
    monkeypatch.setenv("TOHIT_ADMIN_TOKEN", "admin")
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'gc.db'}"])
    assert result.exit_code == 0, result.output
    assert installed == [True], result.output
