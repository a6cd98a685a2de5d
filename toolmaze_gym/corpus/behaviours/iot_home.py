"""Locks, scenes, scheduled automations and household notifications.

A scene is a batch of device writes (lights, set points, locks) applied through
the same state helpers as single commands, so a status read after "good night"
shows the lights off and the doors locked. Schedules are episode entities: an id
that no call created is unknown (404), a second cancel is a conflict (409).
"""

from __future__ import annotations

from datetime import UTC

from toolmaze_gym.corpus.behaviours import CallContext, ToolError, behaviour, not_found
from toolmaze_gym.corpus.behaviours.general_common import field_name
from toolmaze_gym.corpus.behaviours.general_time import format_instant, parse_instant
from toolmaze_gym.corpus.behaviours.iot_devices import (
    device_of,
    door_of,
    lock_state,
    put_light,
    put_lock,
    put_setpoint,
    site_of,
    thermostat_state,
)
from toolmaze_gym.values.catalog import make_id
from toolmaze_gym.world.devices import Device

# -- locks -------------------------------------------------------------------------------


@behaviour("iot.lock_status")
def get_lock(ctx: CallContext, lock_id: str) -> dict:
    d = device_of(ctx, lock_id, "lock", "lock_id")
    st = lock_state(ctx, d)
    return {"lock_id": d.id, "locked": st["locked"], "door": d.place, "site": d.site,
            "battery_pct": ctx.world.devices.battery_pct(d), "changed_at": st["changed_at"]}


def _lock(ctx: CallContext, d: Device) -> dict:
    st = put_lock(ctx, d, True)
    n = ctx.state.counter("iot.commands")
    ctx.state.record(ctx.tool, {"lock_id": d.id, "locked": True})
    return {"lock_id": d.id, "locked": st["locked"], "status": "locked", "door": d.place,
            "site": d.site, "command_id": make_id("CMD", 10, ctx.world.seed, d.id, "lock", n),
            "changed_at": st["changed_at"]}


@behaviour("iot.lock")
def lock(ctx: CallContext, lock_id: str) -> dict:
    return _lock(ctx, device_of(ctx, lock_id, "lock", "lock_id"))


@behaviour("iot.lock_entrance")
def lock_entrance(ctx: CallContext, site: str, door: str) -> dict:
    return _lock(ctx, ctx.world.devices.make(site_of(ctx, site), door_of(ctx, door), "lock"))


# -- scenes and schedules ------------------------------------------------------------------


def scene_of(ctx: CallContext, scene: str) -> str:
    name = " ".join(scene.split()).lower()
    if name not in ctx.world.devices.scenes:
        raise not_found("scene", scene, field_name(ctx, "scene"))
    return name


def apply_scene(ctx: CallContext, site: str, scene: str) -> int:
    """Write every device the scene touches; returns how many were changed."""
    dev = ctx.world.devices
    spec = dev.scenes[scene]
    rooms = dev.rooms if spec["rooms"] == "all" else tuple(spec["rooms"])
    changed = 0
    for room in rooms:
        if spec["light"] is not None:
            put_light(ctx, dev.in_room(site, room, "light"), spec["light"]["on"],
                      spec["light"]["brightness"] or None)
            changed += 1
        if spec["setpoint_c"] is not None:
            thermostat = dev.in_room(site, room, "thermostat")
            mode = thermostat_state(ctx, thermostat)["mode"]
            put_setpoint(ctx, thermostat, spec["setpoint_c"]["cool" if mode == "cool" else "heat"])
            changed += 1
    if spec["lock"] is not None:
        for door in dev.doors:
            put_lock(ctx, dev.make(site, door, "lock"), spec["lock"])
            changed += 1
    return changed


@behaviour("iot.activate_scene")
def activate_scene(ctx: CallContext, site: str, scene: str) -> dict:
    s, name = site_of(ctx, site), scene_of(ctx, scene)
    changed = apply_scene(ctx, s, name)
    n = ctx.state.counter("iot.commands")
    run = make_id("CMD", 10, ctx.world.seed, s, name, n)
    ctx.state.record(ctx.tool, {"site": s, "scene": name, "devices_changed": changed})
    return {"activation_id": run, "site": s, "scene": name, "devices_changed": changed,
            "status": "activated", "activated_at": ctx.world.now_iso}


@behaviour("iot.schedule_scene")
def schedule_scene(ctx: CallContext, site: str, scene: str, run_at: str) -> dict:
    s, name = site_of(ctx, site), scene_of(ctx, scene)
    field = field_name(ctx, "run_at")
    when = parse_instant(run_at, field)
    if when.astimezone(UTC).replace(tzinfo=None) <= ctx.world.now:
        raise ToolError(422, "invalid_parameter", f"{field} must be in the future", field)
    n = ctx.state.counter("iot.schedules")
    sid = make_id("SCH", 8, ctx.world.seed, s, name, format_instant(when), n)
    entry = {"schedule_id": sid, "site": s, "scene": name, "run_at": format_instant(when),
             "status": "scheduled"}
    ctx.state.table("iot.schedules")[sid] = entry
    ctx.state.record(ctx.tool, {"schedule_id": sid, "scene": name, "run_at": entry["run_at"]})
    return dict(entry)


@behaviour("iot.cancel_schedule")
def cancel_schedule(ctx: CallContext, schedule_id: str) -> dict:
    field = field_name(ctx, "schedule_id")
    sid, rows = schedule_id.strip().upper(), ctx.state.table("iot.schedules")
    if sid not in rows and (old := ctx.world.records.automations.get(sid)) is not None:
        # an automation scheduled before the episode: copied on first use
        rows[sid] = {"schedule_id": sid, "site": old.site, "scene": old.scene,
                     "run_at": old.run_at, "status": "scheduled"}
    entry = rows.get(sid)
    if entry is None:
        raise not_found("schedule", schedule_id, field)
    if entry["status"] == "cancelled":
        raise ToolError(409, "conflict", f"schedule {schedule_id} is already cancelled", field)
    entry["status"] = "cancelled"
    ctx.state.record(ctx.tool, {"schedule_id": entry["schedule_id"]})
    return {**entry, "cancelled_at": ctx.world.now_iso}


# -- notifications --------------------------------------------------------------------------


@behaviour("iot.notify")
def notify(ctx: CallContext, site: str, message: str) -> dict:
    s = site_of(ctx, site)
    text = " ".join(message.split())
    if not text:
        field = field_name(ctx, "message")
        raise ToolError(422, "invalid_parameter", f"{field} must not be blank", field)
    n = ctx.state.counter("iot.notifications")
    nid = make_id("NTF", 10, ctx.world.seed, s, text, n)
    ctx.state.seq("iot.notifications").append({"notification_id": nid, "site": s,
                                               "message": text})
    ctx.state.record(ctx.tool, {"notification_id": nid, "site": s})
    return {"notification_id": nid, "site": s, "message": text,
            "recipients": ctx.world.devices.household_size(s), "status": "sent",
            "sent_at": ctx.world.now_iso}
