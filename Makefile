# The two entry points a newcomer needs: `make run` and `make test`.
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install test-deps

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# The web card room at http://$(HOST):$(PORT)/ with SQLite in ./data.
run: $(STAMP)
	$(VENV)/bin/tricktable serve --host $(HOST) --port $(PORT)

# Debian's chromium (browser tests) and postgresql (store tests), when missing.
test-deps:
	bash scripts/test-deps.sh

test: $(STAMP) test-deps
	$(PY) -m mypy
	$(PY) -m pytest tricktable tests
