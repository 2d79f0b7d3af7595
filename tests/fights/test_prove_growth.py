"""The exact duel's proof that it can end explores a quarter more states each step (issue 42, item 3): an end many
blows away is seen to through fewer outcome rows, and a stalemate's answer (False, the states it reached, whether
it met the depth) is the same at any growth: it needs every state explored, within the same budgets."""

from __future__ import annotations

import pytest

from tests.fights.test_chain_solve import _wsswnn_duel
from tests.fights.test_fight_stalemate import worn_guard
from tohit.engine.fight import play
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.exact import PROVE_GROWTH
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.stalemate import can_end


def test_a_stalemates_answer_is_the_same_at_any_growth() -> None:
    fight = fight_from_dict(worn_guard(6), source="x")
    answers = []
    for growth in (PROVE_GROWTH, 2.0, 3.0):
        reached: list[bytes] = []
        cut: list[bool] = []
        answer = can_end(fight, initial_state(fight, 1), limit=50_000, reached=reached, cut=cut, growth=growth)
        answers.append((answer, sorted(reached), cut))
    assert answers[0][0] is False and answers[0][1] and answers[0] == answers[1] == answers[2]


def test_an_end_many_blows_away_is_seen_through_fewer_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """WSSWNN's duel of 20 Life each (a blow takes at most a few): the proof at the exact duel's growth reads fewer
    outcome rows than at doubling (fewer than a quarter), and both say it can end."""
    fight = fight_from_dict(_wsswnn_duel(20))
    real = play.advance
    rows: list[int] = []

    def counted(ctx):  # type: ignore[no-untyped-def]
        out = real(ctx)
        rows[-1] += ctx.state.n
        return out

    monkeypatch.setattr(play, "advance", counted)
    read = {}
    for growth in (PROVE_GROWTH, 2.0):
        rows.append(0)
        assert can_end(fight, initial_state(fight, 1), limit=200_000, max_rows=10**7, growth=growth) is True
        read[growth] = rows[-1]
    assert 4 * read[PROVE_GROWTH] < read[2.0], read  # 2,006 rows against 16,976
