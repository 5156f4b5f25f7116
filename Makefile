# forumplay: `make run` serves on the embedded SQLite default; `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint architecture typecheck test-sqlite test-postgres bench image-test clean misago

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[dev]"
	touch $(STAMP)

run: $(STAMP)  ## create the database, apply migrations, serve http://127.0.0.1:8000 (/docs)
	$(BIN)/python -m app serve

misago: $(STAMP)  ## the cached Misago venv the real-forum tests use (installed once, shared)
	$(BIN)/python -m tests.support.misago install

test: $(STAMP) misago  ## ruff, the architecture, mypy, and the whole suite on SQLite and on PostgreSQL
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(MAKE) architecture
	$(BIN)/mypy
	$(BIN)/pytest --db sqlite
	$(BIN)/pytest --db postgres

lint: $(STAMP)
	$(BIN)/ruff check . && $(BIN)/ruff format --check .
	$(MAKE) architecture

# Both run before either fails the build, so one run names every broken rule.
architecture: $(STAMP)  ## import contracts (pyproject's [tool.importlinter]), no cycles, files <= 500 lines, games named only by the registry
	@status=0; \
	$(BIN)/lint-imports --no-cache || status=1; \
	$(BIN)/python scripts/check_architecture.py || status=1; \
	exit $$status

typecheck: $(STAMP)
	$(BIN)/mypy

test-sqlite: $(STAMP)
	$(BIN)/pytest --db sqlite

test-postgres: $(STAMP)
	$(BIN)/pytest --db postgres

bench: $(STAMP)  ## engine benchmarks (service benchmarks need PostgreSQL: see bench/README.md)
	$(BIN)/python bench/team_battle_engine.py
	$(BIN)/python bench/island_engine.py
	$(BIN)/python bench/odds.py

image-test:  ## build the image with podman, run it alone and with docker-compose.yml, play a game
	bash ops/podman/image-test.sh

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache data
