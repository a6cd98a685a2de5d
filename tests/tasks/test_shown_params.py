"""What ``toolmaze show`` says the agent fills in, checked over the shipped suites."""

from __future__ import annotations

import pytest

from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.tasks.shown_params import _UNSET, shown_params
from toolmaze_gym.tasks.suite import get_task, load_suite


@pytest.mark.parametrize("suite", ["toolmaze-v1", "toolmaze-v2", "toolmaze-v3"])
def test_every_side_shows_its_tools_own_parameters_with_the_reference_arguments(suite):
    """Every side of every slot binds (no fallback to capability roles), shows exactly
    its tools' parameters, and the value it prints is the reference run's argument."""
    corpus = load_corpus()
    for task in load_suite(suite):
        for slot in task.slots:
            for k, side in enumerate(slot.alternatives):
                params = shown_params(corpus, task, slot, k)
                assert params, (task.id, slot.id, side)
                for tool in side:
                    names = [p.name for p in params if p.tool == tool]
                    assert names == [p.name for p in corpus[tool].params], (task.id, tool)
                path = next(p for p in task.solutions if p.choice[task.slots.index(slot)] == k)
                sent = {(c.tool, a): v for c in path.calls if c.slot == slot.id
                        for a, v in c.args.items()}
                shown = {(p.tool, p.name): p.value for p in params if p.value is not _UNSET}
                assert shown == sent, (task.id, slot.id)


def test_a_converting_tool_shows_its_unit_and_the_roles_value():
    """The v3 counter-example: ecobee's °F hold under the temperature_c role."""
    task = get_task("tmz-v3-c1-0047")
    hold = next(s for s in task.slots if s.alternatives == (("ecobee_set_hold",),))
    p = next(p for p in shown_params(load_corpus(), task, hold, 0) if p.role == "temperature_c")
    assert (p.name, p.type, p.value, p.adapter, p.canonical) == \
        ("hold_temp_f", "temperature_f", 68.0, "f_to_c", 20.0)
    assert "°F" in p.doc
