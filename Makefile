# Two commands do everything on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: serve test lint typecheck pytest bench clean chromium

# setup.py builds the solver's compiled kernel (src/perudo/solve/_cfr.c, _cfr_kernel.h): a change
# there reinstalls.
$(STAMP): pyproject.toml setup.py src/perudo/solve/_cfr.c src/perudo/solve/_cfr_kernel.h
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,server,research]'
	touch $(STAMP)

# The web app on http://127.0.0.1:8000 (PERUDO_HOST, PERUDO_PORT, PERUDO_DATABASE_URL…: docs/server.md).
serve: $(STAMP)
	$(BIN)/perudo serve

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check setup.py src tests benchmarks examples
	$(BIN)/ruff format --check setup.py src tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) chromium
	$(BIN)/pytest

# The browser tests drive Debian's Chromium (never a downloaded browser), with a Korean font
# for the Korean screenshots. Installed only when missing; without root or apt the browser
# tests skip and say why.
chromium:
	@{ test -x /usr/bin/chromium && test -d /usr/share/fonts/truetype/nanum; } || { \
		echo "installing Debian's chromium and fonts-nanum for the browser tests"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium fonts-nanum </dev/null >/dev/null; } \
		|| echo "chromium could not be installed: the browser tests will be skipped"; }

bench: $(STAMP)
	$(BIN)/perudo bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
