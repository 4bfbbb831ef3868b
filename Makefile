PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CATALOG := teach/translations/zh_Hans_CN/LC_MESSAGES/messages
# the engine's modules setup.py compiles with mypyc (the list is setup.py's COMPILED)
ENGINE_SOURCES := $(patsubst %,teach/go/%.py,coords game search reading life lifedeath race connection eyes bot)
ENGINE := $(VENV)/.engine
# the engine tests run again on the Python source (`make test-python`): the two builds pass the same tests
ENGINE_TESTS := $(patsubst %,tests/test_%.py,build coords rules ko reading lifedeath life eyes bot capture_game \
	properties gtp status counting scoring sgf records game_records judge goals regress review claims)

.PHONY: run test test-python golden bench peer clean

# the dependencies; the package itself as plain source here, compiled just below
$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	TEACH_PURE_PYTHON=1 $(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# the compiled engine, rebuilt when its source changes (without a C compiler the source runs: see setup.py)
$(ENGINE): $(STAMP) $(ENGINE_SOURCES)
	$(BIN)/pip install --quiet --no-deps -e .
	$(BIN)/python -c "import teach.go; print('teach.go:', teach.go.BUILD, 'build')"
	touch $(ENGINE)

$(CATALOG).mo: $(CATALOG).po $(STAMP)
	$(BIN)/pybabel compile -d teach/translations

run: $(ENGINE) $(CATALOG).mo
	$(BIN)/teach db upgrade
	$(BIN)/teach demo
	$(BIN)/teach run --host 127.0.0.1 --port 5000

# the suite proves every lesson puzzle as `teach lessons check` does (tests/test_crosscheck.py), once
test: $(ENGINE) $(CATALOG).mo
	$(BIN)/pytest

test-python: $(ENGINE) $(CATALOG).mo
	TEACH_PURE_PYTHON=1 $(BIN)/pytest $(ENGINE_TESTS)

# GNU Go's answers to the curriculum's capture and save puzzles, which the suite compares the judge with
golden: $(ENGINE)
	$(BIN)/python tests/test_crosscheck.py

bench: $(ENGINE)
	$(BIN)/python bench/engine.py

peer: $(ENGINE)
	$(BIN)/teach go regress ../shared/peer/gnugo-regression/*.tst

clean:
	rm -rf $(VENV) build *.egg-info teach/go/*.so teach/go/_compiled.json *__mypyc*.so
