"""`make eval` and the training targets on a fresh clone: `toolmaze eval --out DIR`
refuses a DIR whose parent does not exist (so a typo never scatters runs), and a fresh
clone has no `runs/`; the targets make the folders their runs go into first."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def _dry_run(target: str, **variables: str) -> list[str]:
    args = ["make", "-n", "-C", str(ROOT), target] + [f"{k}={v}" for k, v in variables.items()]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return out.splitlines()


@pytest.mark.parametrize(("target", "folder", "runs", "parent"), [
    ("eval", "EVAL_DIR", "/tmp/no-such/eval", "/tmp/no-such/eval"),
    ("train-demo", "TRAIN_DIR", "/tmp/no-such/demo", "/tmp/no-such/demo/eval"),
    ("train-lift", "LIFT_DIR", "/tmp/no-such/lift", "/tmp/no-such/lift/eval"),
    ("train-lift-strict", "LIFT_DIR", "/tmp/no-such/lift", "/tmp/no-such/lift/eval"),
])
def test_a_target_makes_the_folders_of_its_runs_before_the_first_run(target, folder, runs,
                                                                       parent):
    """`parent` is the folder each `toolmaze eval --out` of the target writes into."""
    lines = _dry_run(target, **{folder: runs})
    first_run = next(i for i, line in enumerate(lines) if " eval " in line or "sft-data" in line)
    made = [line.split()[-1] for line in lines[:first_run] if line.startswith("mkdir -p ")]
    assert parent in made, lines[:first_run]
    outs = [w for line in lines for w in [line.split("--out ", 1)[-1].split()[0]]
            if " eval " in line and "--out " in line]
    assert outs and all(str(Path(o).parent) in made for o in outs), (outs, made)
