"""Which Processors compute what a careful agent can compute itself.

An exact derivation (arithmetic, a percentage, rounding, a unit or time-zone
conversion with the real rules, formatting, a translation or a summary an LLM can
write) needs no world data: an agent may do it without the tool, and a fault on
such a tool is no dead end, so faults never fall on it (``faults.profiles``) and
the grader accepts the derived value (``grading.resolution``). Processors that
read the world (exchange rates, city tax and per-diem tables, coupons, shipping
rates) or apply a model the agent cannot know (flight emissions) are not
derivations: their results count as facts to be looked up. A country's standard
VAT/GST rate (``finance.vat``: Germany 19 %, the world's table holds the real
standard rates) is common knowledge, so adding it is a derivation since grading
version 7 (a played agent billed 11,651 SEK plus German VAT as 13,864.69 itself).

A few Sources answer with what a careful agent already knows (``KNOWN_BEHAVIOURS``:
the time zone of a city and its offset, under the real rules; ``KNOWN_FIELDS``: the
country and time zone of a city, beside coordinates it cannot know exactly; the city,
country and time zone an airport code serves, since grading version 9): they are
treated the same way, since an agent may skip the lookup and a fault there is no dead
end.

Wrapping a message in a greeting and a signature (``office.text.compose_email``) or
an invitation's fixed lines (``office.text.meeting_invite``) is formatting: an agent
that writes its own e-mail or invitation carries what the user asked it to say, and
needs neither the user's signature nor the template's wording (``OWN_TEXT_SKIPS``:
inputs a rendering of one's own need not repeat, such as the greeting's name).
"""

from __future__ import annotations

DERIVABLE_BEHAVIOURS = frozenset({
    "calc.line_total", "calc.percentage_of",
    "finance.apply_rate", "finance.compound", "finance.loan", "finance.pct_change",
    "finance.position_value", "finance.round", "finance.vat",
    "iot.dew_point", "iot.eco_setpoint", "iot.energy_cost",
    "office.text.action_items", "office.text.compose_email", "office.text.meeting_invite",
    "office.text.stats", "office.text.summarize",
    "shop.discount",
    "text.format_price", "text.summarize", "text.translate", "text.weather_report",
    "time.convert", "time.shift",
    "travel.arrival_time", "travel.booking_message", "travel.split_cost",
    "units.c_to_f", "units.f_to_c",
})


# A formatted price line, an eco setpoint and a VAT rate added are derivations the
# grader accepts since grading version 7. The fault profiles of the shipped suites up
# to toolmaze-v3 were laid before and put some faults on them; faults are laid with
# the whole set since profile version 5 (``faults.skippable``).

# Conversions at a world rate: not a derivation by themselves (the rate is a fact to
# look up), but one once the episode showed the rate (the agent converts a half where
# the tool converted the whole). Behaviour -> the type of the factor it applies.
RATE_GIVEN: dict[str, str] = {"finance.convert": "fx_rate"}

# Taxes at the destination's rate (``shop.tax``: a US city's sales tax, Canada's GST
# and PST) are world facts a fault may hide, so they stay no derivation for the fault
# profiles; but an agent that knows the rate and works the tax out itself has its own
# value, and the grader accepted that value whenever it was a fraction of a cent off
# the tool's (931.7952 for 931.80) yet refused it rounded to the cent, the way money
# is written, as "a value the episode had not shown" (toolmaze-v6 review, c3-0085).
# Since grading version 15 the grader's provenance check takes such a tax as the
# agent's own work when every value it is worked from passes (a price the agent never
# looked up still fails) and the agent called no tax tool before (one that did has that
# answer, corrupted or not); nothing else reads this set.
OWN_RATE_BEHAVIOURS = frozenset({"shop.tax"})

# Processors that keep part of a text (a summary's first sentences, the sentences
# that ask for action): an agent's own version says what the kept part says, so it
# is checked on the facts of the tool's output, not on the whole input.
KEEPS_PART = frozenset({"text.summarize", "office.text.summarize", "office.text.action_items"})

KNOWN_BEHAVIOURS = frozenset({"time.city_timezone"})

KNOWN_FIELDS: dict[str, frozenset[str]] = {
    "geo.geocode": frozenset({"country_code", "timezone"}),
    # The world's airports are real ones (KIX serves Osaka, Japan): the city, country
    # and time zone of an IATA code the request states are known without a lookup.
    "travel.airport_info": frozenset({"city_name", "country_code", "timezone"}),
}

OWN_TEXT_SKIPS: dict[str, frozenset[str]] = {
    "office.text.compose_email": frozenset({"person_name"}),
}


def derivable(spec) -> bool:
    """Whether an agent can produce the result of tool ``spec`` itself: a Processor
    that derives it exactly, or a Source of common knowledge."""
    if spec.category == "Processor":
        return spec.behaviour in DERIVABLE_BEHAVIOURS
    return spec.category == "Source" and spec.behaviour in KNOWN_BEHAVIOURS


def rate_given(spec) -> str:
    """The type of the world factor that makes tool ``spec`` a derivation once shown
    (``RATE_GIVEN``), or ""."""
    return RATE_GIVEN.get(spec.behaviour, "") if spec.category == "Processor" else ""


def known(spec, type_name: str) -> bool:
    """Whether an agent can have the ``type_name`` output of tool ``spec`` without
    calling it: the tool is ``derivable``, or the field is common knowledge."""
    return derivable(spec) or known_field(spec, type_name)


def own_rate(spec) -> bool:
    """Whether the grader takes tool ``spec``'s result, worked out by the agent at a
    rate it knows, as the agent's own value (``OWN_RATE_BEHAVIOURS``)."""
    return spec.category == "Processor" and spec.behaviour in OWN_RATE_BEHAVIOURS


def known_field(spec, type_name: str) -> bool:
    """Whether a Source's ``type_name`` output is common knowledge (a city's country)."""
    return spec.category == "Source" and type_name in KNOWN_FIELDS.get(spec.behaviour, ())


def keeps_part(specs) -> bool:
    """Whether every tool of a side keeps part of its text (``KEEPS_PART``)."""
    specs = list(specs)
    return bool(specs) and all(s.behaviour in KEEPS_PART for s in specs)


def own_text_skips(specs) -> frozenset[str]:
    """Input types an agent's own rendering need not carry, for every tool of a side."""
    sets = [OWN_TEXT_SKIPS.get(s.behaviour, frozenset()) for s in specs]
    return frozenset.intersection(*sets) if sets else frozenset()


def can_do_without(specs, reads, derivable=derivable) -> bool:
    """Whether a careful agent can do without a step done by one of the tools
    ``specs``; ``reads`` are (type, the reading step's tools) for what later steps read
    of it. It can when each tool is a derivation, or when every value read is common
    knowledge (a city's country) or is read only by a rendering the agent may write
    itself without it (the recipient's full name a template greets). Faults never
    fall on such a step: it is no dead end."""
    specs, reads = list(specs), [(t, list(r)) for t, r in reads]
    if all(derivable(s) for s in specs):
        return True
    needed = {t for t, reader in reads
              if not (all(derivable(s) for s in reader) and t in own_text_skips(reader))}
    if reads and not needed:
        return True
    return bool(needed) and all(derivable(s) or known_field(s, t) for s in specs for t in needed)
