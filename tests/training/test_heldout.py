"""Teacher-forced held-out figures: turns split where the labels say, a turn is exact
only when every token is the argmax, and the script scores real checkpoints."""

from __future__ import annotations

import pytest

from tests.training.conftest import load_script

torch = pytest.importorskip("torch")

from toolmaze_gym.training.heldout import (  # noqa: E402
    IGNORE,
    EpisodeScore,
    assistant_tools,
    exact_by_group,
    score_episode,
    summarize,
    turn_spans,
)


def test_turns_are_the_runs_of_trained_positions():
    assert turn_spans([False, True, True, False, False, True, False, True]) == \
        [(1, 3), (5, 6), (7, 8)]
    assert turn_spans([False, False]) == []


def _logits(predictions: list[int], vocab: int = 5):
    """Logits whose argmax at position t is predictions[t]."""
    out = torch.zeros(len(predictions), vocab)
    for t, p in enumerate(predictions):
        out[t, p] = 5.0
    return out


def test_a_turn_is_exact_only_when_every_token_is_predicted():
    labels = torch.tensor([IGNORE, 1, 2, IGNORE, 3, 4, IGNORE])
    # position t predicts label t+1: turn one is labels 1-2 (positions 0-1), turn two 4-5
    right = score_episode(_logits([1, 2, 0, 3, 4, 0, 0]), labels)
    assert (right.turns, right.exact_turns, right.tokens, right.correct) == (2, 2, 4, 4)
    one_wrong = score_episode(_logits([1, 2, 0, 3, 0, 0, 0]), labels)
    assert (one_wrong.exact_turns, one_wrong.correct) == (1, 3)
    held = summarize([right, one_wrong])
    assert held.turn_exact == pytest.approx(3 / 4) and held.episode_exact == 0.5
    assert held.token_accuracy == pytest.approx(7 / 8) and held.loss > 0


def test_the_script_scores_base_and_a_checkpoint_on_held_out_expert_episodes(
        tiny_model, train_tasks, tmp_path):
    from toolmaze_gym.training import sft_data

    data = tmp_path / "dev"
    sft_data.save(sft_data.build_dataset(tasks=train_tasks[:1], modes=["P0", "P1"]), data, {})
    script = load_script("heldout")
    a, b = script.main([str(tiny_model), str(tiny_model), "--data", str(data),
                        "--brief-tools", "--threads", "1"])
    assert a == b and a.episodes == 3 and a.turns >= 3 * 2 and 0 <= a.turn_exact <= 1


def test_turns_exact_split_by_group_counts_each_turn_in_its_own_group():
    a = EpisodeScore(1.0, 6, 5, (True, False, True))
    b = EpisodeScore(1.0, 4, 4, (True, True))
    split = exact_by_group([a, b], [["seen", "new", "end"], ["new", "end"]])
    assert split == {"seen": (1, 1.0), "new": (2, 0.5), "end": (2, 1.0)}
    with pytest.raises(ValueError, match="episode 1: 1 turn labels for 2"):
        exact_by_group([a, b], [["seen", "new", "end"], ["new"]])


def test_assistant_tools_names_each_assistant_turn_in_order():
    call = {"role": "assistant", "content": "",
            "tool_calls": [{"function": {"name": "get_fx_rate", "arguments": {}}}]}
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}, call,
                {"role": "tool", "content": "{}"}, {"role": "assistant", "content": "done"}]
    assert assistant_tools(messages) == ["get_fx_rate", ""]


def _split_counts(out: str) -> dict[str, int]:
    """The turn counts of the printed split table's one row."""
    head, row = [line for line in out.splitlines() if line.startswith("| ")][-2:]
    cells = dict(zip(head.strip("| ").split(" | "), row.strip("| ").split(" | "), strict=True))
    return {k.removeprefix("turns: "): int(v) for k, v in cells.items()
            if k.startswith("turns: ")}


def test_the_split_puts_a_turn_under_new_only_when_training_never_called_its_tool(
        tiny_model, train_tasks, tmp_path, capsys):
    from toolmaze_gym.training import sft_data

    held, other = tmp_path / "dev", tmp_path / "other"
    sft_data.save(sft_data.build_dataset(tasks=train_tasks[:1], modes=["P0"]), held, {})
    sft_data.save(sft_data.build_dataset(tasks=train_tasks[1:2], modes=["P0"]), other, {})
    script = load_script("heldout")
    [same] = script.main([str(tiny_model), "--data", str(held), "--train-data", str(held),
                          "--brief-tools", "--threads", "1"])
    counts = _split_counts(capsys.readouterr().out)
    assert counts[script.NEW] == 0 and sum(counts.values()) == same.turns
    assert counts[script.SEEN] > 0 and counts[script.END] > 0
    script.main([str(tiny_model), "--data", str(held), "--train-data", str(other),
                 "--brief-tools", "--threads", "1"])
    unseen = {c.tool for c in train_tasks[0].default_path.calls} - \
        {c.tool for c in train_tasks[1].default_path.calls}
    counts = _split_counts(capsys.readouterr().out)
    assert unseen and counts[script.NEW] > 0 and sum(counts.values()) == same.turns
