# `make demo` and `make test` work on a fresh machine with only Python 3.11 and pip.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench profile lint typecheck pytest fuzz clean docs docs-shots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tohit demo

lint: $(STAMP)
	@echo "== ruff: lint and format check of src, tests, benchmarks"
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	@echo "== mypy (strict) on src"
	$(BIN)/mypy src

# pytest-xdist's worker processes for `make test`: one a core and one more (some tests wait on a server, a browser or
# a subprocess, and the spare worker runs meanwhile: on a 2-core VM, 3 workers ran the suite in 5 min 56 s where 2
# took 6 min 51 s); 0 runs the suite in pytest's own process.
# Each test file runs whole in one worker (--dist loadfile): a module's fixtures (a wheel built, a server started)
# are made once, and the tests of a file keep their order.
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))

# The suite writes Python's bytecode caches (`__pycache__`, ignored by git) even where the environment asks not to
# (PYTHONDONTWRITEBYTECODE, set on some CI images): it starts `tohit` in hundreds of subprocesses (the CLI, servers,
# Dask workers), and each would compile the package from source again, as each worker would rewrite every test
# module again (pytest's cache of them is a bytecode cache too): 0.4 s of CPU a `tohit` start, and half the time
# of collecting the suite. On a 2-core VM the suite took 8 min 7 s with the caches off, 6 min 54 s with them
# (some 10 s of that from other cuts made at the same time; README, at the top).
pytest: $(STAMP)
	@echo "== pytest: the whole suite, in $(PYTEST_WORKERS) worker processes (-n $(PYTEST_WORKERS))"
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile

test: lint typecheck pytest

# The long fuzz campaign: tests/test_fuzz.py with the `fuzz` hypothesis profile (3,000 examples a test;
# `make test` runs the same tests with 60), then schemathesis against a live `tohit serve` with tokens,
# FUZZ_SERVER_EXAMPLES examples an operation, fresh inputs each run (`make test`: 6, the same each run).
# FUZZ_ARGS passes more, e.g. FUZZ_ARGS=--hypothesis-seed=1.
FUZZ_SERVER_EXAMPLES ?= 300
fuzz: $(STAMP)
	$(BIN)/python -m pytest tests/test_fuzz.py --hypothesis-profile=fuzz --timeout=0 $(FUZZ_ARGS)
	TOHIT_FUZZ_EXAMPLES=$(FUZZ_SERVER_EXAMPLES) $(BIN)/python -m pytest tests/server/test_server_fuzz_live.py --timeout=0 $(FUZZ_ARGS)

bench: $(STAMP)
	$(BIN)/python -m benchmarks $(BENCH_ARGS)

profile: $(STAMP)
	$(BIN)/python -m benchmarks.profile $(PROFILE_ARGS)

docs: $(STAMP)
	for id in $$($(BIN)/tohit systems --json | $(BIN)/python -c 'import json,sys; print(" ".join(s["id"] for s in json.load(sys.stdin)))'); do \
		$(BIN)/tohit reference $$id > docs/$$id.md; done

# The pictures of the web table the docs show (docs/web-table-*.png, docs/web-player-phone.png), taken again by the
# browser tests that make them; `make test` saves its screenshots under artifacts/ alone.
docs-shots: $(STAMP)
	TOHIT_DOCS_SHOTS=1 $(BIN)/python -m pytest tests/web/test_web_player.py tests/web/test_web_three_at_table.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
