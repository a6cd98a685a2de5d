"""One conversation whatever the transport: the loop guard compares actions, never the
ids a server gives its calls, and greedy turn sharing holds at any batch size."""

from __future__ import annotations

import itertools
import json

from tests.runner._policies import Greedy, Wrapped
from toolmaze_gym.runner import RunConfig, Selection, read_records, run


class NativeLooping(Wrapped):
    """Repeats one call forever, as a server's native ``tool_calls`` carry it: every
    reply has a fresh call id, as real servers give (``chatcmpl-..._tool_call_0``)."""

    ids = itertools.count()

    def act_many(self, turns):
        return [json.dumps({"tool_calls": [{
            "id": f"call_{next(self.ids):08x}", "type": "function",
            "function": {"name": "no_such_tool", "arguments": "{\"q\": 1}"}}]})
            for _ in turns]


def test_the_loop_guard_fires_on_native_tool_calls_with_fresh_ids(tmp_path):
    sel = Selection(levels=["C1"], limit=1, modes=["P0"])
    run(RunConfig("oracle", selection=sel, loop_guard=3), tmp_path, progress=False,
        policy=NativeLooping())
    (rec,) = read_records(tmp_path)
    assert rec["cut"] == "loop" and len(rec["steps"]) == 3


class Spelled(Wrapped):
    """The same call each turn, spelled differently (key order, spacing, a code fence):
    the same action, so the same loop."""

    spellings = itertools.cycle([
        '{"name": "no_such_tool", "arguments": {"a": 1, "b": 2}}',
        '<tool_call>{"arguments": {"b": 2, "a": 1}, "name": "no_such_tool"}</tool_call>',
        '```json\n{"name":"no_such_tool","arguments":{"a":1,"b":2}}\n```'])

    def act_many(self, turns):
        return [next(self.spellings) for _ in turns]


def test_the_loop_guard_compares_parsed_actions_not_their_spelling(tmp_path):
    sel = Selection(levels=["C1"], limit=1, modes=["P0"])
    run(RunConfig("oracle", selection=sel, loop_guard=3), tmp_path, progress=False,
        policy=Spelled())
    (rec,) = read_records(tmp_path)
    assert rec["cut"] == "loop" and len(rec["steps"]) == 3


class CountingGreedy(Greedy):
    """A greedy policy that also counts the requests (turns it is asked) per call."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[int] = []

    def act_many(self, turns):
        self.calls.append(len(turns))
        return super().act_many(turns)


def test_turn_sharing_holds_at_any_batch_size(tmp_path):
    """The five modes of one task open with the same conversation: one request serves
    them at batch 1 and at batch 5 alike."""
    sel = Selection(levels=["C2"], limit=1)  # one task in five modes
    answered = {}
    for batch in (1, 5):
        policy = CountingGreedy()
        run(RunConfig("oracle", selection=sel, batch=batch), tmp_path / str(batch),
            progress=False, policy=policy)
        answered[batch] = policy.answered
        recs = read_records(tmp_path / str(batch))
        assert sum(r["usage"]["shared_turns"] for r in recs) >= 4  # the opening turns
        if batch == 5:
            assert policy.calls[0] == 1  # five identical opening turns, one request
    assert answered[5] == answered[1]
