# One command to run the app, one to run the tests; both set everything up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test setup system-packages

run: $(VENV)/.installed
	$(BIN)/scorekeeper serve

test: system-packages $(VENV)/.installed-test
	$(BIN)/pytest

setup: $(VENV)/.installed

system-packages:
	scripts/system-packages.sh

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/pip install -q -e '.[test]'
	touch $@
