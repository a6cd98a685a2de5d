"""Shared fixtures for the training tests: a tiny random Llama with SmolLM2's tokenizer,
a few procedural train tasks, and the training scripts loaded as modules."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def train_tasks():
    from toolmaze_gym.tasks.suite import generate_split

    return list(generate_split("train", 4, seed=7))


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> Path:
    """A 2-layer Llama (random weights) saved with SmolLM2's tokenizer and its
    tool-capable ChatML template."""
    pytest.importorskip("trl")
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    from toolmaze_gym.agents.models import ModelUnavailable, default_model_dir

    try:
        source = default_model_dir()
    except ModelUnavailable as exc:
        pytest.skip(f"SmolLM2 tokenizer unavailable: {exc}")
    target = tmp_path_factory.mktemp("tiny-llama")
    tokenizer = AutoTokenizer.from_pretrained(source)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                         num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=8192, tie_word_embeddings=True,
                         bos_token_id=tokenizer.bos_token_id,
                         eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id)
    torch.manual_seed(0)
    LlamaForCausalLM(config).save_pretrained(target)
    tokenizer.save_pretrained(target)
    return target


def load_script(name: str):
    """A module of ``training_scripts/`` (not a package), imported from its file."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "training_scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
