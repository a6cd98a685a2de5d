"""``toolmaze grade``: placeholder until the grading CLI lands (owned by the grading work)."""

from __future__ import annotations


def add_commands(sub) -> None:
    return None
