# Quick start:  make demo   (set up, then check, play and replay a game)
#               make test   (set up, then run the test suite)
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup demo test test-all bench clean

setup: $(VENV)/.installed
	@echo "meeplang is installed in $(VENV): '. $(VENV)/bin/activate' puts it on your PATH"

$(VENV)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	@command -v dot >/dev/null || echo "note: Graphviz 'dot' not found; diagrams need it (apt-get install graphviz)"
	touch $@

demo: setup
	$(BIN)/meeplang games
	$(BIN)/meeplang check goofspiel
	$(BIN)/meeplang check pig
	$(BIN)/meeplang play goofspiel --seed 7 --agents greedy,random
	$(BIN)/meeplang play pig --players 3 --seed 1 --log pig-demo.jsonl
	$(BIN)/meeplang replay pig-demo.jsonl
	$(BIN)/meeplang check --deep goofspiel -n 3
	$(BIN)/meeplang diagram goofspiel --format dot -o goofspiel-demo.dot
	$(BIN)/meeplang simulate pig --players 2 -n 200 --jobs 2

test: setup
	$(BIN)/python -m pytest -m "not slow" -n auto

test-all: setup
	$(BIN)/python -m pytest -n auto

bench: setup
	$(BIN)/python benchmarks/playouts.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache pig-demo.jsonl goofspiel-demo.dot interpreter/*.so
