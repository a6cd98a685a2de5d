"""World edition 7: the toolmaze-v9 blind review's minor world findings (issue 28, the
Minor line of tests/data/reviews/v9/README.md), each as the v9 reviewer met it on
edition 6 and gone on edition 7: contacts whose phones are of another country than
the one they live in (c2-0010's Tokyo attendee, c2-0051's travel companion on +33)."""

from __future__ import annotations

import pytest

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.state import EpisodeState
from toolmaze_gym.world import get_world
from toolmaze_gym.world.phones import calling_codes, countries_of, is_mobile, local_mobile

V9, V10 = 6, 7


def _away(edition: int) -> list[str]:
    """The directory's people whose phone is no mobile of the country they live in."""
    world = get_world(0, edition)
    return [f"{p.name} ({p.city}) {p.phone}" for p in world.people.people
            if world.geo.city(p.city).country_code not in countries_of(p.phone)
            or not is_mobile(p.phone)]


def test_every_contact_carries_a_mobile_of_where_they_live_from_edition_7():
    """Static over the whole directory: a contact's phone starts with their home
    country's calling code and is a mobile of its plan (so every number can be texted)."""
    assert _away(V10) == []


def test_edition_6_kept_its_numbers():
    """The v9 counter-examples stay as they were played: Lucia Fischer of Dublin on +33,
    Sara Garcia of Sydney on +33, the directory of texts' nine mobiles."""
    away = _away(V9)
    assert "Lucia Fischer (Dublin) +33786996685" in away
    assert "Sara Garcia (Sydney) +33782600391" in away
    assert len(get_world(0, V9).people.mobiles) == 9


def test_the_lookup_tells_the_local_number(corpus):
    """What lookup_contact_by_email answers (c2-0010's s4): edition 6 as played, edition
    7 an Irish mobile for the Dublin attendee."""
    def phone(edition: int) -> str:
        got = Simulator(corpus, get_world(0, edition)).call(
            "lookup_contact_by_email", {"email": "lucia.fischer@initech.org"}, EpisodeState())
        assert got.status == 200, got.body
        return next(v for v in got.body.values() if str(v).startswith("+"))
    assert phone(V9) == "+33786996685"
    assert phone(V10).startswith("+353") and is_mobile(phone(V10))


def test_every_country_of_the_world_has_a_calling_code_and_a_mobile_plan():
    world = get_world(0, V10)
    assert set(world.geo.country_codes) <= set(calling_codes())


@pytest.mark.parametrize("country", sorted(calling_codes()))
def test_a_local_mobile_is_a_mobile_of_its_country(country):
    for k in range(20):
        number = local_mobile(country, "t", k)
        assert is_mobile(number) and country in countries_of(number), number


def test_c4_0080_a_climate_story_fits_the_season_from_edition_7():
    """Edition 6 told "Flood defences completed in Madrid" on a dry August heat day;
    edition 7 writes Madrid's climate story from a template that fits its August."""
    assert get_world(0, V9).news.top_story("climate", "Madrid").headline == \
        "Flood defences completed in Madrid"
    assert get_world(0, V10).news.top_story("climate", "Madrid").headline != \
        "Flood defences completed in Madrid"


def test_no_climate_story_misfits_its_city_from_edition_7():
    """Static over the world: every city's climate story today (and the next ranks)
    fits its season; on edition 6 some did not (the v9 counter-example among them)."""
    def misfits(edition: int) -> list[str]:
        news = get_world(0, edition).news
        stories = [news.top_story("climate", city, rank)
                   for city in get_world(0, edition).geo.city_names for rank in range(3)]
        return [s.headline for s in stories if news.misfit(s.headline, s.city)]
    assert misfits(V10) == []
    assert "Flood defences completed in Madrid" in misfits(V9)


def test_other_topics_keep_their_stories_on_edition_7():
    """Only the seasonal templates' topic is drawn anew: a business story is the one
    edition 6 told."""
    for city in ("Madrid", "Tokyo", "Auckland"):
        assert get_world(0, V9).news.top_story("business", city) == \
            get_world(0, V10).news.top_story("business", city)


def _quote(corpus, edition: int) -> dict:
    """c2-0088's shipping quote: one tent to Vancouver."""
    got = Simulator(corpus, get_world(0, edition)).call(
        "calculate_shipping_cost", {"product_id": "PRD-110685", "quantity": 1,
                                    "city": "Vancouver"}, EpisodeState())
    assert got.status == 200, got.body
    return got.body


def test_c2_0088_no_sunday_delivery_from_edition_7(corpus):
    """Edition 6 quoted a delivery on Sunday 23 August in 5 days; edition 7 the Monday,
    in 6 days, so the quote's transit days and date agree."""
    old, new = _quote(corpus, V9), _quote(corpus, V10)
    assert (old["estimated_delivery"], old["transit_days"]) == ("2026-08-23", 5)
    assert (new["estimated_delivery"], new["transit_days"]) == ("2026-08-24", 6)


def test_no_delivery_date_is_a_sunday_from_edition_7():
    """Static over the world's delivery dates (every days-ahead a parcel may be due)."""
    from datetime import date

    def sundays(edition: int) -> list[str]:
        commerce = get_world(0, edition).commerce
        days = [commerce.eta_date(d) for d in range(1, 30)]
        return [d for d in days if date.fromisoformat(d).weekday() == 6]
    assert sundays(V10) == []
    assert "2026-08-23" in sundays(V9)
