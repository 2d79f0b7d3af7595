"""issue 40, item 5: the repository stands alone. Nothing in it cites a file outside it (the team's design notes
in a folder beside the clone); the design it follows is described in docs/architecture.md, which module
docstrings cite by section (`docs/architecture.md, "<section>"`), and every section cited there exists."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = "docs/architecture.md"
#: A reference to a file outside the repository: the folder beside the clone, or the design notes by their name
#: (written in two parts, so that this file does not match itself).
OUTSIDE = re.compile("|".join([re.escape("../" + "shared"), r"\bdesign" + r"\.md\b"]))
#: Folders that are not the repository's own files when it is not a git checkout (an unpacked sdist).
NOT_OURS = {".git", ".venv", "build", "dist", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}


def tracked() -> list[Path]:
    """The repository's tracked files (`git ls-files`); outside a git checkout, every file under it but caches."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout.decode()
        return [ROOT / name for name in listed.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        return [p for p in ROOT.rglob("*") if p.is_file() and not NOT_OURS & set(p.relative_to(ROOT).parts)]


def references_outside(files: list[Path]) -> list[str]:
    """`file:line: match` of every reference to a file outside the repository."""
    found = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # a picture, a deleted file not yet committed
        for n, line in enumerate(text.splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{n}: {m.group(0)}" for m in OUTSIDE.finditer(line)]
    return found


def test_nothing_in_the_repository_cites_a_file_outside_it() -> None:
    files = tracked()
    assert any(p.name == "README.md" for p in files) and len(files) > 100  # the walk found the repository
    bad = references_outside(files)
    assert not bad, "\n".join(bad)


def test_the_check_catches_the_old_forms() -> None:
    for text in ("The design follows `.." + "/shared/design" + ".md`.", "Scenario models (design" + ".md, Content)."):
        assert OUTSIDE.search(text), text
    assert not OUTSIDE.search('Scenario models (docs/architecture.md, "Content is data").')


def sections() -> set[str]:
    text = (ROOT / ARCHITECTURE).read_text(encoding="utf-8")
    return {h.strip() for h in re.findall(r"^## (.+)$", text, re.M)}


def test_every_section_of_the_architecture_a_docstring_cites_exists() -> None:
    """`docs/architecture.md, "<section>"` names one of its headings."""
    cited = re.compile(re.escape(ARCHITECTURE) + r'[,:] "([^"]+)"')
    known = sections()
    missing, seen = [], 0
    for path in tracked():
        if path.suffix not in (".py", ".md"):
            continue
        text = " ".join(path.read_text(encoding="utf-8").split())  # a citation may be wrapped over two lines
        for m in cited.finditer(text):
            if m.group(1) == "<section>":  # the form, as this file and docs/architecture.md write it
                continue
            seen += 1
            if m.group(1) not in known:
                missing.append(f"{path.relative_to(ROOT)}: {m.group(1)}")
    assert seen >= 25, seen  # the module docstrings that cited the design notes cite the architecture now
    assert not missing, f"sections: {sorted(known)}\n" + "\n".join(missing)
