"""Earnings against the estimate told as the surprise, in per cent.

"How 2024-Q4 earnings compared with the estimate" is answered by both EPS figures, or
by how far the actual one missed or beat the estimate: "missed the estimate by 16.98 %"
for 0.44 against 0.53 (grading version 16, toolmaze-v6 play-test c4-0087). The per
cent is (actual - estimate) / |estimate|, to the hundredth, and the line that gives
it must say which way: a miss by a word of missing, a beat by a word of beating. It
stands in for figures the line does not give: a line that writes its own EPS ("EPS
0.45 vs 0.53 estimated, missed by 16.98 %") is held to them.
"""

from __future__ import annotations

import re
from typing import Any

from toolmaze_gym.mentions import mentions

EPS_SURPRISE = "eps_surprise"  # a pseudo type: (EPS_SURPRISE, surprise in per cent)
ACTUAL, ESTIMATE = "eps@eps_actual", "eps@eps_estimate"

_MISS = re.compile(r"\b(?:miss(?:ed|es)?|below|short|under|shortfall|lower|down|fell)\b", re.I)
_BEAT = re.compile(r"\b(?:beat(?:s|ing)?|above|topped|exceed(?:ed|s)?|ahead|higher|up|"
                   r"outperform(?:ed|s)?)\b", re.I)
_LINE = re.compile(r"\n+|(?<=[.!?;])\s+")


def surprise(actual: Any, estimate: Any) -> float | None:
    """The surprise in per cent (None where the figures cannot give one)."""
    ok = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (actual, estimate))
    return (actual - estimate) / abs(estimate) * 100 if ok and estimate else None


def surprise_said(text: str, pct: Any) -> bool:
    """Whether a line of ``text`` tells the surprise ``pct`` with its direction."""
    if not isinstance(pct, int | float) or isinstance(pct, bool):
        return False
    right, wrong = (_MISS, _BEAT) if pct < 0 else (_BEAT, _MISS)
    return any(mentions(line, "percent_change", pct) and right.search(line)
               and not wrong.search(line) and not _other_figures(line, pct)
               for line in _LINE.split(text))


def _other_figures(line: str, pct: float) -> bool:
    """Whether ``line`` writes a figure with decimals besides the per cent (an EPS)."""
    return any(not mentions(m[0], "percent_change", pct) for m in _DECIMAL.finditer(line))


_DECIMAL = re.compile(r"(?<![\d.,])\d+[.,]\d+(?![\d.,]\d)")
