"""`make train-lift` trains on C1-C2 and evaluates the base and the SFT model on the same
held-out dev sample, both prompts, with the prompt the model was trained on; every
command line must parse (the run itself takes over an hour of CPU, so the test reads
the target instead of running it)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.training.conftest import load_script
from toolmaze_gym.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


def _lines(**variables: str) -> list[list[str]]:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    args = [f"{k}={v}" for k, v in variables.items()]
    text = subprocess.run(["make", "-n", "-s", "train-lift", "STAMP=", *args], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    return [shlex.split(ln) for ln in text.replace("\\\n", " ").splitlines()]


@pytest.fixture(scope="module")
def target() -> dict[str, list]:
    lines = _lines(TOOLMAZE="toolmaze", PY="python")
    cli = [ln[1:] for ln in lines if ln and ln[0] == "toolmaze"]
    scripts = {Path(ln[1]).stem: ln[2:] for ln in lines
               if len(ln) > 1 and ln[0] == "python" and ln[1].startswith("training_scripts/")}
    return {"cli": cli, "scripts": scripts}


def test_every_toolmaze_line_parses(target):
    assert [c[0] for c in target["cli"]] == ["sft-data", "generate", "eval", "eval", "report"]
    for argv in target["cli"]:
        build_parser().parse_args(argv)  # argparse exits on a bad flag


def test_base_and_sft_play_the_same_dev_episodes_with_the_trained_prompt(target):
    data, generate, *evals, report = [build_parser().parse_args(c) for c in target["cli"]]
    sft = load_script("sft_recovery").parse_args(target["scripts"]["sft_recovery"])
    assert data.split == "train" and data.levels == "C1,C2" and sft.data == data.out
    assert generate.split == "dev" and generate.level == ["C1", "C2"]
    assert [e.tasks for e in evals] == [generate.out, generate.out]
    assert evals[0].model is None and evals[1].model == sft.out  # base, then the SFT model
    for e in evals:
        assert set(e.prompt) == {"standard", "failure_aware"} and e.mode is None
        assert e.brief_tools and e.limit == evals[0].limit
    assert sft.brief_tools and sft.epochs >= 1 and sft.lora_r and sft.checkpoint_every
    assert report.compare and report.runs == [evals[0].out, evals[1].out]
    lift = target["scripts"]["lift"]
    assert lift[:2] == [evals[0].out, evals[1].out] and generate.out in lift
