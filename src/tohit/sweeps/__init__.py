"""Interfaces layer: sweeps, a scenario or fight file across a grid of values, run on Dask (docs/architecture.md,
"Sweeps on Dask").

`spec` parses `--vary PATH=SPEC`; `grid` makes and checks the points; `measure` is one point's work; `execute`
says where points run (this process, a LocalCluster, a cluster by address); `table` writes and resumes the
tidy table; `run` ties them together; `plot` draws the table; `cluster` runs `simulate` and `fight -n` on a
cluster. Two builds: `pair` plans A and B on one axis, `paired` runs them on common random numbers, `compare`
takes B - A, `solve` finds a crossing and `against` a break-even (A = B). (The package is `sweeps`, not
`sweep`: `tohit.sweep` is the Python API's function.)
"""
