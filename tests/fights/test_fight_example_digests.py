"""The bundled fights give the same bytes for the same seed, release after release: a digest of each example's
`tohit fight FILE -n 2000 --seed 1 --json` result (both samplers) and of its narrated `--seed 1` events pins them,
so a change that moves a result says so here (and the closing note of its issue says why)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.run import narrate, simulate_fights

FIGHTS = sorted((EXAMPLES / "fights").glob("*.yaml"))

#: Per example: the digests of its simulated result (table sampler, direct sampler) and of its narrated events.
#: Moved since they were first pinned: the two Kaiser fights' narrated events, whose hits of 0 Units now say
#: "hit, 0 damage" (FightRules.hit_says_no_damage); their results did not move. The three WSSWNN fights' narrated
#: events: a Maneuver roll's event carries its data (issue 37: who rolled, the roll, whether it beats, the foes'
#: highest Awareness), its words unchanged; their results did not move. FullPlate's, RTW's and WSSWNN's narrated
#: events: each carries the data its game master's words are written from (issue 37 item 1: `combatant`, `damage`,
#: ...), the words unchanged (tests/data/gm_words.jsonl); their results did not move.
#: Kaiser's three fights' narrated events again: each Kaiser event carries the data its words are written from
#: (issue 37: `combatant`, `cost`, `bonus`, `damage`, a Critical's dice, level, PhR and DoF...), its words unchanged;
#: their results did not move. The two Last Odyssey fights' narrated events likewise (`combatant`, `damage`, `shell`,
#: `absorbed`, `status`, `statistic`, `side`...).
#: Every fight's narrated events again: the engine's events carry the data their words are written from too
#: (`note`, `winners`, a turn's `combatant` and `round`...), the words unchanged; the results did not move.
#: The two Last Odyssey fights' narrated events again: where nobody calls initiative and the Initiatives leave the
#: file's order as it is, a fight the engine runs keeps no `turn` stat (issue 42: it goes in the file's order, as a
#: game without an Initiative does), so their start state has none; the words and the results did not move.
#: The three Kaiser fights' table-sampler results (issue 42): the table sampler draws from joint tables at depth 2
#: (`modes.sample.TABLE_DEPTH`), where it drew at depth 1, so an open roll falls past the table 5 times less often;
#: the same law, other draws for the seed. Their direct-sampler results and narrated events did not move, nor did
#: any other game's (no other game has open rolls: their tables are the same at either depth).
DIGESTS: dict[str, tuple[str, str, str]] = {
    "fullplate-skirmish": ("6dde69cc06d000eb", "2503ffff962d1433", "3c6ada7ee0f9c68a"),
    "kaiser-duel": ("e66c4e7edb526e1c", "0ab65d9be7e81d2e", "513e84032391e9fb"),
    "kaiser-party-vs-bandits": ("341c8fa3e4417da9", "09f5e9e3ba57fc88", "dc1f6e32893692d4"),
    "kaiser-troll": ("b6796a71905ea0ae", "bc41039f80fe5e80", "f9c5cb6b6345ecb3"),
    "last-odyssey-cops": ("764d9869d4e9cbb3", "154782f3cf2e3818", "86492e0317214f1f"),
    "last-odyssey-ogre": ("2bc744aac01a8b73", "285db054c7f23c70", "965622793997fb32"),
    "rtw-bokoblin-camp": ("f030e3566fcc5e26", "325a56117df443e5", "797d26600d84ad94"),
    "rtw-keese-swarm": ("a44f711702bc9f30", "add9c28ee1f3e976", "1d9901fcf0d731a7"),
    "rtw-lizalfos-ambush": ("368a1361608af368", "8b4319c89365aa5f", "a04e20606b0131b0"),
    "rtw-map": ("8c0a90b72ba2ad62", "0967c72ede7b981d", "3309705eb0bfb867"),
    "rtw-moving-skirmish": ("f6b18814211da47f", "cb1b828552406041", "83a418cf8f875cd6"),
    "rtw-wizzrobe-trick": ("328b7de8fea55218", "709255c90bf8a9e3", "86669314db247c30"),
    "wsswnn-grapple-and-archer": ("3971d7965da2dcf4", "6d5ace3427409f3f", "d8c898defb70a6c1"),
    "wsswnn-kulu-brute": ("6eaa4f6748efd02b", "2c528f24a7d76887", "0330c3e2b3891fb0"),
    "wsswnn-wrestler-and-axe": ("952b56a6a7151ac4", "efc92010804fabc5", "ce21114ebbb7c42c"),
}


def digest(value: Any) -> str:
    """The first 16 hex digits of the SHA-256 of `value` as sorted JSON."""
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def test_every_bundled_fight_has_its_digests() -> None:
    assert sorted(DIGESTS) == [p.stem for p in FIGHTS]


@pytest.mark.parametrize("path", FIGHTS, ids=[p.stem for p in FIGHTS])
def test_a_bundled_fight_gives_the_same_bytes_for_the_same_seed(path: Path) -> None:
    table = simulate_fights(load_fight(path), 2_000, seed=1).to_json()
    direct = simulate_fights(load_fight(path), 2_000, seed=1, method="direct").to_json()
    events = narrate(load_fight(path), 1).events
    events[0].pop("source")  # where the checkout is
    assert (digest(table), digest(direct), digest(events)) == DIGESTS[path.stem]
