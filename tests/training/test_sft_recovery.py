"""training_scripts/sft_recovery.py: two SFT steps on expert data with a tiny model."""

from __future__ import annotations

import itertools
import json

import pytest

from tests.training.conftest import load_script

pytest.importorskip("trl")


def test_two_sft_steps_train_on_assistant_turns_and_save_a_card(tiny_model, tmp_path,
                                                                monkeypatch):
    monkeypatch.setenv("OMP_WAIT_POLICY", "PASSIVE")  # torch is loaded already
    sft = load_script("sft_recovery")
    out = tmp_path / "sft"
    result = sft.main(["--tasks", "2", "--levels", "C1", "--model", str(tiny_model),
                       "--out", str(out), "--max-steps", "2", "--grad-accum", "1",
                       "--compact-tools", "--max-length", "3072", "--threads", "1"])
    losses = [h["loss"] for h in result["history"] if "loss" in h]
    assert len(losses) == 2 and all(loss > 0 for loss in losses)
    assert (out / "config.json").is_file() and any(out.glob("*.safetensors"))
    card = (out / "README.md").read_text()
    assert "steps: 2" in card and "assistant turns only" in card and '"lr": 5e-05' in card
    assert json.loads((out / "train_log.json").read_text())[-1]["train_loss"] > 0


def test_assistant_mask_covers_exactly_the_calls(tiny_model, train_tasks):
    """What the loss sees: every assistant call (and its end-of-turn), no tool output."""
    from transformers import AutoTokenizer
    from trl.chat_template_utils import get_training_chat_template

    from toolmaze_gym.training.sft_data import expert_rows

    row = next(expert_rows(train_tasks[:1], ["P1"]))
    tok = AutoTokenizer.from_pretrained(tiny_model)
    out = tok.apply_chat_template(row["messages"], tools=row["tools"], tokenize=True,
                                  return_dict=True, return_assistant_tokens_mask=True,
                                  chat_template=get_training_chat_template(tok))
    trained = tok.decode([i for i, m in zip(out["input_ids"], out["assistant_masks"],
                                            strict=True) if m])
    calls = [m for m in row["messages"] if m["role"] == "assistant"]
    assert trained.count("<tool_call>") == len(calls)
    assert trained.count("<|im_end|>") == len(calls)
    assert "<tool_response>" not in trained


@pytest.mark.parametrize("brief", [False, True], ids=["compact", "brief"])
def test_compact_sft_prompts_are_the_eval_prompts(tiny_model, train_tasks, brief):
    """Train == test: the text the SFT model is trained on, up to its first reply, is
    the text `toolmaze eval --agent hf --compact-tools` (or `--brief-tools`) gives the
    model."""
    from toolmaze_gym.envs.env import ToolMazeEnv
    from transformers import AutoTokenizer

    from toolmaze_gym.agents import make_policy
    from toolmaze_gym.training.sft_data import build_dataset

    sft = load_script("sft_recovery")
    task = train_tasks[1]
    rows = sft.compact(build_dataset(tasks=[task], modes=["P1"]), brief=brief)
    policy = make_policy("hf", model=str(tiny_model), compact_tools=not brief,
                         brief_tools=brief)
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    for row in rows:
        env = ToolMazeEnv(level=None, mode=None, split="train", prompt=row["prompt_variant"])
        env.reset(options={"task": task, "mode": "P1"})
        policy.start("k", task, env.tools, "P1")
        evaluated = policy.prompt_text("k", env.messages)
        trained = tokenizer.apply_chat_template(row["messages"][:2], tokenize=False,
                                                add_generation_prompt=True,
                                                chat_template=policy.template)
        assert trained == evaluated and "<tools>" not in trained
        policy.finish("k")


def _trainer(sft, tiny_model, tmp_path, flags, dataset):
    from trl import SFTTrainer

    args = sft.parse_args(["--model", str(tiny_model), "--out", str(tmp_path / "o"),
                           "--max-steps", "1", "--grad-accum", "1", "--compact-tools",
                           "--threads", "1", *flags])
    model, tokenizer, _ = sft.load_model(args.model)
    return SFTTrainer(model=model, args=sft.sft_config(args), train_dataset=dataset,
                      processing_class=tokenizer,
                      peft_config=sft.lora_config(args, model))


@pytest.mark.slow  # ~100 s on 2 shared cores (a tiny model packed and unpacked)
def test_packed_episodes_attend_only_to_themselves(tiny_model, train_tasks, tmp_path):
    """Packing several episodes into one block must not let one episode see another:
    each episode's logits inside the pack are its logits alone, its first token is not
    trained on the previous episode's end, and the assistant-only mask survives."""
    import torch

    from toolmaze_gym.training.sft_data import build_dataset

    sft = load_script("sft_recovery")
    rows = sft.compact(build_dataset(tasks=train_tasks[:1], modes=["P0", "P1"]))
    trainer = _trainer(sft, tiny_model, tmp_path, ["--packing", "--max-length", "16384"],
                       rows)
    batch = next(iter(trainer.get_train_dataloader()))
    starts = (batch["position_ids"][0] == 0).nonzero().flatten().tolist()
    assert len(starts) == len(rows) >= 2 and "attention_mask" not in batch
    # the loss sees the assistant turns only: every call, no tool output, no prompt
    trained = trainer.processing_class.decode(batch["input_ids"][0][batch["labels"][0] != -100])
    calls = sum(len(m.get("tool_calls") or ()) for r in rows for m in r["messages"])
    assert trained.count("<tool_call>") == calls
    assert "<tool_response>" not in trained and "# Tools" not in trained
    alone = _trainer(sft, tiny_model, tmp_path, ["--max-length", "16384"], rows)
    singles = {tuple(b["input_ids"][0].tolist()): b for b in alone.get_train_dataloader()}
    model = trainer.model.eval()
    with torch.no_grad():
        packed = model(input_ids=batch["input_ids"],
                       position_ids=batch["position_ids"]).logits[0]
        ends = [*starts[1:], batch["input_ids"].shape[1]]
        for s, e in zip(starts, ends, strict=True):
            single = singles[tuple(batch["input_ids"][0, s:e].tolist())]
            own = model(input_ids=single["input_ids"]).logits[0]
            assert torch.allclose(packed[s:e], own, atol=1e-4)
            assert batch["labels"][0, s] == -100  # never predicted from the last episode
            assert torch.equal(batch["labels"][0, s + 1:e], single["labels"][0, 1:])


def test_lora_trains_an_adapter_and_saves_a_merged_plain_checkpoint(tiny_model, tmp_path,
                                                                    monkeypatch):
    """With --lora-r only the adapter trains (the base weights stay frozen; with
    --lora-layers 1 only the top layer's), and the saved model is an ordinary
    checkpoint that evaluation loads without peft."""
    import torch
    from transformers import AutoModelForCausalLM

    monkeypatch.setenv("OMP_WAIT_POLICY", "PASSIVE")
    sft = load_script("sft_recovery")
    out = tmp_path / "lora"
    result = sft.main(["--tasks", "1", "--levels", "C1", "--model", str(tiny_model),
                       "--out", str(out), "--max-steps", "3", "--grad-accum", "1",
                       "--compact-tools", "--max-length", "3072", "--threads", "1",
                       "--lora-r", "4", "--lora-layers", "1", "--lr", "1e-2",
                       "--checkpoint-every", "1"])
    assert len([h for h in result["history"] if "loss" in h]) == 3
    assert not (out / "adapter_config.json").exists()
    trained = AutoModelForCausalLM.from_pretrained(out).state_dict()
    # --checkpoint-every: plain checkpoints along the way (a merged copy each, the adapter
    # trains on), every one a different model; the last step is the final model itself
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == ["step-1", "step-2"]
    steps = [AutoModelForCausalLM.from_pretrained(out / "checkpoints" / f"step-{n}").state_dict()
             for n in (1, 2)] + [trained]
    for a, b in itertools.pairwise(steps):
        assert set(a) == set(trained) and any(not torch.equal(a[k], b[k]) for k in trained)
    base = AutoModelForCausalLM.from_pretrained(tiny_model).state_dict()
    assert set(trained) == set(base)  # no lora_A/lora_B left: merged
    changed = [k for k in base if not torch.equal(base[k], trained[k])]
    assert changed and all("layers.1." in k and "proj" in k for k in changed)
    assert '"lora_r": 4' in (out / "README.md").read_text()
