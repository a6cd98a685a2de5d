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

Since grading version 23 the two EPS figures told together are held to their way too
(``wrong_pair``): the play-tests of grading versions 21 and 22 (v9 c4-0072 P2, v10 c4-0012
P2) mailed "3.22 vs 3.32 (miss)" and "0.54 vs 0.62 estimate (miss)" for actuals of 3.32
and 0.62 that beat estimates of 3.22 and 0.54, and passed on the figures. Where one
clause tells both figures of a report, a figure labelled the other one's way ("0.54 vs
0.62 estimate", "actual 0.54, estimate 0.62", "0.54 (est. 0.62)") tells the pair the
wrong way round, and the beat- or miss-word that belongs to the pair (the nearest one
in its clause, unless another figure stands nearer to it) must say the way the figures
really went. Figures with no label ("0.62 vs 0.54") and clauses with no direction word
say nothing either way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolmaze_gym.mentions import mentions
from toolmaze_gym.values.numbers import is_number

EPS_SURPRISE = "eps_surprise"  # a pseudo type: (EPS_SURPRISE, surprise in per cent)
EPS_PAIR = "eps_pair"  # a pseudo type: (EPS_PAIR, [actual, estimate]) told the wrong way
ACTUAL, ESTIMATE = "eps@eps_actual", "eps@eps_estimate"

_MISS = re.compile(r"\b(?:miss(?:ed|es)?|below|short|under|shortfall|lower|down|fell)\b", re.I)
_BEAT = re.compile(r"\b(?:beat(?:s|ing)?|above|topped|exceed(?:ed|s)?|ahead|higher|up|"
                   r"outperform(?:ed|s)?)\b", re.I)
_LINE = re.compile(r"\n+|(?<=[.!?;])\s+")


def surprise(actual: Any, estimate: Any) -> float | None:
    """The surprise in per cent (None where the figures cannot give one)."""
    ok = all(is_number(v) for v in (actual, estimate))
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
    if not is_number(pct):
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
    if not is_number(pct) or not pct:
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


# ---------------------------------------------------------------- the pair (version 23)

# A clause: a line, or a part of one set off by a sentence end, ";" or "|" ("vs." and
# "est." end no sentence).
_CLAUSE = re.compile(r"\n+|[;|]\s*|(?<![Vv]s\.)(?<![Ee]st\.)(?<=[.!?])\s+")
_FIG = re.compile(r"(?<![\w.,])[-+]?\d+(?:[.,]\d+)?(?![\w]|[.,]\d)")
_ACT = r"actual|reported|came\s+in\s+at|delivered|posted"
_EST = r"est\.?|estimated?|expected|expectations?|consensus|forecasts?|projected|guidance"
# A label right before a figure: "estimate 0.54", "an estimate of 0.54", "actual: 0.62".
# One that follows "vs" or "and" heads a table ("actual vs estimate: 0.62 vs 0.54").
_LABEL_BEFORE = re.compile(
    rf"(?<!vs\s)(?<!vs\.\s)(?<!and\s)(?<!/)(?<![\w.])(?:({_ACT})|({_EST}))(?![\w])"
    r"\s*(?:[:=]|\bof\b|\bwas\b|\bat\b)?\s*(?:(?:the|an?)\s+)?(?:USD\s*|\$\s*)?$", re.I)
# A label right after a figure and its currency: "0.54 estimate", "0.62 USD actual".
_LABEL_AFTER = re.compile(
    r"^\s*(?:USD|EUR|GBP|\$)?\s*(?:(actual|reported)|(est\.?|estimated?|expected|consensus"
    r"|forecast|projected))(?![\w])", re.I)
_PAIR_MISS = re.compile(r"(?<![/\w])(?:miss(?:ed|es|ing)?|below|short(?:fall)?|under|lower|"
                        r"worse|underperform(?:ed|s)?|disappoint(?:ed|ing|s)?)(?![/\w])", re.I)
_PAIR_BEAT = re.compile(r"(?<![/\w])(?:beat(?:s|ing)?|above|topped|exceed(?:ed|s|ing)?|ahead|"
                        r"higher|better|outperform(?:ed|s)?)(?![/\w])", re.I)


def wrong_pair(text: str, actual: Any, estimate: Any) -> str:
    """The clause of ``text`` that tells the EPS ``actual`` against ``estimate`` the wrong
    way round: a figure under the other one's label, or a beat- or miss-word of the pair
    that says the other way ("" where none does)."""
    nums = (actual, estimate)
    if not all(is_number(v) for v in nums) or abs(actual - estimate) < 0.005:
        return ""
    for clause in _CLAUSE.split(text):
        figs = [m for m in _FIG.finditer(clause) if _DECIMAL.fullmatch(m[0].lstrip("+-"))
                and (_is(m[0], actual) or _is(m[0], estimate))]
        if not (any(_is(m[0], actual) for m in figs) and any(_is(m[0], estimate) for m in figs)):
            continue
        if _mislabelled(clause, figs, actual, estimate) \
                or _pair_way(clause, figs) == (-1 if actual > estimate else 1):
            return clause.strip()
    return ""


def pair_told_wrong(got: Mapping[str, Any], told: Sequence[tuple[str, str]]
                    ) -> tuple[list[Any], str, str] | None:
    """([actual, estimate], tool, clause) of the first text of ``told`` ((tool, text),
    "" for the final answer) that tells the EPS pair of the report ``got`` the wrong
    way round (None where none does)."""
    actual, estimate = got.get(ACTUAL), got.get(ESTIMATE)
    for tool, text in told:
        clause = wrong_pair(text, actual, estimate)
        if clause:
            return [actual, estimate], tool, clause
    return None


def _is(token: str, value: float) -> bool:
    return abs(float(token.replace(",", ".")) - value) < 0.005


def _mislabelled(clause: str, figs: list[re.Match[str]], actual: float, estimate: float
                 ) -> bool:
    """Whether a figure of the pair stands under the other figure's label."""
    for m in figs:
        label = _label(clause, m)
        if (label == "estimate" and _is(m[0], actual) and not _is(m[0], estimate)) \
                or (label == "actual" and _is(m[0], estimate) and not _is(m[0], actual)):
            return True
    return False


def _label(clause: str, m: re.Match[str]) -> str:
    """"actual", "estimate" or "" for the figure ``m``: a label right before it, else
    one right after it."""
    hit = _LABEL_BEFORE.search(clause[max(0, m.start() - 40):m.start()]) \
        or _LABEL_AFTER.match(clause[m.end():m.end() + 24])
    if hit is None:
        return ""
    return "actual" if hit.group(1) else "estimate"


def _pair_way(clause: str, figs: list[re.Match[str]]) -> int:
    """+1 (a beat), -1 (a miss) or 0: the way the nearest direction word of ``clause``
    says for the pair at ``figs``, where no other figure stands nearer to that word."""
    start, end = min(m.start() for m in figs), max(m.end() for m in figs)
    others = [m.span() for m in _FIG.finditer(clause) if not start <= m.start() < end
              and all(m.span() != f.span() for f in figs)]
    words = [(w.span(), -1) for w in _PAIR_MISS.finditer(clause)] \
        + [(w.span(), 1) for w in _PAIR_BEAT.finditer(clause)]
    owned = [(_gap(span, (start, end)), way) for span, way in words
             if all(_gap(span, o) >= _gap(span, (start, end)) for o in others)]
    return min(owned)[1] if owned else 0


def _gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The characters between two spans (0 where they touch or overlap)."""
    return max(0, b[0] - a[1], a[0] - b[1])
