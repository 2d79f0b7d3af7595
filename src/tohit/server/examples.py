"""The example fights a new encounter may start from (the web table's "new encounter").

Found without naming a game: every registered game's starter fight (`System.starter(fight=True)`, shipped in
its package), and the bundled example fights (`examples/fights/`: inside the installed package, or a checkout's;
see `tohit.bundled`).
Each is listed by a stable id (`starter/<system>` or `file/<name>`), a title and its system.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tohit.bundled import fights_folder
from tohit.core.errors import InputError, short_repr
from tohit.core.loader import parse_document
from tohit.engine import registry

#: The bundled example fights (the installed package's `examples/fights`, or a checkout's).
BUNDLED_FIGHTS = fights_folder()


def _title(text: str, fallback: str) -> str:
    """The first comment line of a fight file, as its title."""
    for line in text.splitlines():
        if line.startswith("#"):
            return line.lstrip("# ").strip() or fallback
        if line.strip():
            break
    return fallback


def _texts(folder: Path | None) -> dict[str, tuple[str, str, str]]:
    """id -> (source name, title, text) of every example fight."""
    out: dict[str, tuple[str, str, str]] = {}
    for system in registry.systems().values():
        text = system.starter(fight=True)
        if text is not None:
            out[f"starter/{system.id}"] = (f"{system.id}-starter-fight.yaml", f"{system.title}: starter fight", text)
    if folder is not None and folder.is_dir():
        for path in sorted(folder.glob("*.yaml")):
            text = path.read_text(encoding="utf-8")
            out[f"file/{path.stem}"] = (path.name, _title(text, path.name), text)
    return out


def list_examples(folder: Path | None = BUNDLED_FIGHTS) -> list[dict[str, Any]]:
    """Every example fight: its id, title and system."""
    out = []
    for key, (name, title, text) in _texts(folder).items():
        data = parse_document(text, source=name)
        out.append({"id": key, "name": name, "title": title, "system": data.get("system")})
    return out


def example(key: str, folder: Path | None = BUNDLED_FIGHTS) -> tuple[str, dict[str, Any]]:
    """The example fight `key`: its source name and its content as a mapping."""
    found = _texts(folder).get(key)
    if found is None:
        raise InputError(f"no example {short_repr(key)}; see GET /v1/examples", field="example")
    name, _, text = found
    return name, parse_document(text, source=name)
