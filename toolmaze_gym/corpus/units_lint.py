"""Docs and schemas that agree on units: what a description says is °C, the type is °C.

An agent reads "Takes °C" and sends 21; if the parameter is really °F, the
thermostat holds 21 °F and a careful agent's correct call looks like its mistake.
This module reads the units that tool descriptions, parameter and field
descriptions and parameter/field names state (°C or °F, km or miles, cents,
kWh, Unix epoch seconds, percent or a fraction…) and compares them with the
semantic types, which carry the unit the simulator really uses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolmaze_gym.corpus.catalog import Corpus
from toolmaze_gym.corpus.spec import OutputField, Param, ToolSpec


@dataclass(frozen=True)
class Unit:
    """A unit of measure: how docs write it, how names mark it, the types that carry it."""

    name: str
    dimension: str
    text: re.Pattern[str]  # in prose
    suffix: re.Pattern[str] | None  # at the end of a parameter or field name
    types: frozenset[str]


def _unit(name: str, dimension: str, text: str, suffix: str | None, *types: str) -> Unit:
    return Unit(name, dimension, re.compile(text, re.IGNORECASE),
                re.compile(suffix) if suffix else None, frozenset(types))


# Speeds come before distances: "km/h" must not read as a distance in km.
UNITS: tuple[Unit, ...] = (
    _unit("°C", "temperature", r"°\s?C\b|\bcelsius\b", r"(?:_c|[a-z]C|[Cc]elsius)$",
          "temperature_c", "temperature_spread_c"),
    _unit("°F", "temperature", r"°\s?F\b|\bfahrenheit\b", r"(?:_f|[a-z]F|[Ff]ahrenheit)$",
          "temperature_f"),
    _unit("km/h", "speed", r"km/h|\bkph\b", r"(?:_kph|_kmh|Kph)$", "wind_kph"),
    _unit("mph", "speed", r"\bmph\b", r"(?:_mph|Mph)$", "wind_mph"),
    _unit("km", "distance", r"\bkm\b|\bkilomet(?:re|er)s\b", r"(?:_km|Km)$", "distance_km"),
    _unit("mi", "distance", r"\bmiles?\b", r"(?:_mi|_miles|Miles)$", "distance_mi"),
    _unit("mm", "precipitation", r"(?-i:\bmm\b)|\bmillimet(?:re|er)s\b", r"_mm$",
          "precipitation_mm"),
    _unit("in", "precipitation", r"\binch(?:es)?\b", r"(?:precipitation_in|_inches|Inches)$",
          "precipitation_in"),
    _unit("kg", "weight", r"\bkg\b|\bkilograms?\b", r"(?:_kg|Kg)$", "weight_kg", "co2_kg"),
    _unit("lb", "weight", r"\blbs?\b|\bpounds\b", r"(?:_lbs?|Lbs?)$", "weight_lb"),
    _unit("kWh", "energy", r"\bkwh\b", r"(?:_kwh|Kwh|KWh)$", "energy_kwh"),
    _unit("cents", "money", r"\bcents\b|\bminor units\b", r"(?:_cents|Cents|_minor)$",
          "amount_minor_units"),
    _unit("epoch s", "instant", r"\bepoch\b|\bunix time\b", r"(?:_epoch|_unix|Epoch|Unix)$",
          "unix_time"),
    _unit("minutes", "duration", r"\bminutes?\b", r"(?:_minutes|_mins?|Minutes)$",
          "duration_minutes"),
    _unit("hours", "duration", r"\bhours\b", r"(?:_hours|_hrs|Hours)$", "duration_hours"),
    _unit("percent", "share", r"\bpercent(?:age)?\b|\bin %|%\s*\(|\(\s*%",
          r"(?:_pct|Pct|_percent|Percent)$",
          "percentage", "humidity_pct", "interest_rate_pct", "percent_change"),
    _unit("fraction", "share", r"\bfraction\b", r"(?:_fraction|Fraction)$",
          "rate_fraction", "price_factor"),
)
_BY_TYPE = {t: u for u in UNITS for t in u.types}
# Rates, quoted examples and phrases name a unit without measuring in it ("price per
# kWh", "25 %", "'Light rain, 14.2 °C (57.6 °F)'", "working hours").
_NOT_A_MEASURE = re.compile(r"\bper\s+\S+|'[^']*'|\"[^\"]*\"|\d+(?:\.\d+)?\s*%"
                            r"|\bworking hours\b")
# A clause about the input ends where one about the output starts ("takes °F and
# reports °C and °F"), and the other way round.
_INPUT = re.compile(r"\b(?:takes|accepts|expects)\b(.*?)(?=\b(?:reports|returns)\b|[.;]|$)",
                    re.IGNORECASE)
_OUTPUT = re.compile(r"\b(?:reports|returns)\b(.*?)(?=\b(?:takes|accepts|expects)\b|[.;]|$)",
                     re.IGNORECASE)


def named_units(text: str) -> list[Unit]:
    """Units ``text`` measures in (rates such as 'per kWh' and '15 %' examples aside)."""
    text = _NOT_A_MEASURE.sub(" ", text)
    out: list[Unit] = []
    for u in UNITS:
        if u.text.search(text):
            out.append(u)
            text = u.text.sub(" ", text)  # 'km/h' is not also 'km'
    return out


def marked_unit(name: str) -> Unit | None:
    """The unit a parameter or field name carries as a suffix (temp_f, holdTempC), if any."""
    return next((u for u in UNITS if u.suffix and u.suffix.search(name)), None)


def _item_problems(item: Param | OutputField, where: str) -> list[str]:
    out = []
    own = _BY_TYPE.get(item.type)
    mark = marked_unit(item.name)
    if mark is not None and own is not None and own.dimension == mark.dimension \
            and item.type not in mark.types:
        out.append(f"{where}: its name says {mark.name}, its type is {item.type}")
    if own is not None:
        stated = [u for u in named_units(item.description) if u.dimension == own.dimension]
        if any(u is not own for u in stated):
            out.append(f"{where}: its description says {', '.join(u.name for u in stated)}, "
                       f"its type {item.type} is in {own.name}")
    return out


def _carried(items) -> set[Unit]:
    return {_BY_TYPE[i.type] for i in items if i.type in _BY_TYPE}


def _statement_problems(spec: ToolSpec) -> list[str]:
    out = []
    params, fields = _carried(spec.params), _carried(spec.returns)
    for rx, carried, what in ((_INPUT, params, "takes"), (_OUTPUT, fields, "reports")):
        for m in rx.finditer(spec.description):
            for u in named_units(m.group(1)):
                dims = {c.dimension for c in carried}
                if u.dimension in dims and u not in carried:
                    out.append(f"{spec.name}: the description says it {what} {u.name}, but no "
                               f"{'parameter' if what == 'takes' else 'field'} is in {u.name}")
    everything = params | fields
    for u in named_units(spec.description):
        dims = {c.dimension for c in everything}
        if u.dimension in dims and u not in everything:
            out.append(f"{spec.name}: the description mentions {u.name}, but neither a parameter "
                       f"nor a field is in {u.name}")
    return out


def tool_problems(spec: ToolSpec) -> list[str]:
    """How ``spec``'s docs disagree with its types about units (empty if they agree)."""
    out = [m for p in spec.params for m in _item_problems(p, f"{spec.name}({p.name})")]
    out += [m for f in spec.returns for m in _item_problems(f, f"{spec.name} -> {f.name}")]
    return out + _statement_problems(spec)


def corpus_problems(corpus: Corpus) -> list[str]:
    """Every unit disagreement between docs and types in the corpus."""
    return [msg for name in sorted(corpus.tools) for msg in tool_problems(corpus[name])]
