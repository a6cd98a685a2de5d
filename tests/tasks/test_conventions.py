"""No request leaves a convention hidden: every phrasing states the reading its scenario
takes (or the scenario declares a family the grader accepts either way), over the library
and on the issue-28 counter-examples as they were at main."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.tasks.conventions import (
    convention_problems,
    data_problems,
    idle_steps,
    taken,
)
from toolmaze_gym.tasks.readings import default_families, names_base, parse_families
from toolmaze_gym.tasks.scenarios import check_files, load_library, parse_file
from toolmaze_gym.tasks.suite import load_suite

from .test_scenarios import GOOD

CORPUS = load_corpus()
MAIN = Path(__file__).parents[1] / "data" / "conventions" / "main_counter_examples.toml"

# scenario at main -> the families its phrasings left open, with the v3 tasks and played
# episodes that met them (issue 28, tests/data/played/README.md, ../shared/played/v3/)
COUNTER_EXAMPLES = {
    "iot-err-guest-arrives-by-train": {"forecast_value", "train_offer"},  # c4-0002: eco high/low
    "iot-err-cabin-energy-setback": {"forecast_value"},  # c4-0037
    "iot-rail-trip-away-mode": {"forecast_value", "train_offer", "news_scope"},  # c4-0028,
    # c4-0079
    "sh-err-late-parcel-reorder-at-destination": {"order_total"},  # c4-0065: "the total"
    "sh-member-price-foreign-shop-log": {"order_total"},  # c4-0008, c4-0050
    "sh-err-replace-then-return-in-sellers-language": {"order_total"},  # c4-0060/0023/0029
    "fin-fund-holding-projection": {"growth", "projected_value"},  # c2-0099: 7 % annual
    "fin-portfolio-checkup-text": {"growth", "projected_value", "percent_base"},  # c3-0036,
    # c2-0050: which value (CHF or USD) is projected
    "fin-offsite-cost-sheet-and-approval": {"group_figure", "flight_offer"},  # c4-0070 (per
    # person or x6), c4-0018 (x8 scope)
    "fin-loan-or-invest": {"growth", "projected_value"},  # c1-0031: "the same sum"
    "tr-err-offsite-train-and-colleague-flight": {"lead_guest", "train_offer", "flight_offer",
                                                  "hotel_offer"},  # c4-0021: who leads
    "et-airport-car-deposit": {"car_offer"},  # which offer of a search (car, hotel, train)
    "tr-speaker-hotel-welcome": {"hotel_offer", "forecast_value"},
    "tr-rail-ticket-host-note": {"train_offer"},
    "tr-book-relative-flight-translated": {"flight_offer"},
    "fin-crypto-or-shares": {"percent_base"},  # −96.73 % or +2,961.77 %
    "iot-err-partner-lands-house-ready": {"indoor_reading"},  # c4-0036: "what it reads"
    "tr-day-before-checkin-and-allowance": {"news_scope"},  # c4-0073: headline scope
}

DRAFT2 = Path(__file__).parents[1] / "data" / "conventions" / "draft2_counter_examples.toml"
# scenario at main (f89ee40) -> the families the draft v4 review (v4-draft2) found open
DRAFT2_COUNTER_EXAMPLES = {
    "fin-stock-gain-tracking-sheet": {"change_unit"},  # c1-0073: -63.54 % or an amount
    "sh-purchase-request-ticket": {"line_total_tax"},  # c1-0005: the total with tax
    "tr-offsite-two-cities": {"forecast_day"},  # c4-0053: which day of the stay
}

def _open(problems: list[str]) -> set[str]:
    return {m.group(1) for p in problems if (m := re.search(r'readings = \["(\w+)"\]', p))
            and "leaves open" in p}


def _library_scenario(sid: str):
    return next(sc for sc in load_library() if sc.id == sid)


def test_the_library_states_every_reading_it_takes():
    """The static proof over every shipped scenario x phrasing (load_library refuses too)."""
    lib = load_library()
    assert [p for sc in lib for p in convention_problems(sc, CORPUS)] == []
    hits = [t for sc in lib for t in taken(sc, CORPUS)]
    assert len({sc.id for sc in lib if taken(sc, CORPUS)}) > 60
    assert {fam.name for fam, _, _ in hits} == set(default_families())


@pytest.mark.parametrize("sid", sorted(COUNTER_EXAMPLES))
def test_each_counter_example_at_main_is_reported(sid):
    scenarios, problems = parse_file(MAIN)
    assert problems == []
    sc = next(s for s in scenarios if s.id == sid)
    assert _open(convention_problems(sc, CORPUS)) == COUNTER_EXAMPLES[sid]
    assert convention_problems(_library_scenario(sid), CORPUS) == []  # and fixed now



@pytest.mark.parametrize("sid", sorted(DRAFT2_COUNTER_EXAMPLES))
def test_each_draft2_counter_example_is_reported(sid):
    scenarios, problems = parse_file(DRAFT2)
    assert problems == []
    sc = next(s for s in scenarios if s.id == sid)
    assert _open(convention_problems(sc, CORPUS)) == DRAFT2_COUNTER_EXAMPLES[sid]
    assert convention_problems(_library_scenario(sid), CORPUS) == []  # and fixed now

def test_the_eco_setpoint_of_c4_0079_must_name_the_forecast_value():
    """v9's c4-0079 heated the away home for the forecast low; since the v9 review's
    heating_season rule the goal cools it for the forecast high (an August trip), and
    either way every phrasing must name the value the eco step takes."""
    sc = _library_scenario("iot-rail-trip-away-mode")
    assert all("forecast high" in p for p in sc.phrasings)
    vague = dataclasses.replace(sc, phrasings=tuple(p.replace("forecast high", "weather")
                                                    for p in sc.phrasings))
    problems = convention_problems(vague, CORPUS)
    assert len(problems) == len(sc.phrasings)
    assert "step 'weather' takes 'high'" in problems[0], problems[0]
    # reading the low instead asks for the low's words
    low = dataclasses.replace(sc, steps=tuple(
        dataclasses.replace(s, args=tuple(dataclasses.replace(a, ref="weather.low_c")
                                          if a.ref == "weather.high_c" else a for a in s.args))
        for s in sc.steps))
    assert _open(convention_problems(low, CORPUS)) == {"forecast_value"}


def test_a_declared_reading_must_be_one_the_grader_accepts_either_way():
    # fin-crypto-or-shares as toolmaze-v10 had it: a phrasing naming no base, and the
    # reading declared (since v11 every phrasing names the base and none is declared)
    lib = _library_scenario("fin-crypto-or-shares")
    assert lib.readings == () and all(names_base(p) for p in lib.phrasings)
    sc = dataclasses.replace(lib, readings=("percent_base",), phrasings=(
        lib.phrasings[0], "Compare the cost of {coins} {asset} with {shares} shares of "
        "{company}, both in {usd}, including the percentage difference. Share it in "
        "#{channel}, then send {me} a note with the message reference."))
    assert not names_base(sc.phrasings[1])
    assert _open(convention_problems(dataclasses.replace(sc, readings=()), CORPUS)) == {
        "percent_base"}
    growth = _library_scenario("fin-fund-holding-projection")
    problems = convention_problems(dataclasses.replace(growth, readings=("growth", "nope")),
                                   CORPUS)
    assert any("the grader does not accept every reading of 'growth'" in p for p in problems)
    assert any("'nope' is no family of readings.toml" in p for p in problems)
    unopened = dataclasses.replace(_library_scenario("iot-rail-trip-away-mode"),
                                   readings=("percent_base",))
    assert any("'percent_base' is declared but no step opens it" in p
               for p in convention_problems(unopened, CORPUS))


def test_a_scenario_file_declares_readings_as_a_list(tmp_path):
    path = tmp_path / "financial.toml"
    path.write_text(GOOD.replace('goal = "', 'readings = "percent_base"\ngoal = "', 1))
    assert any("readings: a list of family names" in p for p in check_files([path])[1])


def test_a_lookup_nothing_reads_is_reported(tmp_path):
    extra = ('[[scenario.steps]]\nid = "bal"\nuse = "finance.balance"\n'
             'args = { account_id = "$acct" }\n')
    text = GOOD.replace("me = { type = \"email\" }",
                        "me = { type = \"email\" }\nacct = { type = \"bank_account_id\" }")
    text = text.replace("[[scenario.steps]]\nid = \"mail\"", extra + "[[scenario.steps]]\n"
                        "id = \"mail\"").replace("Mail it to {me}.", "Mail it to {me} ({acct}).")
    text = text.replace("send the figure to {me}.", "send the figure to {me} ({acct}).")
    path = tmp_path / "financial.toml"
    path.write_text(text)
    scenarios, _ = parse_file(path)
    assert [p.split(": ", 1)[-1][:40] for p in idle_steps(scenarios[0], CORPUS)] == [
        "fin-test-quote-mail.steps.bal: finance.b"]
    assert [p for sc in load_library() for p in idle_steps(sc, CORPUS)] == []


def test_names_base_reads_the_same_words_as_the_grader_did():
    """The percent family's words are the grader's old pattern, so moving them to data
    changes no grade of a shipped task."""
    old = re.compile(r"\b(since|from the|than the|drop|started|differ from|"
                     r"compare (?:it )?with)\b", re.IGNORECASE)
    queries = [t.query for t in load_suite("toolmaze-v3")]
    assert len(queries) == 400
    assert [q for q in queries if names_base(q) != bool(old.search(q))] == []
    assert sum(map(names_base, queries)) > 5


def test_the_readings_data_fits_the_corpus_and_is_checked():
    assert data_problems(CORPUS) == []
    families, problems = parse_families('[family.x]\nuse = ["nope.behaviour"]\n'
                                        '[family.x.reading.r]\nkeys = ["k"]\nwords = ["w"]\n'
                                        '[family.y]\nuse = ["finance.compound"]\n'
                                        '[family.y.reading.r]\nfrom = ["param"]\nwords = ["w"]\n')
    assert problems == ["readings.toml: family.y: a reading chosen by `from` needs the "
                        "family's `role`"]
    assert data_problems(CORPUS, families) == [
        "readings.toml: family.x: 'nope.behaviour' is no behaviour of the corpus",
        "readings.toml: family.x.reading.r: no tool of ['nope.behaviour'] returns 'k'"]
    assert parse_families("[family.z]\nuse = []\n")[1] == [
        "readings.toml: family.z: `use` (behaviours) and at least one reading are required"]
