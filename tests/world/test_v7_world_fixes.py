"""World edition 5: the toolmaze-v7 blind review's world oddities (issue 28), each told
as the v7 player read it on edition 4 and gone on edition 5: a guest room at 22.3 °C on
a 9 °C Auckland night "heated" to an eco 19 °C (c4-0013), a Delhi bedroom at 21.4 °C in
a 32 °C August "cooled" to 27 °C (c3-0075), a French review that kept the user's
English comment (c1-0081), a Spanish welcome "a las viernes 21 de agosto, 11:45 UTC"
(c4-0042)."""

from __future__ import annotations

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.behaviours.iot_climate import eco_setpoint
from toolmaze_gym.corpus.state import EpisodeState
from toolmaze_gym.world import get_world
from toolmaze_gym.world.localise import localised

V7, V8 = 4, 5


def _room(edition: int, site: str, room: str) -> float:
    return get_world(0, edition).devices.room_climate(site, room).temp_c


def test_a_cold_night_leaves_a_room_below_the_eco_heating_set_point():
    """Auckland at 9 °C: edition 4's guest room read 22.3 °C (no heating would run)."""
    heat = eco_setpoint(None, 9.0)["setpoint_c"]
    assert _room(V7, "Auckland", "guest room") == 22.3
    assert all(_room(V8, "Auckland", r) < heat for r in ("guest room", "bedroom", "kitchen"))


def test_a_hot_day_leaves_a_room_above_the_eco_cooling_set_point():
    """Delhi at 32.2 °C: edition 4's bedroom read 21.4 °C on the v7 build date."""
    w = get_world(0, V8)
    assert _room(V7, "Delhi", "bedroom") == 21.4
    assert w.geo.current_temp(w.geo.city("Delhi")) >= 30
    cool = eco_setpoint(None, 33.9)["setpoint_c"]
    assert all(_room(V8, "Delhi", r) > cool for r in ("guest room", "bedroom", "office"))


def test_a_mild_day_keeps_the_rooms_own_band():
    """Paris at 25.7 °C needs neither: its rooms read as on edition 4."""
    assert _room(V8, "Paris", "guest room") == _room(V7, "Paris", "guest room")


def _translated(corpus, edition: int, text: str, target: str) -> str:
    sim = Simulator(corpus, get_world(0, edition))
    return sim.call("translate_text", {"text": text, "target_language": target},
                    EpisodeState()).body["translated_text"]


def test_c4_0042_a_time_on_a_date_is_said_clock_first_from_edition_5(corpus):
    """The v7 player read "sale de Zurich HB a las viernes 21 de agosto, 11:45 UTC"."""
    text = ("Welcome, Nora Costa! Your train ticket RTK-XT82K766 leaves Zurich HB at 11:45 "
            "UTC on Friday 21 August; we expect you at 17:06 UTC on Friday 21 August. Your "
            "room is set to 19 C with the lights ready (LT-C2ETQVVQ), humidity 41%, dew "
            "point 6.8 C. Forecast: thunderstorm. The welcome home scene is set for 17:06 "
            "UTC on Friday 21 August.")
    assert "sale de Zurich HB a las viernes 21 de agosto, 11:45 UTC;" in \
        _translated(corpus, V7, text, "es")
    assert "sale de Zurich HB a las 11:45 UTC del viernes 21 de agosto; te esperamos a " \
        "las 17:06 UTC del viernes 21 de agosto." in _translated(corpus, V8, text, "es")


def test_every_language_says_a_time_on_a_date_clock_first_when_asked():
    said = "09:00 UTC on Sunday 23 August"
    assert {lang: localised(said, lang, clock_first=True)
            for lang in ("es", "fr", "de", "it", "nl", "pt")} == {
        "es": "09:00 UTC del domingo 23 de agosto", "fr": "09:00 UTC le dimanche 23 août",
        "de": "09:00 UTC am Sonntag, 23. August", "it": "09:00 UTC di domenica 23 agosto",
        # Dutch templates say "op" before it: the date first, as on edition 4
        "nl": "zondag 23 augustus, 09:00 UTC", "pt": "09:00 UTC de domingo, 23 de agosto"}
    assert localised(said, "es") == "domingo 23 de agosto, 09:00 UTC"  # edition 4's order
    assert localised("09:00 UTC del domingo 23 de agosto", "en") == said


def test_c1_0081_the_users_comment_is_translated_from_edition_5(corpus):
    """The v7 player read the comment back in English; edition 5 says it in French."""
    text = "Does the job, though the manual is thin. Delivered on Friday 14 August."

    def french(edition: int) -> str:
        sim = Simulator(corpus, get_world(0, edition))
        return sim.call("translate_text", {"text": text, "target_language": "fr"},
                        EpisodeState()).body["translated_text"]

    assert french(V7) == "Does the job, though the manual is thin. Livré le vendredi 14 août."
    assert french(V8) == ("Fait le travail, même si le manuel est un peu mince. "
                          "Livré le vendredi 14 août.")
