"""Shared fixtures: one world, corpus and simulator per test session."""

from __future__ import annotations

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
