"""Strict calls on the training rollout paths: GRPO in TRL's own tool loop (a logits
processor on transformers' generate) and the vLLM ``rollout_func`` (vLLM structured
outputs, one grammar per episode's tools). A tiny random-weights model writes noise
unless constrained, so what the rollouts hold is the constraint's doing."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

pytest.importorskip("trl")
pytest.importorskip("xgrammar")

from tests.agents.test_strict_calls import _valid_for
from tests.training.conftest import load_script


def _grpo(tiny_model, tmp_path, strict: bool) -> list[tuple[list, list]]:
    """One GRPO step of the tiny model in TRL's tool loop; every rollout's
    (shown tools, actions) as the environments recorded them."""
    from trl import GRPOTrainer

    grpo = load_script("grpo_recovery")
    seen: list[tuple[list, list]] = []

    class Recording(GRPOTrainer):
        def _generate(self, prompts):
            out = super()._generate(prompts)
            for env in self.environments:
                rec = env.trajectory
                seen.append((list(env.tool_schemas), [s["action"] for s in rec["steps"]]))
            return out

    argv = ["--model", str(tiny_model), "--out", str(tmp_path / "grpo"), "--tasks", "2",
            "--seed", "3", "--levels", "C1", "--modes", "P0", "--prompts", "standard",
            "--max-steps", "1", "--num-generations", "2", "--batch-size", "4",
            "--grad-accum", "1", "--max-completion-length", "160",
            "--max-episode-steps", "2", "--compact-tools", "--threads", "1"]
    grpo.main(argv + (["--strict-calls"] if strict else []), trainer_cls=Recording)
    return seen


@pytest.mark.parametrize("strict", [True, False])
def test_grpo_rollouts_in_process_make_only_valid_calls_under_strict_calls(
        tiny_model, tmp_path, monkeypatch, strict):
    """With --strict-calls every action of every rollout is a valid call of that
    rollout's own tools (two tasks, two tool sets, one batch); without it the same
    random model makes no call the environment runs."""
    monkeypatch.setenv("OMP_WAIT_POLICY", "PASSIVE")
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    seen = _grpo(tiny_model, tmp_path, strict)
    assert len({json.dumps(t) for t, _ in seen}) == 2  # each row has its own tools
    actions = [(tools, a) for tools, acts in seen for a in acts]
    valid = [a for tools, a in actions if _valid_for(tools, a)]
    if strict:
        assert actions and len(valid) == len(actions), actions
    else:
        assert not valid


def test_each_row_gets_its_own_episodes_tools_and_an_ended_episode_may_only_stop(
        tiny_model):
    """Rows are matched to episodes by their prompt, in the first turn and in TRL's
    tool loop (a subset of the rows, each grown by completions and tool results); after
    finish/abort TRL asks once more, and that row gets no forced call."""
    from transformers import AutoTokenizer

    from toolmaze_gym.training.environment import ENDED, ENDED_STATUS
    from toolmaze_gym.training.strict_rollouts import strict_trainer

    tok = AutoTokenizer.from_pretrained(tiny_model)

    class Base:
        pass

    def tool(name):
        return {"type": "function", "function": {"name": name}}

    cls = strict_trainer(Base)
    trainer = cls.__new__(cls)
    prompts = [tok.encode(f"<|im_start|>user\ntask {k}<|im_end|>\n") for k in range(2)]
    envs = [SimpleNamespace(tool_schemas=(tool(f"only_{k}"), tool("finish"))) for k in range(2)]
    trainer.environments = envs
    trainer.processing_class = tok
    trainer.max_completion_length = 100
    trainer._strict_batch = None
    sets, budgets = trainer.strict_rows(prompts)
    assert sets == [list(e.tool_schemas) for e in envs] and budgets == [100, 100]
    grown = prompts[1] + tok.encode('{"error": 404} and more')
    done = prompts[0] + tok.encode(json.dumps({"status": ENDED_STATUS, "ending": "finish"}))
    sets, budgets = trainer.strict_rows([grown, done])  # the loop's rows: 1 first, then 0
    assert sets == [list(envs[1].tool_schemas), None]
    assert budgets == [100 - (len(grown) - len(prompts[1])), 100 - (len(done) - len(prompts[0]))]
    cut = prompts[1] + tok.encode(ENDED)  # a call after the step limit ended it
    assert trainer.strict_rows([cut])[0] == [None]


def _engine(script_ids):
    calls = []

    class Engine:
        structured_outputs_regex = None
        generation_kwargs = {"seed": 1}

        def generate(self, prompts, images, num_generations):
            calls.append((len(prompts), dict(self.generation_kwargs)))
            ids = script_ids(len(calls))
            return None, [ids] * len(prompts), [[[-0.5]] * len(ids)] * len(prompts), None

    return Engine(), calls


@pytest.mark.parametrize("strict", [True, False])
def test_vllm_rollouts_send_each_episode_its_own_call_grammar(tiny_model, train_tasks,
                                                              strict):
    """The vLLM rollout_func under strict_calls: each turn's request carries vLLM
    structured outputs whose grammar admits a valid call of that episode's tools and
    refuses a hidden tool, an unknown argument, a wrong type and a missing required
    argument; two tool sets in one turn go out as two requests. Off, no request is
    constrained."""
    import xgrammar as xgr
    from transformers import AutoTokenizer
    from trl import GRPOTrainer
    from xgrammar.testing import _is_grammar_accept_string

    from toolmaze_gym.training.environment import episode_tools_of, grpo_dataset
    from toolmaze_gym.training.vllm_rollout import make_rollout_func, vllm_generate

    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    tasks = train_tasks[:2]
    tools = [episode_tools_of(t) for t in tasks]
    assert json.dumps(tools[0]) != json.dumps(tools[1])
    ds, _ = grpo_dataset(tasks, ["P0"], ["standard"])
    finish = '<tool_call>\n{"name": "finish", "arguments": {"answer": "done"}}\n</tool_call>'
    engine, calls = _engine(lambda n: [*tokenizer.encode(finish), tokenizer.eos_token_id])
    trainer = SimpleNamespace(processing_class=tokenizer, _tokenizer=tokenizer,
                              chat_template=None, chat_template_kwargs={}, _is_vlm=False,
                              vllm_generation=engine)
    trainer._get_tool_suffix_ids = GRPOTrainer._get_tool_suffix_ids.__get__(trainer)
    make_rollout_func(generate=vllm_generate, strict_calls=strict)(
        [ds[0]["prompt"], ds[1]["prompt"]], trainer)
    assert engine.generation_kwargs == {"seed": 1}  # restored after the turn
    constrained = [kw for _, kw in calls if "structured_outputs" in kw]
    if not strict:
        assert calls == [(2, {"seed": 1})] and not constrained
        return
    assert [n for n, _ in calls] == [1, 1] and len(constrained) == 2
    for shown, kw in zip(tools, constrained, strict=True):
        assert kw["seed"] == 1
        grammar = xgr.Grammar.from_ebnf(kw["structured_outputs"]["grammar"])
        fn = next(t["function"] for t in shown if t["function"]["name"] not in
                  ("finish", "abort") and _plain(t["function"]["parameters"]))
        hidden = next(t["function"]["name"] for other in tools for t in other
                      if t["function"]["name"] not in {s["function"]["name"] for s in shown})
        req = fn["parameters"]["required"]
        props = fn["parameters"]["properties"]

        def call(name, args):
            return ("<tool_call>\n" + json.dumps({"name": name, "arguments": args},
                                                 ensure_ascii=False) + "\n</tool_call>")
        assert _is_grammar_accept_string(grammar, finish)
        good = {k: _sample(props[k]) for k in req}
        assert _is_grammar_accept_string(grammar, call(fn["name"], good)), good
        assert not _is_grammar_accept_string(grammar, call(hidden, good))
        assert not _is_grammar_accept_string(grammar, call(fn["name"], {**good, "zzz": 1}))
        assert not _is_grammar_accept_string(grammar, call(fn["name"], {
            **good, req[0]: [] if props[req[0]].get("type") != "array" else 3}))
        missing = {k: v for k, v in good.items() if k != req[0]}
        assert not _is_grammar_accept_string(grammar, call(fn["name"], missing))


def _plain(params: dict) -> bool:
    """Required arguments, none of them a pattern string (the agents' strict tests
    cover patterns)."""
    req = params.get("required") or []
    return bool(req) and all("pattern" not in params["properties"][k] for k in req)


def _sample(schema: dict):
    """One value valid for a flat property schema (enough for the checks above)."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "boolean":
        return True
    if kind in ("integer", "number"):
        lo = schema.get("minimum", schema.get("exclusiveMinimum", 0))
        lo = int(lo) + (1 if "exclusiveMinimum" in schema else 0)
        return lo if kind == "integer" else float(lo)
    if kind == "string":
        return "x" * max(1, int(schema.get("minLength", 1)))
    pytest.skip(f"no sample for {schema}")


def test_trls_own_vllm_loop_is_refused_under_strict_calls():
    """TRL's tool loop on vLLM takes one constraint for the whole batch: refused, naming
    the path that works, before any model is loaded."""
    grpo = load_script("grpo_recovery")
    args = grpo.parse_args(["--out", "/tmp/unused", "--use-vllm", "--rollout", "env",
                            "--strict-calls"])
    with pytest.raises(SystemExit, match="--rollout pool"):
        grpo.build_trainer(args)
