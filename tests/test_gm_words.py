"""The game master's words are written from each event's data by one renderer (issue 37, item 1; docs/players.md,
"Events are data, told to each audience"): a game's step hands `emit` the data, never the sentence, and the
words over every bundled fight stay what they were (tests/data/gm_words.jsonl, made by tests/gm_words_corpus.py).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.gm_words_corpus import CORPUS, FIGHTS, corpus_of
from tohit.core.fight.words import gm_told

SRC = Path(__file__).resolve().parents[1] / "src" / "tohit"
#: Where steps emit events: the engine's own kinds, and each game's package.
EMITTERS = {
    "core": SRC / "core",
    "engine": SRC / "engine",
    "fullplate": SRC / "systems" / "fullplate",
    "kaiser": SRC / "systems" / "kaiser",
    "last-odyssey": SRC / "systems" / "last_odyssey",
    "rtw": SRC / "systems" / "rtw",
    "wsswnn": SRC / "systems" / "wsswnn",
}
#: The emitters whose steps still hand words (each leaves this list when it hands data alone).
STILL_WORDED: set[str] = set()


def worded_calls(folder: Path) -> list[str]:
    """Each `.emit(kind, changes, words...)` or `.tell(kind, words...)` call under `folder` that hands its words
    (positionally or as `text=`), as "file:line"."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            given = len(node.args) + sum(k.arg in ("text", "words") for k in node.keywords)
            if (node.func.attr == "emit" and given >= 3) or (node.func.attr == "tell" and given >= 2):
                found.append(f"{path.relative_to(SRC)}:{node.lineno}")
    return found


@pytest.mark.parametrize(
    "emitter",
    [
        pytest.param(e, marks=pytest.mark.xfail(strict=True, reason="still hands words")) if e in STILL_WORDED else e
        for e in EMITTERS
    ],
)
def test_steps_hand_the_event_data_never_the_sentence(emitter: str) -> None:
    assert worded_calls(EMITTERS[emitter]) == []


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: p.stem)
def test_the_game_masters_words_of_every_bundled_fight_are_kept(path: Path) -> None:
    kept = [row for row in map(json.loads, CORPUS.read_text().splitlines()) if row["fight"] == path.name]
    now = list(corpus_of(path))
    moved = [(a, b) for a, b in zip(kept, now, strict=False) if a != b]
    assert not moved, f"first moved: {moved[0][0]} -> {moved[0][1]}"
    assert len(now) == len(kept)


def test_a_games_phrase_words_its_kind_before_the_common_one() -> None:
    def game(event: Mapping[str, Any]) -> str:
        return f"{event['combatant']} holds"

    def common(event: Mapping[str, Any]) -> str:
        return "common"

    assert gm_told({"kind": "hold", "combatant": "Link"}, {"hold": game}, {"hold": common}) == "Link holds"
    assert gm_told({"kind": "hold", "combatant": "Link"}, {}, {"hold": common}) == "common"


def test_a_kind_no_phrase_words_is_a_defect_named_by_its_kind() -> None:
    with pytest.raises(LookupError, match="'hold'"):
        gm_told({"kind": "hold"}, {}, {})
