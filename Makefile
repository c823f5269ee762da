# Two entry points for a newcomer: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit docs examples bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[rl,ray]" \
		"pytest>=8" "hypothesis>=6.100" "jsonschema>=4.18" "cloudpickle>=3" "ruff>=0.6" "mypy>=1.11" \
		"sphinx>=7" furo "myst-parser>=3"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m powergrid play --players 4 --map europe --seed 7

test: lint typecheck unit docs examples

lint: $(STAMP)
	$(BIN)/ruff check src tests examples benchmarks docs
	$(BIN)/ruff format --check src tests examples benchmarks docs

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

docs: $(STAMP)
	$(BIN)/sphinx-build -n -W --keep-going -q -b html docs docs/_build/html
	$(BIN)/sphinx-build -n -W --keep-going -q -b doctest docs docs/_build/doctest

examples: $(STAMP)
	@for f in examples/*.py; do echo "== $$f"; $(BIN)/python $$f > /dev/null || exit 1; done

bench: $(STAMP)
	$(BIN)/python benchmarks/random_games.py

clean:
	rm -rf $(VENV) docs/_build .pytest_cache .mypy_cache .ruff_cache .hypothesis
