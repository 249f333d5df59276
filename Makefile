# Two entry points for a fresh clone: `make run` and `make test`.
VENV := .venv
PY := $(VENV)/bin/python
# First interpreter that is Python 3.12 or newer (pyenv installs included).
PYTHON ?= $(shell for p in python3.13 python3.12 python3 $$HOME/.pyenv/versions/3.13*/bin/python3 $$HOME/.pyenv/versions/3.12*/bin/python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo $$p; break; }; done)

.PHONY: run hall test venv node-tools migrate lint typecheck pytest jstest pytest-pg screenshots fuzz bench clean

# Python keeps its bytecode (__pycache__, git-ignored) even where the shell says not to: without
# it every test worker, pass and subprocess compiles the app and the tests again (collecting the
# suite takes 9.9 s of CPU instead of 3.0 s; about 40 s a CI run).
unexport PYTHONDONTWRITEBYTECODE

# The packages are installed by uv (itself from PyPI, into the venv): the same versions as pip
# picks, in about half the time on a fresh clone (make venv 35.7 -> 20.1 s here), bytecode
# compiled as pip does. pip stays in the venv for anyone's own use.
$(VENV)/.installed: pyproject.toml
	@if [ -z "$(PYTHON)" ]; then echo "error: Python 3.12 or newer is needed (none found on PATH or in ~/.pyenv); install it or run 'make PYTHON=/path/to/python3.12 ...'" >&2; exit 1; fi
	@if [ -x $(PY) ] && ! $(PY) -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then rm -rf $(VENV); fi
	[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet uv
	$(VENV)/bin/uv pip install --quiet --python $(PY) --compile-bytecode -e '.[dev]'
	touch $@

# The in-browser engine's runtime (Pyodide, pinned, from the npm registry; docs/offline-engine.md):
# fetched once into static/offline/pyodide/ (git-ignored); a failure warns and set-up goes on.
venv: $(VENV)/.installed
	@$(PY) scripts/fetch_pyodide.py || true

# The front-end's tools (docs/testing.md: ESLint, TypeScript, fake-indexeddb...), pinned in
# package-lock.json, fetched from the npm registry by `npm ci` into node_modules/ (git-ignored)
# when package*.json change. Without Node.js or the network: a warning and the JavaScript steps
# skipped; in CI (CI set), an error (scripts/js_tools.sh).
JS := bash scripts/js_tools.sh
node_modules/.installed: package.json package-lock.json
	@$(JS) install
node-tools: node_modules/.installed

migrate: venv
	$(PY) manage.py migrate --noinput

# The server and the background jobs' worker together (scripts/run_dev.sh); Ctrl-C stops both.
run: migrate
	PY=$(PY) scripts/run_dev.sh

# Hall mode (docs/hall.md): this laptop serves the hall's own Wi-Fi or a phone's hotspot, no
# internet: gunicorn on its network address, the jobs' worker, SQLite in hall-data/. HALL_ARGS:
# e.g. --address 192.168.1.20 --port 8080 (or HALL_ADDRESS, HALL_PORT, HALL_DATA_DIR).
hall: venv
	$(PY) manage.py hall $(HALL_ARGS)

# ruff, then the import contracts of pyproject.toml (layers, no circle, pure engines), then ESLint
# over the JavaScript (eslint.config.js).
lint: venv node_modules/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	@$(JS) run eslint --max-warnings 0 .

# mypy, then TypeScript over the JavaScript's JSDoc types: the pages, the workers, the JS tests.
typecheck: venv node_modules/.installed
	$(VENV)/bin/mypy scorekeeper tests
	@$(JS) run tsc -p tsconfig.json
	@$(JS) run tsc -p tsconfig.worker.json
	@$(JS) run tsc -p tests/js/tsconfig.json

# The JavaScript's unit tests (tests/js/*.test.js), by node's own test runner.
jstest: node_modules/.installed
	@$(JS) run node --test $(sort $(wildcard tests/js/*.test.js tests/js/*/*.test.js))

# Three workers on two cores: the browser tests wait on Chromium, so a third keeps both cores busy.
PYTEST_WORKERS ?= 3
pytest: venv
	$(VENV)/bin/pytest -n $(PYTEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

# The linters run beside the tests rather than before them: on their own they keep one core busy
# for about 15 s while the other waits (their few lines may land among pytest's); any failure fails.
test:
	@$(MAKE) --no-print-directory -j3 lint typecheck pytest jstest

# The tests that touch the database (marked `db` by tests/conftest.py), on PostgreSQL; the browser
# tests aside (they drive the views the test-client tests drive: .ci/run says why). PG_URL's
# database name is the stem of the test databases' (test_<name>_gw0...). Two workers: with no
# browser to wait on, a third only adds its start-up and contention (139 s and 273 CPU-s with
# three, 115 s and 225 CPU-s with two, on this 2-core machine).
PG_URL ?= postgres://postgres@127.0.0.1:5432/postgres
PG_WORKERS ?= 2
pytest-pg: venv
	DATABASE_URL="$(PG_URL)" $(VENV)/bin/pytest -p no:cacheprovider -n $(PG_WORKERS) \
		--dist worksteal -m "db and not browser" $(PYTEST_ARGS)

# The browser tests, each screen they check saved to screenshots/ for a person to look at (the
# tests take no picture unless SCREENSHOTS=1).
screenshots: venv
	SCREENSHOTS=1 $(VENV)/bin/pytest -n $(PYTEST_WORKERS) --dist worksteal tests/browser $(PYTEST_ARGS)

# A long random hunt over the engine's properties (CI's run is derandomized; this one is not).
fuzz: venv
	HYPOTHESIS_PROFILE=fuzz $(VENV)/bin/pytest tests/engine/scoring/test_properties.py -q $(PYTEST_ARGS)

bench: venv
	$(PY) scripts/bench_scoreboard.py
	$(PY) scripts/bench_history.py --keep .bench

clean:
	rm -rf $(VENV) node_modules static/offline/pyodide .pytest_cache .mypy_cache .ruff_cache .hypothesis .bench
