"""Teacher-forced figures of a model on held-out expert episodes: a learning curve
that needs no generation.

Why: on two CPU cores one evaluated episode of a looping model costs a minute or
more, so a checkpoint-by-checkpoint TSR curve is out of reach, and TSR stays 0
long after the model has started to learn. Teacher forcing scores every assistant
turn of an expert episode in one forward pass: the mean loss per assistant token,
the token accuracy, and the share of turns the model would write exactly under
greedy decoding (every token its argmax). A turn is a call with its tool name and
arguments, so a turn's exact-match rate is the chance of one correct step, and the
share of episodes with every turn exact is what greedy replay of the expert's
conversation would get right end to end: a C1 task needs about six steps in a row,
which is why TSR moves last.

The labels are those the SFT trainer trains on (assistant turns only, ``-100``
elsewhere); position t's logits predict label t+1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

IGNORE = -100


@dataclass(frozen=True)
class HeldOut:
    """Teacher-forced figures over a set of episodes (shares in 0..1)."""

    episodes: int
    turns: int
    tokens: int
    loss: float
    token_accuracy: float
    turn_exact: float
    episode_exact: float

    def row(self, name: str) -> list[str]:
        return [name, str(self.episodes), str(self.turns), f"{self.loss:.3f}",
                f"{100 * self.token_accuracy:.1f}", f"{100 * self.turn_exact:.1f}",
                f"{100 * self.episode_exact:.1f}"]


HEAD = ["model", "episodes", "assistant turns", "loss / token", "token accuracy %",
        "turns exact %", "episodes exact %"]


def turn_spans(mask: list[bool]) -> list[tuple[int, int]]:
    """The [start, end) runs of True in ``mask``: one per assistant turn."""
    spans, start = [], None
    for i, on in enumerate(mask):
        if on and start is None:
            start = i
        elif not on and start is not None:
            spans.append((start, i))
            start = None
    if start is not None:
        spans.append((start, len(mask)))
    return spans


@dataclass(frozen=True)
class EpisodeScore:
    """One episode's teacher-forced counts; ``exact[i]`` says whether assistant turn i
    would be written exactly."""

    nll: float
    tokens: int
    correct: int
    exact: tuple[bool, ...]

    @property
    def turns(self) -> int:
        return len(self.exact)

    @property
    def exact_turns(self) -> int:
        return sum(self.exact)


def score_episode(logits: Any, labels: Any) -> EpisodeScore:
    """One episode's teacher-forced counts from its logits ``[T, V]`` and labels ``[T]``
    (torch tensors)."""
    import torch

    pred, target = logits[:-1], labels[1:]
    mask = target != IGNORE
    nll = torch.nn.functional.cross_entropy(pred[mask].float(), target[mask], reduction="sum")
    hit = (pred.argmax(-1) == target) & mask
    exact = tuple(bool(hit[a:b].all()) for a, b in turn_spans(mask.tolist()))
    return EpisodeScore(float(nll), int(mask.sum()), int(hit.sum()), exact)


def summarize(episodes: Iterable[EpisodeScore]) -> HeldOut:
    eps = list(episodes)
    if not eps:
        raise ValueError("no episodes to score")
    tokens = sum(e.tokens for e in eps)
    turns = sum(e.turns for e in eps)
    return HeldOut(
        episodes=len(eps), turns=turns, tokens=tokens,
        loss=sum(e.nll for e in eps) / tokens,
        token_accuracy=sum(e.correct for e in eps) / tokens,
        turn_exact=sum(e.exact_turns for e in eps) / turns,
        episode_exact=sum(e.exact_turns == e.turns for e in eps) / len(eps))


def assistant_tools(messages: list[dict[str, Any]]) -> list[str]:
    """The tool each assistant turn calls, in order (``""`` for a turn without a call):
    the i-th of these is the i-th run of trained labels."""
    names = []
    for m in messages:
        if m["role"] == "assistant":
            calls = m.get("tool_calls") or []
            names.append(calls[0]["function"]["name"] if calls else "")
    return names


def exact_by_group(scores: list[EpisodeScore],
                   groups: list[list[str]]) -> dict[str, tuple[int, float]]:
    """Turns and the share written exactly, per group label; ``groups[e][i]`` labels
    turn i of episode e.

    Why: a model that copies tool names from the docs writes turns of tools it never
    saw in training as well as turns of tools it did; a model that memorised its
    training tools does not. The split tells more data of the same tasks from more
    tasks apart as the remedy.

    Raises:
        ValueError: an episode has a different number of labels than of turns (the
            labels would be misaligned; a truncated episode does this).
    """
    counts: dict[str, list[int]] = {}
    for e, (score, labels) in enumerate(zip(scores, groups, strict=True)):
        if len(labels) != score.turns:
            raise ValueError(f"episode {e}: {len(labels)} turn labels for {score.turns} "
                             "trained turns")
        for label, hit in zip(labels, score.exact, strict=True):
            tally = counts.setdefault(label, [0, 0])
            tally[0] += 1
            tally[1] += hit
    return {label: (n, hits / n) for label, (n, hits) in counts.items()}


def score(model: Any, batches: Iterable[dict[str, Any]]) -> list[EpisodeScore]:
    """``model`` teacher-forced on collated single-episode ``batches`` (``input_ids``,
    ``attention_mask``, ``labels``), one score per episode."""
    import torch

    model.eval()
    out = []
    with torch.inference_mode():
        for batch in batches:
            logits = model(input_ids=batch["input_ids"],
                           attention_mask=batch["attention_mask"]).logits[0]
            out.append(score_episode(logits, batch["labels"][0]))
    return out


def evaluate(model: Any, batches: Iterable[dict[str, Any]]) -> HeldOut:
    """The summary of :func:`score`."""
    return summarize(score(model, batches))
