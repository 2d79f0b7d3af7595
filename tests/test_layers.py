"""Imports point down the layers of docs/architecture.md, and no module imports itself back through others.

docs/architecture.md, "Layers" (imports point down only; no circles):

    interfaces   cli, server, web, sweep(s) (and the Python API: `tohit.api`, `tohit/__init__.py`)
    engine       roll / odds / simulate / fight / encounter
    store        encounters as append-only events
    systems      one package per game
    core         dice roles, outcome arrays, steps recorder, models, grid geometry, the fight contract

"A game package never imports the engine, the store or an interface", and a game package imports no
other game package. Every module under src/tohit is parsed with `ast`: module-level imports, imports
inside functions, imports under `if TYPE_CHECKING:`, relative imports and
`importlib.import_module("a.literal.name")` all count (issue 14, item 5).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "tohit"

#: Layers, top to bottom: the index is the height (a module may import its own height or lower).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("tohit.core", "tohit.bundled")),
    ("systems", ("tohit.systems",)),
    ("store", ("tohit.store",)),
    ("engine", ("tohit.engine",)),
    (
        "interfaces",
        ("tohit.cli", "tohit.server", "tohit.web", "tohit.sweep", "tohit.sweeps", "tohit.api", "tohit.__main__"),
    ),
)
#: The `tohit` package itself (`src/tohit/__init__.py`, the lazy re-export of the API) is an interface.
TOP_PACKAGE = "tohit"

#: Circles allowed to exist: none. The test fails on any circle not listed here, and on any entry that no longer
#: exists (so none goes stale).
KNOWN_CYCLES: frozenset[frozenset[str]] = frozenset()


# -- the checker ------------------------------------------------------------------------------------------------
def module_name(path: Path, root: Path = SRC) -> str:
    """`src/tohit/cli/app.py` -> `tohit.cli.app`; a package's `__init__.py` is the package."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def parse_tree(root: Path = SRC) -> dict[str, tuple[ast.Module, bool]]:
    """Every module under `root`: its syntax tree and whether it is a package (`__init__.py`)."""
    return {
        module_name(path, root): (ast.parse(path.read_text(encoding="utf-8")), path.name == "__init__.py")
        for path in sorted(root.rglob("*.py"))
    }


def parse_sources(sources: Mapping[str, str]) -> dict[str, tuple[ast.Module, bool]]:
    """A fake module map for testing the checker: name -> source (names ending `.__init__` are packages)."""
    out = {}
    for name, text in sources.items():
        package = name.endswith(".__init__")
        out[name.removesuffix(".__init__")] = (ast.parse(text), package)
    return out


def _known(name: str, modules: Iterable[str]) -> str | None:
    """`name` if it is a module of the map, else its nearest enclosing module (None outside the map)."""
    found = set(modules)
    while name:
        if name in found:
            return name
        name = name.rpartition(".")[0]
    return None


def _imported_names(module: str, tree: ast.Module, package: bool) -> Iterable[str]:
    """Every dotted name `module` imports, anywhere in its body (functions and TYPE_CHECKING included)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = module.split(".")
                keep = len(parts) - node.level + (1 if package else 0)
                base = ".".join([*parts[:keep], *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            for alias in node.names:
                yield f"{base}.{alias.name}"  # a submodule if there is one, else resolved to `base` below
        elif (
            isinstance(node, ast.Call)
            and (
                (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                or (isinstance(node.func, ast.Name) and node.func.id == "import_module")
            )
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.args[0].value


def import_graph(trees: Mapping[str, tuple[ast.Module, bool]]) -> dict[str, set[str]]:
    """Module -> the modules of the map it imports (outside names such as numpy are left out)."""
    graph: dict[str, set[str]] = {}
    for module, (tree, package) in trees.items():
        targets = {_known(name, trees) for name in _imported_names(module, tree, package)}
        graph[module] = {t for t in targets if t is not None and t != module}
    return graph


def strongly_connected(graph: Mapping[str, set[str]]) -> list[frozenset[str]]:
    """The circles of the graph: each group of two or more modules that reach each other (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(frozenset(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups, key=sorted)


def cycle_path(graph: Mapping[str, set[str]], group: frozenset[str]) -> list[str]:
    """One circle through the group's first module, shortest first: `[a, b, c, a]`."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ in sorted(graph.get(node, set()) & group):
                if succ == start:
                    return [*paths[node], start]
                if succ not in paths:
                    paths[succ] = [*paths[node], succ]
                    following.append(succ)
        frontier = following
    raise AssertionError(f"no circle through {start}")  # pragma: no cover - a group always has one


def layer_of(module: str) -> int:
    """The height of a module's layer (core 0 ... interfaces 4); a module in no layer is an error."""
    if module == TOP_PACKAGE:
        return len(LAYERS) - 1
    for height, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return height
    raise AssertionError(f"{module} is in no layer of docs/architecture.md: add it to LAYERS in tests/test_layers.py")


def game_of(module: str, packages: Iterable[str]) -> str | None:
    """The game package (`tohit.systems.<id>`) a module belongs to, if any."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[:2] == ["tohit", "systems"]:
        game = ".".join(parts[:3])
        return game if game in set(packages) else None
    return None


def layer_violations(graph: Mapping[str, set[str]], packages: Iterable[str]) -> list[str]:
    """Every import that points up the layers, and every game package importing another."""
    games = set(packages)
    found = []
    for module in sorted(graph):
        for target in sorted(graph[module]):
            if layer_of(target) > layer_of(module):
                up, down = LAYERS[layer_of(target)][0], LAYERS[layer_of(module)][0]
                found.append(f"{module} ({down}) imports {target} ({up})")
            mine, theirs = game_of(module, games), game_of(target, games)
            if mine and theirs and mine != theirs:
                found.append(f"game package {mine} imports another game package: {module} imports {target}")
    return found


def packages_of(trees: Mapping[str, tuple[ast.Module, bool]]) -> set[str]:
    return {name for name, (_, package) in trees.items() if package}


def circles_report(graph: Mapping[str, set[str]], known: frozenset[frozenset[str]]) -> tuple[list[str], list[str]]:
    """(circles not in `known`, entries of `known` that no longer exist), each as readable lines."""
    groups = strongly_connected(graph)
    new = [f"{' -> '.join(cycle_path(graph, g))}  (circle of: {', '.join(sorted(g))})" for g in groups]
    new = [line for line, g in zip(new, groups, strict=True) if g not in known]
    stale = [", ".join(sorted(g)) for g in sorted(known - set(groups), key=sorted)]
    return new, stale


TREES = parse_tree()
GRAPH = import_graph(TREES)


# -- the rules on src/tohit -------------------------------------------------------------------------------------
def test_no_import_circles_in_src_tohit() -> None:
    """No circles: the only circles allowed are the KNOWN_CYCLES of the lead's fight move (issue 14)."""
    new, _ = circles_report(GRAPH, KNOWN_CYCLES)
    assert not new, "import circles:\n" + "\n".join(new)


def test_known_cycles_still_exist() -> None:
    """An entry of KNOWN_CYCLES that is gone must be deleted, so the list cannot go stale."""
    _, stale = circles_report(GRAPH, KNOWN_CYCLES)
    assert not stale, "KNOWN_CYCLES entries that no longer form a circle (delete them):\n" + "\n".join(stale)


def test_the_cli_has_no_circle() -> None:
    """issue 14, item 5: `cli/app <-> cli/fight <-> cli/demo <-> cli/fight_demo` is broken for good."""
    cli = {m: {t for t in targets if t.startswith("tohit.cli")} for m, targets in GRAPH.items()}
    assert strongly_connected(cli) == []


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_point_down_the_layers(module: str) -> None:
    """Interfaces > engine > store > systems > core; a game package imports no other game package."""
    own = {module: GRAPH[module]}
    found = layer_violations(own, packages_of(TREES))
    assert not found, "\n".join(found)


def test_every_module_is_in_a_layer() -> None:
    unplaced = []
    for module in GRAPH:
        try:
            layer_of(module)
        except AssertionError as exc:
            unplaced.append(str(exc))
    assert not unplaced, "\n".join(unplaced)


def test_the_graph_sees_lazy_and_type_checking_imports() -> None:
    """The real tree: a plain import in the registry, and `importlib.import_module("tohit.api")` in a function."""
    assert "tohit.systems" in GRAPH["tohit.engine.registry"]
    assert "tohit.api" in GRAPH[TOP_PACKAGE]


# -- the checker can fail ---------------------------------------------------------------------------------------
def test_checker_finds_a_planted_circle() -> None:
    """A circle made only of a function-level import and a TYPE_CHECKING import is found and reported."""
    trees = parse_sources(
        {
            "tohit.cli.__init__": "",
            "tohit.cli.a": "from tohit.cli import b\n",
            "tohit.cli.b": "def f() -> None:\n    from tohit.cli.c import g\n",
            "tohit.cli.c": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n",
            "tohit.cli.d": "import tohit.cli.a\nimport numpy\n",
        }
    )
    graph = import_graph(trees)
    assert graph["tohit.cli.c"] == {"tohit.cli.a"}
    assert strongly_connected(graph) == [frozenset({"tohit.cli.a", "tohit.cli.b", "tohit.cli.c"})]
    new, stale = circles_report(graph, frozenset())
    circle = "tohit.cli.a -> tohit.cli.b -> tohit.cli.c -> tohit.cli.a"
    assert new == [f"{circle}  (circle of: tohit.cli.a, tohit.cli.b, tohit.cli.c)"]
    assert stale == []


def test_checker_reports_stale_and_allows_known_circles() -> None:
    graph = {"x.a": {"x.b"}, "x.b": {"x.a"}, "x.c": set()}
    known = frozenset({frozenset({"x.a", "x.b"}), frozenset({"x.c", "x.a"})})
    new, stale = circles_report(graph, known)
    assert new == [] and stale == ["x.a, x.c"]


def test_checker_finds_an_import_up_the_layers_and_between_games() -> None:
    trees = parse_sources(
        {
            "tohit.__init__": "",
            "tohit.core.__init__": "",
            "tohit.core.dice": "def roll() -> None:\n    from tohit.engine.odds import odds\n",
            "tohit.engine.odds": "from tohit.core import dice\nimport tohit.store.log\n",
            "tohit.store.log": "from tohit.systems.kaiser import rules\n",
            "tohit.systems.kaiser.__init__": "",
            "tohit.systems.kaiser.rules": "from tohit.systems.rtw.tables import X\nfrom ..kaiser import tables\n",
            "tohit.systems.kaiser.tables": "",
            "tohit.systems.rtw.__init__": "",
            "tohit.systems.rtw.tables": "from tohit.cli import app\n",
            "tohit.cli.app": "from tohit import __version__\n",
        }
    )
    graph = import_graph(trees)
    assert graph["tohit.systems.kaiser.rules"] == {"tohit.systems.rtw.tables", "tohit.systems.kaiser.tables"}
    assert layer_violations(graph, packages_of(trees)) == [
        "tohit.core.dice (core) imports tohit.engine.odds (engine)",
        "game package tohit.systems.kaiser imports another game package: "
        "tohit.systems.kaiser.rules imports tohit.systems.rtw.tables",
        "tohit.systems.rtw.tables (systems) imports tohit.cli.app (interfaces)",
    ]


def test_checker_places_every_layer() -> None:
    below = ("tohit.core.x", "tohit.systems.x", "tohit.store", "tohit.engine.x")
    assert [layer_of(m) for m in below] == [0, 1, 2, 3]
    top = ("tohit", "tohit.api", "tohit.cli.app", "tohit.server.x", "tohit.web", "tohit.sweep", "tohit.__main__")
    assert {layer_of(m) for m in top} == {4}
    with pytest.raises(AssertionError, match="no layer"):
        layer_of("tohit.elsewhere")
