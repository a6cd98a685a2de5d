"""The ranking the default reward teaches: trying beats quitting, hacks stay below honest play.

Issue 31: over the suite the default terminal reward ranked "finish at once" (0) above
the naive agent (−0.19), which solves every task without a fault and fails the faulted
ones, because a failure after an exposure cost 0.5 and never calling cost nothing. A
policy trained on that learns to quit. These tests play the honest scripted baselines
and the hack policies (``toolmaze_gym.agents.hacks``) on instances of the default suite
and check the order docs/rewards.md promises, under the terminal reward and the partial
credit GRPO trains on. ``benchmarks/reward_ranking.py`` prints the full-suite table.
"""

from __future__ import annotations

from itertools import pairwise
from statistics import fmean
from typing import Any

import pytest
from toolmaze_gym.reward import (
    BEFORE_ISSUE_31,
    DEFAULT,
    PARTIAL,
    RewardConfig,
    partial_reward,
    path_progress,
    repeat_indices,
    terminal_reward,
)

from toolmaze_gym.agents.hacks import HACKS, make_hack
from toolmaze_gym.cli.baselines import episode_agent
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.episode import Step
from toolmaze_gym.faults import FAULT_MODES, MODE_NAMES
from toolmaze_gym.faults.store import profile_for
from toolmaze_gym.rollout import rollout
from toolmaze_gym.tasks.model import LEVELS
from toolmaze_gym.tasks.suite import load_suite
from toolmaze_gym.training.environment import named_share, valid_share

HONEST = ("oracle", "validator", "retry", "naive")  # best first: the promised order
QUITTERS = ("finish_at_once", "abort_at_once")
PER_LEVEL = 12  # × 4 levels × 5 modes = 240 instances per policy (all 2,000: slow test)


def _tasks(per_level: int | None) -> list[Any]:
    tasks = load_suite()
    if per_level is None:
        return tasks
    out = []
    for level in LEVELS:
        of_level = [t for t in tasks if t.level == level]
        out += of_level[:: len(of_level) // per_level][:per_level]
    return out


def _play(policies, per_level: int | None) -> dict[str, list[dict[str, Any]]]:
    """Per policy, one row per instance (task × mode, in one order for all policies):
    the grade and what the partial credit reads."""
    sim = Simulator()
    out: dict[str, list[dict[str, Any]]] = {}
    for policy in policies:
        rows = out[policy] = []
        for task in _tasks(per_level):
            for mode in MODE_NAMES:
                key = f"{task.id}/{mode}/standard/0"
                agent = (make_hack(policy) if policy in HACKS
                         else episode_agent(policy, sim, key))
                rec = rollout(task, mode, agent, sim)
                steps = [Step.from_dict(s) for s in rec["steps"]]
                repeats = repeat_indices(steps)
                rows.append({
                    "mode": mode, "grade": rec["grade"], "repeats": len(repeats),
                    "valid": valid_share(rec, repeats), "named": named_share(rec, repeats),
                    "progress": path_progress(sim.corpus, task,
                                              profile_for(task, mode, sim), steps)})
    return out


def terminal(row: dict[str, Any], cfg: RewardConfig = DEFAULT) -> float:
    return terminal_reward(row["grade"], cfg)


def partial(row: dict[str, Any], cfg: RewardConfig = DEFAULT) -> float:
    return partial_reward(row["grade"], row["valid"], row["progress"], PARTIAL, cfg,
                          repeats=row["repeats"], named=row["named"])


def _means(played, reward, cfg: RewardConfig = DEFAULT) -> dict[str, float]:
    return {p: fmean(reward(r, cfg) for r in rows) for p, rows in played.items()}


@pytest.fixture(scope="module")
def played():
    return _play((*HONEST, "random", *HACKS), PER_LEVEL)


def check_ranking(played, cfg: RewardConfig = DEFAULT) -> None:
    """The promised order (docs/rewards.md), under both rewards."""
    for reward in (terminal, partial):
        m = _means(played, reward, cfg)
        order = [*HONEST, "finish_at_once"]
        assert all(m[a] > m[b] for a, b in pairwise(order)), (
            reward.__name__, m)
        assert m["finish_at_once"] == m["abort_at_once"] == 0.0
        assert m["random"] >= m["finish_at_once"], (reward.__name__, m)
        for hack in HACKS:
            # honest play that handles errors beats every hack; quitting is a hack too
            assert m[hack] < m["retry"], (reward.__name__, hack, m)


def test_trying_ranks_above_quitting_and_hacks_below_honest_play(played):
    check_ranking(played)


def test_the_reward_before_issue_31_ranked_quitting_above_trying(played):
    """The defect this ranking guards against, reproduced: with the exposure taxed on
    failure the naive agent earned less than finishing at once."""
    m = _means(played, terminal, BEFORE_ISSUE_31)
    assert m["naive"] < m["finish_at_once"] == 0.0, m
    with pytest.raises(AssertionError):
        check_ranking(played, BEFORE_ISSUE_31)


def test_no_episode_of_honest_play_earns_less_than_quitting(played):
    """Not only on average: in every instance, in every mode, an honest attempt earns at
    least what finishing or aborting at once earns there, so no cell of the suite (and
    no training set drawn from one mode) teaches quitting."""
    for policy in (*HONEST, "random"):
        for honest, quit_ in zip(played[policy], played["finish_at_once"], strict=True):
            assert terminal(honest) >= terminal(quit_) == 0.0, (policy, honest["grade"])
    for mode in FAULT_MODES:
        naive = [terminal(r) for r in played["naive"] if r["mode"] == mode]
        assert min(naive) >= 0.0, mode


def test_failed_hacks_earn_what_quitting_earns_and_loops_less(played):
    """A hack that does not get the task done earns 0 from the terminal reward, however
    many tools it called or faults it met (recovery pays only on top of a success); the
    partial credit prices the endless retry below quitting."""
    for hack in HACKS:
        failed = [terminal(r) for r in played[hack] if not r["grade"]["success"]]
        assert set(failed) <= {0.0}, hack
    assert _means(played, partial)["retry_forever"] < 0.0


def test_unknown_policies_are_refused_by_name():
    with pytest.raises(ValueError, match="unknown hack 'oracle'; choose from finish_at_once"):
        make_hack("oracle")
    with pytest.raises(SystemExit):
        _benchmark().main(["--policies", "naive,quit"])


def _benchmark():
    """benchmarks/reward_ranking.py as a module (benchmarks/ is no package)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "reward_ranking.py"
    spec = importlib.util.spec_from_file_location("reward_ranking", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_ranking_over_the_whole_suite_is_the_documented_table():
    """The same order over all 2,000 instances of the default suite (about 1 min of
    CPU), and docs/rewards.md's table and README's figures are what the benchmark prints."""
    from pathlib import Path

    bench = _benchmark()
    table = bench.measure(list(bench.POLICIES), load_suite(), Simulator(), quiet=True)
    for rule in ("terminal now", "partial now"):
        m = {p: row[rule] for p, row in table.items()}
        order = [*HONEST, "finish_at_once"]
        assert all(m[a] > m[b] for a, b in pairwise(order)), (rule, m)
        assert m["finish_at_once"] == m["abort_at_once"] == 0.0 <= m["random"], (rule, m)
        assert all(m[h] < m["retry"] for h in HACKS), (rule, m)
    root = Path(__file__).resolve().parents[2]
    printed = bench.markdown(table)
    docs = (root / "docs" / "rewards.md").read_text(encoding="utf-8")
    assert printed in docs, f"regenerate docs/rewards.md's table with:\n{printed}"
    readme = " ".join((root / "README.md").read_text(encoding="utf-8").split())
    naive = table["naive"]
    for figure in (f"(−{abs(naive['terminal before']):.3f})",
                   f"naive earns +{naive['terminal now']:.3f}"):
        assert figure in readme, figure
