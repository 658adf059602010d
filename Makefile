# Quick start: `make demo` runs the main job, `make test` runs ruff, mypy and the test suite.
# Both create .venv on first use and install the project into it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# torch is installed on its own first, pinned to the CPU wheel kept on these machines; a plain
# `torch` requirement would pull several GB of CUDA packages.
TORCH := torch==2.13.0

.PHONY: demo test test-all lint docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q $(TORCH)
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@ $(VENV)/.installed

# The main job: a 3x3 (face turns, QTM) with T = 8 as a MIP, proven optimal by HiGHS (the bound by
# splitting on the first moves, in this one process; docs/mip.md, docs/benchmarks/mip.md).
demo: $(VENV)/.installed
	$(BIN)/python -m exact.mip --size 3 --turns 8

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/python -m mypy

# CI's suite leaves out the tests marked slow (each has a smaller version that runs); test-all runs them too.
# Two worker processes (pytest-xdist), one per core of CI's 2-core machine, stealing tests from each
# other at the end so that neither idles (a module's fixture may be built in both). The 25 slowest
# tests are listed at the end, so that a test that grew shows in CI's log.
test: lint
	$(BIN)/python -m pytest -m "not slow" -n 2 --dist worksteal --durations=25

test-all: lint
	$(BIN)/python -m pytest -n 2 --dist worksteal

# The documentation site (mkdocs.yml) into site/: the API reference from the docstrings, the
# tutorial notebooks executed, and --strict, so that a broken internal link fails the build.
docs: $(VENV)/.installed-dev
	$(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache .mypy_cache site
