# rumbaodds: every figure it prints comes from one of these targets.
PY ?= python3
HAND ?= "HA HK HQ S6 C7"

.PHONY: install run test test-fast bench bench-quick lint report report-screens clean strategies

install:  ## install the package with its test tools (editable)
	$(PY) -m pip install -q -e ".[test]"

run: install  ## the main job: should I call Rumba with this hand?
	rumbaodds ask $(HAND) --trump H9 --players 5 --seat 2

# two test processes, each test file in one of them (its fixtures built once): the kernels compile and the
# single-threaded tests run side by side on a 2-core machine (13.5 min in one process, cold cache)
TEST_PROCS ?= 2

test: install  ## the whole test suite, statistical checks included (what CI runs)
	$(PY) -m pytest -q -n $(TEST_PROCS) --dist loadfile

test-fast: install  ## without the slower statistical checks
	$(PY) -m pytest -q -n $(TEST_PROCS) --dist loadfile -m "not statistical"

bench: install  ## speed, measured and printed (ratios within one run)
	$(PY) -m benchmarks.run

bench-quick: install  ## every benchmark at tiny sizes, in seconds (a smoke test; tests/test_benchmarks.py runs it)
	$(PY) -m benchmarks.run --quick

lint: install
	$(PY) -m ruff check rumbaodds tests benchmarks

report: install  ## reports/{swiss,flemish,rummy}/: grids and cards (swiss: the shipped full tables; quick tables and answers kept in tables/); reports/trainer.html
	rumbaodds report --rules swiss --tables tables --out reports
	rumbaodds report --rules flemish --cells 150000 --tables tables --out reports
	rumbaodds rummy report --out reports
	rumbaodds train --page reports/trainer.html

report-screens: install  ## reports/screens/report-*.png: the reports in Debian's Chromium at 1400 px and 400 px
	$(PY) tests/browser/report_screens.py reports reports/screens

clean:
	rm -rf build *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

strategies: install  ## the shipped solved strategies (rumbaodds/data/strategies/), every preset and player count
	for n in 3 4 5 6 7; do rumbaodds strategy solve --rules swiss --players $$n --no-progress; done
	for n in 2 3 4; do rumbaodds strategy solve --rules flemish --players $$n --no-progress; done
	rumbaodds strategy solve --rules flemish --players 5 --iterations 200 --no-progress
	rumbaodds strategy solve --rules flemish --players 6 --iterations 320 --no-progress
