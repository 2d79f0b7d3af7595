"""Interfaces layer: the `tohit` command line (typer + rich).

Typer draws its help and usage errors with rich (panels, colours) when it can, which costs a cold start some
50 ms of imports (markdown, syntax highlighting) before a line is printed. Those pay off on a terminal only:
when standard output is not one (a script, a bot, a pipe), the help is click's plain text, the same words,
unless TYPER_USE_RICH is set (`tohit --help` as a process). The command's own output (tables,
traces) is drawn by rich either way."""

import os
import sys


def _on_a_terminal() -> bool:
    """Whether standard output is a terminal (False when it is closed or gone)."""
    try:
        return sys.stdout is not None and sys.stdout.isatty()
    except (AttributeError, ValueError):  # no stdout, or a closed one
        return False


if not _on_a_terminal():
    os.environ.setdefault("TYPER_USE_RICH", "0")
