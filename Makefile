# rumbaodds: every figure it prints comes from one of these targets.
# Everything runs in the project's own virtual environment (.venv, made on first use), so that nothing the machine
# happens to have installed can hide a missing dependency; VENV=... names another (.ci/run uses a new one).
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HAND ?= "HA HK HQ S6 C7"

.PHONY: install install-test run test test-slow test-statistical test-all bench bench-quick lint report trainer report-screens clean strategies

$(BIN)/python:
	$(PY) -m venv $(VENV)

install: $(BIN)/python  ## the package alone (editable): what `make run` needs, no test tools
	$(BIN)/python -m pip install -q -e .

install-test: $(BIN)/python  ## the package with its test tools (pytest, hypothesis, playwright, dask, numba-cuda, scipy)
	$(BIN)/python -m pip install -q -e ".[test]"

run: install  ## the main job: should I call Rumba with this hand?
	$(BIN)/rumbaodds ask $(HAND) --trump H9 --players 5 --seat 2

# two test processes, each test file in one of them (its fixtures built once): the kernels compile and the
# single-threaded tests run side by side on a 2-core machine; tests/conftest.py compiles the shared kernels once
# before the test processes start (a warm-up both processes then load from the cache) and puts the longest files
# first (xdist's own order, by the number of tests in a file, is turned off)
TEST_PROCS ?= 2
PYTEST = PATH="$(abspath $(BIN)):$$PATH" $(BIN)/python -m pytest -q -n $(TEST_PROCS) --dist loadfile --no-loadscope-reorder \
	--durations=25

test: install-test  ## the default test run: every test but the slow ones (under 10 minutes cold, install included)
	$(PYTEST) -m "not statistical and not slow"

test-slow: install-test  ## the slow checks: statistical, and the slow others (CI runs them after `make test`)
	$(PYTEST) -m "statistical or slow"

test-statistical: install-test  ## the slow statistical checks alone
	$(PYTEST) -m statistical

test-all: install-test  ## both in one run
	$(PYTEST)

bench: install-test  ## speed, measured and printed (ratios within one run)
	$(BIN)/python -m benchmarks.run

bench-quick: install-test  ## every benchmark at tiny sizes, in seconds (a smoke test; tests/test_benchmarks.py runs it)
	$(BIN)/python -m benchmarks.run --quick

lint: install-test
	$(BIN)/python -m ruff check rumbaodds tests benchmarks

report: install  ## reports/{swiss,flemish,rummy}/: grids and cards (the shipped full tables, flemish one cell per neighbour group; quick tables and answers kept in tables/); reports/trainer.html
	$(BIN)/rumbaodds report --rules swiss --tables tables --out reports
	$(BIN)/rumbaodds report --rules flemish --tables tables --out reports
	$(BIN)/rumbaodds rummy report --out reports
	$(BIN)/rumbaodds report-endgame --out reports
	$(MAKE) trainer

trainer: install  ## reports/trainer.html: 2,000 spots, each simulated until its grade is sure (16 min on two cores; resumable: build/trainer/); relinks reports/index.html
	$(BIN)/rumbaodds train --page reports/trainer.html

report-screens: install-test  ## reports/screens/report-*.png: the reports in Debian's Chromium at 1400 px and 400 px
	$(BIN)/python tests/browser/report_screens.py reports reports/screens

clean:
	rm -rf build *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

strategies: install  ## the shipped solved strategies (rumbaodds/data/strategies/), every preset and player count
	for n in 3 4 5 6 7; do $(BIN)/rumbaodds strategy solve --rules swiss --players $$n --no-progress; done
	for n in 2 3 4; do $(BIN)/rumbaodds strategy solve --rules flemish --players $$n --no-progress; done
	$(BIN)/rumbaodds strategy solve --rules flemish --players 5 --iterations 200 --no-progress
	$(BIN)/rumbaodds strategy solve --rules flemish --players 6 --iterations 320 --no-progress
	# score-aware (issue 38): iterations (and rounds) until every seat's exploitability is under 0.1 stakes per hand
	# (95% upper bound); flemish 6 was solved as 200 in 2 rounds, then went on to 300 in 3 (the same strategy)
	for game in "swiss 5 120 2" "flemish 4 120 2" "flemish 2 120 2" "swiss 3 120 2" "swiss 4 60 2" "swiss 6 120 2" \
	            "swiss 7 240 2" "flemish 3 60 2" "flemish 5 60 2" "flemish 6 300 3"; do set -- $$game; \
	  $(BIN)/rumbaodds strategy solve-game --rules $$1 --players $$2 --iterations $$3 --rounds $$4 --no-progress; done
	$(BIN)/python -m rumbaodds.strategy.check --record
