"""A city written as the asked language writes it ("Estambul" for Istanbul, the v4
draft-2 play-test's c4-0036 probe; "Parigi" for Paris) is the city; another city is
not. Played on toolmaze-v3's replace-and-return task with an Italian reason."""

from __future__ import annotations

import pytest

from tests.grading._helpers import FINISH, call, graded, play, suite
from toolmaze_gym.mentions import mentions

TASK = "tmz-v3-c4-0083"  # last scanned in Paris; reason in Italian; replacement SO-L5KMPSJP
REASON = ("Ordine SO-4FTUG7D6 arrivato danneggiato; ultima scansione a {city}. Sostituito "
          "dall'ordine SO-L5KMPSJP, consegna prevista il 24 agosto 2026.")


def _returned(city: str) -> bool:
    """Success of s* without the translator, the reason written in Italian."""
    task = next(t for t in suite() if t.id == TASK)
    acts = [call(c, return_reason=REASON.format(city=city)) if c.tool == "initiate_return"
            else call(c) for c in task.default_path.calls if c.tool != "translate_v3"]
    return graded(play(task, "P0", [*acts, FINISH])).success


@pytest.mark.parametrize(("city", "success"), [("Parigi", True), ("Paris", True),
                                               ("Londra", False)])
def test_an_own_italian_reason_may_name_the_city_in_italian(city, success):
    assert _returned(city) is success


@pytest.mark.parametrize(("text", "city", "said"), [
    ("Su último escaneo fue en Estambul.", "Istanbul", True),
    ("zuletzt in Wien gescannt", "Vienna", True),
    ("escaneado en Ciudad de Mexico", "Mexico City", True),
    ("Su último escaneo fue en Estambul.", "Vienna", False),
    ("zuletzt in Rumänien gescannt", "Rome", False),
])
def test_exonyms(text, city, said):
    assert mentions(text, "city_name", city) is said
