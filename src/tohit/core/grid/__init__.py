"""Grid geometry for tactical combat (docs/architecture.md, "Layers": core), independent of any rules.

- `squares`: coordinates, the 8 directions, the 1-2-1 count;
- `sizes`, `footprint`: size categories, footprints, distances between footprints;
- `board`: the map (open and solid squares); `battlefield`: the map with creatures on it;
- `areas`: Blast, Burst, Cone, Line, Sweep and "within Y" as squares; `reach`: every range type placed,
  with the creatures it affects, and every legal placement;
- `segments`, `cover`: lines against squares, cover as small predicates; `cover_kernel`: the same for
  many pairs at once with numpy;
- `abstract`: abstract combat ranges (target counts with no map); `models`: the pydantic models;
- `view`: a placed attack seen whole; `rules`: `MapRules`, what a game with a map tells `tohit map` and
  `tohit aim` (the game's package cites the page each piece of this geometry comes from).
"""
