"""The training scripts' ``--help`` states every default, and the defaults are the
configuration measured to fit 2 CPU cores and 24 GB (``make train-demo``)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.training.conftest import ROOT, load_script

SCRIPTS = ["sft_recovery", "grpo_recovery", "rollout"]
REQUIRED = {"sft_recovery": ["--out", "o"], "grpo_recovery": ["--out", "o"], "rollout": []}


def _help_lines(name: str) -> dict[str, str]:
    """``--flag`` -> its help entry (lines joined), from ``NAME.py --help``."""
    wide = {**os.environ, "COLUMNS": "10000"}  # no breaks inside words
    out = subprocess.run([sys.executable, str(ROOT / "training_scripts" / f"{name}.py"),
                          "--help"], capture_output=True, text=True, check=True, env=wide,
                         cwd=ROOT).stdout
    lines: dict[str, str] = {}
    flag = None
    for line in out.splitlines():
        words = line.split()
        if words and words[0].startswith("-"):
            flag = words[0].rstrip(",")
            lines[flag] = " ".join(words)
        elif words and flag:  # the help continues under the flag
            lines[flag] += " " + " ".join(words)
        else:
            flag = None
    return lines


@pytest.mark.parametrize("name", SCRIPTS)
def test_help_shows_every_default(name):
    lines = _help_lines(name)
    defaults = vars(load_script(name).parse_args(REQUIRED[name]))
    for dest, value in defaults.items():
        flag = "--" + dest.replace("_", "-")
        if flag == "--out" and REQUIRED[name]:
            continue  # required: no default
        assert flag in lines, f"{name}: {flag} missing from --help"
        if value is None:
            assert "default" in lines[flag].lower(), \
                f"{name} {flag}: no default and the help does not say what applies instead"
        elif value is not False:
            assert f"(default: {value})" in lines[flag], (name, flag, lines[flag])


def test_grpo_defaults_are_the_configuration_that_fits_24_gb():
    """Four rollouts per forward/backward pass ran out of memory at 24 GB; one rollout
    per pass and 512 completion tokens peaked at 12.8 GB (``make train-demo``)."""
    args = load_script("grpo_recovery").parse_args(["--out", "o"])
    assert args.batch_size == 1
    assert args.max_completion_length <= 512
    assert (args.batch_size * args.grad_accum) % args.num_generations == 0  # valid as given


def test_sft_defaults_are_the_configuration_that_fits_24_gb():
    args = load_script("sft_recovery").parse_args(["--out", "o"])
    assert args.batch_size == 1
    assert args.max_length <= 6144
