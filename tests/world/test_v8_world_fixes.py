"""World edition 6: the toolmaze-v8 blind review's world findings (issue 28), each told
as the v8 player met it on edition 5 and gone on edition 6: a German translator's 500
on a summary written in the agent's own words (c3-0072), a German frost notice "Im Raum
office" (c3-0009), an Avanti West Coast train from London St Pancras to Manchester
(c4-0067). The loan tools' rounding (c2-0078) is tested in tests/corpus/test_financial.py.
"""

from __future__ import annotations

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.state import EpisodeState
from toolmaze_gym.world import get_world
from toolmaze_gym.world.base import load_data
from toolmaze_gym.world.phrasebook import template_translation

V8, V9 = 5, 6

# The own_summary variant's text on c3-0072: its words, then the story's headline.
OWN_GIST = "In my own words, the gist: Hong Kong parliament passes budget after long debate."


def _translate(corpus, edition: int, text: str, target: str):
    sim = Simulator(corpus, get_world(0, edition))
    return sim.call("translate_text", {"text": text, "target_language": target},
                    EpisodeState())


def test_c3_0072_a_text_that_only_ends_like_a_story_is_tagged_from_edition_6(corpus):
    """Edition 5 read "In my own words, the gist: Hong Kong" as the story's country and
    answered 500 (no German "of" form of it); edition 6 has no translation of the text
    and says so as the doc does: tagged."""
    assert _translate(corpus, V8, OWN_GIST, "de").status == 500
    got = _translate(corpus, V9, OWN_GIST, "de")
    assert got.status == 200
    assert got.body["translated_text"] == f"[de] {OWN_GIST}"


def test_the_story_itself_is_still_translated_on_edition_6(corpus):
    headline = "Hong Kong parliament passes budget after long debate."
    for edition in (V8, V9):
        got = _translate(corpus, edition, headline, "de").body["translated_text"]
        assert got == "Parlament Hongkongs verabschiedet Haushalt nach langer Debatte."


def _search(corpus, edition: int, origin: str, destination: str) -> dict:
    sim = Simulator(corpus, get_world(0, edition))
    got = sim.call("search_trains", {"origin": origin, "destination": destination,
                                     "date": "2026-08-24"}, EpisodeState())
    assert got.status == 200, got.body
    return got.body


def test_c4_0067_a_train_to_manchester_leaves_london_euston_from_edition_6(corpus):
    """The v8 request booked an Avanti West Coast train "London St Pancras to
    Manchester Piccadilly"; such trains leave from Euston."""
    old = _search(corpus, V8, "London St Pancras", "Manchester Piccadilly")
    assert (old["origin"], old["operator"]) == ("London St Pancras", "Avanti West Coast")
    for asked in ("London St Pancras", "London Euston"):
        new = _search(corpus, V9, asked, "Manchester Piccadilly")
        assert (new["origin"], new["operator"]) == ("London Euston", "Avanti West Coast")
        assert "-EUSMAN-" in new["train_id"]
    back = _search(corpus, V9, "Manchester Piccadilly", "London St Pancras")
    assert back["destination"] == "London Euston"


def test_a_eurostar_still_leaves_st_pancras_on_edition_6(corpus):
    for asked in ("London St Pancras", "London Euston"):
        got = _search(corpus, V9, asked, "Paris Gare de Lyon")
        assert (got["origin"], got["operator"]) == ("London St Pancras", "Eurostar")


def test_the_network_links_the_termini_a_task_may_name():
    """The generator books only linked stations (coherence rail_links): on edition 6 a
    request names London Euston for Manchester, never St Pancras."""
    old, new = get_world(0, V8).travel, get_world(0, V9).travel
    st = {name: new.station(name) for name in
          ("London St Pancras", "London Euston", "Manchester Piccadilly", "Paris Gare de Lyon")}
    assert old.station("London Euston") is None and "London Euston" in new.station_names
    assert new.station("London King's Cross") is None  # it serves no city of this world
    assert old.rail_linked(old.station("London St Pancras"), old.station("Manchester Piccadilly"))
    assert not new.rail_linked(st["London St Pancras"], st["Manchester Piccadilly"])
    assert new.rail_linked(st["London Euston"], st["Manchester Piccadilly"])
    assert new.rail_linked(st["Manchester Piccadilly"], st["London Euston"])
    assert new.rail_linked(st["London St Pancras"], st["Paris Gare de Lyon"])
    assert not new.rail_linked(st["London Euston"], st["Paris Gare de Lyon"])


# c3-0009's notice, as the scenario eh-frost-warning-for-au-pair fills it.
FROST = ("Forecast low in Auckland on Wednesday 19 August: 3.8 C (38.8 F). The {room} is at "
         "17.9 C now.")


def test_c3_0009_the_room_is_said_in_german_from_edition_6(corpus):
    """The v8 reference read "Im Raum office sind es jetzt 17.9 °C."."""
    text = FROST.format(room="office")
    assert "Im Raum office sind es jetzt 17.9 °C." in \
        _translate(corpus, V8, text, "de").body["translated_text"]
    assert _translate(corpus, V9, text, "de").body["translated_text"] == (
        "Vorhergesagter Tiefstwert in Auckland am Mittwoch, 19. August: 3.8 °C (38.8 °F). "
        "Im Büro sind es jetzt 17.9 °C.")


def test_every_room_of_every_room_template_is_said_in_the_language_asked():
    """No template filled with one of the world's rooms keeps its English name."""
    rooms = load_data("devices.json")["rooms"]
    entries = [e for e in load_data("phrasebook_templates.json")["templates"]
               if "{room}" in e.get("en", "")]
    assert len(entries) == 4
    for entry, room in ((e, r) for e in entries for r in rooms):
        text = entry["en"].replace("{room}", room)
        for lang in (k for k in entry if not k.startswith("_") and k != "en"):
            said = template_translation(text, lang, True, V9)[1]
            assert room not in said, (lang, said)
            assert template_translation(said, "en", True, V9)[1] == text  # and back


def test_a_room_the_world_does_not_have_keeps_its_name():
    said = template_translation(FROST.format(room="cellar"), "de", True, V9)[1]
    assert said.endswith("Im Raum cellar sind es jetzt 17.9 C.")
