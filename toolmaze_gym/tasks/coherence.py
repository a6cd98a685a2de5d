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

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cache
from typing import Any

from toolmaze_gym.corpus import Corpus
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.world import World, zones
from toolmaze_gym.world.base import load_data
from toolmaze_gym.world.geo import condition_choices, minor_units, pegs
from toolmaze_gym.world.phones import countries_of, is_mobile

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
    behaviour: str = ""

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
                       {f.name: f.type for f in spec.returns}, spec.behaviour)


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


def asked_heating(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A request that asks for heating ("eco heating in the living room", "frost-proof
    the cottage": ``heating_words`` of coherence.json) gets a setpoint that heats, not
    one that cools or idles (v4 play-test: recommend_eco_setpoint answered "auto" and
    "cool" to an "eco heating" request)."""
    words = _rules_data()["heating_words"]
    if not any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", task.query, re.IGNORECASE)
               for w in words):
        return []
    return [f"heating: the request asks for heating, {c.tool} answers mode {mode!r}"
            for c in calls(task, corpus) if c.behaviour == "iot.eco_setpoint"
            for mode in c.returns_of("hvac_mode") if mode != "heat"]


def _heating_off_season(city: Any, day: str) -> str | None:
    """Why a home in ``city`` is not heated on ``day`` (None: it may be): the local
    summer (``heating_season`` of coherence.json, by hemisphere) or a warm month."""
    season = _rules_data()["heating_season"]
    month = date.fromisoformat(day).month
    summer = season["summer_months_south" if city.lat < 0 else "summer_months_north"]
    normal = normal_high(city.name, day)
    if month in summer:
        return "summer there"
    if normal is not None and normal >= season["normal_high_below_c"]:
        return f"the month's normal high is {normal:g} °C"
    return None


def heating_season(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A home is heated only in its cold season: a task that sets an eco heating set
    point reads the weather of a home in a month that is neither its summer nor warm
    (toolmaze-v9 c4-0091 heated a Manchester kitchen in August; Auckland's cabin and a
    Johannesburg house in their winter are fine)."""
    every = list(calls(task, corpus))
    if not any(mode == "heat" for c in every if c.behaviour == "iot.eco_setpoint"
               for mode in c.returns_of("hvac_mode")):
        return []
    sites = {world.geo.city(str(v)).name for c in every if c.domain == "IoT"
             for v in c.args_of("city_name") if world.geo.city(str(v))}
    return [f"heating: a home in {city} heated on {day}: {why}"
            for city, day in dict.fromkeys(_weather_days(task, corpus, world))
            if city in sites and (why := _heating_off_season(world.geo.city(city), day))]


def device_use(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A device's kind fits what the request has it run: a travel plug is for a trip,
    not for running a dehumidifier all day or metering the heaters at home
    (``device_use`` of coherence.json; toolmaze-v9 c3-0076, c4-0091)."""
    data = _rules_data()["device_use"]
    query = task.query.lower()
    fixed = [w for w in data["home_appliances"] if re.search(rf"\b{re.escape(w)}\b", query)]
    if not fixed:
        return []
    return [f"device: {name} (a {kind.lower()} kind) runs the {fixed[0]} at home"
            for kind in data["portable_kinds"] for name in sorted(_product_names(task, corpus))
            if re.search(rf"\b{re.escape(kind)}\b", name)]


def _product_names(task: Task, corpus: Corpus) -> set[str]:
    """The product names a task's calls take or return."""
    return {str(v) for c in calls(task, corpus) for v in c.values_of("product_name")}


def weather_condition(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A day's condition fits its place, month and temperature
    (``world.geo.condition_choices``): no rain in a dry month (Cairo in August), no fog
    on a warm day (toolmaze-v4 c4-0095: "Fog, 27.7 °C" in Lisbon), no clear sky in a
    wet season (toolmaze-v6 c2-0058: "clear" in Mumbai in August, in the monsoon)."""
    out = []
    for city, day in _weather_days(task, corpus, world):
        w = world.geo.weather(world.geo.city(city), day)
        month = date.fromisoformat(day).month
        if w.condition not in condition_choices(city, month, w.high_c, wet_season=True):
            out.append(f"weather: {w.condition!r} with a {w.high_c} °C high in {city} on {day}")
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


def eco_mild(task: Task, corpus: Corpus, world: World) -> list[str]:
    """An eco set point is asked only where heating or cooling matters: not for a mild
    outdoor temperature (``mild_c`` of coherence.json), where "eco" heating is pointless
    (toolmaze-v6 c4-0025: 16.8 °C outside; c4-0035: a Lisbon night low of 22.1 °C)."""
    lo, hi = _rules_data()["eco_setpoint"]["mild_c"]
    return [f"setpoint: an eco set point for {t} °C outside, where the house needs "
            f"neither heating nor cooling ({c.tool})"
            for c in calls(task, corpus) if c.behaviour == "iot.eco_setpoint"
            for t in c.args_of("temperature_c") if lo < float(t) < hi]


def eco_setback(task: Task, corpus: Corpus, world: World) -> list[str]:
    """An eco heating set point sets a thermostat back, never up: it is not above the
    set point the task shows the thermostat held at (toolmaze-v6 c4-0005: an "eco
    setback" to 19 °C of a cabin room held at 18.5 °C). The room's own reading is
    ``eco_room``'s: heating to the set point means a room colder than it."""
    shown = [float(v) for c in calls(task, corpus) if c.behaviour == "iot.thermostat_state"
             for k, v in _canonical(c, corpus).items() if k == "setpoint_c"]
    return [f"setpoint: an eco set point of {s} °C raises a thermostat at {t} °C"
            for s, _ in _eco_setpoints(task, corpus, "heat") for t in shown if t < s]


# ------------------------------------------------- eco modes (toolmaze-v7 review)
#
# One model of an eco set point (issue 28, the v7 blind review): it heats on a cold day
# (from a day's forecast low) and cools on a hot one (from its high), as the tool's doc
# says; a cooling value goes only to a setter that can cool, never to a heat set point
# (c2-0023, c3-0031); and the room the task reads is on the side of the set point that
# makes the heating or cooling run (c4-0013: "heat" a room at 22.3 °C to 19 °C;
# c3-0075: cool a bedroom at 21.4 °C to 27 °C).


def _canonical(c: Call, corpus: Corpus) -> dict[str, Any]:
    """A call's response under the behaviour's canonical keys and units."""
    return {f.canonical: f.to_canonical(c.response[f.name])
            for f in corpus[c.tool].returns if f.name in c.response}


def _eco_setpoints(task: Task, corpus: Corpus, mode: str = "") -> list[tuple[float, Call]]:
    """(set point, call) of each eco recommendation (of ``mode`` when given)."""
    out = []
    for c in calls(task, corpus):
        r = _canonical(c, corpus) if c.behaviour == "iot.eco_setpoint" else {}
        if "setpoint_c" in r and (not mode or r.get("mode") == mode):
            out.append((float(r["setpoint_c"]), c))
    return out


def _mode_of(c: Call, corpus: Corpus) -> str:
    return str(_canonical(c, corpus).get("mode", ""))


def eco_setter(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A cooling eco set point is not written through a heat set point
    (``heat_only_setters`` of coherence.json; toolmaze-v7 c2-0023: 26 °C "(cool)" for
    29.5 °C in Madrid, set with nest_set_heat_setpoint)."""
    heat_only = set(_rules_data()["eco_modes"]["heat_only_setters"])
    cooling = {s for s, _ in _eco_setpoints(task, corpus, "cool")}
    return [f"setpoint: a cooling eco set point of {t} °C written as a heat set point "
            f"({c.tool})" for c in calls(task, corpus) if c.tool in heat_only
            for t in c.args_of("temperature_c") if float(t) in cooling]


def eco_forecast_side(task: Task, corpus: Corpus, world: World) -> list[str]:
    """An eco set point for a day ahead is read from its low when heating and its high
    when cooling (the tool's doc): a low that makes it cool is a hot day's, where the
    high is meant (toolmaze-v7 c3-0031: "from the low", 27.4 °C in Singapore, cooling)."""
    sides = {"low_c": "heat", "high_c": "cool"}
    read = {float(v): k for c in calls(task, corpus) if c.returns_of("weather_condition")
            for k, v in _canonical(c, corpus).items() if k in sides}
    out = []
    for _, c in _eco_setpoints(task, corpus):
        mode = _mode_of(c, corpus)
        for t in c.args_of("temperature_c"):
            side = read.get(float(t))
            if side is not None and sides[side] != mode:
                out.append(f"setpoint: the forecast {side[:-2]} of {t} °C gives a "
                           f"{mode!r} eco set point, which the tool reads from the "
                           f"{'high' if side == 'low_c' else 'low'}")
    return out


def eco_room(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A room the task reads is colder than a heating eco set point and warmer than a
    cooling one, so setting it heats or cools the room (toolmaze-v7 c4-0013: "heat the
    guest room" at 22.3 °C to 19 °C; c3-0075: a Delhi bedroom at 21.4 °C set to cool
    at 27 °C). A request that sets the house back or away (``setback_words``) asks for
    the opposite: a room the set point leaves idle."""
    data = _rules_data()["eco_modes"]
    if any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", task.query, re.IGNORECASE)
           for w in data["setback_words"]):
        return []
    keys = set(data["room_reading_keys"])
    rooms = [float(v) for c in calls(task, corpus)
             if c.behaviour in ("iot.room_climate", "iot.sensor_readings",
                                "iot.thermostat_state")
             for k, v in _canonical(c, corpus).items() if k in keys]
    out = []
    for s, c in _eco_setpoints(task, corpus):
        mode = _mode_of(c, corpus)
        for t in rooms:
            if (mode == "heat" and t >= s) or (mode == "cool" and t <= s):
                out.append(f"setpoint: a {mode!r} eco set point of {s} °C for a room "
                           f"at {t} °C")
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



def _event_words(text: str) -> dict[str, tuple[float, float]]:
    """The events of ``coherence.json`` (``event_hours``) that ``text`` names, with
    the local hours that fit each."""
    hours = {w: h for w, h in _rules_data()["event_hours"].items() if not w.startswith("_")}
    return {w: (lo, hi) for w, (lo, hi) in hours.items()
            if re.search(rf"\b{w}\b", text.lower())}


def event_local_time(task: Task, corpus: Corpus, world: World) -> list[str]:
    """The time the request gives for an event it names, converted to the event's
    local time, fits the event there: a talk in Tokyo at 15:00 UTC starts at 00:00
    local time, which nobody schedules (toolmaze-v5 c2-0047). ``event_hours`` reads
    only a call that names the event and its time together; here the request names
    the talk and a conversion tells its local hour."""
    events = _event_words(task.query)
    stated = {str(e["value"]) for e in task.entities if e.get("type") == "iso_datetime"}
    out = []
    for c in calls(task, corpus):
        if not events or not c.behaviour.startswith("time.convert"):
            continue
        if not stated & {str(v) for v in c.args_of("iso_datetime")}:
            continue
        for when in c.returns_of("iso_datetime"):
            h = _local_hour(when)
            out += [f"time: a {word} at {str(when)[11:16]} local time ({c.tool})"
                    for word, (lo, hi) in events.items() if h is not None and not lo <= h <= hi]
    return out


def _scene_runs(task: Task, corpus: Corpus, world: World) -> Iterator[tuple[str, Any, datetime]]:
    """(scene, home city, instant) of every scene a task runs: now for one activated,
    its ``run_at`` for one scheduled."""
    now = _instant(world.now_iso)
    for c in calls(task, corpus):
        if c.behaviour not in ("iot.activate_scene", "iot.schedule_scene"):
            continue
        cities = [world.geo.city(str(v)) for v in c.args_of("city_name")]
        runs = [_instant(v) for v in c.args_of("iso_datetime")] or [now]
        for scene in c.args_of("scene_name"):
            for city in cities[:1]:
                yield from ((str(scene).lower(), city, at) for at in runs
                            if city is not None and at is not None)


def scene_hours(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A home scene runs at a local time its name fits (``scene_hours`` of coherence.json),
    as ``event_local_time`` holds a talk to waking hours: no "good night" at 02:00 local
    time (toolmaze-v6 c4-0088: 16:00 UTC in Melbourne) nor at 11:00 when the family gets
    home early (c2-0093)."""
    hours = {w: h for w, h in _rules_data()["scene_hours"].items() if not w.startswith("_")}
    out = []
    for scene, city, at in _scene_runs(task, corpus, world):
        if scene not in hours:
            continue
        local = zones.to_local(city.timezone, at)
        h = local.hour + local.minute / 60
        lo, hi = hours[scene]
        if not (lo <= h <= hi or lo <= h + 24 <= hi):
            out.append(f"time: the {scene!r} scene at {local:%H:%M} local time in {city.name}")
    return out


def _instant(value: Any) -> datetime | None:
    """An ISO datetime as an aware instant (no zone, or Z, is UTC); None if not one."""
    try:
        at = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _outside_hours(city: Any, start: datetime, minutes: int) -> str | None:
    """Why a ``minutes``-long slot from ``start`` is outside office hours in ``city``
    (None: a weekday, within the hours of ``coherence.json``)."""
    lo, hi = _rules_data()["office_hours"]["local_hours"]
    local = zones.to_local(city.timezone, start)
    begin = local.hour + local.minute / 60
    if local.weekday() >= 5:
        return f"a {local:%A} in {city.name}"
    if begin < lo or begin + minutes / 60 > hi:
        return f"{local:%H:%M} local time in {city.name}"
    return None


def _slot_cities(c: Call, world: World) -> list[Any]:
    """The cities whose office a call's time is for: a room's city, a city it names
    in the Office domain, or (for the user's own free/busy answer) the user's city."""
    rooms = [world.office.room(str(v)) for v in c.values_of("room_id")]
    cities = [r.city for r in rooms if r is not None]
    if not cities and c.domain == "Office":
        cities = [str(v) for v in c.args_of("city_name")]
    if not cities and c.behaviour in _rules_data()["office_hours"]["user_calendar"]:
        cities = [world.office.me.city]
    return [world.geo.city(n) for n in cities[:1] if world.geo.city(n)]


def office_hours(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A meeting, room booking or free slot for people in a city falls on a weekday
    within local office hours there (no welcome meeting in Vancouver at 01:30)."""
    out = []
    for c in calls(task, corpus):
        for city in _slot_cities(c, world):
            minutes = next((int(v) for v in c.values_of("duration_minutes")
                            if isinstance(v, int | float)), 0)
            for v in dict.fromkeys(map(str, c.values_of("iso_datetime"))):
                at = _instant(v)
                why = at and _outside_hours(city, at, minutes)
                if why:
                    out.append(f"time: {c.tool} at {v}, {why}")
    return out


def is_work_todo(title: str) -> bool:
    """Whether a to-do's title is work (chasing a reviewer, following up), which is
    done on a working day (``calendar.work_words`` of coherence.json); wrapping a gift
    or cleaning a holiday flat may fall on a weekend."""
    return bool(_words(_rules_data()["calendar"]["work_words"]).search(str(title)))


def work_dates(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A work to-do is due on a working day: no chase due on Saturday 22 August
    (toolmaze-v9 c4-0012; ``calendar`` of coherence.json)."""
    todo = set(_rules_data()["calendar"]["todo_behaviours"])
    return [f"calendar: {c.tool} makes a work to-do due on a {day:%A} ({day})"
            for c in calls(task, corpus) if c.behaviour in todo
            and any(is_work_todo(t) for t in c.args_of("text"))
            for v in c.args_of("iso_date") if (day := _day_of(v)) and day.weekday() >= 5]


def delivery_days(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A parcel is due on a day carriers deliver: no estimated delivery on a Sunday
    (toolmaze-v9 c2-0088: "arrives in Vancouver Sunday 23 August")."""
    return [f"delivery: {c.tool} tells a delivery on a Sunday ({v})"
            for c in calls(task, corpus) for k, v in c.response.items()
            if "deliver" in k and (day := _day_of(v)) and day.weekday() == 6]


def _day_of(value: Any) -> date | None:
    """The date an ISO date (or date-time) value names; None if it names none."""
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


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


def _arrivals(task: Task, corpus: Corpus, world: World) -> list[tuple[str, date, date]]:
    """(city, travel day, local arrival day) of every flight and train of a task."""
    ids = {str(v) for c in calls(task, corpus) for v in c.values_of("train_id")}
    trains = [t for t in (world.travel.train(i) for i in sorted(ids)) if t is not None]
    out = []
    for trip, place in [(f, f.destination) for f in _flights(task, corpus, world)] + \
            [(t, t.destination.place) for t in trains]:
        city = place.city
        at = trip.departure + timedelta(minutes=trip.duration_min)
        landed = at + timedelta(hours=zones.offset_hours(city.timezone, at))
        out.append((city.name, date.fromisoformat(trip.day), landed.date()))
    return out


def _stays(task: Task, corpus: Corpus, world: World) -> list[tuple[str, date, date]]:
    """(city or hotel, check-in, check-out) of every hotel stay a task books or prices."""
    out = []
    for c in calls(task, corpus):
        if not (c.values_of("hotel_id") or "hotel" in c.tool):
            continue
        days = c.args_of("iso_date")[:1]
        nights = [int(v) for v in c.args_of("night_count") if isinstance(v, int | float)][:1]
        if not days or not nights:
            continue
        where = next((str(v) for v in c.values_of("city_name")), "") or \
            next((str(v) for v in c.values_of("hotel_id")), "")
        start = date.fromisoformat(str(days[0])[:10])
        out.append((where, start, start + timedelta(days=nights[0])))
    return out


def stays_apart(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A person's stays in one task do not overlap: a second trip starts on or after
    the day the first stay ends (toolmaze-v5 c1-0001 priced "another trip" to the
    same hotel from 23 August, around a stay booked for 24 to 27 August, so "the
    weather for my arrival" could be either day). The same stay read twice (booked,
    then its rate asked) is one stay."""
    stays = sorted(set(_stays(task, corpus, world)), key=lambda s: (s[1], s[2]))
    out = []
    for i, (where, start, end) in enumerate(stays):
        out += [f"trip: a stay from {s2.isoformat()} ({w2}) overlaps the stay from "
                f"{start.isoformat()} to {end.isoformat()} ({where})"
                for w2, s2, e2 in stays[i + 1:] if s2 < end and (s2, e2) != (start, end)]
    return out


def forecast_on_arrival(task: Task, corpus: Corpus, world: World) -> list[str]:
    """The forecast for the city a train or flight goes to is for a day the traveller
    is there: "the forecast high for the arrival city" of an overnight train read on the
    day it leaves is a day before anyone is there to feel it, and a careful reader
    takes the arrival day (toolmaze-v4 c1-0091: Oslo -> Rome, graded on 31 August for
    a train that reaches Rome on 1 September)."""
    trips = _arrivals(task, corpus, world)
    out = []
    for c in calls(task, corpus):
        if not c.behaviour.startswith("weather.forecast"):
            continue
        cities = {world.geo.city(str(v)).name for v in c.args_of("city_name")
                  if world.geo.city(str(v))}
        for day in c.args_of("iso_date")[:1]:
            asked = date.fromisoformat(str(day)[:10])
            out += [f"forecast: {city} on {asked.isoformat()}, but the journey there arrives "
                    f"on {landed.isoformat()} local time" for city, left, landed in trips
                    if city in cities and left <= asked < landed]
    return out


# ---------------------------------------------------------------- reviews


def _device_facts(task: Task, corpus: Corpus) -> list[tuple[str, str, str]]:
    """(a device's battery or firmware as a review would say it, the device's kind,
    its model) of every device status a task reads."""
    models = {str(c.response.get(k)): (str(v), str(c.response.get("model", "")))
              for c in calls(task, corpus) for k in c.response if k.endswith("device_id")
              for v in c.returns_of("device_kind") if c.response.get("model")}
    out = []
    for c in calls(task, corpus):
        ids = [str(v) for v in c.values_of("device_id")]
        kind, model = models.get(ids[0], ("", "")) if ids else ("", "")
        kind = kind or next((str(v) for v in c.returns_of("device_kind")), "")
        out += [(f"{v}%" if "battery" in k else str(v), kind, model)
                for k, v in c.response.items() if ("battery" in k or "firmware" in k)
                and v not in (None, "")]
    return out


def review_subject(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A review that reports a device's battery level or firmware is a review of that
    device, or names the device it reports on: toolmaze-v5 c1-0002 reviewed a smart
    plug with "the battery is at 32%", the battery of the hallway sensor that
    switches it (a plug has none)."""
    facts = _device_facts(task, corpus)
    titles = {str(c.response.get(k)): " ".join(str(v) for v in c.returns_of("product_name"))
              for c in calls(task, corpus) for k in c.response if k.endswith("product_id")
              if c.returns_of("product_name")}
    out = []
    for c in calls(task, corpus):
        if c.behaviour != "shop.post_review":
            continue
        text = " ".join(str(v) for v in c.args_of("text"))
        title = next((titles.get(str(v), "") for v in c.args_of("product_id")), "")
        out += [f"review: a review of {title or 'a product'} reports {fact}, of the "
                f"{kind} {model}".rstrip() + ", without naming it"
                for fact, kind, model in facts if fact in text
                and not any(w and w.lower() in f"{title} {text}".lower() for w in (model,))
                and not (kind and kind.lower() in title.lower())]
    return list(dict.fromkeys(out))


def reviewed_delivered(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A review of a product bought in a store order placed before the episode is of one
    whose parcel arrived: nobody reviews a product "once a parcel has arrived" (and says
    how the delivery went) while it is still on its way (toolmaze-v8 c1-0022 reviewed a
    Fitness Tracker whose parcel was "in transit": "Delivered by UPS (in transit)")."""
    reviewed = {str(v).strip().upper() for c in calls(task, corpus)
                if c.behaviour == "shop.post_review" for v in c.args_of("product_id")}
    out = []
    for c in calls(task, corpus):
        for oid in c.args_of("shop_order_id"):
            order = world.commerce.order(str(oid))
            if order is None or order.delivered:
                continue
            hit = [pid for pid, _ in order.lines if pid in reviewed]
            out += [f"review: a review of {world.commerce.by_id(pid).name} bought in order "
                    f"{order.order_id}, whose parcel has not arrived" for pid in hit]
    return list(dict.fromkeys(out))


# ---------------------------------------------------------------- people and places


def sms_mobile(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A text message goes to a mobile number, well formed for its country."""
    return [f"phone: {c.tool} texts {v}, which is no mobile number" for c in calls(task, corpus)
            for v in c.args_of("phone") if not is_mobile(str(v))]


def texted_place(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A text that tells a city's local time goes to someone there: its number is of
    that city's country (toolmaze-v9 c2-0010 texted "your time (Tokyo)" to +33, c4-0097
    a mother in Istanbul on +33)."""
    every = list(calls(task, corpus))
    places = {city.country_code: city.name for c in every
              if c.tool.endswith("timezone") or "local" in c.tool
              for v in c.args_of("city_name") if (city := world.geo.city(str(v)))}
    if not places:
        return []
    return [f"phone: {c.tool} texts {v} (a {'/'.join(sorted(countries_of(str(v)))) or '?'} "
            f"number) the time in {', '.join(sorted(places.values()))}"
            for c in every for v in c.args_of("phone")
            if not countries_of(str(v)) & set(places)]


def invoice_place(task: Task, corpus: Corpus, world: World) -> list[str]:
    """An invoice taxed at its customer's country's rate (no tax country given) is in
    that country's currency: no SGD invoice carrying Canada's 5 % GST for a Vancouver
    client (toolmaze-v9 c2-0028, read as Singapore's GST being 5 %)."""
    every = list(calls(task, corpus))
    if any(c.args_of("country_code") for c in every):
        return []  # the request names the country it is taxed as ("plus DE VAT")
    out = []
    for c in every:
        if c.behaviour != "finance.invoice.create":
            continue
        people = [p for v in c.args_of("email") if (p := world.people.by_email(str(v)))]
        out += [f"invoice: {code} to {p.name} in {home.name}, taxed as {home.country}, "
                f"which pays in {home.currency}" for p in people
                if (home := world.geo.city(p.city))
                for code in map(str, c.args_of("currency_code")) if code != home.currency]
    return out


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
    """A call that converts: it takes or tells two currencies (log_expense takes the
    expense's and tells the budget's, which it converts into), or a rate."""
    return len({str(v).upper() for v in c.values_of("currency_code")}) >= 2 \
        or bool(c.values_of("fx_rate"))


def _tariff_currency(query: str, price: Any) -> str | None:
    """The currency code the request writes right after a tariff ("0.27 EUR per kWh")."""
    try:
        said = f"{float(price):g}"
    except (TypeError, ValueError):
        return None
    m = re.search(rf"(?<![\d.]){re.escape(said)}\s*([A-Z]{{3}})\b", query)
    return m.group(1) if m else None


def energy_currency(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A home's electricity is priced in its country's currency: no London tariff in
    EUR, no Melbourne one in CHF (toolmaze-v6 c4-0025, c4-0088). The home is the site
    whose usage the cost call prices (its kWh); the currency, the code the request
    writes after the tariff."""
    sites = {float(v): str(s) for c in calls(task, corpus) if c.behaviour == "iot.energy_usage"
             for v in c.returns_of("energy_kwh") for s in c.args_of("city_name")}
    out = []
    for c in calls(task, corpus):
        if c.behaviour != "iot.energy_cost":
            continue
        city = next((world.geo.city(sites[float(v)]) for v in c.args_of("energy_kwh")
                     if float(v) in sites), None)
        for price in c.args_of("money_amount"):
            code = _tariff_currency(task.query, price)
            if city is not None and code is not None and code != city.currency:
                out.append(f"tariff: {city.name}'s electricity at {price} {code} per kWh, "
                           f"where homes pay in {city.currency}")
    return out


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


def _peg_breach(codes: set[str], rate: float) -> str | None:
    """Why ``rate`` between two currencies, one pegged to the other, is outside the peg's
    band (None: inside, or no peg between them). Read either way round: the rate or its
    inverse, whichever is nearer the peg, is units of the pegged currency per anchor."""
    for code, peg in pegs().items():
        if codes != {code, peg["anchor"]} or rate <= 0:
            continue
        per = min((rate, 1 / rate), key=lambda r: abs(math.log(r / peg["per_anchor"])))
        low, high = peg["band"]
        if not low <= per <= high:
            return (f"fx: {per:.4f} {code} per {peg['anchor']} is outside the peg's band "
                    f"{low}-{high}")
    return None


def fx_pegs(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A rate between a pegged currency and its anchor keeps the peg's band: no 7.76
    DKK per EUR, where ERM II holds the krone to 7.46038 +-2.25 % (the v4-draft2
    review's c3-0063)."""
    out = []
    for c in calls(task, corpus):
        codes = {str(v).upper() for v in c.values_of("currency_code")}
        for rate in c.returns_of("fx_rate"):
            if isinstance(rate, int | float) and (why := _peg_breach(codes, float(rate))):
                out.append(why)
    return out


def dividend_earnings(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A company that pays a dividend earns: no loss per share (actual or expected) for a
    stock that pays 3.8 a share (the v4-draft2 review's c4-0056, XOM)."""
    dividends: dict[str, float] = {}
    eps: dict[str, list[float]] = {}
    for c in calls(task, corpus):
        res = corpus[c.tool].to_canonical(c.response)
        symbol = str((c.values_of("stock_symbol") or [""])[0]).upper()
        if isinstance(res.get("dividend_per_share"), int | float):
            dividends[symbol] = float(res["dividend_per_share"])
        eps.setdefault(symbol, []).extend(
            float(v) for v in c.returns_of("eps") if isinstance(v, int | float))
    return [f"equity: {s} pays a dividend of {d} a share with an EPS of {min(eps[s])}"
            for s, d in sorted(dividends.items()) if d > 0 and min(eps.get(s) or [0]) < 0]


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
    """An amount a call states or returns in a currency has no finer unit than that
    currency has: no "512.3 JPY" monthly payment (a 31,000 loan with no currency,
    budgeted in the yen of the account), no per diem of "145004.46 KRW" a day (the
    won has no minor unit). A call in one currency only: a conversion's amounts are
    in two."""
    out = []
    for c in calls(task, corpus):
        codes = {str(v).upper() for v in c.values_of("currency_code")}
        if len(codes) != 1 or c.values_of("fx_rate"):
            continue
        code = codes.pop()
        for v in c.values_of("money_amount"):
            if isinstance(v, int | float) and round(v, minor_units(code)) != v:
                out.append(f"currency: {v} {code} ({code} has {minor_units(code)} decimals)")
    return out


def _says(text: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE) is not None


def _taxed_countries(task: Task, corpus: Corpus, world: World) -> dict[str, str]:
    """place -> country code of every city or country a tax call of the task taxes
    a sale in."""
    out = {}
    for c in calls(task, corpus):
        if "tax" not in c.tool and "vat" not in c.tool:
            continue
        for v in c.args_of("city_name"):
            city = world.geo.city(str(v))
            if city is not None:
                out[city.name] = city.country_code
        out |= {str(v).upper(): str(v).upper() for v in c.args_of("country_code")}
    return out


def tax_name(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A request names the tax the way the place has it: no "Berlin sales tax" or
    "Auckland sales tax" (Germany has a 19 % VAT, New Zealand a 15 % GST, neither a
    city sales tax), and no VAT for Seattle (a US sales tax)."""
    data = _rules_data()["tax_names"]
    sales = set(data["sales_tax_countries"])
    out = []
    for city, country in _taxed_countries(task, corpus, world).items():
        has_sales = country in sales
        wrong = data["vat_words"] if has_sales else data["sales_tax_words"]
        out += [f"tax: the request says {w!r} for {city} ({country}, which taxes sales by "
                f"{'a sales tax' if has_sales else 'a national VAT/GST'})"
                for w in wrong if _says(task.query, w)]
    return out


def _compared(c: Call) -> tuple[float, float] | None:
    """The two positive amounts a percent-change call compares (None: not one)."""
    if not c.returns_of("percent_change"):
        return None
    amounts = [v for v in c.args_of("money_amount") if isinstance(v, int | float)]
    return (amounts[0], amounts[1]) if len(amounts) == 2 and min(amounts) > 0 else None


def comparable_choice(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A request that weighs two positions ("I'm torn between buying 28 BTC and 60
    shares of ...") compares amounts of one order: not 2.07 million USD against
    2.5 thousand (an 800-fold gap nobody weighs)."""
    data = _rules_data()["comparable_choice"]
    if not any(_says(task.query, w) for w in data["choice_words"]):
        return []
    out = []
    for c in calls(task, corpus):
        pair = _compared(c)
        if pair and max(pair) / min(pair) > data["max_ratio"]:
            out.append(f"choice: {pair[0]} against {pair[1]} ({max(pair) / min(pair):.0f}-fold "
                       f"gap, over {data['max_ratio']}x) in a request that weighs them")
    return out


def headlines(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A headline fits its city (no rail line linking a coastal city "to the coast", nor
    a city of a landlocked country)."""
    coastal = set(_rules_data()["coastal_cities"])
    out = [f"news: {v!r} for coastal {city}"
           for v, city in _headline_cities(task, corpus, "inland_headlines") if city in coastal]
    return out + landlocked_headlines(task, corpus, world)


def seasonal_headlines(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A story a task reads fits its city's season: no "Flood defences completed in
    Madrid" in its dry August heat (toolmaze-v9 c4-0080), no heat record in Auckland's
    winter (``season`` of news.json; ``world.news.News.misfit``)."""
    out = []
    for c in calls(task, corpus):
        for v in map(str, c.response.values()):
            out += [f"news: {v!r}: {why}" for city in world.geo.city_names
                    if city in v and (why := world.news.misfit(v, city))]
    return out


def _headline_cities(task: Task, corpus: Corpus, key: str) -> Iterator[tuple[str, str]]:
    """Each response value that is one of the headline templates under ``key`` of the
    rules data, with the city it names."""
    patterns = [re.compile(re.escape(h).replace(re.escape("{city}"), "(?P<city>[A-Z][\\w .'-]*?)")
                           + "$") for h in _rules_data()[key]]
    for c in calls(task, corpus):
        for v in c.response.values():
            for p in patterns:
                if m := p.match(str(v)):
                    yield str(v), m.group("city")



# ---------------------------------------------------------------- travel and people (round 3)


def _carrier_homes() -> dict[str, set[str]]:
    return {code: set(countries) for code, _, countries in load_data("travel.json")["airlines"]}


def carrier_problem(f: Any, world: World) -> str | None:
    """Why a mainline flight is no route its carrier flies (None: it is one)."""
    data = _rules_data()["flights"]
    homes = _carrier_homes().get(f.carrier_code)
    if homes is None or f.flight_id in data["exempt"]:  # low-cost: kept within Europe
        return None
    ends = (f.origin.city, f.destination.city)
    long_haul = f.distance_km > data["long_haul_km"]
    number = int(f.flight_id[2:6])
    if not homes & {c.country_code for c in ends}:
        return f"flies neither from nor to {f.carrier}'s home ({', '.join(sorted(homes))})"
    if long_haul and not set(data["hubs"].get(f.carrier_code, ())) & {c.name for c in ends}:
        return f"a long haul that touches none of {f.carrier}'s hubs"
    if long_haul and number > data["long_haul_max_number"]:
        return f"number {number} reads as a codeshare"
    return None


def flight_carriers(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A flight's carrier flies from or to its home country, a long haul from or to
    one of its hubs under a number of its own (no BA Manchester -> Buenos Aires, no BA
    Singapore -> Melbourne, no AC6193 Dublin -> Vancouver: the draft v4 review)."""
    out = []
    for f in _flights(task, corpus, world):
        why = carrier_problem(f, world)
        if why:
            out.append(f"flight: {f.flight_id} ({f.origin.city.name} -> "
                       f"{f.destination.city.name}) {why}")
    return out


def phone_countries(phone: str) -> set[str]:
    """The countries whose numbers start as ``phone`` does (by calling code)."""
    return countries_of(phone)


def _arrival_countries(task: Task, corpus: Corpus, world: World) -> set[str]:
    """The countries a task's flights land in (or, with no flight, the city a landing
    time is told in: "collecting me in {city}")."""
    landed = {f.destination.city.country_code for f in _flights(task, corpus, world)}
    if landed:
        return landed
    return {world.geo.city(str(v)).country_code for c in calls(task, corpus)
            if c.tool.endswith("timezone") or "local" in c.tool
            for v in c.args_of("city_name") if world.geo.city(str(v))}


def local_pickup(task: Task, corpus: Corpus, world: World) -> list[str]:
    """Whoever collects a traveller at the arrival airport is a local there: the
    mobile a pick-up task texts is one of the arrival country (no French mobile for
    a pick-up in Buenos Aires, no Spanish one for a driver in Melbourne)."""
    words = _rules_data()["pickup_words"]
    if not any(w in task.query.lower() for w in words):
        return []
    landed = _arrival_countries(task, corpus, world)
    phones = {str(v) for c in calls(task, corpus) for v in c.values_of("phone")}
    return [f"pick-up: {v} (a {'/'.join(sorted(phone_countries(v))) or '?'} mobile) collects "
            f"a traveller landing in {'/'.join(sorted(landed))}"
            for v in sorted(phones) if landed and not phone_countries(v) & landed]


def beach_trips(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A beach holiday goes to a city with beaches (no beach week in Seattle)."""
    data = _rules_data()
    if not any(re.search(rf"\b{w}", task.query.lower()) for w in data["beach_words"]):
        return []
    beach = set(data["beach_cities"])
    stays = {f.destination.city.name for f in _flights(task, corpus, world)}
    stays |= {world.geo.city(str(v)).name for c in calls(task, corpus)
              if c.values_of("hotel_id") or "hotel" in c.tool
              for v in c.values_of("city_name") if world.geo.city(str(v))}
    return [f"trip: a beach holiday in {city}" for city in sorted(stays - beach)]


def _trip_months(task: Task, corpus: Corpus, world: World) -> set[tuple[str, int]]:
    """(city, month) of every stay a task books or searches: a flight's destination in
    the month it lands, a hotel's or hire car's city in the month of its first day."""
    out = {(f.destination.city.name, f.arrival.month) for f in _flights(task, corpus, world)}
    for c in calls(task, corpus):
        if not (c.values_of("hotel_id") or "hotel" in c.tool or "car" in c.tool):
            continue
        cities = [world.geo.city(str(v)).name for v in c.args_of("city_name")
                  if world.geo.city(str(v))]
        days = [str(v)[:10] for v in c.args_of("iso_date")]
        out |= {(city, date.fromisoformat(days[0]).month) for city in cities[:1] if days}
    return out


def ski_trips(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A ski trip goes where slopes are near and open that month (no ski trip to
    Vancouver in August: the draft v4 review's c4-0085)."""
    data = _rules_data()
    if not any(re.search(rf"\b{w}\b", task.query.lower()) for w in data["ski_words"]):
        return []
    seasons = {k: set(v) for k, v in data["ski_seasons"].items() if not k.startswith("_")}
    return [f"trip: a ski trip to {city} in month {month}"
            for city, month in sorted(_trip_months(task, corpus, world))
            if month not in seasons.get(city, set())]

def landlocked_headlines(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A headline that takes a city to "the coast" names a city of a country that has
    one (no rail line linking Vienna to the coast: Austria is landlocked)."""
    landlocked = set(_rules_data()["landlocked_countries"])
    out = []
    for v, name in _headline_cities(task, corpus, "coast_headlines"):
        city = world.geo.city(name)
        if city is not None and city.country_code in landlocked:
            out.append(f"news: {v!r} for {city.name}, in landlocked {city.country}")
    return out



def channel_messages(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A channel's message fits the channel: no lunch order as the latest news of
    #leadership (the draft v4 review's c1-0034)."""
    misfits = {k: set(v) for k, v in _rules_data()["channel_misfits"].items()
               if not k.startswith("_")}
    out = []
    for c in calls(task, corpus):
        for channel in c.values_of("channel_name"):
            name = str(channel).strip().lstrip("#").lower()
            out += [f"chat: {t!r} in #{name}" for t in c.returns_of("text")
                    if str(t) in misfits.get(name, ())]
    return out


def _words(words: list[str]) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(words) + r")\b", re.IGNORECASE)


def is_action_item(text: str) -> bool:
    """Whether a post holds an action item: one sentence that asks someone to do
    something by a time ("Please restart the payments worker before 18:00 UTC today."),
    not a question of who owns what, nor a heads-up (``coherence.json`` action_items)."""
    data = _rules_data()["action_items"]
    asks, deadlines = _words(data["asks"]), _words(data["deadlines"])
    return any(asks.search(s) and deadlines.search(s)
               for s in re.split(r"(?<=[.!?])\s+", str(text)))


def channel_action_items(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A task that makes work out of a channel's post (its action items, a to-do, a
    ticket) reads a post that holds an action item: no "Heads-up: VPN maintenance
    tonight." saved as the retro's action items (the v4-draft2 play-test's c4-0029;
    c2-0030, c4-0062, and the review's c4-0097)."""
    data = _rules_data()["action_items"]
    every = list(calls(task, corpus))
    posts = [(str((c.values_of("channel_name") or ["?"])[0]).lstrip("#"), str(t))
             for c in every if c.behaviour == "office.chat.history" for t in c.returns_of("text")]
    work = (any(c.behaviour in data["from_post_behaviours"] for c in every)
            or any(_says(task.query, w) for w in data["request_words"]))
    if not posts or not work or any(is_action_item(t) for _, t in posts):
        return []
    return [f"chat: #{name}'s post {text!r} holds no action item, yet work is made of it"
            for name, text in posts]


def channel_wording(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A channel the request writes as "#name" (Slack's way) is posted to by a tool
    that names channels so: no "#travel-desk" posted only through Teams."""
    data = _rules_data()["channel_wording"]
    posts: dict[str, set[str]] = {}
    for c in calls(task, corpus):
        if c.behaviour in data["post_behaviours"]:
            for v in c.args_of("channel_name"):
                posts.setdefault(str(v).lstrip("#"), set()).add(c.tool)
    return [f"channel: the request writes #{name}, but it is posted with "
            f"{', '.join(sorted(tools))}" for name, tools in sorted(posts.items())
            if re.search(rf"#{re.escape(name)}(?![\w-])", task.query)
            and not tools & set(data["hash_tools"])]


def rail_links(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A train a task searches or books runs between stations the real network links
    directly (``world.travel.rail_linked``; toolmaze-v4 c2-0010: a direct train from
    Lisbon to Copenhagen)."""
    out = []
    for c in calls(task, corpus):
        stations = [world.travel.station(str(v)) for v in c.args_of("rail_station")]
        stations = [s for s in stations if s is not None]
        if len(stations) == 2 and not world.travel.rail_linked(*stations):
            out.append(f"rail: {c.tool} from {stations[0].name} to {stations[1].name}, "
                       "which no direct train links")
    return list(dict.fromkeys(out))


def _itinerary_flights(itinerary_id: Any, world: World) -> list[Any]:
    """The flights a trip planned before the episode holds (none for a trip the task
    makes itself)."""
    travel = world.travel
    itinerary = travel.itineraries.get(str(itinerary_id).strip().upper())
    if itinerary is None:
        return []
    return [f for f in (travel.flight(travel.bookings[r].flight_id)
                        for r in itinerary.items if r in travel.bookings) if f is not None]


def trip_expenses(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A train whose fare a task files on a trip is one that trip's traveller takes: it
    leaves or reaches a city the trip flies to or from, from the day before its flight
    to a fortnight after (toolmaze-v11 c2-0028 filed a Warsaw-Vienna train of 23 August
    on a Seattle-Barcelona board-meeting trip three weeks later)."""
    ids = {str(v) for c in calls(task, corpus) for v in c.values_of("train_id")}
    trains = [t for t in (world.travel.train(i) for i in sorted(ids)) if t is not None]
    filed = {str(v) for c in calls(task, corpus) if c.behaviour == "travel.expense_record"
             for v in c.args_of("itinerary_id")}
    out = []
    for trip in sorted(filed):
        flights = _itinerary_flights(trip, world)
        if not flights:
            continue
        cities = {f.origin.city.name for f in flights} | {f.destination.city.name for f in flights}
        days = [date.fromisoformat(f.day) for f in flights]
        first, last = min(days) - timedelta(days=1), max(days) + timedelta(days=14)
        for t in trains:
            ends = {t.origin.place.city.name, t.destination.place.city.name}
            if not ends & cities or not first <= date.fromisoformat(t.day) <= last:
                out.append(f"trip: a {' - '.join(sorted(ends))} train on {t.day} filed on trip "
                           f"{trip}, which flies {', '.join(sorted(cities))} on "
                           f"{', '.join(sorted(d.isoformat() for d in days))}")
    return out


def quoted_language(task: Task, corpus: Corpus, world: World) -> list[str]:
    """A text the request quotes for translation, from a place it names, is in a
    language of that place: offices write in their country's language (toolmaze-v4
    c1-0056: "Our Milan office sent this problem report" in French). The quoted text's
    language is the phrasebook's; the places are the world's cities the request names."""
    from toolmaze_gym.world.phrasebook import translation

    named = [c for c in world.geo.cities
             if re.search(rf"(?<!\w){re.escape(c.name)}(?!\w)", task.query)]
    if not named:
        return []
    out = []
    for c in calls(task, corpus):
        if c.behaviour != "text.translate":
            continue
        for text in c.args_of("text"):
            hit = translation(str(text), "en") if str(text) in task.query else None
            if hit is not None and hit[0] not in {city.language for city in named}:
                out.append(f"language: the request quotes {text!r} ({hit[0]}) from "
                           f"{', '.join(city.name for city in named)}, where people write "
                           f"{', '.join(sorted({city.language for city in named}))}")
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
    "quoted_language": quoted_language,
    "rail_links": rail_links,
    "trip_expenses": trip_expenses,
    "weather_condition": weather_condition,
    "asked_heating": asked_heating,
    "heating_season": heating_season,
    "device_use": device_use,
    "eco_setpoint": eco_setpoint,
    "eco_mild": eco_mild,
    "eco_setback": eco_setback,
    "eco_setter": eco_setter,
    "eco_forecast_side": eco_forecast_side,
    "eco_room": eco_room,
    "event_hours": event_hours,
    "event_local_time": event_local_time,
    "scene_hours": scene_hours,
    "stays_apart": stays_apart,
    "review_subject": review_subject,
    "reviewed_delivered": reviewed_delivered,
    "trip_from_home": trip_from_home,
    "arrival_before_stay": arrival_before_stay,
    "forecast_on_arrival": forecast_on_arrival,
    "sms_mobile": sms_mobile,
    "texted_place": texted_place,
    "tax_place": tax_place,
    "invoice_place": invoice_place,
    "headlines": headlines,
    "seasonal_headlines": seasonal_headlines,
    "currency_crossing": currency_crossing,
    "energy_currency": energy_currency,
    "iban_currency": iban_currency,
    "fx_pegs": fx_pegs,
    "dividend_earnings": dividend_earnings,
    "amount_precision": amount_precision,
    "tax_name": tax_name,
    "comparable_choice": comparable_choice,
    "flight_carriers": flight_carriers,
    "local_pickup": local_pickup,
    "beach_trips": beach_trips,
    "ski_trips": ski_trips,
    "channel_messages": channel_messages,
    "channel_action_items": channel_action_items,
    "office_hours": office_hours,
    "work_dates": work_dates,
    "delivery_days": delivery_days,
    "channel_wording": channel_wording,
    "translated_texts": translated_texts,
}


# Rules a task breaks by the tools it was realised with, not by its drawn facts: the
# same facts under other tools can be coherent (a cooling value through a setter that
# can cool), so the generator tries the draw's other realisations first.
TOOL_CHOICE_RULES = frozenset({"eco_setter"})


def problems(task: Task, corpus: Corpus, world: World) -> list[str]:
    """Everything incoherent in the world a task shows (empty: a world one believes)."""
    return [p for rule in RULES.values() for p in dict.fromkeys(rule(task, corpus, world))]


def of_facts(task: Task, corpus: Corpus, world: World) -> bool:
    """Whether a rule beyond ``TOOL_CHOICE_RULES`` finds ``task`` incoherent: its drawn
    facts, not only its tools, make a world nobody lives in."""
    return any(rule(task, corpus, world) for name, rule in RULES.items()
               if name not in TOOL_CHOICE_RULES)

