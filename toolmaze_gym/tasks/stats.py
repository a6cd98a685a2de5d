"""Table 1 of the paper, computed from task data."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from toolmaze_gym.corpus.spec import DOMAINS
from toolmaze_gym.tasks.model import LEVELS, Task


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def mean_pairwise_jaccard(tasks: Sequence[Task]) -> float:
    sets = [set(t.task_tools) for t in tasks]
    pairs = list(itertools.combinations(sets, 2))
    return sum(jaccard(a, b) for a, b in pairs) / len(pairs) if pairs else 0.0


def table1(tasks: Sequence[Task]) -> dict[str, dict[str, float]]:
    """Per level: domain involvement, mean Jaccard, s* length stats, valid paths."""
    out: dict[str, dict[str, float]] = {}
    for level in LEVELS:
        ts = [t for t in tasks if t.level == level]
        if not ts:
            continue
        lengths = [t.default_path.length for t in ts]
        row: dict[str, float] = {d: sum(d in t.domains for t in ts) for d in DOMAINS}
        row.update({
            "tasks": len(ts),
            "mean_jaccard": round(mean_pairwise_jaccard(ts), 3),
            "avg_length": round(sum(lengths) / len(ts), 2),
            "min_length": min(lengths),
            "max_length": max(lengths),
            "valid_paths": sum(len(t.solutions) for t in ts),
        })
        out[level] = row
    return out


PAPER_TABLE1 = {
    "C1": {"General": 82, "Office": 39, "Financial": 32, "Travel": 33, "Shopping": 31, "IoT": 22,
           "mean_jaccard": 0.03, "avg_length": 5.30, "min_length": 5, "max_length": 7,
           "valid_paths": 100},
    "C2": {"General": 81, "Office": 32, "Financial": 31, "Travel": 30, "Shopping": 29, "IoT": 16,
           "mean_jaccard": 0.04, "avg_length": 5.75, "min_length": 5, "max_length": 9,
           "valid_paths": 200},
    "C3": {"General": 90, "Office": 38, "Financial": 32, "Travel": 32, "Shopping": 31, "IoT": 17,
           "mean_jaccard": 0.05, "avg_length": 6.66, "min_length": 6, "max_length": 10,
           "valid_paths": 200},
    "C4": {"General": 85, "Office": 47, "Financial": 50, "Travel": 47, "Shopping": 49, "IoT": 46,
           "mean_jaccard": 0.06, "avg_length": 11.00, "min_length": 8, "max_length": 15,
           "valid_paths": 600},
}


def format_table1(table: dict[str, dict[str, float]],
                  paper: dict[str, dict[str, float]] | None = None) -> str:
    levels = list(table)
    rows = ["Domain involvement", *DOMAINS, "Tool-set diversity", "mean_jaccard",
            "Topology", "avg_length", "min_length", "max_length", "valid_paths"]
    head = f"{'metric':<20}" + "".join(f"{lv:>14}" for lv in levels)
    lines = [head, "-" * len(head)]
    for r in rows:
        if r[0].isupper() and r not in DOMAINS:
            lines.append(r)
            continue
        cells = []
        for lv in levels:
            v = table[lv][r]
            s = f"{v:g}"
            if paper:
                s += f" ({paper[lv][r]:g})"
            cells.append(f"{s:>14}")
        lines.append(f"  {r:<18}" + "".join(cells))
    if paper:
        lines.append("(paper's value in parentheses)")
    return "\n".join(lines)
