"""The core semantic types shared by every domain.

Domain-specific types live in ``toolmaze_gym.values.domains`` (one module per
domain) and are imported here so the registry is complete after one import.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
import re
from datetime import datetime, timedelta
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.values.numbers import is_number
from toolmaze_gym.values.types import CheckContext, Corruption, SemanticType, register

# ---------------------------------------------------------------- builders


def _num(value: Any) -> float:
    if not is_number(value):
        raise TypeError("not a number")
    return round(float(value), 2)


def _below(lo: float, hi: float):
    """A range corruption: a well-formed number the invariant forbids."""

    def fn(value: Any, ctx: CheckContext, key: str):
        mag = abs(float(value)) if value else 1.0
        if lo >= 0:
            bad = -round(mag * hashing.uniform(0.2, 1.0, key) + 1, 2)
            return bad, f"negative value {bad} where the documented minimum is {lo:g}"
        bad = round(hi + abs(hi - lo) * hashing.uniform(0.3, 1.0, key), 2)
        return bad, f"{bad} exceeds the documented maximum {hi:g}"

    return Corruption("out_of_range", "range", fn)


def _above(hi: float):
    def fn(value: Any, ctx: CheckContext, key: str):
        bad = round(hi * hashing.uniform(1.2, 1.6, key), 1)
        return bad, f"{bad} exceeds the documented maximum {hi:g}"

    return Corruption("above_max", "range", fn)


def number_type(name: str, lo: float, hi: float, description: str, *,
                integer: bool = False, sample_lo: float | None = None,
                sample_hi: float | None = None, literal: bool = False,
                extra: tuple[Corruption, ...] = ()) -> SemanticType:
    """A bounded number; the bounds are the invariant a reader can check."""
    s_lo = lo if sample_lo is None else sample_lo
    s_hi = hi if sample_hi is None else sample_hi

    def check(value: Any, ctx: CheckContext) -> str | None:
        if not is_number(value):
            return f"{name} must be a number"
        if integer and int(value) != value:
            return f"{name} must be a whole number"
        if not lo <= value <= hi or (isinstance(value, float) and math.isnan(value)):
            return f"{name} {value} outside [{lo:g}, {hi:g}]"
        return None

    def sample(world: Any, key: str) -> Any:
        if integer:
            return hashing.randint(int(s_lo), int(s_hi), name, key)
        return round(hashing.uniform(s_lo, s_hi, name, key), 2)

    schema: dict[str, Any] = {"type": "integer" if integer else "number",
                              "minimum": lo, "maximum": hi}
    corruptions = (_below(lo, hi), *extra) if lo >= 0 else (_above(hi), *extra)
    return register(SemanticType(
        name=name, schema=schema, description=description, sample=sample, check=check,
        normalise=(lambda v: int(v)) if integer else _num, corruptions=corruptions,
        literal=literal, phrase=(lambda v: f"{v:g}" if isinstance(v, float) else str(v))))


def _entity_swap(pool_fn):
    """Entity mismatch: the same shape, another real entity (asked Paris, got Lyon)."""

    def fn(value: Any, ctx: CheckContext, key: str):
        pool = _others(ctx.world, pool_fn, str(value).lower())
        if not pool:
            return None
        bad = hashing.choice(pool, "entity", key)
        return bad, f"response is about {bad!r}, the request asked for {value!r}"

    return Corruption("wrong_entity", "entity", fn)


_OTHERS_LIMIT = 4096


def _others(world: Any, pool_fn, lowered: str) -> tuple[Any, ...]:
    """The pool without ``lowered`` (case-insensitively), in pool order; kept per
    world (worlds are immutable) since faults ask for the same few entities."""
    cache = world.__dict__.setdefault("_entity_others", {})
    key = (pool_fn, lowered)
    got = cache.get(key)
    if got is None:
        if len(cache) >= _OTHERS_LIMIT:
            cache.clear()
        got = cache[key] = tuple(v for v in pool_fn(world) if str(v).lower() != lowered)
    return got


def _pool_set(world: Any, name: str, pool_fn) -> frozenset[str]:
    """The lower-cased pool, computed once per world (worlds are immutable)."""
    cache = world.__dict__.setdefault("_enum_sets", {})
    known = cache.get(name)
    if known is None:
        known = cache[name] = frozenset(str(v).lower() for v in pool_fn(world))
    return known


def enum_type(name: str, pool_fn, description: str, *, literal: bool = True,
              case_insensitive: bool = True, pattern: str | None = None) -> SemanticType:
    """A string from a known set of world entities (cities, symbols, currencies)."""

    def check(value: Any, ctx: CheckContext) -> str | None:
        if not isinstance(value, str):
            return f"{name} must be a string"
        known = _pool_set(ctx.world, name, pool_fn)
        return None if " ".join(value.split()).lower() in known else f"unknown {name} {value!r}"

    schema: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 80}
    if pattern:
        schema["pattern"] = pattern
    return register(SemanticType(
        name=name, schema=schema, description=description,
        sample=lambda world, key: hashing.choice(list(pool_fn(world)), name, key),
        check=check,
        normalise=(lambda v: " ".join(v.split()).lower()) if case_insensitive else str.strip,
        corruptions=(_entity_swap(pool_fn),), literal=literal))


def pattern_type(name: str, pattern: str, description: str, sample, *,
                 literal: bool = False, normalise=str.strip,
                 corruptions: tuple[Corruption, ...] = (), stated: bool = False
                 ) -> SemanticType:
    """A string with a format (ids, emails, dates); the format is the invariant."""
    rx = re.compile(pattern)

    def check(value: Any, ctx: CheckContext) -> str | None:
        if not isinstance(value, str) or not rx.fullmatch(value):
            return f"{name} {value!r} is not in the documented format"
        return None

    return register(SemanticType(
        name=name, schema={"type": "string", "pattern": pattern, "maxLength": 120},
        description=description, sample=sample, check=check, normalise=normalise,
        corruptions=corruptions, literal=literal, stated=stated))


def id_type(name: str, prefix: str, length: int = 8, description: str = "",
            existing=None) -> SemanticType:
    """An opaque identifier such as ``BK-7Q2X9ZLM``; ids come from earlier calls.

    ``existing(world, key)`` draws the id of a record the world holds before the
    episode (a price alert, an open invoice); a scenario's query may state such an id.
    """
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return pattern_type(
        name, rf"^{re.escape(prefix)}-[A-Z0-9]{{{length}}}$",
        description or f"identifier of the form {prefix}-XXXXXXXX",
        existing or (lambda world, key: f"{prefix}-" + hashing.token(alphabet, length, name, key)),
        stated=existing is not None)


_ID_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_IDS: dict[tuple[str, int, str], str] = {}


def make_id(prefix: str, length: int, *parts: object) -> str:
    """The id an Action returns; stable for its inputs.

    Memoised on the joined string forms of ``parts`` — all the hash ever sees, so
    the key is exact (0.0 and -0.0 stay apart) — because episodes replay the same
    actions and the same ids recur constantly.
    """
    joined = hashing.SEP.join(str(p) for p in parts)
    key = (prefix, length, joined)
    out = _IDS.get(key)
    if out is None:
        if len(_IDS) >= 200_000:
            _IDS.clear()
        out = _IDS[key] = f"{prefix}-" + hashing.token(_ID_ALPHABET, length, joined)
    return out


# ---------------------------------------------------------------- text


def _check_text(value: Any, ctx: CheckContext) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return "text must be a non-empty string"
    if "{{" in value or "}}" in value or value.strip().lower() in {"null", "undefined", "nan"}:
        return "text contains an unrendered template placeholder"
    return None


def _placeholder(value: Any, ctx: CheckContext, key: str):
    bad = "{{" + hashing.choice(["message", "body", "translated_text", "summary"], key) + "}}"
    return bad, f"text is the unrendered template placeholder {bad!r}"


TEXT = register(SemanticType(
    name="text", schema={"type": "string", "minLength": 1, "maxLength": 4000},
    description="free text; never empty, never an unrendered {{placeholder}}",
    sample=lambda world, key: hashing.choice(
        ["Quarterly numbers are ready.", "Please confirm the booking.",
         "The package has shipped.", "Reminder: stand-up at nine."], "text", key),
    check=_check_text, normalise=lambda v: " ".join(str(v).split()),
    corruptions=(Corruption("placeholder", "consistency", _placeholder),), literal=True,
    phrase=lambda v: f'"{v}"', input_check=False))

register(SemanticType(
    name="boolean", schema={"type": "boolean"}, description="true or false",
    sample=lambda world, key: hashing.digest("bool", key) % 2 == 0,
    check=lambda v, ctx: None if isinstance(v, bool) else "must be a boolean", literal=True))

# ---------------------------------------------------------------- geography


def _cities(world):
    return world.geo.city_names


def _currencies(world):
    return world.geo.currency_codes


enum_type("city_name", _cities, "a city name as in the world gazetteer, e.g. 'Paris'")
enum_type("country_code", lambda w: w.geo.country_codes,
          "ISO 3166-1 alpha-2 country code, e.g. 'FR'", pattern="^[A-Za-z]{2}$")
enum_type("currency_code", _currencies, "ISO 4217 currency code, e.g. 'EUR'",
          pattern="^[A-Za-z]{3}$")
enum_type("language_code", lambda w: w.geo.language_codes,
          "ISO 639-1 language code, e.g. 'de'", pattern="^[a-z]{2}$")
enum_type("timezone", lambda w: w.geo.timezones, "IANA time zone, e.g. 'Europe/Paris'",
          case_insensitive=False)
number_type("latitude", -90, 90, "latitude in decimal degrees", sample_lo=-45, sample_hi=65)
number_type("longitude", -180, 180, "longitude in decimal degrees")


def _temp_check(value: Any, ctx: CheckContext) -> str | None:
    if not is_number(value):
        return "temperature_c must be a number"
    lo, hi = -70.0, 60.0
    city = ctx.body.get("city") or ctx.args.get("city")
    if isinstance(city, str) and ctx.world.geo.has_city(city):
        lo, hi = ctx.world.geo.climate_band(city)
    if not lo <= value <= hi:
        return f"temperature_c {value} outside the plausible range [{lo:g}, {hi:g}] °C"
    return None


def _kelvin(value: Any, ctx: CheckContext, key: str):
    bad = round(float(value) + 273.15, 1)
    return bad, f"temperature_c {bad} is the Kelvin value of {value} °C (unit confusion)"


register(SemanticType(
    name="temperature_c", schema={"type": "number", "minimum": -100, "maximum": 400},
    description="air temperature in °C, within the city's climate band",
    sample=lambda world, key: round(hashing.uniform(-10, 35, "tc", key), 1),
    check=_temp_check, normalise=_num,
    corruptions=(Corruption("kelvin_as_celsius", "unit", _kelvin),), literal=True,
    phrase=lambda v: f"{v:g} °C"))
number_type("temperature_f", -100, 140, "temperature in °F", sample_lo=14, sample_hi=95)
number_type("humidity_pct", 0, 100, "relative humidity in percent, 0–100")
number_type("percentage", 0, 100, "a share in percent, 0–100", literal=True)
number_type("precipitation_mm", 0, 500, "precipitation in millimetres, never negative",
            sample_hi=40)
number_type("wind_kph", 0, 300, "wind speed in km/h, never negative", sample_hi=60)
number_type("distance_km", 0, 25000, "distance in kilometres, never negative",
            sample_lo=1, sample_hi=5000)
number_type("duration_minutes", 0, 10080, "a duration in minutes, never negative",
            integer=True, sample_lo=15, sample_hi=240, literal=True)

# ---------------------------------------------------------------- money and counts

number_type("money_amount", 0, 1e9, "an amount of money, never negative",
            sample_lo=1, sample_hi=5000, literal=True)
number_type("fx_rate", 1e-6, 1e6, "units of quote currency per unit of base currency (> 0)",
            sample_lo=0.2, sample_hi=5)
number_type("quantity", 0, 1e6, "a count of items, never negative", integer=True,
            sample_lo=1, sample_hi=20, literal=True)
number_type("decimal_places", 0, 6, "number of decimal places", integer=True,
            sample_hi=2, literal=True)
number_type("rating", 1, 5, "a rating from 1 to 5", sample_lo=2.5)
number_type("percent_change", -100, 1000, "a percentage change; never below -100 %",
            sample_lo=-10, sample_hi=10)

# ---------------------------------------------------------------- people and contact


def _email_norm(v: Any) -> str:
    return str(v).strip().lower()


pattern_type("email", r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$",
             "an e-mail address", lambda world, key: world.people.sample_email(key),
             literal=True, normalise=_email_norm,
             corruptions=(_entity_swap(lambda w: w.people.emails),))
pattern_type("phone", r"^\+[1-9][0-9]{6,14}$", "an E.164 phone number, e.g. +33612345678",
             lambda world, key: world.people.sample_phone(key), literal=True,
             normalise=lambda v: re.sub(r"[^0-9+]", "", str(v)),
             corruptions=(_entity_swap(lambda w: w.people.phones),))
enum_type("person_name", lambda w: w.people.names, "a person's full name, e.g. 'Ana Souza'")
pattern_type("url", r"^https://[A-Za-z0-9.-]+(/[A-Za-z0-9._~%/?=&-]*)?$", "an https URL",
             lambda world, key: f"https://docs.example.com/d/{hashing.digest('url', key) % 99999}")

# ---------------------------------------------------------------- time

_DATE = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
_DATETIME = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?(Z|[+-][0-9]{2}:[0-9]{2})?$"


def parse_datetime(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def parse_utc_naive(value: str) -> datetime:
    """A naive UTC datetime: offsets folded in, so '10:00+02:00' is '08:00'."""
    dt = parse_datetime(value.strip())
    return (dt - dt.utcoffset()).replace(tzinfo=None) if dt.tzinfo is not None else dt


def _date_norm(v: Any) -> str:
    return str(v).strip()[:10]


def _datetime_norm(v: Any) -> str:
    return parse_utc_naive(str(v)).strftime("%Y-%m-%dT%H:%M")


def _date_sample(world, key: str) -> str:
    return (world.now + timedelta(days=hashing.randint(1, 13, "date", key))).strftime("%Y-%m-%d")


def _datetime_sample(world, key: str) -> str:
    day = world.now + timedelta(days=hashing.randint(1, 13, "dt", key))
    return day.strftime("%Y-%m-%d") + f"T{hashing.randint(8, 17, 'h', key):02d}:00:00Z"


pattern_type("iso_date", _DATE, "a calendar date, YYYY-MM-DD", _date_sample, literal=True,
             normalise=_date_norm)
pattern_type("iso_datetime", _DATETIME, "a date and time, ISO 8601 (UTC 'Z' or offset)",
             _datetime_sample, literal=True, normalise=_datetime_norm)


def _fresh_check(value: Any, ctx: CheckContext) -> str | None:
    if not isinstance(value, str):
        return "timestamp must be a string"
    try:
        age = ctx.world.now - parse_utc_naive(value)
    except ValueError:
        return f"timestamp {value!r} is not ISO 8601"
    if abs(age) > timedelta(hours=24):
        return f"timestamp {value} is {abs(age).days} days away from now ({ctx.world.now_iso})"
    return None


def _stale(value: Any, ctx: CheckContext, key: str):
    days = hashing.randint(2, 45, "stale", key)  # days to weeks old: plausible, yet stale
    bad = (ctx.world.now - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return bad, f"timestamp {bad} is {days} days old; the data is stale"


register(SemanticType(
    name="timestamp", schema={"type": "string", "pattern": _DATETIME},
    description="when the data was observed (ISO 8601); live data is less than 24 h old",
    sample=lambda world, key: world.now_iso, check=_fresh_check, normalise=_datetime_norm,
    corruptions=(Corruption("stale_timestamp", "stale", _stale),)))


def _load_domain_types() -> None:
    from toolmaze_gym.values import domains, units  # noqa: F401 (registers on import)

    for mod in sorted(m.name for m in pkgutil.iter_modules(domains.__path__)):
        importlib.import_module(f"toolmaze_gym.values.domains.{mod}")


_load_domain_types()
