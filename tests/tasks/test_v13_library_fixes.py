"""The toolmaze-v13 blind review's library findings (tests/data/reviews/v13), each held by
a check that fails on the v13 wording or steps it was found in."""

from __future__ import annotations

import re

from toolmaze_gym.grading.asked_facts import clause_on, cue_starts
from toolmaze_gym.tasks.derived import derive
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.suite import get_task
from toolmaze_gym.world import get_world

LIB = {sc.id: sc for sc in load_library()}


def _asks(sc, step_id: str) -> tuple[str, ...]:
    """What the text arguments of ``sc``'s step ``step_id`` must mention."""
    return tuple(a for arg in sc.step_by_id[step_id].args for a in arg.mention)


def _v13(short: str) -> str:
    return get_task(f"tmz-v13-{short}", "toolmaze-v13").query


def test_c2_0056_the_prices_say_they_are_net_of_vat():
    """v13 c2-0056: "paid me on the spot for ... (489 GBP) plus 3 extra hours at 60 GBP"
    and a receipt "with the total": 669 paid or 802.80 with VAT. Every phrasing says the
    prices are before VAT and the total includes it."""
    assert "VAT" not in _v13("c2-0056")
    for phrasing in LIB["fin-cash-sale-paid-invoice"].phrasings:
        assert re.search(r"before VAT|net of VAT", phrasing), phrasing
        assert "total including VAT" in phrasing, phrasing


def test_c4_0082_the_screen_tells_what_the_runners_pledged():
    """v13 c4-0082: the screen without the runners' pledged total passed; it asks it."""
    sc = LIB["gen-charity-run-live-screen"]
    assert "raised_line.message" in _asks(sc, "screen")
    assert sc.step_by_id["raised_line"].args[0].ref == "pledged.total"


def _clauses(query: str, word: str) -> list[str]:
    return [clause_on(query, at) for at in cue_starts(query, (word,))]


def test_c2_0015_the_reminder_s_clause_asks_no_amount():
    """v13 c2-0015: "Remind me at ... and let my landlord ... know the amount by email"
    read the amount as the reminder's too. No reminder clause names the amount now."""
    assert any("amount" in c for c in _clauses(_v13("c2-0015"), "remind me"))
    for phrasing in LIB["fin-rent-standing-order"].phrasings:
        for word in ("remind me", "reminder"):
            assert not any("amount" in c for c in _clauses(phrasing, word)), phrasing


def test_c2_0021_the_brief_names_what_it_carries():
    """v13 c2-0021: "post a short brief in #..." graded both EPS figures it never named."""
    assert "EPS" not in _v13("c2-0021").split("share price")[-1]
    for phrasing in LIB["fin-earnings-dip-alert"].phrasings:
        tail = phrasing.split("%")[-1]
        assert re.search(r"actual and estimated EPS|both EPS figures", tail), phrasing


def test_c4_0060_the_job_is_taxed_where_it_is_and_the_change_has_a_base():
    """v13 c4-0060: a move to Amsterdam on a Swiss salary taxed in Switzerland, "compare it
    with my current net" (+126.69 % only), rent at 5 % of the pay. The country is the
    city's, every phrasing says "higher or lower than" the current net, rent 25-35 %."""
    assert "Amsterdam" in _v13("c4-0060") and "Switzerland" in _v13("c4-0060")
    sc = LIB["fin-job-offer-abroad"]
    params = {p.name: p for p in sc.params}
    assert params["country"].derived_from == "city"
    world = get_world(0)
    assert derive("country_code", "city_name", "Amsterdam", world) == "NL"
    assert min(params["reserve_pct"].choices) >= 25
    for phrasing in sc.phrasings:
        assert "higher or lower than the {current_net}" in phrasing, phrasing


def test_c1_0058_the_weather_is_no_reason_not_to_fly():
    """v13 c1-0058: a clear, dry Paris forecast noted as "the weather is why I'm not
    flying". The forecast is noted because the policy asks for it."""
    assert "why I'm not flying" in _v13("c1-0058")
    for phrasing in LIB["et-rail-weekend-forecast-expense"].phrasings:
        assert "not flying" not in phrasing, phrasing


def test_c2_0022_the_latest_status_is_told():
    """v13 c2-0022: "check when it lands (latest status)" passed with the status never
    read. The status is asked of the answer, and every phrasing says so."""
    sc = LIB["eh-welcome-scene-for-guest-landing"]
    assert "status.status" in sc.answer
    for phrasing in sc.phrasings:
        assert re.search(r"tell me (?:its|the flight's) (?:current|latest) status", phrasing)


def test_c4_0053_the_lock_s_battery_is_told():
    """v13 c4-0053: "check the front door lock's battery" passed with the lock never read."""
    sc = LIB["iot-holiday-let-changeover"]
    assert "lock_state.battery_pct" in sc.answer
    for phrasing in sc.phrasings:
        assert "lock's battery level" in phrasing, phrasing


def test_c4_0048_the_reviewer_sits_where_the_directory_places_them():
    """v13 c4-0048: Lena Muller "sits in Sydney" with a French mobile. The city is the
    one the directory places the reviewer in."""
    sc = LIB["off-two-document-reviews"]
    assert {p.name: p for p in sc.params}["first_city"].derived_from == "first"
    world = get_world(0)
    person = world.people.people[0]
    assert derive("city_name", "person_name", person.name, world) == person.city
