# Two commands do everything on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# `make serve` installs only what serving needs (the server extra); `make test` everything, which
# includes it, so it touches both stamps.
SERVE_STAMP := $(VENV)/.installed-serve
SOURCES := pyproject.toml setup.py src/perudo/solve/_cfr.c src/perudo/solve/_cfr_kernel.h

.PHONY: serve test lint typecheck pytest test-durations bench clean chromium nginx services

# setup.py builds the solver's compiled kernel (src/perudo/solve/_cfr.c, _cfr_kernel.h): a change
# there reinstalls.
$(STAMP): $(SOURCES)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,server,research]'
	touch $(STAMP) $(SERVE_STAMP)

$(SERVE_STAMP): $(SOURCES)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[server]'
	touch $(SERVE_STAMP)

# The web app on http://127.0.0.1:8000 (PERUDO_HOST, PERUDO_PORT, PERUDO_DATABASE_URL…: docs/server.md).
# `make serve ARGS=--public` lets friends on other machines in (docs/hosting.md).
serve: $(SERVE_STAMP)
	$(BIN)/perudo serve $(ARGS)

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check setup.py src tests benchmarks examples
	$(BIN)/ruff format --check setup.py src tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy

# The doctests of the package in one run, then the tests on two workers, a test file each
# (its module's server and fixtures stay in one worker): the suite's budget is 15 minutes on
# two cores.
# The package's bytecode is compiled first: where PYTHONDONTWRITEBYTECODE is set, every server,
# command and worker process the tests start would compile the package again (some 0.7 s each).
# The files go to the workers longest first (tests/schedule.py, by tests/durations.json, which
# `make test-durations` rewrites from a whole run).
pytest: $(STAMP) chromium nginx services
	$(BIN)/python -m compileall -q src
	$(BIN)/pytest src/perudo
	$(BIN)/pytest -n 2 --dist loadfile tests

test-durations: $(STAMP) chromium nginx services
	PERUDO_RECORD_DURATIONS=tests/durations.json $(BIN)/pytest -n 2 --dist loadfile tests

# The browser tests drive Debian's Chromium (never a downloaded browser), with a Korean font
# for the Korean screenshots. Installed only when missing; without root or apt the browser
# tests skip and say why.
chromium:
	@{ test -x /usr/bin/chromium && test -d /usr/share/fonts/truetype/nanum; } || { \
		echo "installing Debian's chromium and fonts-nanum for the browser tests"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium fonts-nanum </dev/null >/dev/null; } \
		|| echo "chromium could not be installed: the browser tests will be skipped"; }

# The reverse-proxy tests run Debian's nginx (started and stopped by the tests themselves, on
# loopback, with deploy/nginx/perudo.conf). Installed only when missing (the tests never use
# the service the package may start). Without it those tests skip and say why.
nginx:
	@{ test -x /usr/sbin/nginx && command -v openssl >/dev/null; } || { \
		echo "installing Debian's nginx and openssl for the reverse-proxy tests"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			nginx openssl </dev/null >/dev/null; } \
		|| echo "nginx could not be installed: the reverse-proxy tests will be skipped"; }

# The store and multi-process tests run Debian's PostgreSQL (15 on bookworm) and Redis (started and stopped by
# the tests themselves on free loopback ports, their data in a temporary folder: the services
# the packages may start are never used; tests/server/services.py). Installed only when
# missing, and never for `make serve`. Without them those tests skip and say why.
services:
	@{ ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 && test -x /usr/bin/redis-server; } || { \
		echo "installing Debian's postgresql and redis-server for the store and cluster tests"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			postgresql redis-server </dev/null >/dev/null; } \
		|| echo "postgresql or redis-server could not be installed: their tests will be skipped"; }

bench: $(STAMP)
	$(BIN)/perudo bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
