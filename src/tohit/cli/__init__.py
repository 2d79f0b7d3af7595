"""Interfaces layer: the `tohit` command line (typer + rich)."""
