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


def test_valid_calls_and_progress_have_intervals_around_their_pooled_values():
    from toolmaze_gym.lift import run_figures

    call = {"action": {"kind": "call", "name": "no_such_tool", "arguments": {}},
            "status": 404}
    # 10 episodes of 2 actions and one of 20: the long episode's 19 bad calls weigh
    # as actions in the pooled rate, and the interval resamples whole episodes
    records = ([_record(i, True) for i in range(10)]
               + [_record(10, False, steps=[call] * 19
                          + [{"action": {"kind": "finish", "answer": "x"}}])])
    fig = run_figures(records, progress=[0.5] * 10 + [0.0])
    assert fig.valid_calls == pytest.approx(11 / 30)
    lo, hi = fig.valid_calls_ci
    assert lo < fig.valid_calls < hi == pytest.approx(1.0)  # a draw without the long one
    assert fig.progress == pytest.approx(5 / 11)
    assert fig.progress_ci[0] < fig.progress < fig.progress_ci[1] <= 0.5
    cells = fig.cells()
    assert cells[2].startswith("36.7 [") and cells[-1].startswith("45.5 [")


def test_a_rate_with_nothing_to_divide_has_no_interval():
    from toolmaze_gym.lift import ratio_ci

    assert ratio_ci([0, 0], [0, 0]) is None and ratio_ci([], []) is None
    assert ratio_ci([1, 1], [2, 2]) == (0.5, 0.5)


def test_a_paired_difference_of_progress_pairs_by_key():
    from toolmaze_gym.lift import paired_difference

    before = {f"t{i}": 0.1 for i in range(30)}
    after = {f"t{i}": 0.1 + 0.4 * (i % 2) for i in range(30)} | {"extra": 1.0}
    lift = paired_difference(before, after)
    assert lift.pairs == 30 and lift.unpaired == 1
    assert lift.lift == pytest.approx(0.2) and lift.excludes_zero()
    assert lift.line("progress").startswith("progress 10.0 % -> 30.0 %: lift +20.0 points")


def test_the_cell_table_shows_where_each_run_succeeded():
    from toolmaze_gym.lift import cell_table

    def rec(i, level, mode, success):
        return {**_record(i, success), "level": level, "mode": mode}

    base = [rec(0, "C1", "P0", False), rec(1, "C1", "P1", False), rec(2, "C2", "P1", False)]
    sft = [rec(0, "C1", "P0", True), rec(1, "C1", "P1", False)]
    lines = cell_table(["base", "sft"], [base, sft]).splitlines()
    assert lines[0] == "| level | mode | base: TSR, valid calls % | sft: TSR, valid calls % |"
    assert lines[2:] == ["| C1 | P0 | 0/1, 100 | 1/1, 100 |",
                         "| C1 | P1 | 0/1, 100 | 0/1, 100 |",
                         "| C2 | P1 | 0/1, 100 | - |"]


def test_the_script_prints_the_table_both_lifts_and_the_cells(tmp_path, capsys):
    from tests.training.conftest import load_script
    from toolmaze_gym.cli.app import main as toolmaze
    from toolmaze_gym.runner import RunConfig, Selection, run

    tasks = tmp_path / "dev.jsonl"
    toolmaze(["generate", "--split", "dev", "--n", "2", "--level", "C1", "--out", str(tasks),
              "--quiet"])
    selection = Selection(levels=["C1"], modes=["P0", "P1"], tasks=str(tasks))
    for agent in ("naive", "validator"):
        run(RunConfig(agent, selection=selection), tmp_path / agent, progress=False)
    capsys.readouterr()
    load_script("lift").main([str(tmp_path / "naive"), str(tmp_path / "validator"),
                              "--tasks", str(tasks), "--cells"])
    out = capsys.readouterr().out
    assert "| naive | 4 |" in out and "| validator | 4 |" in out
    assert "validator: TSR " in out and "validator: progress " in out
    assert "| C1 | P0 | 2/2, 100 | 2/2, 100 |" in out  # no fault: both finish
    assert "| C1 | P1 |" in out
