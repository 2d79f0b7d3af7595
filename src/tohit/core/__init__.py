"""Core layer: dice roles, support tables, outcome arrays, the steps recorder and scenario models.

Nothing here imports a system, the engine or an interface (docs/architecture.md, "Layers").
"""
