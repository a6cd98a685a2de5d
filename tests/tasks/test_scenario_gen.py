"""Scenario -> task: level patterns, exactness, mentions, and the solvability check."""

from __future__ import annotations

import dataclasses
import json

import pytest

from toolmaze_gym.corpus.corruption import detectable
from toolmaze_gym.mentions import mentions_all
from toolmaze_gym.tasks.capabilities import capabilities
from toolmaze_gym.tasks.enumeration import enumerate_solutions
from toolmaze_gym.tasks.model import Input, Slot, Source, Task
from toolmaze_gym.tasks.scenario_gen import ScenarioBuildError, ScenarioGenerator
from toolmaze_gym.tasks.scenarios import check_files, load_library
from toolmaze_gym.tasks.solvability import solvability_problems
from toolmaze_gym.tasks.suite import get_task

LIB = {s.id: s for s in load_library()}
CASES = [("fin-invest-price-dip-alert", "C1"), ("fin-invest-price-dip-alert", "C2"),
         ("fin-buy-shares-report-cost", "C3"), ("fin-trip-spending-money", "C4")]


@pytest.fixture(scope="module")
def gen():
    return ScenarioGenerator()


@pytest.fixture(scope="module")
def tasks(gen):
    return {(sid, lv): gen.generate(LIB[sid], lv, "test", f"t-{lv}") for sid, lv in CASES}


@pytest.mark.parametrize(("sid", "level"), CASES)
def test_tasks_have_their_level_pattern(tasks, corpus, sid, level):
    task = tasks[(sid, level)]
    kinds = sorted(corpus.group_by_id[s.group].kind for s in task.branch_slots())
    if level == "C1":
        assert kinds == [] and len(task.solutions) == 1
    elif level == "C2":
        assert len(kinds) == 1 and kinds[0] in ("one_to_one", "one_to_n")
    elif level == "C3":
        assert kinds == ["n_to_n"]
    else:
        assert "n_to_n" in kinds and {"one_to_one", "one_to_n"} & set(kinds)
    lo, hi = {"C1": (5, 7), "C2": (5, 9), "C3": (6, 10), "C4": (8, 15)}[level]
    assert lo <= task.default_path.length <= hi
    assert task.meta["scenario"] == sid and task.meta["goal"] == LIB[sid].goal


@pytest.mark.parametrize(("sid", "level"), CASES)
def test_every_generated_task_is_solvable(tasks, corpus, sid, level):
    assert solvability_problems(tasks[(sid, level)], corpus) == []


def test_the_query_is_a_phrasing_with_the_literals_filled(tasks):
    task = tasks[("fin-invest-price-dip-alert", "C1")]
    assert "{" not in task.query
    for e in task.entities:
        assert str(e["value"]) in task.query
    assert not any(t in task.query for t in task.tools)


def test_free_text_carries_what_it_must_mention(tasks):
    task = tasks[("fin-invest-price-dip-alert", "C1")]
    mail = task.slots[-1]
    body = next(i for i in mail.inputs if i.role == "body")
    types = [m[0] for m in body.mentions]
    # Exactly the asks: the converted price and the alert level with their currencies;
    # the alert id and the ticker are in the template (the reference sends them) but
    # the request never asks the e-mail to carry them.
    assert sorted(types) == ["currency_code", "currency_code", "money_amount", "money_amount"]
    assert mentions_all(body.source.value, body.mentions)
    alert = next(c for c in task.default_path.calls if c.slot == "s4")
    assert alert.response[next(k for k in alert.response if "id" in k.lower())] not in [
        m[1] for m in body.mentions]
    assert ("s4", "price_alert_id") in mail.reads  # the template still names it
    subject = next(i for i in mail.inputs if i.role == "subject")
    assert subject.mentions == ()
    # Serialised mentions survive a round trip; inputs without them carry no key.
    again = Task.from_json(task.to_json())
    assert again.slots[-1].inputs == mail.inputs
    raw = json.loads(task.to_json())
    assert "mentions" not in raw["slots"][0]["inputs"][0]


def test_arguments_are_bound_at_field_level(tasks):
    task = tasks[("fin-invest-price-dip-alert", "C1")]
    convert = task.slots[1]
    fields = {i.role: (i.source.slot, i.source.field) for i in convert.inputs
              if not i.source.is_literal}
    assert fields == {"amount": ("s1", "price"), "base": ("s1", "currency")}


@pytest.mark.parametrize(("sid", "level"), CASES)
def test_no_shown_tool_can_do_a_step_outside_its_slot(tasks, corpus, sid, level):
    task = tasks[(sid, level)]
    caps = capabilities(corpus)
    steps = {st.id: st for st in LIB[sid].steps}
    for slot in task.slots:
        cap = caps[steps[task.meta["steps"][slot.id]].use]
        shown_sides = [s for s in cap.sides if set(s) <= set(task.tools)]
        for side in shown_sides:
            others = [o for o in task.slots if o.id != slot.id and side in o.alternatives]
            assert side in slot.alternatives or others, (slot.id, side)
    distractors = set(task.tools) - set(task.task_tools)
    assert 3 <= len(distractors) <= 5
    task_behaviours = {corpus[t].behaviour for t in task.task_tools}
    assert not {corpus[t].behaviour for t in distractors} & task_behaviours


def test_same_seed_same_task_and_other_seeds_differ():
    sc = LIB["fin-buy-shares-report-cost"]
    a = ScenarioGenerator().generate(sc, "C2", 7, "x").to_json()
    b = ScenarioGenerator().generate(sc, "C2", 7, "x").to_json()
    c = ScenarioGenerator().generate(sc, "C2", 8, "x").to_json()
    assert a == b and a != c


def test_a_level_the_scenario_is_not_written_for_is_refused(gen):
    with pytest.raises(ScenarioBuildError, match="not written for C1"):
        gen.generate(LIB["fin-trip-spending-money"], "C1", 0, "x")


# ---------------------------------------------------------------- the check itself


def _with_query(task: Task, query: str) -> Task:
    return dataclasses.replace(task, query=query)


def test_a_literal_the_query_does_not_state_is_caught(tasks, corpus):
    task = tasks[("fin-invest-price-dip-alert", "C1")]
    symbol = task.slots[0].inputs[0].source.value
    broken = _with_query(task, task.query.replace(symbol, "the stock"))
    assert any(f"literal {symbol!r} is not stated" in p
               for p in solvability_problems(broken, corpus))


def test_a_value_no_earlier_response_holds_is_caught(tasks, corpus):
    task = tasks[("fin-invest-price-dip-alert", "C1")]
    path = task.solutions[0]
    calls = list(path.calls)
    k = next(i for i, c in enumerate(calls) if c.slot == "s3")
    arg = next(n for n, v in calls[k].args.items() if isinstance(v, float))
    calls[k] = dataclasses.replace(calls[k], args={**calls[k].args, arg: 1.23})
    broken = dataclasses.replace(task, solutions=[dataclasses.replace(path,
                                                                      calls=tuple(calls))])
    assert any("not in an earlier response of s1" in p
               for p in solvability_problems(broken, corpus))


def _two_quotes(sim, first: str, second: str) -> Task:
    """Two quotes joined by a percent change: the query tells them apart by ticker."""
    def quote(sid, symbol):
        return Slot(sid, (("get_stock_quote",),),
                    (Input("symbol", "stock_symbol", Source("literal", value=symbol)),))

    def price(sid):
        return Source("slot", slot=sid, type="money_amount", field="price")

    slots = [quote("s1", first), quote("s2", second),
             Slot("s3", (("calculate_percent_change",),),
                  (Input("old", "money_amount", price("s1")),
                   Input("new", "money_amount", price("s2"))))]
    sols = enumerate_solutions(sim, slots)
    return Task("t", "C1", ["Financial"], "How much pricier is MSFT than AAPL, in percent?",
                [], slots, sols, 0, ["calculate_percent_change", "get_stock_quote"])


def test_an_equally_plausible_second_source_is_caught(sim, corpus):
    task = _two_quotes(sim, "AAPL", "MSFT")
    assert solvability_problems(task, corpus) == []
    # If the query could not tell the two quotes apart (the same literal for both),
    # the second price would be as plausible a source as the first.
    s2 = task.slots[1]
    same = dataclasses.replace(s2, inputs=(task.slots[0].inputs[0],))
    broken = dataclasses.replace(task, slots=[task.slots[0], same, task.slots[2]])
    assert any("equally plausible source" in p for p in solvability_problems(broken, corpus))


def test_a_mention_the_agent_never_sees_is_caught(tasks, corpus):
    task = tasks[("fin-invest-price-dip-alert", "C1")]
    mail = task.slots[-1]
    body = next(i for i in mail.inputs if i.role == "body")
    bad = dataclasses.replace(body, mentions=(*body.mentions, ("money_amount", 424242.42)))
    slot = dataclasses.replace(mail, inputs=tuple(bad if i is body else i for i in mail.inputs))
    broken = dataclasses.replace(task, slots=[*task.slots[:-1], slot])
    assert any("never sees" in p for p in solvability_problems(broken, corpus))


# ---------------------------------------------------------------- where faults can go


def test_one_capability_used_twice_builds_at_c1(gen, monkeypatch):
    # The ticket owner and the customer are both looked up by e-mail: one fixed
    # tool serves both steps, which leaves C1 a single valid path. (The scenario can
    # carry no real fault since profile version 4, test_premises.NO_REAL_FAULT; the
    # paths do not depend on that, so the victim check is left out here.)
    monkeypatch.setattr(gen, "victim_problems", lambda task: [])
    task = gen.generate(LIB["off-ticket-update-for-customer"], "C1", "twice", "t")
    assert len(task.solutions) == 1
    tools = [s.alternatives[0] for s in task.slots]
    assert len(tools) > len(set(tools))


def test_a_branch_is_judged_on_the_first_tool_of_each_side(gen, corpus):
    # office.ticket.create_assigned style groups start one side with an Action:
    # the fault engine never corrupts an Action, so that branch takes no implicit
    # fault, while a branch of look-ups (the C3 conversion) does.
    task = gen.generate(LIB["fin-buy-shares-report-cost"], "C3", "test", "t")
    (branch,) = task.branch_slots()
    assert gen.faultable(task, branch.id) and gen.fault_problems(task) == []
    # Creating an invoice is an Action whose confirmation could be corrupted
    # detectably, but a recovery would issue a second invoice: no implicit fault.
    invoice = gen.generate(LIB["fin-invoice-then-walkthrough-call"], "C1", "test", "t")
    slot = next(s for s in invoice.slots if s.alternatives[0][0] in ("create_invoice",
                                                                     "draft_invoice"))
    call = next(c for c in invoice.default_path.calls if c.slot == slot.id)
    assert detectable(corpus[call.tool], call.args, call.response, gen.sim.world)
    assert not gen.faultable(invoice, slot.id)


def test_a_branch_that_cannot_carry_a_fault_gives_way_to_another_step(monkeypatch):
    gen = ScenarioGenerator()
    sc = LIB["fin-invest-price-dip-alert"]
    first = gen.generate(sc, "C2", "give-way", "t")
    (blocked,) = {s.group for s in first.branch_slots()}
    real = gen.faultable
    monkeypatch.setattr(gen, "faultable", lambda task, sid: (
        task.slot_by_id[sid].group != blocked and real(task, sid)))
    monkeypatch.setattr("toolmaze_gym.tasks.scenario_gen.BUILDS", 1)
    again = gen.generate(sc, "C2", "give-way", "t", draws=1)
    (group,) = {s.group for s in again.branch_slots()}
    assert group != blocked and gen.fault_problems(again) == []


COST_BY_NAME = """domain = "Financial"

[[scenario]]
id = "fin-test-cost-by-name"
goal = "Know what some shares of a company cost and mail a part of it to myself."
levels = ["C3"]
phrasings = [
  "{qty} {company} shares: save {pct}% of the cost for {months} months, as {cur}; email it to {me}.",
  "Price {qty} {company} shares, take {pct}% of it times {months} months, {cur}, mail {me}.",
]
cues = { "shown.message" = ["save", "take"], "cost.estimated_cost" = ["cost", "price"] }
[scenario.params]
company = { type = "listed_company_name" }
qty = { type = "quantity", choices = [10, 20] }
pct = { type = "percentage", choices = [10, 25] }
me = { type = "email" }
months = { type = "quantity", choices = [3, 6] }
cur = { type = "currency_code", value = "USD" }
[[scenario.steps]]
id = "cost"
use = "fin_order_cost_by_name"
args = { company = "$company", quantity = "$qty" }
[[scenario.steps]]
id = "part"
use = "calc.percentage_of"
args = { amount = "cost.estimated_cost", percent = "$pct" }
[[scenario.steps]]
id = "saved"
use = "calc.line_total"
args = { amount = "part.result", quantity = "$months" }
[[scenario.steps]]
id = "shown"
use = "text.format_price"
args = { amount = "saved.total", currency = "$cur" }
[[scenario.steps]]
id = "mail"
use = "office.mail.send"
[scenario.steps.args]
to = "$me"
subject = { text = "{company} shares", asks = [] }
body = { text = "{shown.message} saved; the whole order is {cost.estimated_cost}.", asks = ["shown.message", "cost.estimated_cost"] }
"""  # noqa: E501 (a scenario line as authors write it)


def test_sides_that_name_the_read_value_differently_still_branch(tmp_path, corpus):
    # estimate_order_cost returns the cost as estimated_cost, calculate_position_value
    # as market_value: each returns exactly one amount, the one the group provides,
    # so the next step takes that amount whichever side ran.
    path = tmp_path / "financial.toml"
    path.write_text(COST_BY_NAME)
    (sc,), problems = check_files([path])
    assert problems == []
    task = ScenarioGenerator().generate(sc, "C3", "by-type", "t")
    (branch,) = task.branch_slots()
    assert branch.group == "fin_order_cost_by_name" and len(task.solutions) == 2
    amount = task.slots[1].inputs[0]
    assert amount.source.slot == branch.id and amount.source.field == ""
    assert solvability_problems(task, corpus) == []
    costs = {c.tool: c.response for p in task.solutions for c in p.calls if c.slot == "s1"}
    sent = {c.args["amount"] if "amount" in c.args else next(iter(c.args.values()))
            for p in task.solutions for c in p.calls if c.slot == "s2"}
    assert sent == {costs["estimate_order_cost"]["estimated_cost"],
                    costs["calculate_position_value"]["market_value"]}


def test_a_scenarios_two_stations_are_drawn_as_a_linked_journey(gen):
    """World edition 6 (rail_termini): trains to Manchester leave London Euston, so a
    request draws Euston for Manchester and St Pancras for Paris (toolmaze-v8 c4-0067
    said "London St Pancras to Manchester Piccadilly"); an unlinked pair is drawn
    again before the build, not left to the coherence redraws, which the added
    station made run out (tmz-v6-c4-0021's scenario with its seed)."""
    sc = LIB["iot-rail-trip-away-mode"]
    dest = sc.param_by_name["destination"]
    pancras, euston = {"origin": "London St Pancras"}, {"origin": "London Euston"}
    assert not gen._rail_linked(sc, dest, "Manchester Piccadilly", pancras)
    assert gen._rail_linked(sc, dest, "Manchester Piccadilly", euston)
    assert gen._rail_linked(sc, dest, "Paris Gare de Lyon", pancras)
    assert not gen._rail_linked(sc, dest, "Paris Gare de Lyon", euston)
    old = get_task("tmz-v6-c4-0021", "toolmaze-v6")
    gen.generate(sc, old.level, "v7", "coh-tmz-v6-c4-0021")  # builds
