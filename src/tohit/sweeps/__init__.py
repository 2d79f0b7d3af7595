"""Interfaces layer: sweeps, a scenario or fight file across a grid of values, run on Dask (docs/architecture.md,
"Sweeps on Dask").

`spec` parses `--vary PATH=SPEC`; `grid` makes and checks the points; `measure` is one point's work; `execute`
says where points run (this process, a LocalCluster, a cluster by address); `table` writes and resumes the
tidy table; `run` ties them together; `plot` draws the table; `cluster` runs `simulate` and `fight -n` on a
cluster. (The package is `sweeps`, not `sweep`: `tohit.sweep` is the Python API's function.)
"""
