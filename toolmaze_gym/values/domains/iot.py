"""IoT types: device identifiers, rooms and doors, scenes, readings and statuses.

Device ids are opaque and come from a registry lookup (never from the user), so
they are non-literal and sampled from the world's registry; rooms, doors, scenes
and device kinds are words a user says ("the kitchen light"), so they are
literals. Temperatures, brightness and switches reuse the core types so values
from other domains (a forecast high, a meeting start) can drive devices.
"""

from __future__ import annotations

from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.values.catalog import enum_type, id_type, number_type, pattern_type
from toolmaze_gym.values.types import CheckContext, Corruption

# ---------------------------------------------------------------- device identifiers


def _swap_within(kind: str | None):
    """Entity mismatch: another real device of the same kind (asked LT-A…, got LT-B…)."""

    def fn(value: Any, ctx: CheckContext, key: str):
        devices = ctx.world.devices
        pool = devices.ids_of(kind) if kind else devices.room_device_ids
        bad = hashing.choice([i for i in pool if i != value][:400], "iot-swap", key)
        return bad, f"response is about device {bad}, the request asked for {value}"

    return Corruption("wrong_device", "entity", fn)


def _device_type(name: str, prefixes: str, kind: str | None, description: str) -> None:
    def sample(world: Any, key: str) -> str:
        pool = world.devices.ids_of(kind) if kind else world.devices.room_device_ids
        return hashing.choice(pool, name, key)

    pattern_type(name, rf"^({prefixes})-[A-Z0-9]{{8}}$", description, sample,
                 normalise=lambda v: str(v).strip().upper(), corruptions=(_swap_within(kind),))


_device_type("light_id", "LT", "light", "smart light id from the device registry, e.g. LT-7Q2X9ZLM")
_device_type("thermostat_id", "TH", "thermostat",
             "thermostat id from the device registry, e.g. TH-7Q2X9ZLM")
_device_type("sensor_id", "SN", "sensor",
             "indoor multi-sensor id from the device registry, e.g. SN-7Q2X9ZLM")
_device_type("lock_id", "LK", "lock", "smart lock id from the device registry, e.g. LK-7Q2X9ZLM")
_device_type("device_id", "LT|TH|SN", None,
             "id of a light, thermostat or sensor in the device registry, e.g. TH-7Q2X9ZLM")

id_type("automation_id", "SCH", 8, "scheduled automation id, e.g. SCH-7Q2X9ZLM",
        existing=lambda world, key: world.records.sample_automation_id(key))
id_type("iot_command_id", "CMD", 10, "device command id, e.g. CMD-7Q2X9ZLM4K")
id_type("iot_notification_id", "NTF", 10, "household notification id, e.g. NTF-7Q2X9ZLM4K")

# ---------------------------------------------------------------- words a user says

enum_type("home_room", lambda w: w.devices.rooms, "a room of the home, e.g. 'living room'")
enum_type("door_name", lambda w: w.devices.doors, "a door with a smart lock, e.g. 'front door'")
enum_type("device_kind", lambda w: w.devices.kinds,
          "kind of room device: light, thermostat or sensor")
enum_type("scene_name", lambda w: w.devices.scene_names, "a home scene, e.g. 'good night'")
enum_type("energy_period", lambda w: tuple(w.devices.periods),
          "a trailing metering period: day, week or month")
enum_type("hvac_mode", lambda w: ("heat", "cool", "auto", "off"),
          "thermostat mode: heat, cool, auto or off")

# ---------------------------------------------------------------- readings and statuses

number_type("air_quality_index", 0, 500, "air quality index, 0 (clean) to 500 (hazardous)",
            integer=True, sample_hi=150)
number_type("co2_ppm", 250, 10000, "carbon dioxide concentration in ppm, 250–10,000",
            integer=True, sample_lo=400, sample_hi=1500)
number_type("energy_kwh", 0, 1e6, "electricity consumed in kWh, never negative",
            sample_lo=1, sample_hi=900)
enum_type("iot_command_status", lambda w: ("accepted", "completed", "locked", "scheduled",
                                           "cancelled", "sent", "activated"),
          "outcome of a device command", literal=False)
number_type("temperature_spread_c", 0, 100,
            "gap between two temperatures in °C (e.g. air minus dew point), never negative",
            sample_hi=20)
