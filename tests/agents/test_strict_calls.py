"""Strict tool calls: the grammar admits every schema-valid call of a shown tool and
nothing else the parser would run, and the ``hf`` agent under ``strict_calls`` only
ever makes such calls."""

from __future__ import annotations

import json
import math

import gymnasium as gym
import pytest

pytest.importorskip("transformers")
pytest.importorskip("xgrammar")

from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

import toolmaze_gym  # noqa: F401  (registers the ids)
from toolmaze_gym.actions import parse_action
from toolmaze_gym.agents import make_policy
from toolmaze_gym.agents.strict_calls import (
    CALL_CLOSE,
    CALL_OPEN,
    SEPARATORS,
    StrictCalls,
    StrictCallsError,
    bounded_pattern,
    call_schema,
)
from toolmaze_gym.transcript import RESERVED_SCHEMAS

STOP = 2  # SmolLM2's <|im_end|>


@pytest.fixture(scope="module")
def tokenizer(smollm2_tokenizer_dir):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(smollm2_tokenizer_dir)


@pytest.fixture(scope="module")
def strict(tokenizer):
    return StrictCalls(tokenizer, 49152, [STOP])


@pytest.fixture(scope="module")
def tool_sets(corpus):
    """Every corpus tool, in shown sets of five plus finish and abort (as an episode
    shows them), so the property below covers every tool's schema."""
    names = sorted(corpus.tools)
    return [[corpus[n].openai_schema() for n in names[k:k + 5]] + list(RESERVED_SCHEMAS)
            for k in range(0, len(names), 5)]


def _text(name: str, arguments: dict, separators=SEPARATORS) -> str:
    call = json.dumps({"name": name, "arguments": arguments}, separators=separators,
                      ensure_ascii=False)
    return f"{CALL_OPEN}{call}{CALL_CLOSE}"


def _value(schema: dict) -> st.SearchStrategy:
    """Values valid for one property schema of the corpus (flat: strings, numbers,
    integers, booleans, enums)."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "boolean":
        return st.booleans()
    if kind in ("integer", "number"):
        lo, hi = schema.get("minimum"), schema.get("maximum")
        if "exclusiveMinimum" in schema:
            lo = schema["exclusiveMinimum"]
        if kind == "integer":
            lo = None if lo is None else math.floor(lo) + (1 if "exclusiveMinimum" in schema
                                                           else 0)
            return st.integers(min_value=lo, max_value=hi)
        # at most three decimals, no exponent: xgrammar's bounded numbers admit six
        # decimals at most and no exponent (see toolmaze_gym.agents.strict_calls)
        thousandths = st.integers(
            min_value=None if lo is None else math.floor(lo * 1000) + 1,
            max_value=None if hi is None else math.floor(hi * 1000))
        floats = thousandths.map(lambda k: k / 1000)
        ints = st.integers(min_value=None if lo is None else math.ceil(lo) + 1,
                           max_value=None if hi is None else math.floor(hi))
        return st.one_of(floats, ints)
    assert kind == "string", schema
    lo, hi = schema.get("minLength", 0), schema.get("maxLength", 80)
    if "pattern" in schema:
        # runs of an unbounded repetition held to PATTERN_RUN, as the grammar holds them
        return st.from_regex(bounded_pattern(schema["pattern"]), fullmatch=True).filter(
            lambda s: lo <= len(s) <= hi)
    # no character JSON must escape: xgrammar admits no escape in a length-bounded
    # string (see toolmaze_gym.agents.strict_calls), nor unassigned code points (planes
    # 4-13 are refused whole); any other text, non-ASCII included
    return st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc", "Cn"],
                                 exclude_characters='"\\'),
                   min_size=lo, max_size=min(hi, 40))


@st.composite
def _valid_call(draw, tools: list[dict]) -> tuple[str, dict]:
    fn = draw(st.sampled_from(tools))["function"]
    params = fn["parameters"]
    args = {}
    for pname, pschema in params["properties"].items():  # in the schema's order
        if pname in params.get("required", []) or draw(st.booleans()):
            args[pname] = draw(_value(pschema))
    return fn["name"], args


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_schema_valid_call_of_a_shown_tool_is_admitted(strict, tokenizer, tool_sets,
                                                             data):
    tools = tool_sets[data.draw(st.integers(0, len(tool_sets) - 1), label="tool set")]
    name, args = data.draw(_valid_call(tools))
    text = _text(name, args)
    action = parse_action(text)  # the grammar admits only what the parser runs
    assert (action.kind, action.name or action.kind) == ("call", name) or \
        action.kind == name
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    assert strict.accepts(tools, ids), text


def test_every_corpus_schema_compiles(strict, tool_sets):
    for tools in tool_sets:
        strict.compiled(tools)
    assert strict.compiles >= len(tool_sets)


@pytest.fixture(scope="module")
def shown(corpus):
    """A shown set: tools with an enum, an integer and a pattern, and finish/abort."""
    def first(pred) -> str:
        return next(n for n in sorted(corpus.tools) if any(
            pred(p) for p in corpus[n].openai_schema()["function"]["parameters"]
            ["properties"].values()))

    names = dict.fromkeys([first(lambda p: "enum" in p),
                           first(lambda p: p.get("type") == "integer"),
                           first(lambda p: "pattern" in p)])
    return [corpus[n].openai_schema() for n in names] + list(RESERVED_SCHEMAS)


def _first_with(tools, pred):
    for t in tools:
        for pname, p in t["function"]["parameters"]["properties"].items():
            if pred(p):
                return t["function"], pname
    raise AssertionError("no such parameter")


def _valid_args(fn: dict) -> dict:
    """The required arguments of ``fn``, each the simplest value its schema admits."""
    return {pname: find(_value(fn["parameters"]["properties"][pname]), lambda _: True)
            for pname in fn["parameters"].get("required", [])}


def _broken_calls(corpus, shown) -> dict[str, str]:
    """One call per kind of mistake the grammar must refuse, each one the parser would
    run as a call (so it is the constraint, not the parser, that keeps it out)."""
    hidden = next(n for n in sorted(corpus.tools)
                  if n not in {t["function"]["name"] for t in shown})
    finish = ("finish", {"answer": "done"})
    fn, pname = _first_with(shown, lambda p: p.get("type") in ("integer", "number"))
    wrong_type = {**_valid_args(fn), pname: "twelve"}
    fn_req = next(t["function"] for t in shown if t["function"]["parameters"].get("required")
                  and t["function"]["name"] not in ("finish", "abort"))
    missing = dict(_valid_args(fn_req))
    missing.pop(fn_req["parameters"]["required"][0])
    return {
        "hidden tool": _text(hidden, {}),
        "unknown argument": _text(finish[0], {**finish[1], "confidence": "high"}),
        "wrong type": _text(fn["name"], wrong_type),
        "missing required field": _text(fn_req["name"], missing),
        "unknown tool name": _text("search_web", {"query": "x"}),
        "enum value outside the enum": _text(*_first_enum(shown)),
        "finish with a number for its answer": _text("finish", {"answer": 42}),
    }


def _first_enum(tools) -> tuple[str, dict]:
    fn, pname = _first_with(tools, lambda p: "enum" in p)
    return fn["name"], {**_valid_args(fn), pname: "sideways"}


def test_the_broken_calls_would_run_without_the_constraint(corpus, shown):
    for what, text in _broken_calls(corpus, shown).items():
        assert parse_action(text).kind in ("call", "finish"), what


@pytest.mark.parametrize("what", ["hidden tool", "unknown argument", "wrong type",
                                  "missing required field", "unknown tool name",
                                  "enum value outside the enum",
                                  "finish with a number for its answer"])
def test_the_grammar_refuses_a_broken_call(strict, tokenizer, corpus, shown, what):
    text = _broken_calls(corpus, shown)[what]
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    assert not strict.accepts(shown, ids), text


def test_valid_calls_of_the_same_tools_are_admitted(strict, tokenizer, shown):
    for fn in (t["function"] for t in shown):
        text = _text(fn["name"], _valid_args(fn) if fn["name"] not in ("finish", "abort")
                     else {next(iter(fn["parameters"]["properties"])): "done"})
        assert strict.accepts(shown, tokenizer(text, add_special_tokens=False)["input_ids"]), \
            text


def test_prose_a_bare_call_and_two_calls_are_refused(strict, tokenizer, shown):
    one = _text("finish", {"answer": "ok"})
    for text in ("I will look up the quote now.",
                 json.dumps({"name": "finish", "arguments": {"answer": "ok"}}),
                 one + "\n" + one):
        assert not strict.accepts(shown, tokenizer(text, add_special_tokens=False)
                                  ["input_ids"]), text


def test_an_unbounded_answer_is_capped_so_a_call_always_closes(strict, tokenizer, shown):
    long = _text("finish", {"answer": "a" * (strict.free_text_chars + 1)})
    short = _text("finish", {"answer": "a" * strict.free_text_chars})
    assert not strict.accepts(shown, tokenizer(long, add_special_tokens=False)["input_ids"])
    assert strict.accepts(shown, tokenizer(short, add_special_tokens=False)["input_ids"])


def test_an_unbounded_pattern_run_is_held_so_a_string_always_closes(strict, tokenizer,
                                                                   corpus):
    """An e-mail's local part (``[...]+``) ends within PATTERN_RUN characters."""
    name = next(n for n in sorted(corpus.tools) if any(
        "@" in p.get("pattern", "") for p in
        corpus[n].openai_schema()["function"]["parameters"]["properties"].values()))
    fn = corpus[name].openai_schema()["function"]
    pname = next(k for k, p in fn["parameters"]["properties"].items()
                 if "@" in p.get("pattern", ""))
    tools = [corpus[name].openai_schema(), *RESERVED_SCHEMAS]
    for local, ok in (("a" * 32, True), ("a" * 33, False)):
        text = _text(name, {**_valid_args(fn), pname: f"{local}@example.com"})
        assert strict.accepts(tools, tokenizer(text, add_special_tokens=False)
                              ["input_ids"]) is ok, local


def test_a_tool_set_is_compiled_once_and_reused(tokenizer, shown):
    strict = StrictCalls(tokenizer, 49152, [STOP])
    first = strict.compiled(shown)
    assert strict.compiled([dict(t) for t in shown]) is first  # same schemas, same key
    assert strict.compiles == 1
    strict.compiled(shown[1:])
    assert strict.compiles == 2


@pytest.mark.parametrize(("tools", "match"), [
    ([], "no tools"),
    ([{"type": "function", "function": {"description": "x"}}], "no function name"),
    ([RESERVED_SCHEMAS[0], RESERVED_SCHEMAS[0]], "shown twice: finish"),
])
def test_bad_tool_sets_are_refused_by_name(tools, match):
    with pytest.raises(StrictCallsError, match=match):
        call_schema(tools)


def test_bad_options_are_refused(tokenizer):
    with pytest.raises(ValueError, match="free_text_chars must be a positive integer"):
        StrictCalls(tokenizer, 49152, [STOP], free_text_chars=0)
    with pytest.raises(ValueError, match="no stop token"):
        StrictCalls(tokenizer, 49152, [])


# -- the hf agent ---------------------------------------------------------------------


def _valid_for(tools: list[dict], action: dict) -> bool:
    """Whether an env action is a call of one of ``tools`` (finish/abort included) with
    arguments valid for its schema."""
    import fastjsonschema

    by_name = {t["function"]["name"]: t["function"] for t in tools}
    if action["kind"] in ("finish", "abort"):
        return True
    if action["kind"] != "call" or action["name"] not in by_name:
        return False
    try:
        fastjsonschema.validate(by_name[action["name"]]["parameters"], action["arguments"])
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def _play_strict(model: str | None, episodes: int, max_new_tokens: int, max_steps: int = 3,
                 **options):
    """Episodes of the ``hf`` agent under strict calls; [(tools, steps)]."""
    policy = make_policy("hf", model=model, strict_calls=True, compact_tools=True,
                         max_new_tokens=max_new_tokens, **options)
    out = []
    for k in range(episodes):
        env = gym.make(f"ToolMaze-C{k % 4 + 1}P{k % 5}-v0", max_steps=max_steps)
        _, info = env.reset(seed=k)
        policy.start(f"e{k}", env.unwrapped.episode.task, info["tools"], info["mode"])
        done = False
        while not done:
            text = policy.act_many([(f"e{k}", env.unwrapped.messages)])[0]
            _, _, term, trunc, _ = env.step(text)
            done = term or trunc
        policy.finish(f"e{k}")
        out.append((info["tools"], env.unwrapped.episode.steps))
    return out


def test_a_random_model_under_strict_calls_only_makes_valid_calls(tiny_model):
    """Random weights would write noise; constrained, every action is a valid call."""
    played = _play_strict(str(tiny_model), 2, max_new_tokens=300, max_steps=2,
                          free_text_chars=40)
    actions = [(tools, s.action) for tools, steps in played for s in steps]
    assert actions
    bad = [a for tools, a in actions if not _valid_for(tools, a)]
    assert not bad, bad


def test_a_call_closes_within_the_token_cap(tiny_model):
    """Free text may hold 300 characters, the turn only 64 tokens: random weights fill
    strings to the cap, so only the closing guard gets every call closed in time."""
    played = _play_strict(str(tiny_model), 2, max_new_tokens=64, max_steps=2)
    actions = [(tools, s.action) for tools, steps in played for s in steps]
    bad = [a for tools, a in actions if not _valid_for(tools, a)]
    assert actions and not bad, bad


def test_a_batch_of_episodes_with_different_tools_is_held_row_by_row(tiny_model):
    """Batched turns (as on a GPU): each row constrained to its own episode's tools."""
    policy = make_policy("hf", model=str(tiny_model), strict_calls=True, compact_tools=True,
                         max_new_tokens=64, batch_size=3)
    envs, tools = {}, {}
    for k in range(3):
        env = gym.make(f"ToolMaze-C{k + 1}P{k + 1}-v0", max_steps=1)
        _, info = env.reset(seed=k)
        policy.start(f"e{k}", env.unwrapped.episode.task, info["tools"], info["mode"])
        envs[f"e{k}"], tools[f"e{k}"] = env, info["tools"]
    assert len({json.dumps(t) for t in tools.values()}) == 3
    turns = [(key, env.unwrapped.messages) for key, env in envs.items()]
    for (key, _), text in zip(turns, policy.act_many(turns), strict=True):
        envs[key].step(text)
        action = envs[key].unwrapped.episode.steps[0].action
        assert _valid_for(tools[key], action), (key, action)


def test_without_strict_calls_the_random_model_makes_no_valid_call(tiny_model):
    """The same model free: what the test above shows is the constraint's doing."""
    policy = make_policy("hf", model=str(tiny_model), compact_tools=True, max_new_tokens=24)
    env = gym.make("ToolMaze-C1P0-v0", max_steps=3)
    _, info = env.reset(seed=0)
    policy.start("e", env.unwrapped.episode.task, info["tools"], info["mode"])
    _, _, *_ = env.step(policy.act_many([("e", env.unwrapped.messages)])[0])
    assert not _valid_for(info["tools"], env.unwrapped.episode.steps[0].action)


def test_strict_calls_must_be_a_switch(tiny_model):
    with pytest.raises(ValueError, match="strict_calls must be true or false"):
        make_policy("hf", model=str(tiny_model), strict_calls="yes")


@pytest.mark.slow
def test_the_embedded_model_under_strict_calls_only_makes_valid_calls():
    """The real SmolLM2-135M, a few short episodes: every action a valid call."""
    played = _play_strict(None, 3, max_new_tokens=128)
    actions = [(tools, s.action) for tools, steps in played for s in steps]
    bad = [a for tools, a in actions if not _valid_for(tools, a)]
    assert actions and not bad, bad
