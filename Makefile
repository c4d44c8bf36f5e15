# One command to run the app, one to run the tests; both set everything up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test setup

run: $(VENV)/.installed
	scripts/system-packages.sh run
	$(BIN)/scorekeeper serve

test: $(VENV)/.installed-test
	scripts/system-packages.sh test
	$(BIN)/mypy --strict scorekeeper
	$(BIN)/pytest -n 2

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/pip install -q -e '.[test]'
	touch $@
