"""A coherent world: facts a built task shows must be ones a careful person believes.

Issue 28 (item 4) found v3 tasks whose data nobody lives in: a 13.4 °C August high
in Toronto, a 12:38 "dinner", an "eco" setpoint that heats on a warm day, an SMS to
a UK 03 landline, a train from Manchester for a person whose home is in Istanbul, a
Sydney hotel checked into before the flight lands, sales tax for Seoul logged in
CAD, a rail line linking coastal Mumbai "to the coast". Each rule here reads the
calls and responses of a task's valid paths (typed through the corpus) and says
what is incoherent; the generator rejects a draw that breaks one (it draws again,
as for a contradicted premise), and tests hold the whole suite to them.

The thresholds and tables are data (``data/world/coherence.json``,
``data/world/climate.json``); the rules only read them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import Any

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.world import World, zones
from toolmaze_gym.world.base import load_data
from toolmaze_gym.world.geo import minor_units
from toolmaze_gym.world.phones import is_mobile

_OFFSET = re.compile(r"^\d{4}-\d{2}-\d{2}T(\d{2}):(\d{2})(?::\d{2})?([+-]\d{2}:\d{2})$")


@cache
def _rules_data() -> dict[str, Any]:
    return load_data("coherence.json")


@cache
def _climate() -> dict[str, list[float]]:
    return {k: v for k, v in load_data("climate.json").items() if not k.startswith("_")}


@dataclass(frozen=True)
class Call:
    """One call of a valid path, its values grouped by semantic type."""

    tool: str
    domain: str
    args: dict[str, Any]
    response: dict[str, Any]
    arg_types: dict[str, str]  # arg name -> type
    ret_types: dict[str, str]  # response key -> type

    def args_of(self, type_: str) -> list[Any]:
        return [v for k, v in self.args.items() if self.arg_types.get(k) == type_]

    def returns_of(self, type_: str) -> list[Any]:
        return [v for k, v in self.response.items() if self.ret_types.get(k) == type_]

    def values_of(self, type_: str) -> list[Any]:
        return self.args_of(type_) + self.returns_of(type_)


def calls(task: Task, corpus: Corpus) -> Iterator[Call]:
    """Every call of every valid path (alternatives read the same facts)."""
    seen: set[str] = set()
    for path in task.solutions:
        for c in path.calls:
            key = repr((c.tool, sorted(c.args.items()), sorted(c.response.items())))
            if key in seen or c.tool not in corpus.tools:
                continue
            seen.add(key)
            spec = corpus[c.tool]
            yield Call(c.tool, spec.domain, dict(c.args), dict(c.response or {}),
                       {p.name: p.type for p in spec.params},
                       {f.name: f.type for f in spec.returns})


# ---------------------------------------------------------------- weather


def _weather_days(task: Task, corpus: Corpus, world: World) -> list[tuple[str, str]]:
    """(city, day) of every weather reading a task shows: a call that returns a
    weather condition, for the day it names (today for current weather)."""
    out = []
    for c in calls(task, corpus):
        if not c.returns_of("weather_condition"):
            continue
        cities = [v for v in c.values_of("city_name") if world.geo.city(str(v))]
        days = [str(v)[:10] for v in c.values_of("iso_date")] or [world.today]
        out += [(world.geo.city(str(city)).name, days[0]) for city in cities[:1]]
    return out


def normal_high(city: str, day: str) -> float | None:
    """The month's normal daily high in ``city`` (None: no normals for it)."""
    row = _climate().get(city)
    return None if row is None else float(row[date.fromisoformat(day).month - 1])


def climate(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A day's high lies within the tolerance of the month's normal high there."""
    tol = _rules_data()["climate_tolerance_c"]
    out = []
    for city, day in _weather_days(task, corpus, world):
        normal = normal_high(city, day)
        high = world.geo.weather(world.geo.city(city), day).high_c
        if normal is not None and abs(high - normal) > tol:
            out.append(f"weather: a {high} °C high in {city} on {day}, where the month's "
                       f"normal high is {normal:g} °C")
    return out


def eco_setpoint(task: Task, corpus: Corpus, world: World) -> list[str]:
    """An eco setpoint heats only on a cool day and cools only on a warm one."""
    limits = _rules_data()["eco_setpoint"]
    highs = [world.geo.weather(world.geo.city(c), d).high_c
             for c, d in _weather_days(task, corpus, world)]
    out = []
    for c in calls(task, corpus):
        if not c.args_of("temperature_c") or c.values_of("thermostat_id"):
            continue  # a thermostat's own mode, not a setpoint recommended for the weather
        for mode in c.returns_of("hvac_mode"):
            if mode == "heat" and any(h >= limits["heat_below_c"] for h in highs):
                out.append(f"setpoint: {c.tool} heats on a day whose high is {max(highs)} °C")
            if mode == "cool" and any(h <= limits["cool_above_c"] for h in highs):
                out.append(f"setpoint: {c.tool} cools on a day whose high is {min(highs)} °C")
    return out


# ---------------------------------------------------------------- times and trips


def _local_hour(text: str) -> float | None:
    m = _OFFSET.match(str(text).strip())
    return None if m is None else int(m.group(1)) + int(m.group(2)) / 60


def event_hours(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A meal's event starts at a local time that fits it (no 12:38 dinner)."""
    hours = {w: h for w, h in _rules_data()["event_hours"].items() if not w.startswith("_")}
    out = []
    for c in calls(task, corpus):
        words = " ".join(str(t) for t in c.args_of("text")).lower()
        for word, (lo, hi) in hours.items():
            if not re.search(rf"\b{word}\b", words):
                continue
            for when in c.args_of("iso_datetime"):
                h = _local_hour(when)
                if h is not None and not lo <= h <= hi:
                    out.append(f"time: a {word} at {str(when)[11:16]} local time ({c.tool})")
    return out


def _legs(task: Task, corpus: Corpus, world: World) -> list[tuple[str, ...]]:
    """The cities every train or flight search/booking of a task travels between."""
    out = []
    for c in calls(task, corpus):
        if c.domain != "Travel":
            continue
        stations = [world.travel.station(str(s)) for s in c.args_of("rail_station")]
        ends = [s.place.city.name for s in stations if s is not None]
        if not ends and "flight" in c.tool + " ".join(c.args) + " ".join(c.response):
            ends = [world.geo.city(str(v)).name for v in c.args_of("city_name")
                    if world.geo.city(str(v))]
        if len(ends) >= 2:
            out.append(tuple(ends))
    return out


def trip_from_home(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A trip in a task that also runs the user's home starts or ends at that home."""
    homes = {world.geo.city(str(v)).name for c in calls(task, corpus) if c.domain == "IoT"
             for v in c.args_of("city_name") if world.geo.city(str(v))}
    return [f"trip: {' <-> '.join(leg)} for a person whose home is in {', '.join(sorted(homes))}"
            for leg in _legs(task, corpus, world) if homes and not homes & set(leg)]


def _flights(task: Task, corpus: Corpus, world: World) -> list[Any]:
    ids = {str(v) for c in calls(task, corpus) for v in c.values_of("flight_id")}
    return [f for f in (world.travel.flight(i) for i in sorted(ids)) if f is not None]


def arrival_before_stay(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A hotel in the city a flight goes to is checked into on or after the local
    day the flight lands (real time zones: Istanbul -> Sydney lands a day later)."""
    out = []
    arrivals = {}
    for f in _flights(task, corpus, world):
        city = f.destination.city
        landed = f.arrival + timedelta(hours=zones.offset_hours(city.timezone, f.arrival))
        arrivals.setdefault(city.name, landed.date())
    for c in calls(task, corpus):
        if not (c.values_of("hotel_id") or "hotel" in c.tool):
            continue
        cities = [world.geo.city(str(v)).name for v in c.values_of("city_name")
                  if world.geo.city(str(v))]
        for city in cities[:1]:
            landed = arrivals.get(city)
            for day in c.args_of("iso_date")[:1]:
                if landed and date.fromisoformat(str(day)[:10]) < landed:
                    out.append(f"trip: a {city} hotel from {day}, but the flight lands there "
                               f"on {landed.isoformat()} local time")
    return out


# ---------------------------------------------------------------- people and places


def sms_mobile(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A text message goes to a mobile number, well formed for its country."""
    return [f"phone: {c.tool} texts {v}, which is no mobile number" for c in calls(task, corpus)
            for v in c.args_of("phone") if not is_mobile(str(v))]


def tax_place(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A sales tax is the one of where the goods go: a task that takes a city's
    sales tax states its amounts in that city's currency or the shop's, not in a
    third one (Seoul's tax on a USD order logged in CAD)."""
    out = []
    for c in calls(task, corpus):
        if "tax" not in c.tool or not c.args_of("city_name"):
            continue
        city = world.geo.city(str(c.args_of("city_name")[0]))
        if city is None:
            continue
        shop = {str(v).upper() for d in calls(task, corpus) if d.domain == "Shopping"
                for v in d.returns_of("currency_code")}
        others = sorted({str(v).upper() for d in calls(task, corpus)
                         for v in d.args_of("currency_code")} - {city.currency} - shop)
        if others:
            out.append(f"tax: sales tax for {city.name} ({city.currency}) on amounts in "
                       f"{', '.join(others)}")
    return out


def _is_conversion(c: Call) -> bool:
    return len(set(map(str, c.args_of("currency_code")))) >= 2 or bool(c.values_of("fx_rate"))


def currency_crossing(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A task whose money moves (Financial calls) in several currencies shows a
    conversion between them (no EUR take-home pay moved, unconverted, "in the
    account's currency", USD)."""
    every = [c for c in calls(task, corpus) if c.domain == "Financial"]
    codes = sorted({str(v).upper() for c in every if not _is_conversion(c)
                    for v in c.values_of("currency_code")})
    if len(codes) > 1 and not any(_is_conversion(c) for c in every):
        return [f"currency: amounts in {', '.join(codes)} and no conversion between them"]
    return []


def iban_currency(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A payment to an IBAN is in the currency of the IBAN's country (no CHF rent to
    a French IBAN)."""
    by_country = {c.country_code: c.currency for c in world.geo.cities}
    out = []
    for c in calls(task, corpus):
        for iban in c.args_of("iban"):
            want = by_country.get(str(iban)[:2].upper())
            for code in c.args_of("currency_code"):
                if want and str(code).upper() != want:
                    out.append(f"currency: {code} paid to a {str(iban)[:2]} IBAN ({want} country)")
    return out


def amount_precision(task: Task, corpus: Corpus, world: World) -> list[str]:
    """An amount a call states in a currency has no finer unit than that currency
    has: no "512.3 JPY" monthly payment (a 31,000 loan with no currency, budgeted
    in the yen of the account)."""
    out = []
    for c in calls(task, corpus):
        codes = {str(v).upper() for v in c.args_of("currency_code")}
        if len(codes) != 1:
            continue
        code = codes.pop()
        for v in c.args_of("money_amount"):
            if isinstance(v, int | float) and round(v, minor_units(code)) != v:
                out.append(f"currency: {v} {code} ({code} has {minor_units(code)} decimals)")
    return out


def headlines(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A headline fits its city (no rail line linking a coastal city "to the coast")."""
    data = _rules_data()
    coastal = set(data["coastal_cities"])
    patterns = [re.compile(re.escape(h).replace(re.escape("{city}"), "(?P<city>[A-Z][\\w .'-]*?)")
                           + "$") for h in data["inland_headlines"]]
    out = []
    for c in calls(task, corpus):
        for v in c.response.values():
            for p in patterns:
                m = p.match(str(v))
                if m and m.group("city") in coastal:
                    out.append(f"news: {v!r} for coastal {m.group('city')}")
    return out


def translated_texts(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A text a translator is given keeps a fact as written (a figure, a date, a code),
    or the phrasebook translates it and lists the words of its translation
    (``tasks.translators.built_problems``; c1-0034: "[de] Lunch order closes at noon.")."""
    from toolmaze_gym.tasks.translators import built_problems  # it reads the library

    return built_problems(task, corpus, world)


Rule = Callable[[Task, Corpus, World], list[str]]

RULES: dict[str, Rule] = {
    "climate": climate,
    "eco_setpoint": eco_setpoint,
    "event_hours": event_hours,
    "trip_from_home": trip_from_home,
    "arrival_before_stay": arrival_before_stay,
    "sms_mobile": sms_mobile,
    "tax_place": tax_place,
    "headlines": headlines,
    "currency_crossing": currency_crossing,
    "iban_currency": iban_currency,
    "amount_precision": amount_precision,
    "translated_texts": translated_texts,
}


def problems(task: Task, corpus: Corpus, world: World) -> list[str]:
    """Everything incoherent in the world a task shows (empty: a world one believes)."""
    return [p for rule in RULES.values() for p in dict.fromkeys(rule(task, corpus, world))]

