"""The toolmaze-v15 review's and play-test's library findings, each held by a check that
fails on the v15 library it was found in.

The library may not change while it is the shipped suite's (the rebuild test,
``test_suite_v2.test_suite_regenerates_bit_identically``, holds the scenario files to the
manifest), so the fixes wait for the next build in ``tests/data/reviews/v15/library-next.patch``
and each check is a strict xfail until then: applying the patch turns them into passes."""

from __future__ import annotations

import pytest

from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.suite import get_task

LIB = {sc.id: sc for sc in load_library()}
NEXT = pytest.mark.xfail(strict=True, reason="for the next suite: apply "
                         "tests/data/reviews/v15/library-next.patch before its build")


@NEXT
def test_c2_0044_the_payment_note_the_request_asks_for_is_graded():
    """v15 play-test p4, c2-0044 P3: "add a note saying what it's for" left the payment's
    note unset in the task, so a payment without it passed. The note now asks the coin,
    and every phrasing asks a note that says it."""
    old = get_task("tmz-v15-c2-0044", "toolmaze-v15")
    pay = next(s for s in old.slots if s.id == "s4")
    assert "note" not in {i.role for i in pay.inputs}
    sc = LIB["fin-pay-friend-for-crypto"]
    note = next(a for a in sc.step_by_id["pay"].args if a.role == "note")
    assert note.mention == ("asset",)
    for phrasing in sc.phrasings:
        assert "note" in phrasing and ("what it's for" in phrasing or "coin" in phrasing)
    task = ScenarioGenerator().generate(sc, "C2", 0, "x-0")
    pay = next(s for s in task.slots if any(i.role == "note" for i in s.inputs))
    asked = {m[1] for i in pay.inputs if i.role == "note" for m in i.mentions}
    assert asked and asked <= {"ETH", "SOL", "ADA", "DOT", "LINK", "AVAX"}


@NEXT
def test_c1_0048_the_claim_mail_tells_the_change_it_was_asked_to_work_out():
    """v15 review r3, c1-0048: "compute the percentage change, write to ... about it" and a
    mail with a wrong change (or none) passed: the change was asked of nothing. The mail
    now asks it, and every phrasing says the mail carries it and from which price."""
    old = get_task("tmz-v15-c1-0048", "toolmaze-v15")
    mail = next(s for s in old.slots if s.id == "s4")
    assert not any(m[0] == "percent_change" for i in mail.inputs for m in i.mentions)
    sc = LIB["sh-price-drop-claim"]
    body = next(a for a in sc.step_by_id["mail"].args if a.role == "body")
    assert "change.percent_change" in body.mention
    task = ScenarioGenerator().generate(sc, "C1", 0, "x-0")
    mail = next(s for s in task.slots if s.id == "s4")
    assert any(m[0] == "percent_change" for i in mail.inputs for m in i.mentions)
