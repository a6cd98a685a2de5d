"""The toolmaze-v6 blind review's scenario oddities (issue 28) that no coherence rule
reads, each seen in the v6 task and gone from what the library builds now: the "short
summary" of a complaint that every summariser handed back whole, posted to #sales-apac
while the goal tells the support team (c4-0022)."""

from __future__ import annotations

from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.suite import get_task

SUMMARISED = ("summary", "tldr", "key_points", "result.tldr")


def _summaries(task) -> list[tuple[str, str]]:
    """(text given, summary) of every summariser call of the task's paths."""
    out = []
    for path in task.solutions:
        for c in path.calls:
            given = next((str(v) for k, v in c.args.items()
                          if k in ("text", "input", "content", "document")), None)
            said = next((str(v) for k, v in (c.response or {}).items() if k in SUMMARISED),
                        None)
            if given is not None and said is not None and ("summar" in c.tool or "tldr" in c.tool):
                out.append((given, said))
    return out


def _channel(task) -> str:
    return next(str(c.args["channel"]) for p in task.solutions for c in p.calls
                if "channel" in c.args)


def test_the_complaint_summary_is_short_and_goes_to_the_support_team(sim):
    old = get_task("tmz-v6-c4-0022", "toolmaze-v6")
    assert _summaries(old) and all(given == said for given, said in _summaries(old))
    assert _channel(old) == "sales-apac"
    sc = next(s for s in load_library() if s.id == old.meta["scenario"])
    for n in range(2):
        task = ScenarioGenerator(sim).generate(sc, "C4", "v7", f"complaint-{n}")
        pairs = _summaries(task)
        assert pairs and all(len(said) < len(given) for given, said in pairs), pairs
        assert all("TKT-" in said for _, said in pairs)
        assert _channel(task) in {"support", "customer-success"}
