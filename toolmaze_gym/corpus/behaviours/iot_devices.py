"""IoT registry behaviours and the device-state helpers every IoT module shares.

What an Action sets (a light switched off, a new set point, a bolted door) is kept
in the episode state under ``iot.lights``, ``iot.thermostats`` and ``iot.locks``;
a device nobody touched reports its world default. Readers and writers go through
the helpers here, so a status read always reflects the episode's earlier commands.
"""

from __future__ import annotations

from typing import Any

from toolmaze_gym.corpus.behaviours import CallContext, behaviour, not_found
from toolmaze_gym.corpus.behaviours.general_common import field_name
from toolmaze_gym.world.devices import Device

# -- argument resolution ------------------------------------------------------------


def site_of(ctx: CallContext, site: str) -> str:
    city = ctx.world.geo.city(site)
    if city is None:
        raise not_found("site", site, field_name(ctx, "site"))
    return city.name


def _word(ctx: CallContext, value: str, pool: tuple[str, ...], kind: str, canonical: str) -> str:
    word = " ".join(value.split()).lower()
    if word not in pool:
        raise not_found(kind, value, field_name(ctx, canonical))
    return word


def room_of(ctx: CallContext, room: str) -> str:
    return _word(ctx, room, ctx.world.devices.rooms, "room", "room")


def door_of(ctx: CallContext, door: str) -> str:
    return _word(ctx, door, ctx.world.devices.doors, "door", "door")


def device_of(ctx: CallContext, device_id: str, kind: str | None, canonical: str) -> Device:
    d = ctx.world.devices.get(device_id, kind)
    if d is None:
        raise not_found(kind or "device", device_id, field_name(ctx, canonical))
    return d


# -- episode state of devices --------------------------------------------------------


def light_state(ctx: CallContext, d: Device) -> dict[str, Any]:
    return dict(ctx.state.table("iot.lights").get(d.id) or ctx.world.devices.light_default(d))


def put_light(ctx: CallContext, d: Device, on: bool, brightness: int | None = None) -> dict:
    """Switch and/or dim a light; switching on restores the last non-zero level."""
    cur = light_state(ctx, d)
    level = cur["last_level"] if brightness is None else brightness
    if on and level == 0:
        level = cur["last_level"] or 100
    new = {"on": bool(on and level > 0), "brightness": level if on else 0,
           "last_level": level or cur["last_level"]}
    ctx.state.table("iot.lights")[d.id] = new
    return new


def thermostat_state(ctx: CallContext, d: Device) -> dict[str, Any]:
    saved = ctx.state.table("iot.thermostats").get(d.id)
    return dict(saved or ctx.world.devices.thermostat_default(d))


SETPOINT_MIN, SETPOINT_MAX = 5.0, 32.0


def put_setpoint(ctx: CallContext, d: Device, celsius: float) -> dict[str, Any]:
    """Apply a set point the way thermostats do: 0.5 °C steps within 5–32 °C."""
    applied = min(SETPOINT_MAX, max(SETPOINT_MIN, round(celsius * 2) / 2))
    st = thermostat_state(ctx, d)
    st["setpoint_c"] = applied
    ctx.state.table("iot.thermostats")[d.id] = st
    return st


def lock_state(ctx: CallContext, d: Device) -> dict[str, Any]:
    saved = ctx.state.table("iot.locks").get(d.id)
    return dict(saved or {"locked": ctx.world.devices.lock_default(d),
                          "changed_at": ctx.world.devices.last_seen(d)})


def put_lock(ctx: CallContext, d: Device, locked: bool) -> dict[str, Any]:
    st = {"locked": locked, "changed_at": ctx.world.now_iso}
    ctx.state.table("iot.locks")[d.id] = st
    return st


# -- registry behaviours ---------------------------------------------------------------


@behaviour("iot.find_device")
def find_device(ctx: CallContext, site: str, room: str, kind: str) -> dict:
    s, r = site_of(ctx, site), room_of(ctx, room)
    k = _word(ctx, kind, ctx.world.devices.kinds, "device kind", "kind")
    d = ctx.world.devices.in_room(s, r, k)
    return {"device_id": d.id, "site": s, "room": r, "kind": k, "name": d.name,
            "model": d.model}


@behaviour("iot.device_status")
def device_status(ctx: CallContext, device_id: str) -> dict:
    d = device_of(ctx, device_id, None, "device_id")
    dev = ctx.world.devices
    return {"device_id": d.id, "kind": d.kind, "site": d.site, "room": d.place, "online": True,
            "battery_pct": dev.battery_pct(d), "firmware": dev.firmware_of(d),
            "model": d.model, "last_seen": dev.last_seen(d)}


@behaviour("iot.room_devices")
def room_devices(ctx: CallContext, site: str, room: str) -> dict:
    s, r = site_of(ctx, site), room_of(ctx, room)
    dev = ctx.world.devices
    ids = {k: dev.in_room(s, r, k).id for k in dev.kinds}
    return {"site": s, "room": r, "light_id": ids["light"], "thermostat_id": ids["thermostat"],
            "sensor_id": ids["sensor"], "device_count": len(ids)}


@behaviour("iot.find_lock")
def find_lock(ctx: CallContext, site: str, door: str) -> dict:
    s, dr = site_of(ctx, site), door_of(ctx, door)
    d = ctx.world.devices.make(s, dr, "lock")
    return {"lock_id": d.id, "site": s, "door": dr, "model": d.model}
