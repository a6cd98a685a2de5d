"""Shared fixtures: one world, corpus and simulator per test session, and a tiny
random causal LM with SmolLM2's tokenizer for the model-facing tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolmaze_gym.corpus import Simulator, load_corpus
from toolmaze_gym.world import get_world


@pytest.fixture(scope="session")
def world():
    return get_world(0)


@pytest.fixture(scope="session")
def corpus():
    return load_corpus()


@pytest.fixture(scope="session")
def sim(corpus, world):
    return Simulator(corpus, world)


# A tiny randomly initialised Llama with SmolLM2's tokenizer. Random weights with a
# wide initialiser give greedy replies that change with the context (a narrow one
# repeats one token whatever the prompt), so two ways of computing the same reply
# can be told apart.


@pytest.fixture(scope="session")
def smollm2_tokenizer_dir() -> Path:
    pytest.importorskip("transformers")
    from toolmaze_gym.agents.models import ModelUnavailable, default_model_dir

    try:
        return default_model_dir()
    except ModelUnavailable as exc:
        pytest.skip(f"SmolLM2 tokenizer unavailable: {exc}")


def build_tiny(target: Path, tokenizer_dir: Path, max_positions: int = 8192) -> Path:
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                         num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=max_positions, initializer_range=0.3,
                         tie_word_embeddings=True, bos_token_id=tokenizer.bos_token_id,
                         eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id)
    torch.manual_seed(0)
    LlamaForCausalLM(config).save_pretrained(target)
    tokenizer.save_pretrained(target)
    return target


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory, smollm2_tokenizer_dir) -> Path:
    return build_tiny(tmp_path_factory.mktemp("tiny-llama"), smollm2_tokenizer_dir)
