# gamebag: `make run` starts the main job, `make test` runs every check. Both set up .venv first
# (and compile the numba kernels once, into numba's on-disk cache: gamebag.fast.warm,
# gamebag.agents.equilibrium.warm and gamebag.analysis.warm).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run play serve test lint typecheck pytest bench browser postgres clean translations check-translations catalogues

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,rl,sb3,jax,cluster]'
	$(BIN)/python -m gamebag.fast.warm
	$(BIN)/python -m gamebag.agents.equilibrium.warm
	$(BIN)/python -m gamebag.analysis.warm
	$(BIN)/python scripts/i18n.py compile
	touch $(STAMP)

# The main job: the multiplayer web app (it prints the address to open).
run: $(STAMP)
	$(BIN)/gamebag serve --host 0.0.0.0 --port 8000

# The terminal game: Wriggle Roulette, you against three bots.
play: $(STAMP)
	$(BIN)/gamebag play wriggle-roulette --players 4 --seats human,heuristic,heuristic,heuristic

# Debian's chromium for the browser tests, installed when missing (never a downloaded browser).
browser:
	bash scripts/install-chromium.sh

# Debian's PostgreSQL for the multi-process web tests, installed when missing (the tests start
# their own throw-away cluster).
postgres:
	bash scripts/install-postgres.sh

# ruff, and import-linter's contracts on the layers (pyproject.toml, [tool.importlinter]).
lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy --strict src examples/low_tide/low_tide.py

# In parallel over every core (pytest-xdist), listing the 30 slowest tests at the end (to keep the
# suite within its time budget); the browser tests form one group that runs on one
# worker, first, while the other workers take everything else (tests/conftest.py).
pytest: $(STAMP) browser postgres
	$(BIN)/pytest -q -n auto --dist loadgroup --durations=30

# Every check: ruff, import contracts, mypy --strict on src/, and the whole pytest suite (slow and
# browser tests included).
test: lint typecheck pytest

# Translators (docs/translating.md): new texts from the source into every catalogue, what is left to
# translate, and the compiled catalogues (``make`` compiles them with the rest of the setup).
translations: $(STAMP)
	$(BIN)/python scripts/i18n.py extract
	$(BIN)/python scripts/i18n.py update

check-translations: $(STAMP)
	$(BIN)/python scripts/i18n.py check

catalogues: $(STAMP)
	$(BIN)/python scripts/i18n.py compile

bench: $(STAMP)
	$(BIN)/python bench/bench_engine.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
