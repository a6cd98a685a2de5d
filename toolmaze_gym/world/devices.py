"""Smart-home devices: one home per gazetteer city, every room fitted the same way.

Each site (a city of the gazetteer) has the same rooms and doors, so any
(site, room) or (site, door) a query can name resolves; every room holds a light,
a thermostat and a multi-sensor, every door a smart lock. Ids are stable tokens of
(seed, site, room, kind), so two worlds never share ids and one world always does.
Readings are pure functions of the key and ``world.now``; what Actions change
lives in the episode state, not here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from functools import cached_property
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.world.base import Facts, load_data
from toolmaze_gym.world.geo import normal_high

# Upper bound on entries of each per-world memo table (keys can come from agent input).
_MEMO_CAP = 50_000
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


@dataclass(frozen=True)
class Device:
    id: str
    kind: str  # light, thermostat, sensor or lock
    site: str
    place: str  # the room, or the door for a lock
    model: str

    @property
    def name(self) -> str:
        return f"{self.place.capitalize()} {self.kind}"


@dataclass(frozen=True)
class RoomClimate:
    temp_c: float
    humidity_pct: float
    aqi: int
    co2_ppm: int


class Devices(Facts):
    def __init__(self, world) -> None:
        super().__init__(world)
        data = load_data("devices.json")
        self.data = data
        self.rooms: tuple[str, ...] = tuple(data["rooms"])
        self.doors: tuple[str, ...] = tuple(data["doors"])
        self.kinds: tuple[str, ...] = tuple(data["kinds"])
        self.scenes: dict[str, dict[str, Any]] = data["scenes"]
        self.scene_names: tuple[str, ...] = tuple(self.scenes)
        self.periods: dict[str, int] = data["energy_periods"]
        self.firmware: tuple[str, ...] = tuple(data["firmware"])
        # Memo tables for pure facts (the world is immutable and long-lived); mutable
        # results are rebuilt from cached immutable values on every call.
        self._make_memo: dict[tuple[str, str, str], Device] = {}
        self._climate_memo: dict[tuple[str, str], RoomClimate] = {}
        self._light_memo: dict[str, tuple[bool, int]] = {}
        self._thermo_memo: dict[tuple[str, str], tuple[float, str]] = {}
        self._locked_memo: dict[str, bool] = {}
        self._battery_memo: dict[tuple[str, str], int] = {}
        self._seen_memo: dict[str, str] = {}
        self._household_memo: dict[str, int] = {}

    # -- registry ------------------------------------------------------------

    def _prefix(self, kind: str) -> str:
        return self.data["lock"]["prefix"] if kind == "lock" else self.data["kinds"][kind]["prefix"]

    def _models(self, kind: str) -> list[str]:
        """The kind's product models; from world edition 10 (``battery_sensor_models``)
        a battery-powered sensor is a model that runs on a battery (``battery_models``:
        toolmaze-v13 c1-0002 read the battery of a USB-powered Awair Element)."""
        models = self.data["lock"]["models"] if kind == "lock" \
            else self.data["kinds"][kind]["models"]
        if kind == "lock" or self.data["kinds"][kind]["mains"] \
                or not self.world.has("battery_sensor_models"):
            return models
        swap = self.data["battery_models"]
        return [swap.get(m, m) for m in models]

    def make(self, site: str, place: str, kind: str) -> Device:
        k = (site, place, kind)
        d = self._make_memo.get(k)
        if d is None:
            d = self._make(site, place, kind)
            if len(self._make_memo) < _MEMO_CAP:
                self._make_memo[k] = d
        return d

    def _make(self, site: str, place: str, kind: str) -> Device:
        token = hashing.token(_ALPHABET, 8, *self.key("id", site, place, kind))
        model = hashing.choice(self._models(kind), *self.key("model", site, place, kind))
        return Device(f"{self._prefix(kind)}-{token}", kind, site, place, model)

    @cached_property
    def registry(self) -> dict[str, Device]:
        """Every device of every site; about 1,300 entries, built on first lookup."""
        out: dict[str, Device] = {}
        for site in self.world.geo.city_names:
            for room in self.rooms:
                for kind in self.kinds:
                    d = self.make(site, room, kind)
                    out[d.id] = d
            for door in self.doors:
                d = self.make(site, door, "lock")
                out[d.id] = d
        return out

    @cached_property
    def _by_kind(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for d in self.registry.values():
            out.setdefault(d.kind, []).append(d.id)
        return out

    def ids_of(self, kind: str) -> list[str]:
        return self._by_kind[kind]

    @cached_property
    def room_device_ids(self) -> list[str]:
        return [i for k in self.kinds for i in self._by_kind[k]]

    def get(self, device_id: str, kind: str | None = None) -> Device | None:
        d = self.registry.get(device_id.strip().upper())
        return d if d is not None and (kind is None or d.kind == kind) else None

    def in_room(self, site: str, room: str, kind: str) -> Device:
        return self.make(site, room, kind)

    # -- readings --------------------------------------------------------------

    def room_climate(self, site: str, room: str) -> RoomClimate:
        mk = (site, room)
        c = self._climate_memo.get(mk)
        if c is None:
            c = self._room_climate(site, room)
            if len(self._climate_memo) < _MEMO_CAP:
                self._climate_memo[mk] = c
        return c

    def _room_climate(self, site: str, room: str) -> RoomClimate:
        band = self.data["room_climate"].get(room, self.data["room_climate"]["default"])
        k = self.key("climate", site, room, self.world.now_iso)
        return RoomClimate(
            temp_c=round(hashing.uniform(*self._temp_band(site, band["temp"]), *k, "t"), 1),
            humidity_pct=float(round(hashing.uniform(*band["humidity"], *k, "h"))),
            aqi=hashing.randint(*band["aqi"], *k, "aqi"),
            co2_ppm=hashing.randint(*band["co2"], *k, "co2"))

    def _temp_band(self, site: str, band: list[float]) -> list[float]:
        """A room's temperature band: the room's own, or from world edition 5
        (``rooms_follow_weather``) a cold or hot day's, so an eco set point heats a
        room colder than it and cools one warmer (toolmaze-v7 c4-0013, c3-0075)."""
        city = self.world.geo.city(site)
        if city is None or not self.world.has("rooms_follow_weather"):
            return band
        w = self.data["room_climate_weather"]
        outdoor = self.world.geo.current_temp(city)
        if outdoor <= w["cold_at_or_below_c"]:
            return w["cold_temp"]
        if outdoor >= w["hot_at_or_above_c"]:
            return w["hot_temp"]
        return band

    def light_default(self, d: Device) -> dict[str, Any]:
        v = self._light_memo.get(d.id)
        if v is None:
            on = hashing.unit(*self.key("light-on", d.id)) < 0.35
            level = 10 * hashing.randint(3, 10, *self.key("light-bri", d.id))
            v = (on, level)
            if len(self._light_memo) < _MEMO_CAP:
                self._light_memo[d.id] = v
        on, level = v
        return {"on": on, "brightness": level if on else 0, "last_level": level}

    def thermostat_default(self, d: Device) -> dict[str, Any]:
        mk = (d.id, d.site)
        v = self._thermo_memo.get(mk)
        if v is None:
            mode = self._mode(d)
            setpoint = self._default_setpoint(d, mode)
            v = (setpoint, mode)
            if len(self._thermo_memo) < _MEMO_CAP:
                self._thermo_memo[mk] = v
        return {"setpoint_c": v[0], "mode": v[1]}

    def _mode(self, d: Device) -> str:
        """Cooling on a hot morning, and from world edition 9 (``summer_cooling``) all
        through a month whose normal high is warm: a Milan home in August is not on
        heat at 22 °C, 9 am (toolmaze-v11 c4-0067 set an eco cooling point of 27 °C on
        a thermostat in heat mode; the v11 review's c4-0051, heat in Prague in August)."""
        city = self.world.geo.city(d.site)
        if self.world.geo.current_temp(city) > 24:
            return "cool"
        if self.world.has("summer_cooling"):
            warm = self.data["thermostat_cool_season_normal_high_c"]
            normal = normal_high(city.name, self.world.now.month)
            if normal is not None and normal >= warm:
                return "cool"
        return "heat"

    def _default_setpoint(self, d: Device, mode: str) -> float:
        """A thermostat's own set point: 24 °C ± 1.5 cooling; heating 20 °C ± 1.5, or
        from world edition 4 (``eco_setback``) 21 °C ± 1, above the eco set point of
        19 °C, so an "eco setback" lowers it (toolmaze-v6 c4-0005 "set back" a
        thermostat held at 18.5 °C to 19 °C)."""
        if mode == "cool":
            return 24.0 + 0.5 * hashing.randint(-3, 3, *self.key("setpoint", d.id))
        if self.world.has("eco_setback"):
            return 21.0 + 0.5 * hashing.randint(-2, 2, *self.key("setpoint", d.id))
        return 20.0 + 0.5 * hashing.randint(-3, 3, *self.key("setpoint", d.id))

    def lock_default(self, d: Device) -> bool:
        v = self._locked_memo.get(d.id)
        if v is None:
            v = hashing.unit(*self.key("locked", d.id)) < 0.8
            if len(self._locked_memo) < _MEMO_CAP:
                self._locked_memo[d.id] = v
        return v

    def battery_pct(self, d: Device) -> int:
        if d.kind in ("light", "thermostat"):
            return 100  # mains powered
        mk = (d.id, d.kind)
        v = self._battery_memo.get(mk)
        if v is None:
            v = hashing.randint(12, 100, *self.key("battery", d.id))
            if len(self._battery_memo) < _MEMO_CAP:
                self._battery_memo[mk] = v
        return v

    def firmware_of(self, d: Device) -> str:
        return hashing.choice(self.firmware, *self.key("fw", d.id))

    def last_seen(self, d: Device) -> str:
        v = self._seen_memo.get(d.id)
        if v is None:
            ago = timedelta(seconds=hashing.randint(5, 900, *self.key("seen", d.id)))
            v = (self.world.now - ago).strftime("%Y-%m-%dT%H:%M:%SZ")
            if len(self._seen_memo) < _MEMO_CAP:
                self._seen_memo[d.id] = v
        return v

    def household_size(self, site: str) -> int:
        v = self._household_memo.get(site)
        if v is None:
            v = hashing.randint(*self.data["household_size"], *self.key("household", site))
            if len(self._household_memo) < _MEMO_CAP:
                self._household_memo[site] = v
        return v

    def energy_kwh(self, site: str, period: str) -> float:
        """Consumption over the trailing period; longer periods sum daily figures."""
        days = self.periods[period]
        daily = hashing.uniform(6.0, 28.0, *self.key("energy", site))
        drift = hashing.uniform(0.9, 1.1, *self.key("energy", site, period, self.world.today))
        return round(daily * days * drift, 2)
