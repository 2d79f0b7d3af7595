"""Reading scenario files: YAML or JSON in, a plain mapping out; pydantic errors to one clear line.

Every failure is an InputError naming the file and the field ("bandit.yaml: targets[0].lp: ..."), so an
interface can print one line and exit 2 with no traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from tohit.core.errors import InputError

M = TypeVar("M", bound=BaseModel)
MAX_FILE_BYTES = 5_000_000


def read_document(path: str | Path) -> dict[str, Any]:
    """Parse a YAML or JSON file into a mapping; any problem is an InputError naming the file."""
    source = str(path)
    p = Path(path)
    try:
        if p.stat().st_size > MAX_FILE_BYTES:
            raise InputError(f"file is larger than {MAX_FILE_BYTES} bytes", source=source)
        text = p.read_text(encoding="utf-8")
    except InputError:
        raise
    except FileNotFoundError:
        raise InputError("no such file", source=source) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a scenario file", source=source) from None
    except UnicodeDecodeError:
        raise InputError("is not UTF-8 text", source=source) from None
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror})", source=source) from None
    return parse_document(text, source=source, json_only=p.suffix.lower() == ".json")


def parse_document(text: str, *, source: str, json_only: bool = False) -> dict[str, Any]:
    try:
        data = json.loads(text) if json_only else yaml.safe_load(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})", source=source
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = getattr(exc, "problem", None) or "malformed"
        raise InputError(f"is not valid YAML{where}: {problem}", source=source) from None
    except RecursionError:
        raise InputError("is nested too deeply", source=source) from None
    if not isinstance(data, dict):
        raise InputError(f"must hold a mapping of fields, not {type(data).__name__}", source=source)
    return data


def field_path(loc: tuple[int | str, ...]) -> str:
    """pydantic's location tuple as `targets[0].armor.cut`."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def validate(model: type[M], data: Any, *, source: str, prefix: str | None = None) -> M:
    """Validate `data` with `model`, turning the first pydantic error into an InputError."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise validation_error(exc, source=source, prefix=prefix) from None
    except RecursionError:
        raise InputError("is nested too deeply", source=source) from None


def validation_error(exc: ValidationError, *, source: str, prefix: str | None = None) -> InputError:
    first = exc.errors(include_url=False)[0]
    loc = tuple(p for p in first["loc"] if not (isinstance(p, str) and ("[" in p or p.startswith("function-"))))
    field = field_path(loc)
    message = str(first["msg"])
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
        # A model validator may name a field itself: "targets[0].name: ... ".
        head, sep, rest = message.partition(": ")
        if sep and " " not in head:
            field = f"{field}.{head}" if field and not head.startswith(field) else head
            message = rest
    if first["type"] == "extra_forbidden":
        message = "unknown field"
    elif first["type"] == "missing":
        message = "required field is missing"
    else:
        given = first.get("input")
        if first["type"] not in ("value_error", "assertion_error") and not isinstance(given, (dict, list)):
            message = f"{message} (got {given!r})"
    if prefix:
        field = f"{prefix}.{field}" if field else prefix
    return InputError(message, field=field or None, source=source)
