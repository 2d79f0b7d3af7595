"""Toy d20: a sixth game, written as a third party would write one (one package, registered by entry point).

The smallest complete game tohit can fight: d20 + attack bonus against a Defence, a natural 20 a critical
(damage dice twice), damage off hit points. docs/new-game.md walks through it; the contract suite
(tests/contract/) runs it beside the built-in games.
"""

from tohit_toy.rules import ToyD20

SYSTEM = ToyD20()
