# Two entry points for a newcomer: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_STAMP := $(VENV)/.demo-installed

.PHONY: demo test lint typecheck unit browser docs examples compiled compiled-check wheels bench dist clean

# The demo needs the package alone; the tests need the extras and the dev tools too.
$(DEMO_STAMP): pyproject.toml Makefile
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e .
	touch $(DEMO_STAMP)

$(STAMP): pyproject.toml Makefile
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[rl,ray]" \
		"pytest>=8" "pytest-xdist>=3.5" "hypothesis>=6.100" "jsonschema>=4.18" "cloudpickle>=3" \
		"ruff>=0.6" "mypy>=1.11" "hatchling>=1.25" \
		"sphinx>=7" furo "myst-parser>=3" "playwright>=1.40"
	touch $(STAMP)

demo: $(DEMO_STAMP)
	$(BIN)/python -m powergrid play --players 4 --map europe --seed 7

test: lint typecheck unit docs examples compiled-check

lint: $(STAMP)
	$(BIN)/ruff check src tests examples benchmarks docs tools hatch_build.py
	$(BIN)/ruff format --check src tests examples benchmarks docs tools hatch_build.py

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) browser  # one worker per core: the suite is CPU-bound and its tests independent
	$(BIN)/pytest -n auto

# The replay page's browser test drives Debian's chromium through Playwright (which
# downloads no browser of its own): installed here where it is missing and apt-get
# runs as root; elsewhere the test is skipped and says why.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "browser: installing Debian's chromium for the replay page's test"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get install -y -qq chromium >/dev/null 2>&1 || \
	    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium >/dev/null 2>&1; } || \
	    echo "browser: chromium could not be installed; the browser test is skipped"; \
	  else echo "browser: no chromium, and no apt-get as root; the browser test is skipped"; fi; }

docs: $(STAMP)
	$(BIN)/sphinx-build -n -W --keep-going -q -b html docs docs/_build/html
	$(BIN)/sphinx-build -n -W --keep-going -q -b doctest docs docs/_build/doctest

examples: $(STAMP)
	@for f in examples/*.py; do echo "== $$f"; $(BIN)/python $$f > /dev/null || exit 1; done

# The optional compiled build (hatch_build.py): a mypyc-compiled wheel, installed
# under build/compiled/site so that PYTHONPATH=build/compiled/site imports it.
compiled: $(STAMP)
	rm -rf build/compiled
	HATCH_BUILD_HOOK_ENABLE_CUSTOM=1 $(BIN)/python -m pip wheel --quiet --no-deps \
		-w build/compiled/dist .
	$(BIN)/python -m pip install --quiet --no-deps --target build/compiled/site \
		build/compiled/dist/*.whl

# With a C compiler, the compiled build must play the golden games and pass the tests
# of the modules it compiles and of the records (pickles, JSON, copies): a subset, not a
# second full run (the whole suite passes there too); without one, it is skipped.
COMPILED_TESTS := tests/test_compiled.py tests/test_golden.py tests/test_auction.py \
	tests/test_resources.py tests/test_building.py tests/test_bureaucracy.py \
	tests/test_steps.py tests/test_storage.py tests/test_network.py tests/test_fund.py \
	tests/test_custom_deck.py tests/test_copies.py tests/test_decision_point.py \
	tests/test_saves.py tests/test_format_upgrade.py tests/test_module_state.py \
	tests/test_input_checks.py tests/test_recharged_hidden.py tests/test_doctests.py
compiled-check: $(STAMP)
	@if command -v cc >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory compiled && \
		POWERGRID_COMPILED=1 PYTHONPATH=build/compiled/site \
			$(BIN)/pytest -n auto -q -p no:cacheprovider $(COMPILED_TESTS); \
	else echo "compiled-check: no C compiler (cc), the compiled build is not checked"; fi

# The compiled wheel of this platform, as CI builds one per platform with cibuildwheel
# ([tool.cibuildwheel] in pyproject.toml): built into dist/, installed into a new venv
# outside the repo and tested there with the CI's recipe (the compiled modules are
# the ones imported, the golden games). Minutes long, so not part of `make test`.
# On Linux the wheel is tagged linux_*: only cibuildwheel's repair (auditwheel) makes
# the manylinux and musllinux wheels PyPI takes.
wheels: $(STAMP)
	@command -v cc >/dev/null 2>&1 || \
		{ echo "wheels: no C compiler (cc), no compiled wheel can be built"; exit 1; }
	rm -rf build/wheels
	HATCH_BUILD_HOOK_ENABLE_CUSTOM=1 $(BIN)/python -m pip wheel --quiet --no-deps \
		-w build/wheels .
	mkdir -p dist
	cp build/wheels/*.whl dist/
	$(BIN)/python tools/check_compiled_wheel.py build/wheels/*.whl

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
	rm -rf dist build $(VENV) docs/_build .pytest_cache .mypy_cache .ruff_cache .hypothesis
