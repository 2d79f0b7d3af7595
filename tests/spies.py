"""A spy for tests: the first argument of each call of a function, recorded while the real one still runs."""

from __future__ import annotations

from typing import Any

import pytest


def first_arguments(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[Any]:
    """`owner.name` replaced (for the test) by one that appends its first argument to the list returned, then
    calls the real one with every argument."""
    seen: list[Any] = []
    real = getattr(owner, name)

    def spy(first: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(first)
        return real(first, *args, **kwargs)

    monkeypatch.setattr(owner, name, spy)
    return seen
