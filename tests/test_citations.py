"""Traces and code cite what a user can open (issue 30, item 6): the page's section, or the project's own docs,
where each reading tohit takes where a page is silent has an entry with a stable anchor
(`docs/<id>.md#silent-<name>`, listed by `tohit reference <id>` under "Where the page is silent")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tohit.cli.app import app
from tohit.engine import registry
from tohit.engine.reference import field_reference

SRC = Path(__file__).resolve().parents[1] / "src" / "tohit"
GAMES = sorted(registry.systems())

#: The team's private rules folder: its notes of decisions, its notes of sources and gaps, and the file names of
#: the rulebook pages and of the games' other pages (none ships with tohit). A citation names a page by its title.
PRIVATE = re.compile(r"\bdecisions\b|sources-and-gaps|shared/rules|(?<![\w/.-])(?!docs/)[\w./-]+\.(?:md|txt)\b", re.I)
#: Files a string may name: the project's own docs (docs/architecture.md among them, which module docstrings cite)
#: and README.
ALLOWED_FILES = re.compile(r"^(?:docs/[\w-]+\.md|README\.md)$")
CITATION = re.compile(r"docs/([\w-]+)\.md#([\w-]+)")


def strings() -> list[tuple[str, int, str]]:
    """(file, line, text) of every string constant in src/tohit (docstrings included), f-strings' parts too;
    a system's `page` (the rulebook file it implements, data rather than a citation) left out."""
    found: list[tuple[str, int, str]] = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["page"]:
                skip.add(id(node.value))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                found.append((str(path.relative_to(SRC)), node.lineno, node.value))
    for path in sorted(SRC.rglob("*.yaml")):
        found.append((str(path.relative_to(SRC)), 1, path.read_text(encoding="utf-8")))
    return found


def private_citations(text: str) -> list[str]:
    return [m.group(0) for m in PRIVATE.finditer(text) if not ALLOWED_FILES.match(m.group(0))]


def test_no_string_in_src_cites_decisions_or_a_private_rules_file() -> None:
    """Traces cite what a user can open: no string in src/tohit cites "decisions" (the team's private notes) or a
    file of the private rules folder (a page's or a note's file name)."""
    bad = [f"{f}:{line}: {hit}" for f, line, text in strings() for hit in private_citations(text)]
    assert not bad, "\n".join(bad[:40])


def test_the_private_citation_check_catches_the_old_forms() -> None:
    """The check above can fail: the forms the traces used before are caught, the project's own docs are not."""
    for old in ("rtw: Peril (decisions 8)", "status_effects.md", "decisions.md §rtw", "[Starting-Battles.md]"):
        assert private_citations(old), old
    assert private_citations("sources-and-gaps.md, Kaiser") and private_citations("shared/rules/kaiser.md")
    assert not private_citations("rtw: Peril (docs/rtw.md#silent-peril); see docs/fights.md")


def anchors(game: str) -> set[str]:
    """The anchors of docs/<game>.md as `tohit reference` writes it: explicit ids and the headings' slugs."""
    text = field_reference(registry.get(game))
    ids = set(re.findall(r'<a id="([\w-]+)"></a>', text))
    slugs = {re.sub(r"[^\w -]", "", h.strip().lower()).replace(" ", "-") for h in re.findall(r"^#+ (.+)$", text, re.M)}
    return ids | slugs


def test_every_anchor_a_citation_names_exists_in_the_generated_docs() -> None:
    """Every `docs/<id>.md#<anchor>` cited in src/tohit (traces, descriptions, docstrings) is an anchor of the docs
    `tohit reference <id>` generates."""
    cited = {(m.group(1), m.group(2), f) for f, _, text in strings() for m in CITATION.finditer(text)}
    assert cited, "no citation of the docs found: the check would pass vacuously"
    known = {game: anchors(game) for game in GAMES}
    missing = sorted(f"{f}: docs/{g}.md#{a}" for g, a, f in cited if g not in known or a not in known[g])
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("game", GAMES)
def test_tohit_reference_lists_where_the_page_is_silent(game: str) -> None:
    """`tohit reference <game>` lists each reading under "Where the page is silent", each at its own stable
    anchor `silent-<name>`, with a title and a text."""
    system = registry.get(game)
    assert system.silent, f"{game} lists no reading where its page is silent"
    names = [anchor for anchor, _, _ in system.silent]
    assert len(set(names)) == len(names) and all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", n) for n in names)
    result = CliRunner().invoke(app, ["reference", game])
    assert result.exit_code == 0, result.output
    section = result.output.split("## Where the page is silent", 1)[1]
    for anchor, title, text in system.silent:
        assert f'<a id="silent-{anchor}"></a>\n### {title}' in section
        assert " ".join(text.split()) in section


def test_a_trace_cites_the_docs_section_by_its_anchor() -> None:
    """A roll's trace cites a reading where the page is silent by its docs anchor, e.g. Peril in rtw."""
    from tohit.systems.rtw.consequences import CLAUSE_PERIL

    assert CLAUSE_PERIL == "rtw: Peril (docs/rtw.md#silent-peril)"
    assert "silent-peril" in anchors("rtw")


def test_the_docs_and_examples_cite_nothing_private() -> None:
    """What a user reads besides traces (docs/*.md, the game references included, and the bundled examples' notes)
    cites no private note or rules file either."""
    root = Path(__file__).resolve().parents[1]
    bad = [
        f"{path.relative_to(root)}:{n}: {hit}"
        for path in [*sorted((root / "docs").glob("*.md")), *sorted((root / "examples").rglob("*.yaml"))]
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for hit in private_citations(line)
    ]
    assert not bad, "\n".join(bad)
