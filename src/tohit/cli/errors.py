"""The command line's one error printer: every refused input is one line on stderr and exit code 2.

`error: <source>: <field>: <message>` (the parts a `TohitError` knows), never wrapped and never a
traceback; typer's and click's own usage errors (a missing argument, an unknown option, a value out of
range) take the same one-line form instead of a boxed panel. A command that needs an extra the install lacks
says which, in one line with its `pip install` (cli/extras.py decides). Every command module imports this module;
it imports no command module.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

import typer
from typer.core import TyperGroup

from tohit.cli.extras import missing_extra
from tohit.core.errors import TohitError

T = TypeVar("T")


#: click's base of usage errors, as typer raises it (recent typer carries its own copy of click).
CLICK_EXCEPTION: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def fail(message: str) -> NoReturn:
    """One plain line on stderr (never wrapped, easy to grep), then exit code 2."""
    sys.stderr.write(f"error: {' '.join(message.split())}\n")
    raise typer.Exit(2)


def guarded(action: Callable[[], T]) -> T:
    """Run `action`, turning input errors into one line and exit code 2."""
    try:
        return action()
    except TohitError as exc:
        fail(str(exc))


def stoppable(action: Callable[[], T], what: str) -> T:
    """`guarded(action)`, and Ctrl-C or SIGTERM meanwhile one line, `<what> stopped` (a command that writes
    nothing as it goes: `solve`, `compare`)."""
    try:
        return guarded(action)
    except (KeyboardInterrupt, Terminated, Exception) as exc:
        how = stopped_by(exc)
        if how is None:
            raise
        stopped(f"{how.words}: {what} stopped", how.code)


def usage_message(exc: Any) -> str:
    """A click/typer usage error as `<command>: <message> (see '<command> --help')`."""
    message = str(exc.format_message()).strip().rstrip(".")
    ctx = getattr(exc, "ctx", None)  # usage errors know their command
    if ctx is None:
        return message
    return f"{ctx.command_path}: {message} (see '{ctx.command_path} --help')"


def _is_help(exc: Exception) -> bool:
    """`tohit` alone prints the help (click raises this as a usage error; typer tells it apart by name too)."""
    return type(exc).__name__ == "NoArgsIsHelpError"


class OneLineErrors(TyperGroup):
    """The `tohit` command group: usage errors, the group's and every command's, go through `fail`."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except CLICK_EXCEPTION as exc:
            if _is_help(exc):
                raise
            fail(usage_message(exc))

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except CLICK_EXCEPTION as exc:
            if _is_help(exc):
                raise
            fail(usage_message(exc))
        except ModuleNotFoundError as exc:
            how = stopped_by(exc)
            if how is not None:  # an import cut short by the signal, not a missing extra
                stopped(f"{how.words}: stopped, nothing written", how.code)
            needed = missing_extra(command_path(ctx, exc), exc)
            if needed is None:
                raise
            fail(needed)
        except typer.Exit:  # a command's own end (`stopped` has said its line): never a second line
            raise
        except (KeyboardInterrupt, Terminated, Exception) as exc:
            how = stopped_by(exc)
            if how is None:
                raise
            stopped(f"{how.words}: stopped, nothing written", how.code)


def command_path(ctx: Any, exc: BaseException) -> str:
    """The command that raised `exc`, as typed (`tohit sweep`, `tohit db upgrade`): the context of the innermost
    click frame it passed through, else the group's own."""
    path = f"{ctx.command_path} {ctx.invoked_subcommand or ''}".strip()
    tb = exc.__traceback__
    while tb is not None:
        inner = getattr(tb.tb_frame.f_locals.get("ctx"), "command_path", None)
        if isinstance(inner, str):
            path = inner
        tb = tb.tb_next
    return str(path)


class Terminated(BaseException):
    """SIGTERM arrived: raised where the program is, so that `finally` blocks run (workers are ended)."""


#: Set once SIGTERM has arrived (`on_sigterm`).
_SIGTERM = threading.Event()
#: Set once Ctrl-C (SIGINT) has arrived (`on_sigint`).
_SIGINT = threading.Event()


def on_sigterm(signum: int, frame: Any) -> None:
    """The CLI's SIGTERM handler (installed by `main`)."""
    _SIGTERM.set()
    raise Terminated


def on_sigint(signum: int, frame: Any) -> None:
    """The CLI's Ctrl-C handler (installed by `main` in place of Python's own, which it does as Python's does:
    KeyboardInterrupt where the program is), noting that Ctrl-C arrived: Python drops an exception raised where
    the garbage collector calls back (Dask's scheduler, in this process during a sweep, has such a callback), and
    an import it cuts short fails again in a `finally` as another error."""
    _SIGINT.set()
    raise KeyboardInterrupt


@dataclass(frozen=True)
class Stop:
    """How a signal stops a command: the words of its line and its exit code (128 + the signal's number)."""

    words: str
    code: int


CTRL_C = Stop("interrupted (Ctrl-C)", 130)
SIGTERM = Stop("terminated (SIGTERM)", 143)


def stopped_by(exc: BaseException) -> Stop | None:
    """The signal that `exc` stands for: Ctrl-C's KeyboardInterrupt, SIGTERM's `Terminated`, or any other error
    surfacing once either has arrived, then the signal's, not a bug: its exception replaced on its way up by a
    library that raised its own instead (numpy turns an exception raised inside a comparison of structured arrays
    into a TypeError), or an import it cut short failing again (`on_sigint`). None for an error of its own."""
    if isinstance(exc, KeyboardInterrupt):
        return CTRL_C
    if isinstance(exc, Terminated) or _SIGTERM.is_set():
        return SIGTERM
    return CTRL_C if _SIGINT.is_set() else None


def raise_if_signalled() -> None:
    """Raise again the signal that arrived and was dropped on its way (`on_sigint`): called between two pieces of
    work (a sweep's points, a run's progress), so that a dropped Ctrl-C or SIGTERM stops the command there."""
    if threading.current_thread() is not threading.main_thread():
        return
    if _SIGTERM.is_set():
        raise Terminated
    if _SIGINT.is_set():
        raise KeyboardInterrupt


def stopped(message: str, code: int) -> NoReturn:
    """A command stopped by a signal: one line, the signal's exit code (128 + its number)."""
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(code)
