"""The SFT curriculum: focus cells repeated exactly, every other cell present once."""

from __future__ import annotations

import argparse
from collections import Counter

import pytest

from tests.training.conftest import load_script
from toolmaze_gym.training.curriculum import Curriculum, cell_counts, focus_share, mix_indices

pytest.importorskip("datasets")

# two episodes per cell of the whole grid
LEVELS = [lv for lv in ("C1", "C2", "C3", "C4") for _ in range(10)]
MODES = [md for _ in range(4) for md in ("P0", "P1", "P2", "P3", "P4") * 2]


def test_focus_cells_appear_focus_repeat_times_and_the_rest_once():
    plan = Curriculum(focus_repeat=3)
    mixed = mix_indices(LEVELS, MODES, plan, seed=0)
    per_row = Counter(mixed)
    for i, (lv, md) in enumerate(zip(LEVELS, MODES, strict=True)):
        focus = lv in ("C1", "C2") and md in ("P0", "P1", "P2")
        assert per_row[i] == (3 if focus else 1), (lv, md)
    counts = cell_counts([LEVELS[i] for i in mixed], [MODES[i] for i in mixed])
    assert len(counts) == 20  # every cell present
    # 12 focus episodes x 3 = 36 of 36 + 28 = 64 rows
    assert len(mixed) == 64 and focus_share(counts, plan) == pytest.approx(36 / 64)


def test_the_mix_is_a_seeded_shuffle():
    plan = Curriculum(focus_repeat=2)
    assert mix_indices(LEVELS, MODES, plan, 1) == mix_indices(LEVELS, MODES, plan, 1)
    assert mix_indices(LEVELS, MODES, plan, 1) != mix_indices(LEVELS, MODES, plan, 2)
    assert sorted(mix_indices(LEVELS, MODES, plan, 1)) == sorted(mix_indices(LEVELS, MODES,
                                                                             plan, 2))


def test_a_weight_below_one_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        Curriculum(focus_repeat=0)


def test_the_sft_script_trains_on_the_mix_and_says_what_it_holds():
    from datasets import Dataset

    sft = load_script("sft_recovery")
    rows = Dataset.from_dict({"level": LEVELS, "mode": MODES, "task_id": [str(i) for i in
                                                                           range(40)]})
    mixed, meta = sft.curriculum_mix(rows, argparse.Namespace(focus_repeat=4, seed=0))
    assert len(mixed) == 12 * 4 + 28 and meta["mix_rows"] == len(mixed)
    assert meta["mix_per_cell"]["C1P0"] == 8 and meta["mix_per_cell"]["C4P4"] == 2
    assert meta["focus_share"] == pytest.approx(48 / 76, abs=1e-4)
