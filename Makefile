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

# The compiled playout kernels (tricktable/speedups.py): rebuilt when a kernel
# changes; a failed compile says why and leaves the pure-Python kernels in use
# (the loader never runs a build older than its source either way).
NATIVE := tricktable/_native/.built
KERNELS := $(wildcard tricktable/bots/*_kernel.py)

$(NATIVE): $(STAMP) $(KERNELS) tricktable/speedups.py
	@if $(PY) -m tricktable.speedups build; then touch $@; \
	else echo "speedups: not every kernel compiled; those run in pure Python (see above)"; fi

install: $(STAMP) $(NATIVE)

# The web card room at http://$(HOST):$(PORT)/ with SQLite in ./data.
run: $(STAMP) $(NATIVE)
	$(VENV)/bin/tricktable serve --host $(HOST) --port $(PORT)

# Debian's chromium (browser tests) and postgresql (store tests), when missing.
test-deps:
	bash scripts/test-deps.sh

# The layers of the import graph (pyproject's [tool.importlinter]), the types, the tests.
test: $(STAMP) $(NATIVE) test-deps
	$(VENV)/bin/lint-imports
	$(PY) -m mypy
	$(PY) -m pytest tricktable lab tests
