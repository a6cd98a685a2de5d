"""A cart's two lines in either order (grading version 30, ``grading.cart_lines``): the
toolmaze-v13 review's c4-0055 ordered two products "together", and the cart created
with the second one first failed on every Action from the cart on."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import _replay
from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.grading import cart_lines
from toolmaze_gym.tasks.suite import get_task

ACTIONS = Path(__file__).parent.parent / "data" / "reviews" / "v13" / "actions"
TASK = "tmz-v13-c4-0055"
SWAP = (ACTIONS / "c4-0055.cartswap.txt").read_text(encoding="utf-8")


def _graded(tmp_path: Path, text: str) -> tuple[dict, str]:
    path = tmp_path / "episode.txt"
    path.write_text(text, encoding="utf-8")
    return _replay(path, f"{TASK}-P0")


def test_the_lines_the_other_way_round_pass_and_say_so(tmp_path):
    """Shoes first, power banks added: a success, explained with every Action done."""
    grade, closing = _graded(tmp_path, SWAP)
    assert grade["success"], closing
    assert "NOT DONE" not in closing and "[done at step 4] Action cart_lines_add" in closing


@pytest.mark.parametrize("old, new, why", [
    # the power banks twice: one product left out
    ('"merchandiseId": "PRD-255993"', '"merchandiseId": "PRD-306273"', "same line twice"),
    # the second line short of the quantity asked
    ('"merchandiseId": "PRD-255993", "quantity": 3', '"merchandiseId": "PRD-255993", '
     '"quantity": 2', "a quantity wrong"),
])
def test_a_wrong_cart_still_fails_in_either_order(tmp_path, old, new, why):
    assert old in SWAP
    grade, _ = _graded(tmp_path, SWAP.replace(old, new))
    assert not grade["success"], why


def test_only_a_cart_built_by_two_actions_has_a_twin():
    corpus = load_corpus()
    task = get_task(TASK)
    twin = cart_lines.swapped(task, corpus)
    assert twin is not None and cart_lines.swapped(task, corpus) is twin  # built once
    lines = {s.id: {i.role: (i.source.slot, i.source.value) for i in s.inputs}
             for s in twin.slots if s.id in ("s3", "s4")}
    assert lines["s3"]["product_id"][0] == "s2" and lines["s4"]["product_id"][0] == "s1"
    assert twin.solutions[0].calls != task.solutions[0].calls  # its own reference run
    assert cart_lines.swapped(get_task("tmz-v13-c2-0015"), corpus) is None
