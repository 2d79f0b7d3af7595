"""Systems layer: one package per game, each exposing `SYSTEM` (a `tohit.core.system.System`).

Games are found through the `tohit.systems` entry-point group (`tohit.engine.registry`): the built-in
games here are registered in tohit's pyproject.toml, and a third-party package registers its own game
the same way, with no change to tohit.
"""
