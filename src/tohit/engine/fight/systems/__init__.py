"""Per-system fight rules: one module per system id (`-` -> `_`), each exposing `RULES`."""
