"""Shared fixtures for the training tests: a few procedural train tasks and the training
scripts loaded as modules (the tiny model is the session fixture of tests/conftest.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def train_tasks():
    from toolmaze_gym.faults.store import profiles_buildable
    from toolmaze_gym.tasks.suites import generate_split

    return list(generate_split("train", 4, seed=7, check=profiles_buildable))


def load_script(name: str):
    """A module of ``training_scripts/`` (not a package), imported from its file."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "training_scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
