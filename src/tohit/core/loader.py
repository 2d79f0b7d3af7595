"""Reading scenario files: YAML or JSON in, a plain mapping out; pydantic errors to one clear line.

Every failure is an InputError naming the file and the field ("bandit.yaml: targets[0].lp: ..."), so an
interface can print one line and exit 2 with no traceback.

Bad input is refused before anything walks it, with caps stated in the message:
- a file is read through `read_text`: regular files only (a FIFO or `/dev/zero` is refused at once), and
  at most `MAX_FILE_BYTES` + 1 bytes are read, whatever the file system says its size is;
- YAML is read from libyaml's event stream (`yaml.CSafeLoader` when present) into plain values, one event
  at a time, so a duplicate key is refused naming its line, an alias bomb is refused once the values it
  stands for pass `MAX_VALUES` (before they are expanded), and nesting past `MAX_DEPTH` is refused at the
  line where it happens;
- an integer of more than `MAX_INT_DIGITS` digits is refused where it is read (YAML, JSON, or a mapping
  given to the Python API), before Python would turn it into text;
- `check_shape` holds a mapping given directly (the Python API) to the same depth, size and integer caps.
"""

from __future__ import annotations

import difflib
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, get_args

import yaml
from pydantic import BaseModel, ValidationError

from tohit.core.errors import InputError, short_repr

M = TypeVar("M", bound=BaseModel)

#: Largest file read (scenario, fight or map). Measured with the event loader below on the 2-vCPU machine
#: (busy): a 1 MB scenario (11,106 targets) parses in 0.6-0.7 s and a 4.8 MB one in 3.3 s (yaml.safe_load: 57 s
#: and 1.6 GB; yaml.CSafeLoader: about 10 s), so a file at the cap is read in seconds.
MAX_FILE_BYTES = 5_000_000
#: Deepest nesting of mappings and lists (the bundled files need 6; a fight's attack damage, 7).
MAX_DEPTH = 32
#: Most values (mappings, lists and scalars, counting every use of an alias) one document may hold.
MAX_VALUES = 2_000_000
#: Longest integer, in digits (a 128-bit seed has 39).
MAX_INT_DIGITS = 40
_INT_LIMIT = 10**MAX_INT_DIGITS

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_INT_TAG = "tag:yaml.org,2002:int"
_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_SCALAR_TAGS = {f"tag:yaml.org,2002:{name}" for name in ("null", "bool", "int", "float", "str", "binary", "timestamp")}
_COLLECTION_TAGS = {"mapping": "tag:yaml.org,2002:map", "sequence": "tag:yaml.org,2002:seq"}


def read_text(path: str | Path, *, cap: int = MAX_FILE_BYTES, what: str = "a scenario file") -> str:
    """The UTF-8 text of the regular file at `path`, reading at most `cap` + 1 bytes; any problem (not a
    regular file, too large, unreadable, not UTF-8) is one InputError naming the file."""
    data = read_bytes(path, cap=cap, what=what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("is not UTF-8 text", source=str(path)) from None


def read_bytes(path: str | Path, *, cap: int = MAX_FILE_BYTES, what: str = "a scenario file") -> bytes:
    """The bytes of the regular file at `path`, reading at most `cap` + 1 bytes; any problem (not a regular
    file, too large, unreadable) is one InputError naming the file."""
    source = str(path)
    try:
        # O_NONBLOCK: opening a FIFO does not wait for a writer; on a regular file it changes nothing.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise InputError("no such file", source=source) from None
    except IsADirectoryError:
        raise InputError(f"is a directory, not {what}", source=source) from None
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror or exc})", source=source) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(f"is a directory, not {what}", source=source)
        if not stat.S_ISREG(mode):
            raise InputError(f"is not a regular file ({_file_kind(mode)}), not {what}", source=source)
        chunks: list[bytes] = []
        left = cap + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except InputError:
        raise
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror or exc})", source=source) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > cap:
        raise InputError(f"file is larger than {cap:,} bytes (the cap for {what})", source=source)
    return data


def _file_kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "a special file"


def read_document(path: str | Path, *, what: str = "a scenario file") -> dict[str, Any]:
    """Parse a YAML or JSON file into a mapping; any problem is an InputError naming the file. A `map` given as
    `{uvtt: FILE}` (or `FILE` alone) is read here, FILE relative to this file's folder
    (`tohit.core.grid.uvtt.expand`)."""
    text = read_text(path, what=what)
    data = parse_document(text, source=str(path), json_only=Path(path).suffix.lower() == ".json")
    from tohit.core.grid.uvtt import expand

    try:
        return expand(data, Path(path), read_bytes)
    except InputError as exc:
        raise exc.located(source=exc.source or str(path)) from None


def check_kind(data: dict[str, Any], path: str | Path, wanted: str) -> None:
    """The one place that tells a fight file (it has `sides`) from an attack's scenario file (an `attacker`, no
    `sides`): a file of the other kind, given to a command of one (`tohit odds` on a fight, `tohit fight` on a
    scenario), is refused in one line naming the command it is for, before its fields are checked."""
    if wanted == "attack" and "sides" in data:
        raise InputError(f"{path} is a fight file (it has sides): use tohit fight {path}")
    if wanted == "fight" and "sides" not in data and ("attacker" in data or "targets" in data):
        raise InputError(
            f"{path} is an attack's scenario file (it has attacker, no sides): use tohit odds {path}"
            " (or roll, simulate, map, aim)"
        )


def parse_document(text: str, *, source: str, json_only: bool = False) -> dict[str, Any]:
    data = parse_json(text, source=source) if json_only else parse_yaml(text, source=source)
    if not isinstance(data, dict):
        raise InputError(f"must hold a mapping of fields, not {_kind(data)}", source=source)
    return data


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


# -- JSON --------------------------------------------------------------------------------------------------------
def _json_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _BigInt(digits)
    return int(text)


class _Duplicate(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key
        self.line: int | None = None


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


def _duplicate_line(text: str) -> int | None:
    """The line where the first object holding a key twice begins (a second, pure-Python pass that runs only
    once a duplicate is known to be there)."""
    from json import scanner

    make_scanner: Any = vars(scanner)["py_make_scanner"]  # the pure-Python scanner calls parse_object

    decoder: Any = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_int=_json_int)
    plain = decoder.parse_object

    def parse_object(s_and_end: tuple[str, int], *args: Any) -> Any:
        try:
            return plain(s_and_end, *args)
        except _Duplicate as exc:
            if exc.line is None:
                exc.line = s_and_end[0].count("\n", 0, s_and_end[1]) + 1
            raise

    decoder.parse_object = parse_object
    decoder.scan_once = make_scanner(decoder)
    try:
        decoder.decode(text)
    except _Duplicate as exc:
        return exc.line
    except (ValueError, RecursionError):
        return None
    return None


class _BigInt(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def big_int_message(digits: int | None = None) -> str:
    size = f"{digits:,} digits" if digits is not None else f"more than {MAX_INT_DIGITS} digits"
    return f"an integer of {size}; the cap is {MAX_INT_DIGITS} digits"


def parse_json(text: str, *, source: str, where: str = "", shape: bool = True) -> Any:
    """One JSON value, with integers capped and nesting checked (`where`, e.g. "line 3: ", prefixes errors).
    `shape=False` (for a caller that checks every value it reads against a strict model, such as replay)
    leaves out `check_shape` and the integer cap: only Python's own limits (recursion, 4,300 digits) hold."""
    try:
        data = json.loads(text, parse_int=_json_int if shape else None, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        place = f"line {exc.lineno}, column {exc.colno}" if not where else f"column {exc.colno}"
        raise InputError(f"{where}is not valid JSON ({place}: {exc.msg})", source=source) from None
    except _BigInt as exc:
        raise InputError(f"{where}{big_int_message(exc.digits)}", source=source) from None
    except _Duplicate as exc:
        line = _duplicate_line(text) if not where else None
        at = f"line {line}: the object that begins here" if line is not None else "an object"
        raise InputError(f"{where}{at} has the key {short_repr(exc.key)} twice", source=source) from None
    except RecursionError:
        raise InputError(f"{where}is nested more than {MAX_DEPTH} deep (the cap)", source=source) from None
    except ValueError:  # an integer past Python's int-to-text limit (only with shape=False)
        raise InputError(f"{where}{big_int_message()}", source=source) from None
    if shape:
        check_shape(data, source=source, where=where)
    return data


# -- YAML --------------------------------------------------------------------------------------------------------
def parse_yaml(text: str, *, source: str) -> Any:
    """One YAML document as plain values, built from the parser's events (see the module docstring)."""
    loader = _LOADER(text)
    try:
        return _Builder(loader, source).document()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = getattr(exc, "problem", None) or "malformed"
        raise InputError(f"is not valid YAML{where}: {problem}", source=source) from None
    except RecursionError:
        raise InputError(f"is nested more than {MAX_DEPTH} deep (the cap)", source=source) from None
    finally:
        loader.dispose()


class _Frame:
    """A mapping or list being built: its value, anchor, where it starts, and the key awaiting a value."""

    __slots__ = ("anchor", "height", "key", "key_line", "line", "lines", "merges", "start", "value")

    def __init__(self, value: Any, anchor: str | None, line: int, start: int) -> None:
        self.value = value
        self.anchor = anchor
        self.line = line
        self.start = start  # values counted before this one began (for its anchor's size)
        self.height = 0  # deepest nesting below it
        self.key: Any = _NO_KEY
        self.key_line = 0
        self.lines: dict[Any, int] | None = {} if isinstance(value, dict) else None
        self.merges: list[Any] = []


_NO_KEY = object()


class _Builder:
    """Plain values from YAML events, refusing duplicate keys, deep nesting and alias bombs as it goes."""

    def __init__(self, loader: Any, source: str) -> None:
        self.loader = loader
        self.source = source
        self.stack: list[_Frame] = []
        self.anchors: dict[str, tuple[Any, int, int]] = {}  # value, values it stands for, height
        self.count = 0
        self.scalars: dict[tuple[str | None, bool, str], Any] = {}
        self.done: Any = None

    def fail(self, line: int, message: str) -> InputError:
        return InputError(f"line {line}: {message}", source=self.source)

    def document(self) -> Any:
        loader = self.loader
        result: Any = None
        documents = 0
        while loader.check_event():
            event = loader.get_event()
            line = event.start_mark.line + 1 if event.start_mark is not None else 0
            cls = type(event)
            if cls is yaml.ScalarEvent:
                self.add(self.scalar(event, line), line, 1, 0, event.anchor)
            elif cls is yaml.MappingStartEvent or cls is yaml.SequenceStartEvent:
                kind = "mapping" if cls is yaml.MappingStartEvent else "sequence"
                if event.tag not in (None, "!", _COLLECTION_TAGS[kind]):
                    raise self.fail(line, f"the tag {short_repr(event.tag)} is not supported")
                if len(self.stack) >= MAX_DEPTH:
                    raise self.fail(line, f"nested more than {MAX_DEPTH} deep (the cap)")
                self.tally(line, 1)
                value: Any = {} if kind == "mapping" else []
                self.stack.append(_Frame(value, event.anchor, line, self.count - 1))
            elif cls is yaml.MappingEndEvent or cls is yaml.SequenceEndEvent:
                frame = self.stack.pop()
                if frame.merges:
                    self.merge(frame)
                size = self.count - frame.start
                if frame.anchor is not None:
                    self.anchors[frame.anchor] = (frame.value, size, frame.height + 1)
                self.place(frame.value, frame.line, frame.height + 1)
            elif cls is yaml.AliasEvent:
                found = self.anchors.get(event.anchor)
                if found is None:
                    raise self.fail(line, f"the alias *{short_repr(event.anchor)[1:-1]} names no anchor before it")
                value, size, height = found
                if len(self.stack) + height > MAX_DEPTH:
                    raise self.fail(line, f"the alias makes the value nested more than {MAX_DEPTH} deep (the cap)")
                self.tally(line, size)
                self.place(value, line, height)
            elif cls is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise self.fail(line, "a file holds one YAML document (a second `---` was found)")
            elif cls is yaml.DocumentEndEvent:
                result = self.done
        return result

    def tally(self, line: int, values: int) -> None:
        self.count += values
        if self.count > MAX_VALUES:
            raise self.fail(
                line, f"the document holds more than {MAX_VALUES:,} values (the cap; aliases count each use)"
            )

    def add(self, value: Any, line: int, size: int, height: int, anchor: str | None) -> None:
        self.tally(line, size)
        if anchor is not None:
            self.anchors[anchor] = (value, size, height)
        self.place(value, line, height)

    def place(self, value: Any, line: int, height: int) -> None:
        """Put a finished value into the mapping or list being built (or make it the document)."""
        if not self.stack:
            self.done = value
            return
        frame = self.stack[-1]
        frame.height = max(frame.height, height)
        if isinstance(frame.value, list):
            frame.value.append(value)
            return
        if frame.key is _NO_KEY:
            if isinstance(value, (dict, list)):
                raise self.fail(line, "a key must be a plain value, not a mapping or a list")
            frame.key, frame.key_line = value, line
            return
        key, frame.key = frame.key, _NO_KEY
        if key is _MERGE:
            frame.merges.append((value, frame.key_line))
            return
        assert frame.lines is not None
        first = frame.lines.get(key)
        if first is not None:
            raise self.fail(frame.key_line, f"duplicate key {short_repr(key)} (first at line {first})")
        frame.lines[key] = frame.key_line
        frame.value[key] = value

    def merge(self, frame: _Frame) -> None:
        """YAML merge keys (`<<: *base`): keys written in the mapping win, then earlier merged mappings."""
        merged: dict[Any, Any] = {}
        for value, line in frame.merges:
            sources = value if isinstance(value, list) else [value]
            for src in sources:
                if not isinstance(src, dict):
                    raise self.fail(line, "a merge key (<<) takes a mapping or a list of mappings")
                for k, v in src.items():
                    merged.setdefault(k, v)
        own = frame.value
        frame.value = {**{k: v for k, v in merged.items() if k not in own}, **own}

    def scalar(self, event: Any, line: int) -> Any:
        key = (event.tag, event.implicit[0], event.value)
        found = self.scalars.get(key, _NO_KEY)
        if found is _NO_KEY:
            found = self.scalars[key] = self.construct(event, line)
        return found

    def construct(self, event: Any, line: int) -> Any:
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.loader.resolve(yaml.ScalarNode, event.value, (True, False)) if event.implicit[0] else _STR_TAG
        if tag == _MERGE_TAG:
            return _MERGE
        if tag == _STR_TAG:
            return event.value
        if tag == _INT_TAG:
            digits = sum(ch.isalnum() for ch in event.value)
            if digits > MAX_INT_DIGITS:
                raise self.fail(line, big_int_message(digits))
        construct: Callable[[Any, Any], Any] | None = self.loader.yaml_constructors.get(tag)
        if construct is None or tag not in _SCALAR_TAGS:
            raise self.fail(line, f"the tag {short_repr(event.tag)} is not supported")
        try:
            value = construct(self.loader, yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark))
        except (ValueError, TypeError, OverflowError):
            raise self.fail(line, f"{short_repr(event.value)} is not a valid {tag.rsplit(':', 1)[-1]}") from None
        if isinstance(value, int) and not isinstance(value, bool) and not -_INT_LIMIT < value < _INT_LIMIT:
            raise self.fail(line, big_int_message())
        return value


class _Merge:
    def __repr__(self) -> str:
        return "<<"


_MERGE: Any = _Merge()


# -- mappings given directly ----------------------------------------------------------------------------------------
def check_shape(data: Any, *, source: str, where: str = "") -> None:
    """Refuse nesting past MAX_DEPTH, more than MAX_VALUES values (shared ones counted at each use) and
    integers past MAX_INT_DIGITS, naming the field; iterative, and it stops at the first cap passed."""
    stack: list[tuple[Any, int, tuple[Any, ...] | None, Any]] = [(data, 0, None, None)]
    count = 0
    while stack:
        value, depth, parent, key = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise InputError(f"{where}holds more than {MAX_VALUES:,} values (the cap)", source=source)
        if isinstance(value, dict):
            if depth >= MAX_DEPTH:
                raise InputError(
                    f"{where}nested more than {MAX_DEPTH} deep (the cap)", field=_path(parent, key), source=source
                )
            here = (parent, key)
            stack.extend((v, depth + 1, here, k) for k, v in value.items())
        elif isinstance(value, (list, tuple)):
            if depth >= MAX_DEPTH:
                raise InputError(
                    f"{where}nested more than {MAX_DEPTH} deep (the cap)", field=_path(parent, key), source=source
                )
            here = (parent, key)
            stack.extend((v, depth + 1, here, i) for i, v in enumerate(value))
        elif isinstance(value, int) and not isinstance(value, bool) and not -_INT_LIMIT < value < _INT_LIMIT:
            raise InputError(f"{where}{big_int_message()}", field=_path(parent, key), source=source)


def _path(parent: tuple[Any, ...] | None, key: Any) -> str | None:
    parts: list[Any] = []
    node: tuple[Any, ...] | None = (parent, key)
    while node is not None and node[0] is not None:
        parts.append(node[1])
        node = node[0]
    if node is not None and node[1] is not None:
        parts.append(node[1])
    parts.reverse()
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            text = part if isinstance(part, str) and len(part) <= 40 else short_repr(part)
            out += f".{text}" if out else text
    return out or None


def field_path(loc: tuple[int | str, ...]) -> str:
    """pydantic's location tuple as `targets[0].armor.cut`."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            text = part if len(part) <= 40 else short_repr(part)
            out += f".{text}" if out else text
    return out


def validate(model: type[M], data: Any, *, source: str, prefix: str | None = None) -> M:
    """Validate `data` with `model`, turning the first pydantic error into an InputError (`data` has passed
    `check_shape`: `from_dict` and `fight_from_dict` check it first)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise validation_error(exc, source=source, prefix=prefix, model=model) from None
    except RecursionError:
        raise InputError("is nested too deeply", source=source) from None


def validation_error(
    exc: ValidationError, *, source: str, prefix: str | None = None, model: type[BaseModel] | None = None
) -> InputError:
    errors = exc.errors(include_url=False)
    # An unknown field is named as unknown even when it stands in for a required one (a typo): first.
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
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
        close = _close_field(model, loc)
        if close:
            message += f"; did you mean `{close}`?"
    elif first["type"] == "missing":
        message = "required field is missing"
    else:
        given = first.get("input")
        if first["type"] not in ("value_error", "assertion_error") and not isinstance(given, (dict, list)):
            message = f"{message} (got {short_repr(given)})"
    if prefix:
        field = f"{prefix}.{field}" if field else prefix
    return InputError(short_text(message), field=field or None, source=source)


def _close_field(model: type[BaseModel] | None, loc: tuple[int | str, ...]) -> str | None:
    """The field of the model at `loc[:-1]` whose name is closest to the unknown `loc[-1]` (difflib), if any."""
    if model is None or not loc or not isinstance(loc[-1], str):
        return None
    current: Any = model
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        found = getattr(current, "model_fields", {}).get(part)
        current = _model_in(found.annotation) if found is not None else None
        if current is None:
            return None
    names = list(getattr(current, "model_fields", {}))
    close = difflib.get_close_matches(loc[-1], names, n=1, cutoff=0.7)
    return close[0] if close else None


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model a field holds (itself, or inside a list, mapping, union or Annotated), if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def short_text(message: str, limit: int = 300) -> str:
    """A message cut to `limit` characters (a value quoted by a validator may be long)."""
    return message if len(message) <= limit else message[: limit - 1] + "…"
