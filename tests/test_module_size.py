"""No module in src/tohit is over 600 lines (issue 27, item 2: "No module in `src/tohit` over 600 lines").

A module that grows past it is split by what it holds, into small modules named after what they hold.
"""

from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "tohit"

#: The most lines a module may have.
MAX_LINES = 600

#: Modules still over, each with the issue that splits it. Remove a module from here when it is split.
KNOWN_OVER: dict[str, str] = {}


def lines_of(path: Path) -> int:
    """A module's lines, as `wc -l` and an editor count them."""
    return len(path.read_text(encoding="utf-8").splitlines())


def over(root: Path, limit: int = MAX_LINES) -> dict[str, int]:
    """Each module under `root` (its path from `root`) with more than `limit` lines, and its lines."""
    found = {path.relative_to(root).as_posix(): lines_of(path) for path in sorted(root.rglob("*.py"))}
    return {name: n for name, n in found.items() if n > limit}


def test_no_module_in_src_tohit_is_over_600_lines() -> None:
    found = over(SRC)
    new = {name: n for name, n in found.items() if name not in KNOWN_OVER}
    assert not new, "over 600 lines (split each by what it holds): " + ", ".join(
        f"src/tohit/{name} ({n} lines)" for name, n in new.items()
    )


def test_every_known_exception_is_still_over_600_lines() -> None:
    """An exception no longer over the limit is taken off the list, so the module cannot grow back unseen."""
    found = over(SRC)
    stale = [name for name in KNOWN_OVER if name not in found]
    assert not stale, "no longer over 600 lines: remove from KNOWN_OVER: " + ", ".join(stale)


def test_over_lists_a_module_past_the_limit(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "big.py").write_text("x = 1\n" * 601)
    (tmp_path / "pkg" / "small.py").write_text("x = 1\n" * 600)
    assert over(tmp_path) == {"pkg/big.py": 601}
