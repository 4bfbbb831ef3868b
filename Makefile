PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench peer clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/teach run --host 127.0.0.1 --port 5000

test: $(STAMP)
	$(BIN)/pytest
	$(BIN)/teach lessons check

bench: $(STAMP)
	$(BIN)/python bench/engine.py

peer: $(STAMP)
	$(BIN)/teach go regress ../shared/peer/gnugo-regression/*.tst

clean:
	rm -rf $(VENV) build *.egg-info
