# gamebag: `make run` starts the main job, `make test` runs every check. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run play serve test lint typecheck pytest bench browser clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,rl]'
	touch $(STAMP)

# The main job: Wriggle Roulette at the terminal, you against three bots.
run: $(STAMP)
	$(BIN)/gamebag play wriggle-roulette --players 4 --seats human,heuristic,heuristic,heuristic

play: $(STAMP)
	$(BIN)/gamebag play wriggle-roulette --players 4 --seats human,heuristic,heuristic,heuristic

browser:
	@if [ -x scripts/install-chromium.sh ]; then scripts/install-chromium.sh; fi

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

pytest: $(STAMP) browser
	$(BIN)/pytest -q

# Every check: ruff, mypy --strict on src/, and the whole pytest suite (slow and browser tests included).
test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python bench/bench_engine.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
