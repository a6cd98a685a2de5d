"""GRPO: two steps through TRL's tool loop with the environment reward, and the
rollout_func path over ToolMazePool. A scripted policy (the careful expert's replies)
stands in for generation, which a tiny random model cannot do; the tiny model still
computes the log-probabilities and takes the optimizer steps."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from tests.training.conftest import load_script
from toolmaze_gym.training.sft_data import expert_rows

pytest.importorskip("trl")


def _script(task, mode, variant):
    """The expert's assistant turns as model text, then a closing remark."""
    row = next(r for r in expert_rows([task], [mode]) if r["prompt_variant"] == variant)
    texts = []
    for m in row["messages"]:
        for call in m.get("tool_calls") or ():
            body = {"name": call["function"]["name"], "arguments": call["function"]["arguments"]}
            texts.append(f"<tool_call>\n{json.dumps(body, ensure_ascii=False)}\n</tool_call>")
    return [*texts, "Done."], row["reward"]


def _ids(tokenizer, text):
    return [*tokenizer.encode(text, add_special_tokens=False), tokenizer.eos_token_id]


def test_two_grpo_steps_log_the_environment_reward(tiny_model, tmp_path, monkeypatch,
                                                   train_tasks):
    from trl import GRPOTrainer

    monkeypatch.setenv("OMP_WAIT_POLICY", "PASSIVE")
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    grpo = load_script("grpo_recovery")
    script, expected = _script(train_tasks[0], "P1", "standard")
    assert expected > 1.0  # success plus recovery: a transient fault was met and retried

    class Scripted(GRPOTrainer):
        turn = 0

        def _generate_single_turn(self, prompt_ids, *args, **kwargs):
            text = script[Scripted.turn % len(script)]
            Scripted.turn += 1
            return [_ids(self.processing_class, text) for _ in prompt_ids], None

    result = grpo.main(["--model", str(tiny_model), "--out", str(tmp_path / "grpo"),
                        "--tasks", "1", "--seed", "7", "--levels", "C1", "--modes", "P1",
                        "--prompts", "standard", "--max-steps", "2", "--num-generations", "2",
                        "--batch-size", "2", "--grad-accum", "1",
                        "--max-completion-length", "6000",
                        "--reward", "terminal", "--threads", "1"], trainer_cls=Scripted)
    steps = [h for h in result["history"] if "reward" in h]
    assert len(steps) == 2
    for h in steps:
        assert h["reward"] == pytest.approx(expected)
        env_keys = [k for k in h if k.startswith("rewards/ToolMaze_") and k.endswith("/mean")]
        assert len(env_keys) == 1 and h[env_keys[0]] == pytest.approx(expected)
        assert h["tools/call_frequency"] == len(script) - 1
    assert (tmp_path / "grpo" / "README.md").read_text().count("GRPO") >= 1


def test_partial_credit_gives_groups_variance_with_eval_prompts(tiny_model, tmp_path,
                                                                monkeypatch, train_tasks):
    """One rollout of the group plays the expert, the other answers in prose: with the
    default partial-credit reward the group's rewards differ (nonzero reward_std in
    the logs), and with --compact-tools the model sees the eval's compact docs and no
    JSON <tools> block."""
    from trl import GRPOTrainer

    monkeypatch.setenv("OMP_WAIT_POLICY", "PASSIVE")
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    grpo = load_script("grpo_recovery")
    script, _ = _script(train_tasks[0], "P0", "standard")
    prompts = []

    class Scripted(GRPOTrainer):
        turn = 0

        def _generate_single_turn(self, prompt_ids, *args, **kwargs):
            prompts.extend(self.processing_class.decode(p) for p in prompt_ids)
            text = script[Scripted.turn % len(script)]
            Scripted.turn += 1
            # rollout 0 follows the expert; rollout 1 answers in prose at once
            ids = [_ids(self.processing_class, text if i == 0 or len(prompt_ids) == 1
                        else "I will not use tools.") for i in range(len(prompt_ids))]
            return ids, None

    result = grpo.main(["--model", str(tiny_model), "--out", str(tmp_path / "grpo"),
                        "--tasks", "1", "--seed", "7", "--levels", "C1", "--modes", "P0",
                        "--prompts", "standard", "--max-steps", "1", "--num-generations", "2",
                        "--batch-size", "2", "--grad-accum", "1",
                        "--max-completion-length", "6000",
                        "--compact-tools", "--threads", "1"], trainer_cls=Scripted)
    (step,) = [h for h in result["history"] if "reward" in h]
    assert step["reward_std"] > 0.5  # expert > 1.0, prose 0
    assert prompts and all("<tools>" not in p and "# Tools" in p for p in prompts)
    assert "reward std" in (tmp_path / "grpo" / "README.md").read_text()


def _environment_reward(factories, row, script, partial_credit):
    """What TRL's environment_factory path pays for the script's calls."""
    from toolmaze_gym.training.environment import configured

    env = configured(factories, partial_credit=partial_credit)[row["environment"]]()
    env.reset(**row)
    for text in script[:-1]:
        call = json.loads(text.removeprefix("<tool_call>\n").removesuffix("\n</tool_call>"))
        getattr(env, call["name"])(**call["arguments"])
    return env.get_reward()


@pytest.mark.parametrize("credit", ["partial", "terminal"])
def test_rollout_func_plays_the_pool_and_masks_tool_tokens(tiny_model, train_tasks, credit):
    """The vLLM rollout path plays the episode to the expert's ending, trains only on
    the generated tokens, and pays what the environment_factory path pays."""
    from toolmaze_gym.reward import PARTIAL
    from transformers import AutoTokenizer
    from trl import GRPOTrainer

    from toolmaze_gym.training.environment import grpo_dataset
    from toolmaze_gym.training.vllm_rollout import make_rollout_func, rollout_reward

    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    ds, factories = grpo_dataset(train_tasks[:1], ["P2"], ["failure_aware"])
    script, terminal = _script(train_tasks[0], "P2", "failure_aware")
    partial_credit = PARTIAL if credit == "partial" else None
    expected = _environment_reward(factories, ds[0], script, partial_credit)
    assert (expected > terminal) is (credit == "partial")  # valid calls and progress pay
    if credit == "terminal":
        assert expected == pytest.approx(terminal)
    trainer = SimpleNamespace(processing_class=tokenizer, _tokenizer=tokenizer,
                              chat_template=None, chat_template_kwargs={}, _is_vlm=False)
    trainer._get_tool_suffix_ids = GRPOTrainer._get_tool_suffix_ids.__get__(trainer)
    turns = []

    def generate(_, prompts):
        text = script[len(turns)]
        turns.append(len(prompts))
        return [_ids(tokenizer, text)] * len(prompts), [[-0.5] * len(_ids(tokenizer, text))] \
            * len(prompts)

    out = make_rollout_func(generate=generate, partial_credit=partial_credit)(
        [ds[0]["prompt"]] * 2, trainer)
    assert rollout_reward(**out) == [pytest.approx(expected)] * 2
    assert turns == [2] * (len(script) - 1)  # both episodes end at the expert's ending
    for ids, lps, mask in zip(out["completion_ids"], out["logprobs"], out["env_mask"],
                              strict=True):
        assert len(ids) == len(lps) == len(mask)
        generated = tokenizer.decode([i for i, m in zip(ids, mask, strict=True) if m])
        assert generated.count("<tool_call>") == len(script) - 1
        tool_part = tokenizer.decode([i for i, m in zip(ids, mask, strict=True) if not m])
        assert "<tool_response>" in tool_part and "<tool_call>" not in tool_part
        assert all(lp == -0.5 for lp, m in zip(lps, mask, strict=True) if m)
