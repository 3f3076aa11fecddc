# fsbook — every target sets itself up: a fresh clone needs only `make book` or `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON   ?= python3
VENV     := .venv
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard book/*.ipynb book/gallery/*.ipynb book/api/*.ipynb))
SHARED_DATA ?= ../shared/data
# Notebooks (and test modules) run JOBS at a time, each in its own process; a notebook's cells
# always run in order in one kernel (pytest-xdist --dist loadscope keeps a file on one worker).
JOBS ?= 2

# Reproducible numerics: one BLAS thread (parallel float reductions differ
# with the thread count), a fixed numba thread count and a writable numba cache.
export OMP_NUM_THREADS := 1
export OPENBLAS_NUM_THREADS := 1
export MKL_NUM_THREADS := 1
export NUMBA_NUM_THREADS := 2
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache
export PYTHONHASHSEED := 0
# MPLBACKEND is left unset: notebooks need the inline backend (figures), headless tests fall back to Agg.
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: help venv book execute chapter html pdf test lint unit nbval nbval-generic verify-results check-html data benchmarks test-compat dist clean

help:
	@echo "make book        create .venv, re-execute every notebook in place, build the HTML book"
	@echo "make chapter NAME=05_disjunctive_hkl  re-execute one notebook in place, rebuild the HTML"
	@echo "make test        lint, unit tests + docstring examples, pytest --nbval on every notebook"
	@echo "make lint        ruff check (rules in pyproject.toml [tool.ruff])"
	@echo "make test-compat  the scikit-learn-facing tests in two fresh venvs: the oldest declared NumPy/SciPy/scikit-learn/pandas and the newest on the registry"
	@echo "make nbval-generic  pytest --nbval again on a second numerical path (NumPy baseline SIMD, another OpenBLAS kernel, generic numba)"
	@echo "make verify-results  recompute this commit's turn of the stored tasks in results/ and compare (5 min; every task once per cycle of turns)"
	@echo "make pdf         the book as one PDF, _build/fsbook.pdf (needs the browser check's chromium)"
	@echo "make check-html  build the HTML from committed outputs and check every page in headless Chromium"
	@echo "make data        rebuild data/ from $(SHARED_DATA)"
	@echo "make benchmarks  run the performance benchmarks (slow, on demand)"
	@echo "make dist        build the sdist and the wheel into dist/ (no setuptools warning allowed), twine check --strict"

$(STAMP): requirements.txt pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@touch $@

venv: $(STAMP)

# Re-execute every notebook in place: the committed notebooks hold the outputs
# of the last run, so `git diff` shows any change of a result (no per-cell
# timestamps are recorded and tables print a stable plain-text form, so an unchanged
# result gives an unchanged file; cells tagged nbval-ignore-output, such as timings, differ).
# scripts/record_execution.py runs nbconvert on each and records its status, wall and CPU time in
# benchmarks/results/execution.json, which book/execution_status.ipynb shows: that page runs last.
STATUS_PAGE := book/execution_status.ipynb
execute: $(STAMP)
	printf '%s\n' $(filter-out $(STATUS_PAGE),$(NOTEBOOKS)) | xargs -P $(JOBS) -I NB \
	  $(BIN)/python scripts/record_execution.py NB
	$(BIN)/python scripts/record_execution.py $(STATUS_PAGE)

# Re-execute one chapter in place (NAME = notebook name without .ipynb), then rebuild the HTML
# from the stored outputs, so a reader reruns what they read without executing the whole book.
chapter: $(STAMP)
	@test -n "$(NAME)" || { echo "usage: make chapter NAME=05_disjunctive_hkl  (one of: $(basename $(notdir $(NOTEBOOKS))))"; exit 2; }
	@test -f "book/$(NAME).ipynb" || { echo "no notebook book/$(NAME).ipynb; choose one of: $(basename $(notdir $(NOTEBOOKS)))"; exit 2; }
	$(BIN)/python scripts/record_execution.py "book/$(NAME).ipynb"
	$(MAKE) --no-print-directory html

# Build the HTML from the stored outputs; any Sphinx warning fails the build.
html: $(STAMP)
	$(BIN)/jupyter-book build . --all -W --keep-going -n
	@echo "The book is at $(CURDIR)/_build/html/index.html"

book: execute html

# The book as one PDF (on demand, not in CI): one HTML page of every chapter from the stored
# outputs, printed by the headless Chromium of the browser check (scripts/book_pdf.py; no TeX).
pdf: $(STAMP)
	$(BIN)/jupyter-book build . --all --builder singlehtml
	$(BIN)/python scripts/book_pdf.py _build/singlehtml _build/fsbook.pdf

# unit tests, then the Examples sections of the package's docstrings (doctests)
unit: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadscope tests -q
	$(BIN)/python -m pytest -n $(JOBS) --doctest-modules fsbook -q

# style, imports and bug-prone patterns (pyproject.toml [tool.ruff]), the notebooks' code cells included
# at the book's width (book/ruff.toml)
lint: $(STAMP)
	$(BIN)/ruff check .

nbval: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadscope --nbval --nbval-current-env $(NOTEBOOKS) \
	  --nbval-sanitize-with nbval_sanitize.cfg --nbval-cell-timeout=1800 -q

test: lint unit nbval

# The focused subset (fsbook._compat, every public estimator, every check_estimator test) in two
# throwaway virtual environments outside the repository: the floors declared in pyproject.toml
# (scikit-learn, NumPy, SciPy, pandas installed at exactly those versions) and the newest releases
# on the registry; one summary line per environment (scripts/test_compat.py).  Needs no .venv.
test-compat:
	$(PYTHON) scripts/test_compat.py

# The same notebooks on a second numerical path: NumPy limited to its baseline instructions (every
# SIMD feature it would dispatch to on this CPU disabled) and numba compiled for a generic x86-64
# CPU, with its own cache.  The committed outputs must pass both paths: a table that changes with
# the last bits of a sum is a defect of the table, never a reason to sanitise it.  OpenBLAS runs
# on another kernel than the machine's (OPENBLAS_CORETYPE: Haswell, or Sandybridge on a Haswell
# host): liblinear and every matrix product go through it.
nbval-generic: $(STAMP)
	@features="$$($(BIN)/python scripts/numpy_dispatch.py)"; core="$$($(BIN)/python scripts/numpy_dispatch.py --blas-core)"; \
	echo "second numerical path: NPY_DISABLE_CPU_FEATURES='$$features' OPENBLAS_CORETYPE=$$core NUMBA_CPU_NAME=generic"; \
	NPY_DISABLE_CPU_FEATURES="$$features" OPENBLAS_CORETYPE="$$core" NUMBA_CPU_NAME=generic NUMBA_CACHE_DIR=$(CURDIR)/.numba_cache_generic \
	  $(BIN)/python scripts/numpy_dispatch.py --check && \
	NPY_DISABLE_CPU_FEATURES="$$features" OPENBLAS_CORETYPE="$$core" NUMBA_CPU_NAME=generic NUMBA_CACHE_DIR=$(CURDIR)/.numba_cache_generic \
	  $(BIN)/python -m pytest -n $(JOBS) --dist loadscope --nbval --nbval-current-env $(NOTEBOOKS) \
	    --nbval-sanitize-with nbval_sanitize.cfg --nbval-cell-timeout=1800 -q

# Recompute one turn of the stored tasks (results/<name>/; turns of at most VERIFY_BUDGET seconds of
# recorded cost, chosen by the commit count, so consecutive commits cover every task) and compare
# field by field (plan, format and rule: results/README.md).
VERIFY_BUDGET ?= 300
verify-results: $(STAMP)
	$(BIN)/python -m fsbook.experiments verify --budget-seconds $(VERIFY_BUDGET)

check-html: html
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  echo "installing Debian's chromium and chromium-driver for the browser check"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  ($$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null) || { \
	    echo "ERROR: could not install chromium + chromium-driver (Debian packages)."; \
	    echo "Install them by hand (apt-get install chromium chromium-driver) and rerun make check-html."; \
	    exit 1; }; }
	$(BIN)/python scripts/check_html.py _build/html

data: $(STAMP)
	$(BIN)/python -m fsbook.datasets build --source $(SHARED_DATA)

benchmarks: $(STAMP)
	@for b in $(sort $(wildcard benchmarks/*.py)); do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# The sdist and the wheel in dist/ (git-ignored), built as a user's pip would: `python -m build` in an
# isolated environment with the setuptools that pyproject.toml's [build-system] asks for, the wheel
# from the sdist.  Any warning in the build log (setuptools' deprecations, an undeclared data
# package, a file missing from the sdist) fails the target, and so does a data set or committed store
# missing from the wheel (a store left out of pyproject.toml's packages gives no warning), and
# twine's strict check of the metadata and the README rendering.  Needs only build and twine in .venv, not the dependencies.
# PYTHONDONTWRITEBYTECODE is unset for the build: with it, setuptools prints "byte-compiling is
# disabled" warnings (the wheel holds no bytecode either way).
dist:
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -c "import build, twine" 2>/dev/null || $(BIN)/python -m pip install --quiet build twine
	rm -rf dist
	@mkdir -p dist
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m build --outdir dist . 2>&1 | tee dist/.build.log; \
	  test "$${PIPESTATUS[0]}" = 0
	@if grep -inE 'warn' dist/.build.log; then echo "make dist: the build log above has warnings"; exit 1; fi
	@$(BIN)/python -c "import pathlib, sys, zipfile; \
	  names = set(zipfile.ZipFile(next(pathlib.Path('dist').glob('*.whl'))).namelist()); \
	  want = [*pathlib.Path('data').glob('*.npz'), *pathlib.Path('results').glob('*/tasks-v*.jsonl.gz')]; \
	  missing = [p.as_posix() for p in want if 'fsbook/_data/' + p.as_posix() not in names]; \
	  sys.exit('make dist: the wheel misses ' + ', '.join(missing) if missing else 0)"
	$(BIN)/twine check --strict dist/*.tar.gz dist/*.whl

clean:
	rm -rf _build .numba_cache .numba_cache_generic dist
