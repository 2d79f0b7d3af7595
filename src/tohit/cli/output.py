"""Files a command writes (`fight --log`, `odds --plot`, `map --png`, `aim --png`): whole or not at all.

A path that is a folder, a device or another special file, or in a folder that does not exist or cannot
be written, is refused with one line naming it. Otherwise the file is written to a temporary file in the
same folder and renamed over the path once complete, so a failure (a full disk, an error while drawing)
leaves nothing half-written behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from tohit.core.errors import InputError


def write_file(path: Path, write: Callable[[Path], None], *, field: str) -> None:
    """Write `path` with `write(temporary path)`, then rename; any problem is one InputError for `field`."""
    if path.is_dir():
        raise InputError(f"{path} is a folder, not a file name", field=field)
    if path.exists():
        path = Path(os.path.realpath(path))  # write through a symlink, not over it
        if not path.is_file():
            raise InputError(f"{path} is not a regular file", field=field)
    parent = path.parent
    if not parent.exists():
        raise InputError(f"{path}: folder {parent} does not exist", field=field)
    if not parent.is_dir():
        raise InputError(f"{path}: {parent} is not a folder", field=field)
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix or ".tmp", dir=parent)
    except OSError as exc:
        raise InputError(f"{path} cannot be written ({exc.strerror or exc})", field=field) from None
    os.close(fd)
    temporary = Path(name)
    try:
        write(temporary)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise InputError(f"{path} cannot be written ({exc.strerror or exc})", field=field) from None
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
