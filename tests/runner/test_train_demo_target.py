"""`make train-demo` evaluates the base and the trained model on the same held-out dev
sample, every (C, P) cell, both prompts; its toolmaze command lines must parse (the demo
itself takes an hour of CPU, so the test reads the target instead of running it)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from toolmaze_gym.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def commands() -> list[list[str]]:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    text = subprocess.run(["make", "-n", "-s", "train-demo", "TOOLMAZE=toolmaze",
                           "STAMP="], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout
    lines = text.replace("\\\n", " ").splitlines()
    return [shlex.split(ln)[1:] for ln in lines if ln.startswith("toolmaze ")]


def test_every_toolmaze_line_parses(commands):
    assert [c[0] for c in commands] == ["sft-data", "generate", "eval", "eval", "report"]
    for argv in commands:
        build_parser().parse_args(argv)  # argparse exits on a bad flag


def test_both_models_are_evaluated_on_the_generated_dev_sample(commands):
    generate = build_parser().parse_args(commands[1])
    assert generate.split == "dev"
    evals = [build_parser().parse_args(c) for c in commands[2:4]]
    assert [e.tasks for e in evals] == [generate.out, generate.out]
    for e in evals:
        assert e.level is None and e.mode is None and e.task_id is None  # every cell
        assert set(e.prompt) == {"standard", "failure_aware"}
    assert evals[0].limit == evals[1].limit and evals[0].sample_seed == evals[1].sample_seed
    assert evals[0].model is None and evals[1].model  # the base model, then the trained one
    report = build_parser().parse_args(commands[4])
    assert report.runs == [evals[0].out, evals[1].out]


@pytest.fixture(scope="module")
def scripts() -> dict[str, list[str]]:
    """The training scripts' argument lists in the target, by script name."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    text = subprocess.run(["make", "-n", "-s", "train-demo", "PY=python", "STAMP="],
                          cwd=ROOT, capture_output=True, text=True, check=True).stdout
    lines = [shlex.split(ln) for ln in text.replace("\\\n", " ").splitlines()]
    return {Path(ln[1]).stem: ln[2:] for ln in lines
            if len(ln) > 1 and ln[0] == "python" and ln[1].startswith("training_scripts/")}


def test_every_stage_shows_the_tools_as_the_evaluation_does(commands, scripts):
    """Train == test prompt: SFT, GRPO and both evals render the compact tool docs;
    the SFT data covers every level and mode; GRPO's reward has partial credit."""
    from tests.training.conftest import load_script

    sft = load_script("sft_recovery").parse_args(scripts["sft_recovery"])
    grpo = load_script("grpo_recovery").parse_args(scripts["grpo_recovery"])
    evals = [build_parser().parse_args(c) for c in commands[2:4]]
    assert sft.compact_tools and grpo.compact_tools and all(e.compact_tools for e in evals)
    data = build_parser().parse_args(commands[0])
    assert data.levels is None and data.modes is None  # all of C1-C4, P0-P4
    assert sft.data == data.out and grpo.model == sft.out
    assert grpo.reward == "partial" and grpo.num_generations >= 2 and grpo.temperature > 0
