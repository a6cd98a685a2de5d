"""A text asked in another language tells the weather condition, and no other one
(grading version 21, toolmaze-v9 play-test c2-0030 P1: a Polish SMS with "deszczowo"
(rainy) or "light rain" for a partly cloudy Paris passed, Polish being unchecked and no
other condition looked for)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import _replay, replay_changed
from toolmaze_gym.grading.condition_synonyms import condition_claimed, condition_said_in

HERE = Path(__file__).parent.parent / "data" / "played" / "v9-g21"
EPISODE = "tmz-v9-c2-0030-P1"
PLAYED = HERE / f"{EPISODE}.actions"
SAID = "częściowe zachmurzenie, od 17,7 do 22,3 °C, bez opadów"


def _files(kind: str) -> list:
    return [pytest.param(p, id=p.name) for p in sorted((HERE / kind).glob(f"{EPISODE}.*.actions"))]


def test_the_polish_sms_as_played_passes():
    g, text = _replay(PLAYED, EPISODE)
    assert g["success"], text


@pytest.mark.parametrize("path", _files("probes"))
def test_a_probe_passes(path):
    """Own Polish words, Polish date words, the translate tool's own output (which keeps
    "partly cloudy" in English), another directory tool."""
    g, text = _replay(path, EPISODE)
    assert g["success"], text


@pytest.mark.parametrize("path", _files("slips"))
def test_a_slip_fails(path):
    """"deszczowo" or "light rain" for partly cloudy, a wrong date, an English SMS."""
    g, text = _replay(path, EPISODE)
    assert not g["success"], text


@pytest.mark.parametrize(("said", "success"), [
    (SAID, True),
    ("słonecznie z przejaśnieniami, częściowe zachmurzenie, 17,7-22,3 °C", True),
    ("częściowo pochmurno, 17,7-22,3 °C, bez deszczu", True),     # rain negated
    ("partly cloudy, 17,7-22,3 °C, 0 mm deszczu", True),           # a zero amount
    ("częściowe zachmurzenie, 17,7-22,3 °C, przelotny deszcz", False),   # rain claimed
    ("częściowe zachmurzenie, możliwa burza", False),
    ("pochmurno, 17,7-22,3 °C", False),                            # only cloudy
    ("deszczowo, 17,7-22,3 °C, bez opadów", False),                # "bez" negates opady
    ("partly cloudy, light rain later", False),                    # English words too
    ("ładna pogoda, 17,7-22,3 °C", False),                         # no condition
])
def test_the_polish_sms_tells_partly_cloudy_and_nothing_else(tmp_path, said, success):
    g = replay_changed(PLAYED, EPISODE, SAID, said, tmp_path)
    assert g["success"] is success


@pytest.mark.parametrize(("text", "condition", "language", "said"), [
    ("Prognoza: częściowe zachmurzenie", "partly cloudy", "pl", True),
    ("Prognoza: częściowo słonecznie", "partly cloudy", "pl", True),
    ("Prognoza: deszczowo", "partly cloudy", "pl", False),
    ("Prognoza: light rain", "partly cloudy", "pl", False),
    ("Prognoza: pochmurno", "cloudy", "pl", True),
    ("Prognoza: lekki deszcz", "light rain", "pl", True),
    ("Prognoza: deszcz, 2,4 mm", "light rain", "pl", True),      # rain with its amount
    ("Prognoza: deszcz", "light rain", "pl", False),
    ("Prognoza: burze", "thunderstorm", "pl", True),
    ("Prognoza: mgła", "fog", "pl", True),
    ("Prognoza: śnieg", "snow", "pl", True),
    ("Prognoza: bezchmurnie", "clear", "pl", True),
    ("Prognoza: silny wiatr", "windy", "pl", True),
    ("Prognoza: słaby wiatr", "windy", "pl", False),             # a weaker wind
])
def test_polish_says_a_condition_in_its_words(text, condition, language, said):
    assert condition_said_in(text, condition, language) is said


@pytest.mark.parametrize(("text", "told", "language", "claimed"), [
    # competent wording: the condition, its near words, negations, zero amounts
    ("częściowe zachmurzenie, bez opadów", "partly cloudy", "pl", None),
    ("częściowe zachmurzenie, bez deszczu", "partly cloudy", "pl", None),
    ("Prognoza pogody: partly cloudy.", "partly cloudy", "pl", None),
    ("lekki deszcz, 1,2 mm", "light rain", "pl", None),          # "deszcz" is its word
    ("leichter Regen, bewölkt", "light rain", "de", None),
    ("teilweise bewölkt, klare 5 von 5 Sternen am Sonntag", "partly cloudy", "de", None),
    ("bewölkt, kein Regen", "cloudy", "de", None),
    ("ciel partiellement nuageux, sans pluie", "partly cloudy", "fr", None),
    ("parcialmente nublado, sin lluvia", "partly cloudy", "es", None),
    ("parzialmente nuvoloso, niente pioggia", "partly cloudy", "it", None),
    ("parcialmente nublado, 0 mm de chuva", "partly cloudy", "pt", None),
    ("half bewolkt, geen regen", "partly cloudy", "nl", None),
    ("temporale con pioggia forte", "thunderstorm", "it", None),
    ("Veloxa Edge Rain Jacket: częściowe zachmurzenie", "partly cloudy", "pl", None),
    # another condition claimed: in the language's words or in English
    ("deszczowo, bez opadów", "partly cloudy", "pl", "rain"),
    ("light rain, bez opadów", "partly cloudy", "pl", "light rain"),
    ("częściowe zachmurzenie, możliwa burza", "partly cloudy", "pl", "thunderstorm"),
    ("teilweise bewölkt, später Regen", "partly cloudy", "de", "rain"),
    ("nuageux avec de la neige", "cloudy", "fr", "snow"),
    ("soleado y con niebla", "clear", "es", "fog"),
    ("sereno, temporali in serata", "clear", "it", "thunderstorm"),
    ("ensolarado, chuva à tarde", "clear", "pt", "rain"),
    ("helder, onweer in de avond", "clear", "nl", "thunderstorm"),
    ("bezchmurnie, pochmurno", "clear", "pl", "cloudy"),
])
def test_a_text_claims_no_other_condition(text, told, language, claimed):
    assert condition_claimed(text, [told], language) == claimed


def test_two_days_told_claim_neither():
    """A text that must tell two days' conditions claims neither beside the other."""
    text = "25.08: deszcz; 26.08: częściowe zachmurzenie"
    assert condition_claimed(text, ["rain", "partly cloudy"], "pl") is None
    assert condition_claimed(text, ["partly cloudy"], "pl") == "rain"


def test_the_explanation_names_the_condition_claimed(tmp_path):
    """The closing line names the words that claim another condition, not a missing
    translation (the text is the player's own Polish)."""
    from toolmaze_gym.grading.arguments import TextRule

    text = PLAYED.read_text(encoding="utf-8").replace(SAID, f"{SAID}, przelotny deszcz")
    path = tmp_path / PLAYED.name
    path.write_text(text, encoding="utf-8")
    g, closing = _replay(path, EPISODE)
    assert not g["success"]
    line = next(x for x in closing.splitlines() if "was not done right" in x)
    assert 'which says "deszcz", the weather condition "rain", where the weather to tell ' \
           'is "partly cloudy"' in line
    # an English text is not read for other conditions ("Rain jacket to London: clear")
    rule = TextRule((), "", (("weather_condition", "clear"),), condition=True)
    assert rule.claims_other("Rain jacket to London: clear, high 23.1 °C") is None
