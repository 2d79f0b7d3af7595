"""Benchmarks: `make bench` (or `python -m benchmarks [--quick] [NAME...]`).

Each `bench_*.py` module exposes `run(quick: bool) -> list[Row]`; every figure is printed beside a
reference measured in the same run, as a ratio. No test fails on a stopwatch.
"""
