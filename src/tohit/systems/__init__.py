"""Systems layer: one module (or small package) per rule system, each exposing `SYSTEM`.

Adding a system means adding its package here with a module-level `SYSTEM` instance: the engine's
registry finds it by scanning this package; nothing else changes.
"""
