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


# -- every citation a user reads points at docs/ or at the rulebook page's own section (issue 36, item 7) ---------
ROOT = Path(__file__).resolve().parents[1]
#: The rulebook pages (the team's rules folder beside the checkout): a citation without a docs anchor must name one
#: of their sections.
RULES = ROOT.parent / "shared" / "rules"
DOCS = re.compile(r"docs/([\w-]+)\.md(?:#([\w-]+))?")
#: What names a file or a page's address rather than a section: a data file, a page file, a path, a page slug of
#: three words or more ("tracking-your-stats"), "(wiki)", "the braces page".
FILE_LIKE = re.compile(r"\.json\b|\.md\b|\.txt\b|\w/\w|\(wiki\)|\bwiki\b|\bpage\b|\b[a-z]+-[a-z]+-[a-z]+\b")
BRACKETED = re.compile(r"  \[([^\[\]]+)\]")


def page_sections(page: str) -> set[str]:
    """The sections a rulebook page names (casefolded): its title, its headings, its bold terms ("**Melee**:"),
    and in a plain-text page its short heading lines and the circumstance table's groups."""
    text = (RULES / page).read_text(encoding="utf-8")
    found = set(re.findall(r"^title: (.+)$", text, re.M)) | set(re.findall(r"^#+ (.+)$", text, re.M))
    found |= set(re.findall(r"\*\*([^*]+?)\*\*:", text))
    if page.endswith(".txt"):
        for line in map(str.strip, text.splitlines()):
            if 0 < len(line.split()) <= 6 and not re.search(r"[.:,!?]$", line) and not line.startswith("|"):
                found.add(line)
        found |= set(re.findall(r"^\| ([^|]+?) \| Modifier \|", text, re.M))
    return {f.strip().casefold() for f in found}


def docs_anchors(name: str) -> set[str] | None:
    """The anchors of docs/<name>.md (explicit ids and headings' slugs); None when there is no such file."""
    path = ROOT / "docs" / f"{name}.md"
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    ids = set(re.findall(r'<a id="([\w-]+)"></a>', text))
    slugs = {re.sub(r"[^\w -]", "", h.strip().lower()).replace(" ", "-") for h in re.findall(r"^#+ (.+)$", text, re.M)}
    return ids | slugs


def citation_problems(game: str, cite: str, sections: dict[str, set[str]] | None) -> list[str]:
    """What is wrong with one citation of `game`'s: a docs file or anchor that does not exist, a file or a page's
    address instead of a section, or (with no docs anchor) a part that names no section of the rulebook page (each
    part between ";", its words before the first "," ":" or "(", after an optional "<game>:")."""
    found = []
    anchors = list(DOCS.finditer(cite))
    for m in anchors:
        known = docs_anchors(m.group(1))
        if known is None:
            found.append(f"no file docs/{m.group(1)}.md")
        elif m.group(2) and m.group(2) not in known:
            found.append(f"no anchor #{m.group(2)} in docs/{m.group(1)}.md")
    if FILE_LIKE.search(DOCS.sub("", cite)):
        found.append("names a file, a path or a page's address")
    if not anchors and sections is not None:
        owner = re.match(rf"({'|'.join(map(re.escape, GAMES))}):", cite)
        page = sections[owner.group(1) if owner else game]
        for part in re.sub(r"\([^()]*\)", "", cite).split(";"):
            part = re.sub(rf"^\s*(?:{'|'.join(map(re.escape, GAMES))}):\s*", "", part.strip())
            head = re.split(r"[,:(]", part, maxsplit=1)[0].strip()
            if head.casefold() not in page:
                found.append(f"{head!r} is no section of the rulebook page")
    return found


def collected_citations() -> dict[tuple[str, str], str]:
    """(game, citation) -> where it was read: every step's clause of every bundled example's and starter's traces
    (two seeds each), every clause and bracketed citation ("  [...]") of every bundled fight's narration (two
    seeds), and every CLAUSE constant of the games' packages."""
    import importlib

    from tohit.api import fight, load, load_fight, roll

    found: dict[tuple[str, str], str] = {}

    def walk(value: object, game: str, where: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "clause" and isinstance(item, str):
                    found.setdefault((game, item), where)
                else:
                    walk(item, game, where)
        elif isinstance(value, list):
            for item in value:
                walk(item, game, where)
        elif isinstance(value, str):
            for m in BRACKETED.finditer(value):
                found.setdefault((game, m.group(1)), where)

    scenarios = [p for p in (ROOT / "examples").rglob("*.yaml") if p.parent.name != "fights"]
    fights = sorted((ROOT / "examples" / "fights").glob("*.yaml"))
    scenarios += sorted(SRC.glob("systems/*/starter.yaml"))
    fights += sorted(SRC.glob("systems/*/starter-fight.yaml"))
    for path in sorted(scenarios):
        loaded = load(path)
        for seed in (1, 2):
            walk(roll(loaded, seed=seed).to_json(), loaded.system.id, str(path.relative_to(ROOT)))
    for path in fights:
        duel = load_fight(path)
        for seed in (1, 2):
            walk(fight(duel, seed=seed).events, duel.system.id, str(path.relative_to(ROOT)))
    for path in sorted(SRC.glob("systems/*/*.py")):
        module = importlib.import_module("tohit." + ".".join(path.relative_to(SRC).with_suffix("").parts))
        game = importlib.import_module(f"tohit.systems.{path.parent.name}").SYSTEM.id
        for name, value in vars(module).items():
            if name.startswith("CLAUSE") and isinstance(value, str):
                found.setdefault((game, value), f"{path.relative_to(SRC)}: {name}")
    return found


def test_every_citation_points_at_the_docs_or_the_rulebook_section() -> None:
    """Every citation a user reads (traces of every bundled example and starter, fight narrations, every CLAUSE
    constant) points at docs/<file>.md that exists, at an anchor that exists, or names a section of the game's
    rulebook page: never a file the user does not have ("[kaiser: combat.json 200]", "heroes/callings/champion",
    "(wiki)"), nor a page of the game's by title alone ("kaiser: Action Points") (issue 36, item 7)."""
    sections = (
        {game: page_sections(registry.get(game).page) for game in GAMES} if RULES.is_dir() else None
    )  # without the rules folder, the docs and file checks only
    cited = collected_citations()
    assert len(cited) > 100 and any("docs/" in c for _, c in cited), len(cited)
    bad = [
        f"{where}: {cite!r}: {p}"
        for (game, cite), where in sorted(cited.items())
        for p in citation_problems(game, cite, sections)
    ]
    assert not bad, "\n".join(bad)


def test_the_citation_check_catches_what_the_auditor_found() -> None:
    """The check can fail: a data file, a path, a page slug, a missing anchor, a page of the game's named by title
    alone; a section of the page, or a docs anchor that exists, passes."""
    sections = {"kaiser": {"attacking and defending", "successful attack", "failed attack"}, "wsswnn": {"braces"}}
    for bad in (
        "kaiser: combat.json 200",
        "kaiser: Action Points",
        "kaiser: Critical (docs/kaiser.md#silent-no-such-anchor)",
        "kaiser: Counter (docs/nowhere.md)",
    ):
        assert citation_problems("kaiser", bad, sections), bad
    for bad in (
        "wsswnn: Mighty Blow (heroes/callings/champion)",
        "wsswnn: tracking-your-stats",
        "fullplate: Severity (wiki)",
    ):
        assert citation_problems("wsswnn", bad, None), bad
    assert not citation_problems("kaiser", "kaiser: Attacking and Defending, step 3; Failed Attack", sections)
    assert not citation_problems("kaiser", "kaiser: Critical (docs/kaiser.md#silent-critical-at-0-lp)", sections)
