"""Which Processors compute what a careful agent can compute itself.

An exact derivation (arithmetic, a percentage, rounding, a unit or time-zone
conversion with the real rules, formatting, a translation or a summary an LLM can
write) needs no world data: an agent may do it without the tool, and a fault on
such a tool is no dead end, so faults never fall on it (``faults.profiles``) and
the grader accepts the derived value (``grading.resolution``). Processors that
read the world (exchange rates, tax and per-diem tables, coupons, shipping rates)
or apply a model the agent cannot know (flight emissions, an eco set-point rule)
are not derivations: their results count as facts to be looked up.

A few Sources answer with what a careful agent already knows (``KNOWN_BEHAVIOURS``:
the time zone of a city and its offset, under the real rules): they are treated the
same way, since an agent may skip the lookup and a fault there is no dead end.
"""

from __future__ import annotations

DERIVABLE_BEHAVIOURS = frozenset({
    "calc.line_total", "calc.percentage_of",
    "finance.apply_rate", "finance.compound", "finance.loan", "finance.pct_change",
    "finance.position_value", "finance.round",
    "iot.dew_point", "iot.energy_cost",
    "office.text.action_items", "office.text.stats", "office.text.summarize",
    "shop.discount",
    "text.summarize", "text.translate", "text.weather_report",
    "time.convert", "time.shift",
    "travel.arrival_time", "travel.booking_message", "travel.split_cost",
    "units.c_to_f", "units.f_to_c",
})


KNOWN_BEHAVIOURS = frozenset({"time.city_timezone"})


def derivable(spec) -> bool:
    """Whether an agent can produce the result of tool ``spec`` itself: a Processor
    that derives it exactly, or a Source of common knowledge."""
    if spec.category == "Processor":
        return spec.behaviour in DERIVABLE_BEHAVIOURS
    return spec.category == "Source" and spec.behaviour in KNOWN_BEHAVIOURS
