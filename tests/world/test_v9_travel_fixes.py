"""World edition 7's travel fixes from the toolmaze-v9 blind review (issue 28).

c1-0020: a train Lyon Part-Dieu -> Milano Centrale ran 2 h 17 min (really about 4 h
50 min) under the id "TGV4225-LYSMIL", Lyon airport's code for the station; c2-0054: a
Frecciarossa "FR9727" Milan -> Zurich, a EuroCity route. Edition 6 (toolmaze-v9's
replays) answers exactly as before.
"""

from __future__ import annotations

from datetime import UTC
from zoneinfo import ZoneInfo

import pytest

from toolmaze_gym.corpus import Simulator
from toolmaze_gym.corpus.state import EpisodeState
from toolmaze_gym.world import get_world

V9, V10 = 6, 7
DAY = "2026-08-27"
HIGH_SPEED_KMH, OTHER_KMH, SLOWEST_KMH = 210, 130, 35


def _search(corpus, edition: int, origin: str, destination: str) -> dict:
    sim = Simulator(corpus, get_world(0, edition))
    got = sim.call("search_trains", {"origin": origin, "destination": destination,
                                     "date": DAY}, EpisodeState())
    assert got.status == 200, got.body
    return got.body


def test_c1_0020_lyon_to_milan_takes_the_real_run_from_edition_7(corpus):
    old = _search(corpus, V9, "Lyon Part-Dieu", "Milano Centrale")
    assert old["duration_minutes"] < 160 and "-LYSMIL-" in old["train_id"]
    new = _search(corpus, V10, "Lyon Part-Dieu", "Milano Centrale")
    assert 280 <= new["duration_minutes"] <= 330
    assert "-LPDMIC-" in new["train_id"]


def test_c2_0054_milan_to_zurich_is_a_eurocity_from_edition_7(corpus):
    old = _search(corpus, V9, "Milano Centrale", "Zurich HB")
    assert old["train_id"].startswith("FR")
    new = _search(corpus, V10, "Milano Centrale", "Zurich HB")
    assert new["operator"] == "EuroCity" and new["train_id"].startswith("EC")


def test_edition_6_trains_are_unchanged():
    """Spot values toolmaze-v9's episodes were played on."""
    t = get_world(0, V9).travel
    trains = t.trains(t.station("Lyon Part-Dieu"), t.station("Milano Centrale"), DAY)
    assert [x.duration_min for x in trains] == [144, 137, 147, 142, 137, 151, 136, 140]
    assert trains[0].train_id == "TGV7946-LYSMIL-20260827"
    assert t.train("TGV7946-LYSMIL-20260827") == trains[0]


def _linked_runs(edition: int):
    t = get_world(0, edition).travel
    for a, b in t.linked_pairs:
        yield t, a, b, t.trains(a, b, DAY)


def test_every_linked_pair_runs_at_a_believable_speed_from_edition_7():
    """Over every pair the network links: the run is its real service (rail_services)
    and its crow-fly average is no faster than a high-speed line's best (Paris-Lyon,
    Madrid-Barcelona: about 200 km/h) and, on a mixed or mountain route, 130 km/h."""
    seen = 0
    for t, a, b, trains in _linked_runs(V10):
        minutes, _, prefix, fast = t.service(a, b)
        km = t.distance(a.place, b.place)
        for train in trains:
            kmh = km / (train.duration_min / 60)
            assert SLOWEST_KMH <= kmh <= (HIGH_SPEED_KMH if fast else OTHER_KMH), \
                (a.name, b.name, train.duration_min)
            assert minutes <= train.duration_min <= minutes * 1.1
            assert train.train_id.startswith(prefix)
            seen += 1
    assert seen > 100


def test_the_v9_world_breaks_the_speed_rule():
    """The rule above fails on edition 6 (its counter-example: Munich-Rome in about
    4 h, Lyon-Milan at 147 km/h over the Alps)."""
    t = get_world(0, V10).travel
    slow = {(a.name, b.name) for a, b in t.linked_pairs if not t.service(a, b)[3]}
    too_fast = [(a.name, b.name) for t6, a, b, trains in _linked_runs(V9)
                for train in trains
                if t6.distance(a.place, b.place) / (train.duration_min / 60)
                > (OTHER_KMH if (a.name, b.name) in slow else HIGH_SPEED_KMH)]
    assert ("Munich Hauptbahnhof", "Roma Termini") in too_fast
    assert ("Lyon Part-Dieu", "Milano Centrale") in too_fast


def test_every_link_has_a_service_and_every_service_a_link():
    t = get_world(0, V10).travel
    links = {frozenset(p) for p in t.data["rail_links"]}
    services = {frozenset(s[:2]) for s in t.data["rail_services"]}
    assert links == services
    assert all(s[3] in t.data["rail_brands"] for s in t.data["rail_services"])


def test_a_night_train_leaves_in_the_evening():
    t = get_world(0, V10).travel
    trains = t.trains(t.station("Paris Gare de Lyon"), t.station("Wien Hauptbahnhof"), DAY)
    assert 1 <= len(trains) <= 2
    for train in trains:
        local = train.departure.replace(tzinfo=UTC).astimezone(ZoneInfo("Europe/Paris"))
        assert train.duration_min > 600 and train.operator == "OBB Nightjet"
        assert local.hour >= 18


def test_an_unlinked_pair_is_a_slow_journey_with_changes():
    t = get_world(0, V10).travel
    a, b = t.station("Lyon Part-Dieu"), t.station("Lisboa Oriente")
    assert not t.rail_linked(a, b) and t.service(a, b) is None
    km = t.distance(a.place, b.place)
    for train in t.trains(a, b, DAY):
        assert km / (train.duration_min / 60) < 90


@pytest.mark.parametrize("edition", [V10])
def test_no_station_code_is_an_airport_or_city_code(edition):
    """c1-0020's "TGV4225-LYSMIL" named Lyon Part-Dieu by Lyon airport's code."""
    t = get_world(0, edition).travel
    taken = {p.airport_code for p in t.places} | {p.city_code for p in t.places}
    codes = [s.code for s in t.stations]
    assert len(codes) == len(set(codes))
    assert not taken & set(codes), sorted(taken & set(codes))


def test_the_v9_station_codes_are_airport_codes():
    t = get_world(0, V9).travel
    assert t.station("Lyon Part-Dieu").code == t.place("Lyon").airport_code


def test_a_sampled_train_is_one_the_network_runs_from_edition_7():
    t = get_world(0, V10).travel
    for i in range(40):
        train = t.train(t.sample_train_id(f"k{i}"))
        assert t.rail_linked(train.origin, train.destination)


# -- hotel prices (c4-0051: 54 EUR a night in Lisbon in August) ---------------------

MONTH_DAYS = [f"2026-{m:02d}-{d:02d}" for m in range(8, 13) for d in (4, 14, 21)] + \
    [f"2027-{m:02d}-{d:02d}" for m in range(1, 7) for d in (4, 14, 21)]


def _nights_out_of_range(edition: int) -> list[tuple[str, str, float]]:
    """Every hotel's night over a year of arrival days, in USD, that lies outside its
    city tier's believable range for the season (hotel_tier_range_usd)."""
    t = get_world(0, edition).travel
    data, out = t.data, []
    for place in t.places:
        low, high = data["hotel_tier_range_usd"][data["hotel_city_tier"][place.city.name]]
        usd = t.world.geo.usd_value(place.city.currency)
        for day in MONTH_DAYS:
            season = data["hotel_season_factor"][t.hotel_season(place, int(day[5:7]))]
            for hotel in t.hotels(place):
                night = t.nightly_rate(hotel, day) * usd
                if not low * season <= night <= high * season:
                    out.append((place.city.name, day, round(night)))
    return out


def test_every_night_lies_in_its_city_and_season_range_from_edition_7():
    assert _nights_out_of_range(V10) == []


def test_the_v9_world_breaks_the_hotel_range():
    assert any(city == "Lisbon" and day.startswith("2026-08")
               for city, day, _ in _nights_out_of_range(V9))


def test_c4_0051_lisbon_in_august_is_no_longer_54_eur(corpus):
    """The v9 search's cheapest night (HTL-LIS-113, 30 August, 6 nights)."""
    def cheapest(edition: int) -> float:
        sim = Simulator(corpus, get_world(0, edition))
        got = sim.call("search_hotels", {"city": "Lisbon", "check_in": "2026-08-30",
                                         "nights": 6}, EpisodeState())
        assert got.status == 200, got.body
        return got.body["nightly_rate"]
    assert cheapest(V9) < 60
    assert cheapest(V10) >= 80


def test_edition_6_hotel_rates_are_unchanged():
    t = get_world(0, V9).travel
    hotel = t.hotel("HTL-LIS-113")
    assert round(t.nightly_rate(hotel, "2026-08-30") * 6, 2) == 323.58  # v9's reserve_room


# -- carriers (c1-0009: a KLM flight from Haneda; c4-0051: a Ryanair one from Lyon) ---


def test_c1_0009_no_klm_flight_leaves_haneda_from_edition_7():
    def ids(edition: int) -> list[str]:
        t = get_world(0, edition).travel
        return [f.flight_id for f in t.flights(t.place("Tokyo"), t.place("Amsterdam"),
                                               "2026-08-24")]
    assert "KL0085-HNDAMS-20260824" in ids(V9)
    assert not any(i.startswith("KL") for i in ids(V10))


def test_every_flight_is_flown_by_a_carrier_that_serves_both_airports():
    t = get_world(0, V10).travel
    not_at = t.data["carrier_not_at"]
    for a in t.places:
        for b in t.places:
            if a == b:
                continue
            for f in t.flights(a, b, DAY):
                barred = set(not_at.get(f.carrier_code, ()))
                assert not barred & {a.airport_code, b.airport_code}, f.flight_id


def test_the_v9_world_flies_carriers_where_they_do_not_serve():
    t = get_world(0, V9).travel
    f = t.flight("FR9286-LYSLIS-20260830")
    assert f is not None and "LYS" in t.data["carrier_not_at"]["FR"]
