# toolsift: every task the README, CI and developers use. `make help` lists them.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev
export VIRTUAL_ENV := $(abspath $(VENV))
export PATH := $(abspath $(VENV))/bin:$(PATH)

.DEFAULT_GOAL := help
.PHONY: help setup build demo corpus test test-rust lint-rust test-python lint-python bench bench-rust fuzz clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install -q -U pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q -U "maturin>=1.9.4,<2"
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP) build ## create .venv with the dev extra and build the native module

build: | $(STAMP) ## (re)build the Rust extension into python/toolsift (incremental)
	$(VENV)/bin/maturin develop --release -q

demo: setup ## set up, then extract the tool calls of examples/ (the sample corpus) and print the summary
	$(VENV)/bin/toolsift extract examples/ -o target/demo/calls.jsonl

corpus: | $(PY) ## regenerate the sample corpus under examples/corpus (deterministic)
	$(PY) scripts/make_corpus.py

test: setup lint-rust test-rust test-python lint-python ## set up, then run the whole test suite

lint-rust: ## cargo fmt --check and clippy -D warnings
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings

test-rust: setup ## cargo test of the core, and the unit tests of the glue's pure-Rust helpers
	cargo test -p toolsift-core
	PYO3_PYTHON=$(abspath $(PY)) cargo test -p toolsift-python --lib

test-python: setup ## pytest (unit, conformance, properties, doctests)
	$(PY) -m pytest -q

lint-python: setup ## mypy --strict, stubtest, ruff
	$(PY) -m mypy --strict
	$(PY) -m mypy.stubtest toolsift._native
	$(VENV)/bin/ruff check python tests benches scripts
	$(VENV)/bin/ruff format --check python tests benches scripts

bench: setup ## install the peers (bench extra) and write BENCHMARKS.md from benches/compare.py
	$(PY) -m pip install -q -e '.[dev,bench]'
	$(MAKE) build
	$(PY) benches/compare.py --write BENCHMARKS.md

bench-rust: ## criterion benchmarks of the core
	cargo bench -p toolsift-core

FUZZ_SECONDS ?= 60
FUZZ_TARGETS := scanner repair stream

fuzz: ## run each cargo-fuzz target for FUZZ_SECONDS (needs the nightly toolchain; installs cargo-fuzz)
	@command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
	@for target in $(FUZZ_TARGETS); do \
		mkdir -p fuzz/corpus/$$target fuzz/seeds/$$target; \
		echo "fuzz: $$target for $(FUZZ_SECONDS) s"; \
		cargo +nightly fuzz run -O $$target fuzz/corpus/$$target fuzz/seeds/$$target -- \
			-max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
			-print_final_stats=1 > fuzz/$$target.log 2>&1 \
			|| { grep -A3 -m1 panicked fuzz/$$target.log; tail -n 5 fuzz/$$target.log; exit 1; }; \
			grep -E '^(Done|stat::(number_of_executed_units|new_units_added|peak_rss_mb))' fuzz/$$target.log; \
	done

clean: ## remove build outputs and the venv
	rm -rf target $(VENV) python/toolsift/_native*.so .pytest_cache .mypy_cache .hypothesis
