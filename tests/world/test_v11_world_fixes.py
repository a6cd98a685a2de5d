"""World edition 9: the toolmaze-v11 blind review's and play-test's world oddities (issue
28), each as edition 8 answers it (toolmaze-v11 replays on it) and gone on edition 9."""

from __future__ import annotations

from tests.corpus.helpers import call
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.state import EpisodeState
from toolmaze_gym.world import get_world

V11, V12 = 8, 9


def _set(edition: int, site: str, room: str, celsius: float) -> dict:
    sim = Simulator(world=get_world(0, edition))
    state = EpisodeState()
    found = call(sim, state, "list_room_devices", site=site, room=room)
    return call(sim, state, "set_thermostat_setpoint", thermostat_id=found["thermostat_id"],
                temperature_c=celsius)


def test_a_thermostat_is_on_cool_through_a_warm_month():
    """c4-0067: an eco cooling point of 27 °C set on a Milan living-room thermostat that
    answered "heat" on a 22 °C August morning (edition 8); on edition 9 a home whose
    month is warm (normal high 24 °C or more) cools, and a cool month's still heats."""
    assert _set(V11, "Milan", "living room", 27.0)["mode"] == "heat"
    assert _set(V12, "Milan", "living room", 27.0)["mode"] == "cool"
    assert _set(V12, "Prague", "office", 26.0)["mode"] == "cool"  # v11 review c4-0051
    assert _set(V12, "Oslo", "living room", 21.0)["mode"] == "heat"
    assert _set(V12, "Sydney", "bedroom", 21.0)["mode"] == "heat"  # southern winter
