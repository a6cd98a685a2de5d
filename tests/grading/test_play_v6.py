"""The toolmaze-v6 play-test's probes (issue 27, grading version 15).

Each probe in ``tests/data/played/v6-probes/probes/`` is a competent variant of an
episode played on toolmaze-v6 that an earlier grader failed; each slip beside it in
``slips/`` is its near miss, which must still fail. ``test_played.py`` replays both
folders; the tests here name the rule each pair checks and what the reader sees.
"""

from __future__ import annotations

from pathlib import Path

from tests.grading.test_played import _replay

V6 = Path(__file__).parent.parent / "data" / "played" / "v6-probes"


def replay(name: str) -> tuple[dict, str]:
    """The grade and the closing text of ``probes/NAME`` or ``slips/NAME``."""
    path = next(V6.glob(f"*/{name}.actions"))
    return _replay(path, path.name.split(".")[0])


def test_an_answer_gets_the_rounding_order_a_text_in_a_call_gets():
    """c4-0065 P4: converted first, then taxed, the total is 667.40 PLN where the
    reference order gives 667.41; the answer tells the same amount."""
    for name in ("tmz-v6-c4-0065-P4.fx-then-tax-66740", "tmz-v6-c4-0065-P4.fx-then-tax-66741"):
        g, text = replay(name)
        assert g["success"] and not g["unanswered"], text
        assert g["recovered"] is True, text  # the faulted tax step was done cleanly


def test_an_answer_off_by_more_than_the_rounding_order_fails():
    g, text = replay("tmz-v6-c4-0065-P4.fx-then-tax-66725")
    assert not g["success"], text
    assert [u["value"] for u in g["unanswered"]] == [667.41]


def test_a_train_number_with_a_space_names_the_train():
    """c4-0081 P1: "Deutsche Bahn ICE 4215" notes which train, as "ICE4215" does."""
    g, text = replay("tmz-v6-c4-0081-P1.train-number-spaced")
    assert g["success"], text


def test_another_train_number_fails_and_the_reason_names_both_ways():
    """The reason offers the service number as well as the e-ticket: it never says the
    e-ticket number is required where the service number alone passes."""
    g, text = replay("tmz-v6-c4-0081-P1.other-train-spaced")
    assert not g["success"], text
    assert 'does not mention "RTK-MRJCXNXD"' in text
    assert 'or "ICE4215"' in text


def test_emissions_rounded_to_fewer_decimals_name_the_estimate():
    """c2-0097 P0: the expense notes "244.1 kg CO2e" or "about 244 kg" for 244.14."""
    for name in ("tmz-v6-c2-0097-P0.co2-244.1kg", "tmz-v6-c2-0097-P0.co2-about-244kg"):
        g, text = replay(name)
        assert g["success"], text


def test_emissions_rounded_the_wrong_way_fail():
    for name in ("tmz-v6-c2-0097-P0.co2-244.2kg", "tmz-v6-c2-0097-P0.co2-about-243kg"):
        g, text = replay(name)
        assert not g["success"], text
        assert "244.14" in text  # the reason names the estimate the tool gave


def test_a_day_and_month_in_figures_name_the_arrival_day():
    """c3-0050 P3: the SMS says the flight lands "on 14/09" or "on 14.09." at 17:09."""
    for name in ("tmz-v6-c3-0050-P3.date-14-slash-09", "tmz-v6-c3-0050-P3.date-14-dot-09"):
        g, text = replay(name)
        assert g["success"], text


def test_another_day_in_figures_fails():
    for name in ("tmz-v6-c3-0050-P3.date-15-slash-09", "tmz-v6-c3-0050-P3.date-14-dot-08"):
        g, text = replay(name)
        assert not g["success"], text


def test_a_clean_lookup_of_the_faulted_side_counts_in_c_star():
    """c3-0092 P4 as played: search_flights answered a wrong origin for good, so its
    side is unusable; the agent took the fare from skyscanner (the other side) and the
    arrival from get_flight_status (a clean lookup of the faulted side), the fewest
    calls it had. c* counts that lookup, as it counts flightaware on the other side."""
    for name in ("tmz-v6-c3-0092-P4.as-played", "tmz-v6-c3-0092-P4.flightaware"):
        g, text = replay(name)
        assert g["success"] and (g["c"], g["c_star"], g["c_rec"]) == (4, 4, 0.0), text


def test_a_lookup_made_twice_still_costs_recovery():
    g, text = replay("tmz-v6-c3-0092-P4.status-twice")
    assert g["success"] and (g["c"], g["c_star"]) == (5, 4) and g["c_rec"] == 0.2, text


def test_a_reason_names_no_text_the_rule_accepts():
    """c3-0027 P1 with a 4-star rating: the Dutch review text is the agent's own and
    passes at 5 stars, so the reason names the rating only, never a translator's
    sentence the text "does not mention"."""
    g, text = replay("tmz-v6-c3-0027-P1.rating-4")
    assert not g["success"], text
    assert "argument rating: expected 5 (stated in the request), sent 4" in text
    assert "argument text" not in text


def test_a_reason_still_names_what_a_wrong_text_leaves_out():
    g, text = replay("tmz-v6-c3-0027-P1.rating-4-wrong-dew")
    assert not g["success"], text
    assert "argument rating: expected 5" in text and "which leaves out 5.1" in text
