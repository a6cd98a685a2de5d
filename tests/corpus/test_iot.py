"""IoT corpus: device state persists within an episode and providers agree."""

from __future__ import annotations

import re
import time

import pytest

from toolmaze_gym.corpus import EpisodeState
from toolmaze_gym.world import World


def call(sim, state, name, **args):
    resp = sim.call(name, args, state)
    assert resp.ok, (name, args, resp.body)
    return resp.body


@pytest.fixture
def room(sim):
    """The kitchen devices of the Lisbon home, in a fresh episode."""
    state = EpisodeState()
    return state, call(sim, state, "list_room_devices", site="Lisbon", room="kitchen")


def test_registry_is_total_and_fast():
    t0 = time.perf_counter()
    world = World(11)
    dev = world.devices
    assert len(dev.registry) == len(world.geo.city_names) * (3 * len(dev.rooms) + len(dev.doors))
    assert time.perf_counter() - t0 < 0.5
    other = World(12).devices
    assert set(dev.registry).isdisjoint(other.registry)


def test_find_device_and_list_agree(sim, room):
    state, ids = room
    for kind in ("light", "thermostat", "sensor"):
        found = call(sim, state, "find_device", site="lisbon", room="Kitchen", kind=kind)
        assert found["device_id"] == ids[f"{kind}_id"]
        status = call(sim, state, "get_iot_device_status", device_id=found["device_id"])
        assert status["kind"] == kind and status["room"] == "kitchen"


def test_light_commands_are_seen_by_later_reads(sim, room):
    state, ids = room
    light = ids["light_id"]
    call(sim, state, "set_brightness", light_id=light, brightness=45)
    assert call(sim, state, "get_light_state", light_id=light)["brightness"] == 45
    call(sim, state, "smartthings_switch", deviceId=light, switch_on=False)
    read = call(sim, state, "get_light_state", light_id=light)
    assert read["on"] is False and read["brightness"] == 0
    back = call(sim, state, "hue_update_light", id=light, on=True)
    assert back["on.on"] is True and back["dimming.brightness"] == 45  # last level restored
    call(sim, state, "lifx_set_brightness", selector=light, brightness_pct=0)
    assert call(sim, state, "get_light_state", light_id=light)["on"] is False


def test_set_point_is_clamped_and_reported_in_both_units(sim, room):
    state, ids = room
    th = ids["thermostat_id"]
    applied = call(sim, state, "set_thermostat_setpoint", thermostat_id=th, temperature_c=21.3)
    assert applied["setpoint_c"] == 21.5
    assert call(sim, state, "get_thermostat_state", thermostat_id=th)["setpoint_c"] == 21.5
    call(sim, state, "nest_set_heat_setpoint", device=th, heatCelsius=40)
    hw = call(sim, state, "honeywell_get_thermostat", deviceId=th)
    assert hw["heatSetpointC"] == 32.0 and hw["heatSetpointF"] == 89.6


def test_room_level_actions_write_the_same_devices(sim, room):
    state, ids = room
    call(sim, state, "adjust_temperature", site="Lisbon", room="kitchen", temperature_c=19)
    read = call(sim, state, "get_thermostat_state", thermostat_id=ids["thermostat_id"])
    assert read["setpoint_c"] == 19.0
    on = not call(sim, state, "get_light_state", light_id=ids["light_id"])["on"]
    call(sim, state, "set_room_lights", site="Lisbon", room="kitchen", on=on)
    assert call(sim, state, "get_light_state", light_id=ids["light_id"])["on"] is on


def test_scene_locks_doors_and_sets_back_heating(sim, room):
    state, ids = room
    lock = call(sim, state, "find_lock", site="Lisbon", door="back door")["lock_id"]
    before = call(sim, state, "get_thermostat_state", thermostat_id=ids["thermostat_id"])
    out = call(sim, state, "activate_scene", site="Lisbon", scene="away")
    assert out["devices_changed"] == 2 * 8 + 4
    assert call(sim, state, "get_lock_status", lock_id=lock)["locked"] is True
    assert call(sim, state, "get_light_state", light_id=ids["light_id"])["on"] is False
    after = call(sim, state, "get_thermostat_state", thermostat_id=ids["thermostat_id"])
    assert after["setpoint_c"] == (28.0 if before["mode"] == "cool" else 16.0)


def test_lock_paths_agree(sim):
    state = EpisodeState()
    out = call(sim, state, "lock_entrance", site="Oslo", door="patio door")
    found = call(sim, state, "find_lock", site="Oslo", door="patio door")
    assert out["lock_id"] == found["lock_id"]
    status = call(sim, state, "get_lock_status", lock_id=found["lock_id"])
    assert status["locked"] is True and status["changed_at"] == sim.world.now_iso


def test_schedule_then_cancel_then_conflict(sim):
    state = EpisodeState()
    run_at = sim.world.now.strftime("%Y-%m-%dT23:30:00Z")
    sched = call(sim, state, "schedule_scene", site="Tokyo", scene="good night", run_at=run_at)
    assert sched["status"] == "scheduled"
    assert call(sim, state, "cancel_schedule", schedule_id=sched["schedule_id"])["status"] \
        == "cancelled"
    again = sim.call("cancel_schedule", {"schedule_id": sched["schedule_id"]}, state)
    assert again.status == 409
    unknown = sim.call("cancel_schedule", {"schedule_id": "SCH-ZZZZZZZZ"}, EpisodeState())
    assert unknown.status == 404 and unknown.body["error"]["field"] == "schedule_id"


def test_sensor_providers_and_room_climate_agree(sim, room):
    state, ids = room
    a = call(sim, state, "get_sensor_readings", sensor_id=ids["sensor_id"])
    b = call(sim, state, "netatmo_get_measure", device_id=ids["sensor_id"])
    c = call(sim, state, "get_room_climate", site="Lisbon", room="kitchen")
    t = call(sim, state, "get_thermostat_state", thermostat_id=ids["thermostat_id"])
    assert a["temperature_c"] == b["dashboard_data.Temperature"] == c["temperature_c"] \
        == t["current_temperature_c"]
    assert a["humidity_pct"] == b["dashboard_data.Humidity"] == c["humidity_pct"]


def test_dew_point_and_energy_cost(sim):
    state = EpisodeState()
    dp = call(sim, state, "compute_dew_point", temperature_c=20.0, humidity_pct=50)
    assert dp["dew_point_c"] == pytest.approx(9.3, abs=0.1)
    alt = call(sim, state, "dewpoint_calculator", temp_c=20.0, rh=50)
    assert alt["dewpoint_c"] == dp["dew_point_c"] and alt["depression_c"] == dp["spread_c"]
    use = call(sim, state, "get_energy_usage", site="Paris", period="week")
    cost = call(sim, state, "estimate_energy_cost", energy_kwh=use["energy_kwh"],
                price_per_kwh=0.25)
    assert cost["cost"] == round(use["energy_kwh"] * 0.25, 2)
    bill = call(sim, state, "calc_energy_cost", kwh=use["energy_kwh"], unit_rate=0.25)
    assert bill["cost.total_cost"] == cost["cost"]


def test_dew_point_docs_name_the_constants_the_tools_compute_with(sim, corpus):
    """"Magnus formula" alone admits several constant sets (Sonntag's 15.45 °C against
    Alduchov-Eskridge's 15.5 for one reading; v8 review c3-0071): each dew-point tool
    names the set it uses, and a dew point worked out with it is the tool's."""
    import math

    state = EpisodeState()
    for name, temp, rh, key in (("compute_dew_point", "temperature_c", "humidity_pct",
                                 "dew_point_c"),
                                ("dewpoint_calculator", "temp_c", "rh", "dewpoint_c")):
        doc = corpus[name].description
        a, b = (float(x) for x in re.findall(r"\b(?:a|b) = ([\d.]+)", doc))
        for t, h in ((20.0, 50), (24.3, 61), (31.5, 38)):
            gamma = math.log(h / 100) + a * t / (b + t)
            got = call(sim, state, name, **{temp: t, rh: h})
            assert got[key] == round(b * gamma / (a - gamma), 1), (name, t, h)


def test_notification_providers_share_ids_and_record(sim):
    ids = set()
    for name, args in (("notify_household", {"site": "Rome", "message": "Door open"}),
                       ("smartthings_send_notification", {"locationName": "Rome",
                                                          "msg": "Door open"}),
                       ("homey_push_notification", {"home": "Rome", "text": "Door open"})):
        state = EpisodeState()
        body = call(sim, state, name, **args)
        ids.add(next(v for k, v in body.items() if str(v).startswith("NTF-")))
        assert state.data["iot.notifications"][0]["message"] == "Door open"
    assert len(ids) == 1


def test_errors_name_the_callers_parameter(sim):
    resp = sim.call("smartthings_send_notification", {"locationName": "Rome", "msg": "  "},
                    EpisodeState())
    assert resp.status == 422 and resp.body["error"]["field"] == "msg"
    resp = sim.call("netatmo_get_measure", {"device_id": "SN-ZZZZZZZZ"}, EpisodeState())
    assert resp.status == 404 and resp.body["error"]["field"] == "device_id"
