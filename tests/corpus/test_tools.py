"""Properties every tool in the corpus must have, checked on the shipped data."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from toolmaze_gym import values
from toolmaze_gym.corpus import EpisodeState, load_corpus
from toolmaze_gym.corpus.invariants import corrupt_relation, violations
from toolmaze_gym.corpus.sampling import produce, valid_arguments
from toolmaze_gym.tasks.execution import ExecutionError, run_slot, side_externals
from toolmaze_gym.tasks.model import Input, Slot, Source
from toolmaze_gym.values import CheckContext

CORPUS = load_corpus()
TOOLS = sorted(CORPUS.tools)
# Single-tool groups are checked in canonical units in test_groups.py (their sides
# take and report values in different units); sub-graph sides bind as tasks do.
CHAINS = sorted(g.id for g in CORPUS.groups if g.kind == "n_to_n")

# The paper's Table 4.
TABLE4 = {
    "category": {"Source": 78, "Processor": 69, "Action": 123},
    "domain": {"Office": 61, "Financial": 58, "Travel": 45, "Shopping": 36, "IoT": 36,
               "General": 34},
    "groups": {"one_to_one": 44, "one_to_n": 26, "n_to_n": 56},
    "total": {"tools": 270, "groups": 126},
}


def test_counts_match_table4(corpus):
    assert corpus.stats() == TABLE4


def test_group_shapes(corpus):
    single_groups: dict[str, str] = {}
    for g in corpus.groups:
        assert all(t in corpus for t in g.tools), g.id
        sizes = [len(side) for side in g.members]
        if g.kind == "one_to_one":
            assert sizes == [1, 1], g.id
        elif g.kind == "one_to_n":
            assert len(sizes) >= 3 and set(sizes) == {1}, g.id
        else:
            assert len(sizes) >= 2 and max(sizes) >= 2, g.id
            continue
        for t in g.tools:
            assert t not in single_groups, f"{t} in {single_groups.get(t)} and {g.id}"
            single_groups[t] = g.id


def test_names_look_like_apis(corpus):
    for name, spec in corpus.tools.items():
        assert name.replace("_", "").isalnum() and name.islower(), name
        assert not name.rstrip("0123456789").endswith("_"), name
        assert len(spec.description) > 20, name
        assert spec.params and spec.returns, name


def test_every_type_resolves_and_non_literals_have_producers(corpus, sim):
    for spec in corpus.tools.values():
        for p in spec.params:
            t = values.get(p.type)
            if p.required and not t.literal and not p.enum:
                assert produce(sim, p.type, EpisodeState(), "0", 4)[0], \
                    f"{spec.name}.{p.name}: nothing produces {p.type}"
        for f in spec.returns:
            values.get(f.type)


@pytest.mark.parametrize("name", TOOLS)
def test_valid_call_satisfies_every_invariant(name, sim, world):
    spec = CORPUS[name]
    for key in ("0", "1"):
        state = EpisodeState()
        args = valid_arguments(sim, spec, state, key)
        assert args is not None, f"cannot build arguments for {name}"
        resp = sim.call(name, args, state)
        assert resp.ok, f"{name}({args}) -> {resp.body}"
        assert set(resp.body) == {f.name for f in spec.returns}
        assert violations(spec, args, resp.body, world) == [], (args, resp.body)
        json.loads(resp.to_json())


_WRONG = {"string": 12345, "number": "twelve", "integer": "seven", "boolean": "yes",
          "array": "not-a-list", "object": "not-an-object"}


@pytest.mark.parametrize("name", TOOLS)
def test_every_parameter_rejects_a_wrong_type(name, sim):
    spec = CORPUS[name]
    state = EpisodeState()
    args = valid_arguments(sim, spec, state, "0")
    assert args is not None
    for p in spec.params:
        bad = dict(args)
        bad[p.name] = _WRONG[p.json_schema()["type"]]
        resp = sim.call(name, bad, state)
        assert resp.status in (400, 422), (p.name, resp.body)
        assert resp.body["error"]["field"] == p.name


def _side_inputs(sim, group, key, state):
    """Slot inputs for a group, bound per role as tasks bind them; ``state`` receives
    whatever the producers of non-literal inputs created (a cart, an order)."""
    ref = min(group.members, key=len)
    inputs = []
    for k, (role, tname) in enumerate(side_externals(CORPUS, ref)):
        t = values.get(tname)
        param = next(p for tool in ref for p in CORPUS[tool].params
                     if p.canonical == role and p.type == tname)
        if param.enum:
            value = param.enum[k % len(param.enum)]
        elif t.literal:
            value = t.sample(sim.world, f"{key}/{tname}/{role}")
        else:
            ok, value = produce(sim, tname, state, key, 4, group.tools)
            assert ok, f"{group.id}: nothing outside the group produces {tname}"
        inputs.append(Input(role, tname, Source("literal", value=value)))
    return tuple(inputs)


@pytest.mark.parametrize("gid", CHAINS)
def test_group_members_agree(gid, sim):
    """Every side, fed the same inputs, yields the same values of the provided types."""
    group = CORPUS.group_by_id[gid]
    agreed = 0
    for key in ("0", "1", "2", "3", "4", "5"):
        base = EpisodeState()
        slot = Slot("s1", group.members, _side_inputs(sim, group, key, base), group.id)
        finals = []
        for side in group.members:
            try:
                _, out = run_slot(sim, slot, side, {}, base.copy(), group.provides)
            except ExecutionError:
                finals = []
                break
            finals.append(out)
        if not finals:
            continue  # these sampled literals are not a valid request (e.g. no such route)
        agreed += 1
        for t in group.provides:
            assert all(values.get(t).same(finals[0][t], f[t]) for f in finals[1:]), (key, finals)
    assert agreed >= 3, f"{gid}: fewer than 3 of 6 sampled requests run on every side"


def _corrupt_cases(spec, body):
    for f in spec.returns:
        for c in values.get(f.type).corruptions:
            if c.kind == "entity" and not f.echo:
                continue
            yield f, c


@pytest.mark.parametrize("name", TOOLS)
def test_every_corruption_breaks_an_invariant_with_a_witness(name, sim, world):
    spec = CORPUS[name]
    state = EpisodeState()
    args = valid_arguments(sim, spec, state, "0")
    body = sim.call(name, args, state).body
    detectable = 0
    for f, c in _corrupt_cases(spec, body):
        ctx = CheckContext(world, args, body, f.name)
        out = c.fn(body[f.name], ctx, f"{name}/{f.name}")
        if out is None:
            continue
        bad, detail = out
        assert detail, (name, f.name, c.name)
        found = violations(spec, args, {**body, f.name: bad}, world)
        assert any(w.field == f.name for w in found), (name, f.name, c.name, bad)
        detectable += 1
    for chk in spec.checks:
        bad_body = corrupt_relation(chk, args, body, f"{name}/{chk.target}")
        if bad_body is not None:
            assert violations(spec, args, bad_body, world), (name, chk)
            detectable += 1
    if spec.category != "Action":
        assert detectable > 0, f"{name}: no detectable corruption for an implicit fault"


_PROBE = """
import hashlib, json, sys
from toolmaze_gym.corpus import EpisodeState, Simulator
from toolmaze_gym.corpus.sampling import valid_arguments
sim = Simulator()
h = hashlib.sha256(sim.world.now_iso.encode())
for name in sorted(sim.corpus.tools):
    st = EpisodeState()
    args = valid_arguments(sim, sim.corpus[name], st, "x")
    h.update(json.dumps([name, args, sim.call(name, args, st).body], sort_keys=True).encode())
print(h.hexdigest())
"""


def test_identical_across_processes_and_hash_seeds():
    outs = set()
    for seed in ("1", "987654"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        r = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                           text=True, check=True)
        outs.add(r.stdout.strip())
    assert len(outs) == 1
