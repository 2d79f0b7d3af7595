"""tohit: tabletop-RPG attack rules written once, fed dice three ways (roll, exact odds, simulate)."""

__version__ = "0.1.0"
