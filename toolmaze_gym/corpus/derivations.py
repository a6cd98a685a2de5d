"""Which Processors compute what a careful agent can compute itself.

An exact derivation (arithmetic, a percentage, rounding, a unit or time-zone
conversion with the real rules, formatting, a translation or a summary an LLM can
write) needs no world data: an agent may do it without the tool, and a fault on
such a tool is no dead end, so faults never fall on it (``faults.profiles``) and
the grader accepts the derived value (``grading.resolution``). Processors that
read the world (exchange rates, tax and per-diem tables, coupons, shipping rates)
or apply a model the agent cannot know (flight emissions, an eco set-point rule)
are not derivations: their results count as facts to be looked up.
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


def derivable(spec) -> bool:
    """Whether the tool ``spec`` is a Processor whose result an agent can derive."""
    return spec.category == "Processor" and spec.behaviour in DERIVABLE_BEHAVIOURS
