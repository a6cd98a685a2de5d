"""Geography and weather: cities, countries, currencies, languages, climate."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cache
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.world import zones
from toolmaze_gym.world.base import Facts, load_data

# Upper bound on entries of each per-world memo table (keys can come from agent input).
_MEMO_CAP = 50_000

CONDITIONS = ("clear", "partly cloudy", "cloudy", "light rain", "rain", "thunderstorm",
              "snow", "fog", "windy")
RAINY = frozenset({"light rain", "rain", "thunderstorm", "snow"})
# Skies a wet-season day never has (data/world/wet_months.json).
DRY_SKIES = frozenset({"clear", "partly cloudy"})
# A day's high lies within this of its month's normal high (the coherence rules allow
# ``climate_tolerance_c`` of data/world/coherence.json, a little more).
HIGH_SPREAD_C = 3.0
# Above this high no fog is told (toolmaze-v4: "Fog, 27.7 °C"), below this no
# thunderstorm, and snow only below SNOW_BELOW_C.
FOG_BELOW_C = 20.0
STORM_FROM_C = 15.0
SNOW_BELOW_C = 3.0
# From world edition 10 (normal_lows) a night's low sits within LOW_SPREAD_C of the
# month's normal low, moved by LOW_FOLLOWS_HIGH of the day's own departure from the
# normal high (a warm day has a warmer night), and at least MIN_DAY_RANGE_C below the
# high.
LOW_SPREAD_C = 2.0
LOW_FOLLOWS_HIGH = 0.5
MIN_DAY_RANGE_C = 2.0


@cache
def _normals() -> dict[str, list[float]]:
    return {k: v for k, v in load_data("climate.json").items() if not k.startswith("_")}


@cache
def _dry_months() -> dict[str, frozenset[int]]:
    return {k: frozenset(v) for k, v in load_data("dry_months.json").items()
            if not k.startswith("_")}


@cache
def _wet_months() -> dict[str, frozenset[int]]:
    return {k: frozenset(v) for k, v in load_data("wet_months.json").items()
            if not k.startswith("_")}


def in_wet_season(city: str, month: int) -> bool:
    """Whether ``month`` is in ``city``'s wet season (Mumbai's monsoon, June to
    September): rain on most days, so no clear sky is told then."""
    return month in _wet_months().get(city, frozenset())


def normal_high(city: str, month: int) -> float | None:
    """The normal daily high of ``city`` in ``month`` (1-12); None: no normals."""
    row = _normals().get(city)
    return None if row is None else float(row[month - 1])


@cache
def _low_normals() -> dict[str, list[float]]:
    return {k: v for k, v in load_data("climate_lows.json").items() if not k.startswith("_")}


def normal_low(city: str, month: int) -> float | None:
    """The normal daily low of ``city`` in ``month`` (1-12); None: no normals."""
    row = _low_normals().get(city)
    return None if row is None else float(row[month - 1])


def condition_choices(city: str, month: int, high_c: float,
                      wet_season: bool = False) -> tuple[str, ...]:
    """The conditions a day with this high may have there: no rain, storm or snow in a
    dry month (``data/world/dry_months.json``: Cairo in August), no fog on a warm day,
    no thunderstorm on a cold one, snow only near freezing; with ``wet_season`` (world
    edition 4), no clear or partly cloudy sky in a wet month (Mumbai in August)."""
    dry = month in _dry_months().get(city, frozenset())
    wet = wet_season and in_wet_season(city, month)
    return tuple(c for c in CONDITIONS
                 if not (dry and c in RAINY)
                 and not (wet and c in DRY_SKIES)
                 and not (c == "fog" and high_c >= FOG_BELOW_C)
                 and not (c == "thunderstorm" and high_c < STORM_FROM_C)
                 and not (c == "snow" and high_c >= SNOW_BELOW_C))


@dataclass(frozen=True)
class City:
    name: str
    country_code: str
    country: str
    timezone: str
    currency: str
    lat: float
    lon: float
    temp_min: float
    temp_max: float
    language: str


@dataclass(frozen=True)
class DailyWeather:
    city: str
    date: str
    high_c: float
    low_c: float
    condition: str
    humidity_pct: float
    precipitation_mm: float
    wind_kph: float


class Geo(Facts):
    def __init__(self, world) -> None:
        super().__init__(world)
        self.cities = [City(*row) for row in load_data("cities.json")]
        self._by_name = {c.name.lower(): c for c in self.cities}
        self.city_names = [c.name for c in self.cities]
        self.country_codes = sorted({c.country_code for c in self.cities})
        self.countries = {c.country_code: c.country for c in self.cities}
        self.currencies = load_data("currencies.json")
        self.currency_codes = sorted(self.currencies)
        self.languages = load_data("languages.json")
        self.language_codes = sorted(self.languages)
        self.timezones = sorted(load_data("timezones.json"))
        # Memo tables for pure facts (the world is immutable and long-lived).
        self._city_memo: dict[str, City | None] = {}
        self._usd_memo: dict[str, float] = {}
        self._fx_memo: dict[tuple[str, str], float] = {}
        self._wx_memo: dict[tuple[City, str], DailyWeather] = {}
        self._temp_memo: dict[City, float] = {}

    # -- lookups -----------------------------------------------------------

    def has_city(self, name: str) -> bool:
        return name.strip().lower() in self._by_name

    def city(self, name: str) -> City | None:
        try:
            return self._city_memo[name]
        except KeyError:
            pass
        c = self._by_name.get(" ".join(name.split()).lower())
        if len(self._city_memo) < _MEMO_CAP:
            self._city_memo[name] = c
        return c

    def nearest_city(self, lat: float, lon: float) -> City:
        return min(self.cities, key=lambda c: (c.lat - lat) ** 2 + (c.lon - lon) ** 2)

    def climate_band(self, name: str) -> tuple[float, float]:
        c = self.city(name)
        return (c.temp_min, c.temp_max) if c else (-70.0, 60.0)

    def distance_km(self, a: City, b: City) -> float:
        """Great-circle distance (haversine)."""
        p1, p2 = math.radians(a.lat), math.radians(b.lat)
        dp, dl = p2 - p1, math.radians(b.lon - a.lon)
        h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
        return round(2 * 6371.0 * math.asin(math.sqrt(h)), 1)

    def utc_offset_hours(self, timezone: str, at: datetime | None = None) -> float:
        """The zone's UTC offset at instant ``at`` (the world's clock by default), summer
        time included: the real rules of the pinned tzdata (``world.zones``)."""
        return zones.offset_hours(timezone, self.world.now if at is None else at)

    def to_utc(self, timezone: str, local: datetime) -> datetime:
        """A naive wall-clock time in ``timezone`` as naive UTC (real rules, DST included)."""
        return zones.local_to_utc(timezone, local)

    # -- money ------------------------------------------------------------

    def usd_value(self, currency: str) -> float:
        """USD per unit, drifting a little with the world seed."""
        v = self._usd_memo.get(currency)
        if v is None:
            code = currency.upper()
            base = self.currencies[code][1]
            if code == "USD":
                v = 1.0
            elif code in pegs():
                v = self._pegged_usd(code)
            else:
                v = base * (1 + hashing.uniform(-0.03, 0.03, *self.key("fx", code)))
            if len(self._usd_memo) < _MEMO_CAP:
                self._usd_memo[currency] = v
        return v

    def _pegged_usd(self, code: str) -> float:
        """USD per unit of a pegged currency: its anchor's value over the peg, strayed by
        at most ``drift_pct`` (the krone stays near 7.46 per euro, inside ERM II's band)."""
        peg = pegs()[code]
        drift = peg["drift_pct"] / 100
        per_anchor = peg["per_anchor"] * (1 + hashing.uniform(-drift, drift, *self.key("fx", code)))
        return self.usd_value(peg["anchor"]) / per_anchor

    def fx_rate(self, base: str, quote: str) -> float:
        """Units of ``quote`` per unit of ``base``; consistent across every FX tool."""
        k = (base, quote)
        r = self._fx_memo.get(k)
        if r is None:
            r = round(self.usd_value(base) / self.usd_value(quote), 6)
            if len(self._fx_memo) < _MEMO_CAP:
                self._fx_memo[k] = r
        return r

    # -- weather ----------------------------------------------------------

    def weather(self, city: City, day: str) -> DailyWeather:
        k = (city, day)
        w = self._wx_memo.get(k)
        if w is None:
            w = self._weather(city, day)
            if len(self._wx_memo) < _MEMO_CAP:
                self._wx_memo[k] = w
        return w

    def _weather(self, city: City, day: str) -> DailyWeather:
        """A day's weather as a careful person would believe it: the high within
        ``HIGH_SPREAD_C`` of the month's normal high there (``data/world/climate.json``;
        toolmaze-v4 had a 26.8 °C late-August high in Miami, normal 32 °C), from world
        edition 10 the low near the normal low (``climate_lows.json``; toolmaze-v13 had a
        21.2 °C Seattle night in August, normal 13 °C), and a condition that fits the
        day (``condition_choices``)."""
        d = date.fromisoformat(day)
        k = self.key("wx", city.name, day)
        if not self.world.has("weather_normals"):
            return self._first_edition_weather(city, day, d, k)
        normal = normal_high(city.name, d.month)
        if normal is None:  # a city without normals: its band's seasonal curve
            season = math.cos(2 * math.pi * (d.timetuple().tm_yday - 196) / 365.25)
            if city.lat < 0:
                season = -season
            normal = (city.temp_min + city.temp_max) / 2 \
                + (city.temp_max - city.temp_min) / 4 * season + 1.5
        high = normal + hashing.uniform(-HIGH_SPREAD_C, HIGH_SPREAD_C, *k, "hi")
        night = normal_low(city.name, d.month) if self.world.has("normal_lows") else None
        if night is None:
            low = high - hashing.uniform(4, 11, *k, "lo")
            high = min(max(high, city.temp_min + 4), city.temp_max)
            low = min(max(low, city.temp_min), high - 1)
        else:
            low = (night + (high - normal) * LOW_FOLLOWS_HIGH
                   + hashing.uniform(-LOW_SPREAD_C, LOW_SPREAD_C, *k, "lo"))
            high = min(max(high, city.temp_min + 4), city.temp_max)
            low = min(low, high - MIN_DAY_RANGE_C)
        cond = hashing.choice(condition_choices(city.name, d.month, high,
                                                self.world.has("wet_season")), *k, "cond")
        return self._daily(city, day, k, high, low, cond)

    @staticmethod
    def _daily(city: City, day: str, k: tuple[object, ...], high: float, low: float,
               cond: str) -> DailyWeather:
        """The day's weather around its high, low and condition (either edition)."""
        rainy = cond in RAINY
        return DailyWeather(
            city=city.name, date=day, high_c=round(high, 1), low_c=round(low, 1),
            condition=cond,
            humidity_pct=round(hashing.uniform(35, 98 if rainy else 80, *k, "h"), 0),
            precipitation_mm=round(hashing.uniform(0.5, 25, *k, "p"), 1) if rainy else 0.0,
            wind_kph=round(hashing.uniform(2, 45, *k, "w"), 1))

    def _first_edition_weather(self, city: City, day: str, d: date,
                               k: tuple[object, ...]) -> DailyWeather:
        """A day's weather as edition 1 told it (toolmaze-v1 to v4 were played on it):
        the city's band on a seasonal curve with a -3..+6 C spread, any condition
        (snow only below 3 C)."""
        season = math.cos(2 * math.pi * (d.timetuple().tm_yday - 196) / 365.25)
        if city.lat < 0:
            season = -season
        mid = (city.temp_min + city.temp_max) / 2
        amp = (city.temp_max - city.temp_min) / 4
        high = mid + amp * season + hashing.uniform(-3, 6, *k, "hi")
        low = high - hashing.uniform(4, 11, *k, "lo")
        high = min(max(high, city.temp_min + 4), city.temp_max)
        low = min(max(low, city.temp_min), high - 1)
        cond = hashing.choice(CONDITIONS if high < 3 else CONDITIONS[:6] + CONDITIONS[7:],
                              *k, "cond")
        return self._daily(city, day, k, high, low, cond)

    def current_temp(self, city: City) -> float:
        t = self._temp_memo.get(city)
        if t is None:
            w = self.weather(city, self.world.today)
            t = self._temp_memo[city] = round(w.low_c + (w.high_c - w.low_c) * 0.6, 1)
        return t

    def date_offset(self, days: int) -> str:
        return (self.world.now.date() + timedelta(days=days)).isoformat()


@cache
def pegs() -> dict[str, dict[str, Any]]:
    """Pegged currency -> its anchor, the peg and the band it keeps (``pegs.json``)."""
    return {k: v for k, v in load_data("pegs.json").items() if not k.startswith("_")}


@cache
def minor_units(code: str) -> int:
    """The currency's ISO 4217 exponent: 0 for JPY and KRW (amounts in whole units),
    2 for the others here."""
    row = load_data("currencies.json").get(str(code).upper())
    return int(row[2]) if row is not None and len(row) > 2 else 2


def round_money(amount: float, code: str) -> float:
    """``amount`` rounded to the currency's smallest unit: whole yen and won (the
    world states no "145004.46 KRW" per diem), cents for the others."""
    digits = minor_units(code)
    return float(round(amount)) if digits == 0 else round(amount, digits)
