"""The paired TSR lift: episodes matched by key, a seeded bootstrap interval."""

from __future__ import annotations

import pytest

from toolmaze_gym.lift import paired_lift


def _runs(outcomes: list[bool], prefix: str = "t") -> list[dict]:
    return [{"key": f"{prefix}{i}/P0/standard/0", "grade": {"success": s}}
            for i, s in enumerate(outcomes)]


def test_a_clear_lift_has_an_interval_above_zero():
    before = _runs([False] * 60 + [True] * 20)
    after = _runs([True] * 50 + [False] * 10 + [True] * 20)
    lift = paired_lift(before, after)
    assert lift.pairs == 80 and lift.lift == pytest.approx(50 / 80)
    assert 0 < lift.ci[0] <= lift.lift <= lift.ci[1] and lift.excludes_zero()


def test_no_change_is_not_called_a_lift():
    # the same success rate, shuffled over the episodes: the interval spans zero
    before = _runs([i % 2 == 0 for i in range(60)])
    after = _runs([i % 2 == 1 for i in range(60)])
    lift = paired_lift(before, after)
    assert lift.lift == 0 and lift.ci[0] < 0 < lift.ci[1] and not lift.excludes_zero()


def test_only_paired_episodes_count_and_the_rest_are_counted():
    before = _runs([False] * 10)
    after = _runs([True] * 10) + _runs([False] * 5, prefix="extra")
    lift = paired_lift(before, after)
    assert lift.pairs == 10 and lift.unpaired == 5 and lift.after == 1.0
    assert "5 unpaired left out" in lift.line()


def test_the_interval_is_seeded():
    before, after = _runs([i % 3 == 0 for i in range(40)]), _runs([i % 2 == 0 for i in
                                                                    range(40)])
    assert paired_lift(before, after, seed=4).ci == paired_lift(before, after, seed=4).ci


def test_runs_of_other_episodes_are_refused_in_one_line():
    with pytest.raises(ValueError, match="share no episode"):
        paired_lift(_runs([True]), _runs([True], prefix="other"))


def _record(i: int, success: bool, exposed: bool = False, recovered: bool | None = None,
            c_rec: float = 0.0, steps: list | None = None, cut: str | None = None) -> dict:
    rec = {"key": f"t{i}/P1/standard/0", "level": "C1", "mode": "P1",
           "grade": {"success": success, "exposed": exposed, "recovered": recovered,
                     "c_rec": c_rec},
           "steps": steps if steps is not None else [
               {"action": {"kind": "finish", "answer": "done"}}]}
    if cut:
        rec["cut"] = cut
    return rec


def test_run_figures_pool_the_episodes_and_count_what_the_runner_cut():
    from toolmaze_gym.lift import run_figures

    bad = {"action": {"kind": "answer", "text": "not a call"}}
    records = ([_record(i, True, exposed=True, recovered=True, c_rec=0.5) for i in range(6)]
               + [_record(6 + i, False, exposed=True, recovered=False, c_rec=1.0,
                          steps=[bad, bad], cut="loop") for i in range(2)]
               + [_record(8 + i, False, cut="context") for i in range(2)])
    fig = run_figures(records)
    assert (fig.episodes, fig.exposed, fig.loops_cut) == (10, 8, 2)
    assert fig.tsr == pytest.approx(0.6) and fig.prr == pytest.approx(6 / 8)
    assert fig.rc == pytest.approx((6 * 0.5 + 2 * 1.0) / 10)  # Eq. 4: unexposed count 0
    assert fig.valid_calls == pytest.approx(8 / 12)  # 8 finishes, 4 unparsed answers
    assert fig.named_calls == 0.0  # no call named a task tool
    assert fig.tsr_ci[0] <= fig.tsr <= fig.tsr_ci[1] and fig.prr_ci[0] < fig.prr_ci[1]
    assert fig.turns == pytest.approx(12 / 10)


def test_a_run_never_exposed_has_no_prr_or_rc_rather_than_a_perfect_one():
    from toolmaze_gym.lift import FIGURE_HEAD, run_figures

    fig = run_figures([_record(i, False) for i in range(5)])
    assert fig.prr is None and fig.prr_ci is None and fig.rc is None
    prr, rc = FIGURE_HEAD.index("PRR % [95 % CI]"), FIGURE_HEAD.index("RC %")
    assert fig.cells()[prr] == "n/a" and fig.cells()[rc] == "n/a"


def test_the_before_after_table_has_a_row_per_run_and_the_lift_over_the_first():
    from tests.training.conftest import load_script

    lift = load_script("lift")
    before = [_record(i, False) for i in range(40)]
    after = [_record(i, i < 30) for i in range(40)]
    text = lift.table(["base", "sft"], [before, after])
    lines = text.splitlines()
    assert len(lines) == 4 and lines[0].startswith(
        "| run | episodes | shown tool named % | valid calls %")
    assert lines[2].startswith("| base | 40 |") and lines[2].endswith("|  |")
    assert lines[3].startswith("| sft | 40 |") and "| +75.0 [+" in lines[3]


def test_progress_grows_with_the_calls_and_is_none_for_stopping_at_once(sim):
    from toolmaze_gym.lift import episode_progress
    from toolmaze_gym.rollout import rollout
    from toolmaze_gym.tasks.suites import generate_split
    from toolmaze_gym.training.careful import CarefulAgent

    task = next(iter(generate_split("train", 1, seed=0, levels=["C1"])))
    done = rollout(task, "P1", CarefulAgent(sim), sim)
    full = episode_progress(done, task, sim)
    # the reward's progress term: every call of the path but the closing finish, which
    # is success's to pay for, so a finished task stays below 1
    assert done["grade"]["success"] and 0.8 <= full < 1.0
    stopped = {**done, "steps": [s for s in done["steps"]
                                 if s["action"]["kind"] in ("finish", "abort")]}
    assert episode_progress(stopped, task, sim) == 0.0
    half = {**done, "steps": done["steps"][:2]}
    assert 0.0 < episode_progress(half, task, sim) < full
