"""Scenario premises: parsing, comparison rules, rejection of draws that contradict
them, and the whole library's premises holding on what it generates."""

from __future__ import annotations

import dataclasses

import pytest

from toolmaze_gym.cli import main
from toolmaze_gym.tasks.premises import (
    Operand,
    check_premises,
    draw_lookup,
    holds,
    parse_premise,
    violations,
)
from toolmaze_gym.tasks.scenario_gen import (
    PremiseContradicted,
    ScenarioBuildError,
    ScenarioGenerator,
)
from toolmaze_gym.tasks.scenarios import check_scenario, load_library, parse_file

LIB = {s.id: s for s in load_library()}
LATE = "sh-err-late-parcel-reorder-at-destination"


class Recording(ScenarioGenerator):
    """The generator, keeping the params of its last draw (tasks do not carry them)."""

    def draw_params(self, sc, stream):
        self.last_params = super().draw_params(sc, stream)
        return self.last_params


@pytest.fixture(scope="module")
def gen():
    return Recording()


def _stream(name):
    from toolmaze_gym import hashing

    return hashing.Stream("premise-test", name)


def _slot_of(sc):
    return {s.id: f"s{k + 1}" for k, s in enumerate(sc.steps)}


# ---------------------------------------------------------------- parsing


def test_a_premise_reads_params_step_keys_and_literals():
    p = parse_premise("eta.estimated_delivery > $date")
    assert (p.left.kind, p.left.step, p.left.key, p.op) == ("field", "eta", "estimated_delivery",
                                                             ">")
    assert p.right == Operand("param", "date")
    assert parse_premise("item.name contains 'Blender'").right.value == "Blender"
    assert parse_premise("stock.available >= 2").right.value == 2
    assert parse_premise("stock.in_stock == true").right.value is True


@pytest.mark.parametrize(("text", "why"), [
    ("eta.estimated_delivery after $date", "not `left OP right`"),
    ("eta.estimated_delivery > date", r"is not \$param, step.key"),
    ("3 < 4", "compares two literals"),
])
def test_a_malformed_premise_says_what_is_wrong(text, why):
    with pytest.raises(ValueError, match=why):
        parse_premise(text)


def test_static_check_names_unknown_params_steps_and_keys():
    ps = [parse_premise(t) for t in ("$nope == 'x'", "ghost.price > 3", "item.colour == 'red'",
                                     "item.name > 'B'")]
    out = check_premises(ps, {"product": "product_name"}, {"item": {"name", "price"}}, "w")
    assert "names no param 'nope'" in out[0]
    assert "names no step 'ghost'" in out[1]
    assert "returns no 'colour'" in out[2] and "keys: name, price" in out[2]
    assert "orders a text" in out[3]


def test_a_scenario_file_reports_a_premise_on_a_key_its_step_does_not_return(tmp_path):
    path = LIB[LATE].file
    from toolmaze_gym.tasks.scenarios import library_files

    text = next(p for p in library_files() if p.name == path).read_text(encoding="utf-8")
    bad = text.replace('premises = ["eta.estimated_delivery > leave.datetime"]',
                       'premises = ["eta.colour == \'red\'", "leave.datetime >"]')
    assert bad != text
    f = tmp_path / path
    f.write_text(bad, encoding="utf-8")
    scenarios, problems = parse_file(f)
    assert any("premises[1]" in p and "not `left OP right`" in p for p in problems)
    sc = next(s for s in scenarios if s.id == LATE)
    from toolmaze_gym.corpus import load_corpus

    found = check_scenario(sc, load_corpus())
    assert any("premises[0]" in p and "returns no 'colour'" in p for p in found)


# ---------------------------------------------------------------- comparing


@pytest.mark.parametrize(("op", "a", "b", "expected"), [
    (">", 12.5, "3", True),
    ("<", 2, 10, True),  # numbers, not text ("2" > "10" as text)
    (">", "2026-08-25", "2026-08-24T23:30:00Z", True),  # a day against an instant: days
    (">", "2026-08-24", "2026-08-24T11:45:00+01:00", False),  # same day is not later
    ("<", "2026-08-24T09:00:00Z", "2026-08-24T11:45:00+01:00", True),  # instants
    (">", "2026-08-24T12:00:00+02:00", "2026-08-24T11:00:00Z", False),  # 10:00Z vs 11:00Z
    ("==", "Kitchen ", "kitchen", True),
    ("contains", "Cobalt Compact Blender", "blender", True),
    ("!contains", "Cobalt Compact Blender", "dehumidifier", True),
    ("==", True, True, True),
])
def test_values_compare_as_a_person_reads_them(op, a, b, expected):
    assert holds(op, a, b) is expected


def test_values_that_cannot_be_compared_say_so():
    assert holds(">", "Kitchen", 3) is None
    assert holds("<", "abc", "abd") is None  # ordering texts means nothing here
    assert holds("contains", 3, "x") is None


def test_a_key_no_response_gives_leaves_the_premise_unchecked():
    p = parse_premise("eta.estimated_delivery > $date")
    out = violations([p], lambda o: [] if o.kind == "field" else ["2026-08-20"])
    assert len(out) == 1 and out[0].unchecked and "no response" in out[0].message


# ---------------------------------------------------------------- the generator


def test_the_late_parcel_is_later_than_the_flight(gen):
    sc = LIB[LATE]
    task = gen.generate(sc, "C4", "premise-test", "t")
    got = violations(sc.premises, draw_lookup(gen.corpus, task.solutions, _slot_of(sc),
                                              gen.last_params))
    assert got == []
    eta = next(c.response for c in task.default_path.calls if c.slot == "s1")
    delivery = next(v for k, v in eta.items() if "estimated_delivery" in k)
    assert delivery > "2026-08-24"  # the trip's flight leaves on the 24th


def test_a_draw_that_contradicts_a_premise_is_rejected(gen):
    # the scenario's own premise and its negation: no draw holds both (the negation alone
    # holds on some draws of world edition 3, where a parcel may arrive before the flight)
    sc = dataclasses.replace(LIB[LATE], premises=(
        *LIB[LATE].premises, parse_premise("eta.estimated_delivery <= leave.datetime")))
    with pytest.raises(ScenarioBuildError, match="does not hold"):
        gen.generate(sc, "C4", "premise-test", "t")


def test_a_contradicted_draw_is_redrawn_not_retried_with_other_tools(gen, monkeypatch):
    """Tools read the same facts, so a contradiction ends the draw at once."""
    sc = dataclasses.replace(LIB[LATE], premises=(
        parse_premise("eta.estimated_delivery <= leave.datetime"),))
    builds = []
    real = ScenarioGenerator.build

    def counting(self, *a, **k):
        builds.append(1)
        return real(self, *a, **k)

    monkeypatch.setattr(ScenarioGenerator, "build", counting)
    with pytest.raises(ScenarioBuildError):
        gen.generate(sc, "C4", "premise-test", "t", draws=3)
    assert len(builds) == 3


def test_a_premise_that_holds_on_some_draws_picks_one_of_them(gen):
    """A premise on the currency: a draw that says GBP is rejected, another kept."""
    base = LIB[LATE]
    seen = set()
    for k in range(4):
        sc = dataclasses.replace(base, premises=(parse_premise("$home_currency != 'GBP'"),))
        task = gen.generate(sc, "C4", f"some-draws-{k}", "t")
        seen.add(gen.last_params["home_currency"])
        assert "GBP" not in task.query
    assert seen and "GBP" not in seen
    sc = dataclasses.replace(base, premises=(parse_premise("$home_currency == 'XXX'"),))
    with pytest.raises(PremiseContradicted, match="home_currency"):
        gen.build(sc, "C4", gen._candidates(sc, "C4", _stream("c"), 11)[0],
                  {**gen.last_params, "home_currency": "EUR"}, "t", _stream("b"))


def test_a_product_drawn_from_an_order_is_the_product_in_that_order(gen):
    sc = LIB[LATE]
    gen.generate(sc, "C4", "premise-order", "t")
    params = gen.last_params
    commerce = gen.sim.world.commerce
    order = commerce.orders[params["order"]]
    assert params["product"] == commerce.by_id(order.lines[0][0]).name


# ---------------------------------------------------------------- the library


WITH_PREMISES = sorted(sid for sid, sc in LIB.items() if sc.premises)


def _build(gen, sc, seed):
    last = None
    for level in sc.levels:
        try:
            return gen.generate(sc, level, seed, "t")
        except ScenarioBuildError as exc:
            last = exc
    raise AssertionError(f"{sc.id} builds at none of {sc.levels}: {last}")


def _library_problems(gen, seed, ids):
    bad = []
    for sid in ids:
        sc = LIB[sid]
        try:
            task = _build(gen, sc, seed)
        except AssertionError as exc:
            bad.append(str(exc))
            continue
        got = violations(sc.premises, draw_lookup(gen.corpus, task.solutions, _slot_of(sc),
                                                  gen.last_params))
        bad += [f"{sid}: {v.message}" for v in got]
    return bad


# Scenarios with no step a real fault can fall on at their levels since faults skip what
# an agent can do without (profile version 4: e-mail templates and a city's country are
# the agent's own; corpus.derivations.can_do_without). The suite builds without them;
# each must still fail for that reason, so the list cannot go stale. Profile version 5
# (faults.skippable) adds the check-in scenarios whose one faultable step was the airport
# lookup of an arrival code, whose city and time zone a careful agent knows.
NO_REAL_FAULT = frozenset({
    "eh-away-scene-at-takeoff", "eh-welcome-home-when-return-flight-lands",
    "et-checkin-seat-local-arrival", "ut-checkin-and-tell-home-landing-time",
    "ut-checkin-and-text-departure-local",
    "gen-baking-livestream-for-viewers-abroad", "gen-landing-time-pickup-text",
    "gen-long-haul-arrival-push", "iot-holiday-away-mode", "off-client-reply-draft-translated",
    "off-close-ticket-thank-assignee", "off-ticket-tracker-sheet",
    "off-ticket-update-for-customer", "sh-office-restock-by-sku", "sh-reorder-supplies-by-sku",
    "tr-strike-cancel-flight-go-by-rail",
})


def test_every_scenario_builds_and_its_premises_hold_on_what_it_generates(gen):
    """The whole library, one task each: premises are checked again on the built
    task (not trusted from the generator), and no premise makes a scenario unbuildable."""
    assert len(WITH_PREMISES) >= 30
    problems = _library_problems(gen, "library", sorted(LIB))
    unbuilt = {p.split(" builds at none", 1)[0] for p in problems if " builds at none" in p}
    assert unbuilt >= NO_REAL_FAULT, sorted(NO_REAL_FAULT - unbuilt)
    assert _unbuildable(gen, "library", unbuilt - NO_REAL_FAULT) == []
    assert [p for p in problems if " builds at none" not in p] == []


def _unbuildable(gen, seed, names):
    """The scenarios among `names` that build on none of four further draws of `seed`.

    Since the coherence rules reject flights on routes their carrier does not fly (issue
    28, round 3), a two-flight or booked-trip scenario can run out of redraws on one seed
    (tr-two-guests-one-driver, two independent flights and a local driver, builds on
    about two seeds in five); unbuildable is building on none of five.
    """
    return sorted(sid for sid in names
                  if all(_library_problems(gen, f"{seed}-{k}", [sid]) for k in range(2, 6)))


# Scenarios that build on the reference seed but on no draw of one other seed, each for
# a reason the premises state on purpose. tr-offsite-two-cities (one C4 errand since issue
# 28) wants the second flight to land on the offsite day in UTC; no lib-d draw of it does.
# eh-good-morning-after-train-home runs its "good morning" scene when the train is home,
# and since the scene_hours rule (v6 review) that must be a local morning hour; no lib-d
# draw of the train's arrival is one.
SEED_UNBUILT = {"lib-d": frozenset({"tr-offsite-two-cities", "eh-good-morning-after-train-home"}),
                # on world edition 10 lib-b's draws of it again have no flight that leaves
                # after the train and lands on the check-in day (lib-c still builds it)
                "lib-b": frozenset({"tr-train-then-flight-shared-hotel"})}


# lib-b and lib-c were an xfail since issue 16 (no C4 draw of tr-train-then-flight-shared-hotel
# had the flight leave after the train and land on the check-in day); on world edition 9 both
# passed (they xpassed in the CI of 2026-12-06), so they guard again, lib-b less that goal.
@pytest.mark.slow
@pytest.mark.parametrize("seed", ["lib-b", "lib-c", "lib-d"])
def test_premises_hold_on_other_seeds(gen, seed):
    problems = _library_problems(gen, seed, sorted(LIB))
    unbuilt = {p.split(" builds at none", 1)[0] for p in problems if " builds at none" in p}
    allowed = NO_REAL_FAULT | SEED_UNBUILT.get(seed, frozenset())
    assert _unbuildable(gen, seed, unbuilt - allowed) == []
    assert [p for p in problems if " builds at none" not in p] == []


def test_scenarios_check_reports_a_premise_problem(tmp_path, capsys):
    from toolmaze_gym.tasks.scenarios import library_files

    src = next(p for p in library_files() if p.name == LIB[LATE].file)
    f = tmp_path / src.name
    f.write_text(src.read_text(encoding="utf-8").replace(
        "eta.estimated_delivery > leave.datetime", "eta.estimated_delivery > $nowhere"),
        encoding="utf-8")
    assert main(["scenarios", "check", "--no-trial", str(f)]) == 1
    assert "names no param 'nowhere'" in capsys.readouterr().out


def test_scenarios_check_names_the_premise_no_draw_satisfies(tmp_path, capsys):
    from toolmaze_gym.tasks.scenarios import library_files

    src = next(p for p in library_files() if p.name == LIB[LATE].file)
    f = tmp_path / src.name
    f.write_text(src.read_text(encoding="utf-8").replace(
        "eta.estimated_delivery > leave.datetime", "eta.estimated_delivery < leave.datetime"),
        encoding="utf-8")
    assert main(["scenarios", "check", "--tries", "1", str(f)]) == 1
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if LATE in ln)
    assert "C4 no (premise 'eta.estimated_delivery < leave.datetime' does not hold" in line
