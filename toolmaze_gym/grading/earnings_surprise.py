"""Earnings against the estimate told as the surprise, in per cent.

"How 2024-Q4 earnings compared with the estimate" is answered by both EPS figures, or
by how far the actual one missed or beat the estimate: "missed the estimate by 16.98 %"
for 0.44 against 0.53 (grading version 16, toolmaze-v6 play-test c4-0087). The per
cent is (actual - estimate) / |estimate|, to the hundredth, and the line that gives
it must say which way: a miss by a word of missing, a beat by a word of beating. It
stands in for figures the line does not give: a line that writes its own EPS ("EPS
0.45 vs 0.53 estimated, missed by 16.98 %") is held to them.

Since grading version 21 a surprise told the wrong way is a wrong claim, wherever the
EPS figures beside it are right (``wrong_way``): toolmaze-v9's play-test p1 c4-0038
P3 e-mailed "EPS 3.29 USD vs 3.10 USD estimate, a miss of 6.13%" for a beat, and "a
beat of 14.37%" for a miss, and passed on the figures. A figure of the surprise (to
the hundredth, or a rounding of it written with decimals) followed by a per cent sign
says its way by its own sign ("-6.13 %") or else by the direction word nearest to it
in its line (beat, above, exceeded; miss, below, fell short): the other way fails. A
line with no direction says nothing either way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
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


def surprises(outputs: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, float]]:
    """(slot, surprise in per cent) of every report an episode's step read: a slot with
    an actual and an estimated EPS."""
    out = []
    for slot, got in outputs.items():
        pct = surprise(got.get(ACTUAL), got.get(ESTIMATE))
        if pct is not None:
            out.append((slot, pct))
    return out


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


# a per cent figure with decimals, and its sign if it writes one
_PERCENT = re.compile(r"(?<![\w.,])([-+\u2212]?)(\d+[.,]\d+)\s?(?:%|per\s?cent\b|percent\b)",
                      re.I)


def wrong_way(text: str, pct: Any) -> str:
    """The figure of ``text`` that tells the surprise ``pct`` the other way (its own
    sign, or the direction word nearest to it in its line), "" where none does."""
    if not isinstance(pct, int | float) or isinstance(pct, bool) or not pct:
        return ""
    for line in _LINE.split(text):
        for m in _PERCENT.finditer(line):
            written = m[2].replace(",", ".")
            places = len(written.partition(".")[2])
            if abs(float(written) - abs(pct)) >= 10 ** -places:  # no rounding of it
                continue
            way = _way(line, m)
            if way and way != (1 if pct > 0 else -1):
                return m[0].strip()
    return ""


def _way(line: str, m: re.Match[str]) -> int:
    """+1 (a beat), -1 (a miss) or 0 (no way said) for the per cent figure ``m``."""
    if m[1]:
        return 1 if m[1] == "+" else -1
    words = [(abs(w.start() - m.start()), -1) for w in _MISS.finditer(line)] \
        + [(abs(w.start() - m.start()), 1) for w in _BEAT.finditer(line)]
    return min(words)[1] if words else 0
