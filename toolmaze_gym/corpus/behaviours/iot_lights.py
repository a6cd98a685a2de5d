"""Lights: read, switch and dim; by device id or by (site, room).

All providers (Hue-, LIFX-, SmartThings-style) write the same ``iot.lights``
state, so whichever one an agent uses, a later read sees the change.
"""

from __future__ import annotations

from toolmaze_gym.corpus.behaviours import CallContext, behaviour
from toolmaze_gym.corpus.behaviours.iot_devices import (
    device_of,
    light_state,
    put_light,
    room_of,
    site_of,
)
from toolmaze_gym.values.catalog import make_id
from toolmaze_gym.world.devices import Device


def _confirm(ctx: CallContext, d: Device, st: dict, action: str) -> dict:
    n = ctx.state.counter("iot.commands")
    cid = make_id("CMD", 10, ctx.world.seed, d.id, action, st["on"], st["brightness"], n)
    ctx.state.record(ctx.tool, {"light_id": d.id, "on": st["on"], "brightness": st["brightness"]})
    return {"light_id": d.id, "on": st["on"], "brightness": st["brightness"],
            "command_id": cid, "status": "completed", "site": d.site, "room": d.place}


@behaviour("iot.light_state")
def get_light(ctx: CallContext, light_id: str) -> dict:
    d = device_of(ctx, light_id, "light", "light_id")
    st = light_state(ctx, d)
    return {"light_id": d.id, "on": st["on"], "brightness": st["brightness"],
            "reachable": True, "room": d.place, "site": d.site}


@behaviour("iot.set_light_power")
def set_power(ctx: CallContext, light_id: str, on: bool) -> dict:
    d = device_of(ctx, light_id, "light", "light_id")
    return _confirm(ctx, d, put_light(ctx, d, on), "power")


@behaviour("iot.set_brightness")
def set_brightness(ctx: CallContext, light_id: str, brightness: float) -> dict:
    d = device_of(ctx, light_id, "light", "light_id")
    level = round(brightness)
    return _confirm(ctx, d, put_light(ctx, d, level > 0, level), "brightness")


@behaviour("iot.room_lights")
def room_lights(ctx: CallContext, site: str, room: str, on: bool) -> dict:
    d = ctx.world.devices.in_room(site_of(ctx, site), room_of(ctx, room), "light")
    return _confirm(ctx, d, put_light(ctx, d, on), "power")
