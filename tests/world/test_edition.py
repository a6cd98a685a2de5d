"""World editions: an old suite's world answers as it did when the suite was played
(edition 1, the world of commit c4e8fd6); the latest answers as toolmaze-v5 is built."""

from __future__ import annotations

import pytest

from toolmaze_gym.world import World, get_world, phrasebook
from toolmaze_gym.world.edition import CHANGES, LATEST, EditionError, has

# What the toolmaze-v4 player of tmz-v4-c4-0043-P0 read and typed: Delhi, 20 August.
DELHI_DAY = "2026-08-20"


def test_a_world_is_of_the_latest_edition_unless_asked():
    assert World(0).edition == LATEST == 10
    assert World(0, 1).edition == 1
    assert get_world(0, 1) is get_world(0, 1) and get_world(0, 1) is not get_world(0)
    assert get_world(0) is get_world(0, LATEST)


@pytest.mark.parametrize("bad", [0, 11, "1", 1.0, True, None])
def test_an_unknown_edition_is_refused_by_name(bad):
    with pytest.raises(EditionError, match="unknown world edition"):
        World(0, bad)
    with pytest.raises(EditionError, match="unknown world edition"):
        get_world(0, bad)


def test_an_unknown_change_is_refused_naming_the_known_ones():
    with pytest.raises(EditionError, match=r"no world change named 'weather'.*weather_normals"):
        World(0).has("weather")


def test_every_change_is_in_the_latest_edition_and_none_in_the_first():
    assert all(has(LATEST, c) for c in CHANGES)
    assert not any(has(1, c) for c in CHANGES)


def test_edition_1_tells_the_weather_the_v4_players_read():
    """tmz-v4-c4-0043-P0's player typed 'Delhi forecast high 33.0 °C, low 27.5 °C'; the
    latest world keeps a day within 3 C of the month's normal and tells another high."""
    old, new = World(0, 1), World(0, 2)
    w1 = old.geo.weather(old.geo.city("Delhi"), DELHI_DAY)
    w2 = new.geo.weather(new.geo.city("Delhi"), DELHI_DAY)
    assert (w1.high_c, w1.low_c, w1.condition) == (33.0, 27.5, "clear")
    assert (w2.high_c, w2.low_c) == (32.5, 27.0)


def test_edition_1_has_reits_that_pay_nothing_and_the_latest_none():
    def idle_reits(w: World) -> int:
        return sum(c.dividend_share == 0 for c in w.markets.companies
                   if c.industry.startswith("REIT"))

    assert idle_reits(World(0, 1)) > 0
    assert idle_reits(World(0, 2)) == 0


def test_edition_1_news_counts_run_from_3_to_900():
    """Edition 1 draws every count from 3 to 900 (the v4 final play-test's 'charts in
    858 countries'); the latest from its template's range (an arena of 4,000-20,000)."""
    def counts(w: World) -> set[int]:
        out = set()
        for city in w.geo.city_names:
            text = w.news.top_story("sports", city).description
            out |= {int(t) for t in text.replace(",", " ").split() if t.isdigit()}
        return out

    assert max(counts(World(0, 1))) <= 900 < max(counts(World(0, 2)))


def test_template_translations_can_be_left_out_as_edition_1_did():
    text = "Order SO-1 arrived damaged; last scanned in Lyon. Replaced by order SO-2, " \
        "due 2026-05-01 (12.5 EUR with tax, shipping 4.0 EUR)."
    assert phrasebook.translation(text, "de") is not None
    assert phrasebook.translation(text, "de", templates=False) is None
