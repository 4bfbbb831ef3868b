PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CATALOG := teach/translations/zh_Hans_CN/LC_MESSAGES/messages

.PHONY: run test golden bench peer clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(CATALOG).mo: $(CATALOG).po $(STAMP)
	$(BIN)/pybabel compile -d teach/translations

run: $(STAMP) $(CATALOG).mo
	$(BIN)/teach db upgrade
	$(BIN)/teach demo
	$(BIN)/teach run --host 127.0.0.1 --port 5000

# the suite proves every lesson puzzle as `teach lessons check` does (tests/test_crosscheck.py), once
test: $(STAMP) $(CATALOG).mo
	$(BIN)/pytest

# GNU Go's answers to the curriculum's capture and save puzzles, which the suite compares the judge with
golden: $(STAMP)
	$(BIN)/python tests/test_crosscheck.py

bench: $(STAMP)
	$(BIN)/python bench/engine.py

peer: $(STAMP)
	$(BIN)/teach go regress ../shared/peer/gnugo-regression/*.tst

clean:
	rm -rf $(VENV) build *.egg-info
