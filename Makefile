# Two entry points for a newcomer: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit docs examples bench dist clean

$(STAMP): pyproject.toml Makefile
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[rl,ray]" \
		"pytest>=8" "pytest-xdist>=3.5" "hypothesis>=6.100" "jsonschema>=4.18" "cloudpickle>=3" \
		"ruff>=0.6" "mypy>=1.11" \
		"sphinx>=7" furo "myst-parser>=3"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m powergrid play --players 4 --map europe --seed 7

test: lint typecheck unit docs examples

lint: $(STAMP)
	$(BIN)/ruff check src tests examples benchmarks docs tools
	$(BIN)/ruff format --check src tests examples benchmarks docs tools

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)  # one worker per core: the suite is CPU-bound and its tests independent
	$(BIN)/pytest -n auto

docs: $(STAMP)
	$(BIN)/sphinx-build -n -W --keep-going -q -b html docs docs/_build/html
	$(BIN)/sphinx-build -n -W --keep-going -q -b doctest docs docs/_build/doctest

examples: $(STAMP)
	@for f in examples/*.py; do echo "== $$f"; $(BIN)/python $$f > /dev/null || exit 1; done

bench: $(STAMP)
	$(BIN)/python benchmarks/random_games.py

# The release check: build the sdist and wheel, check them, install the wheel into a
# new venv outside the repo and run the README's first example and the console script.
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m pip install --quiet build twine
	$(BIN)/python -m build --outdir dist .
	$(BIN)/python -m twine check --strict dist/*
	$(BIN)/python tools/check_wheel.py dist

clean:
	rm -rf dist $(VENV) docs/_build .pytest_cache .mypy_cache .ruff_cache .hypothesis
