"""Records made before the episode: stated by id, seen by the tools, changed only in the episode."""

from __future__ import annotations

import re

import pytest

from tests.corpus.helpers import call, status_of
from toolmaze_gym import values
from toolmaze_gym.corpus import EpisodeState
from toolmaze_gym.tasks.units import Ext
from toolmaze_gym.world import World

ID_TYPES = {"price_alert_id": "alerts", "invoice_id": "invoices", "payment_id": "payments",
            "automation_id": "automations"}


def test_records_are_fixed_by_the_seed_and_differ_across_seeds():
    a, b, c = World(5).records, World(5).records, World(6).records
    for kind in ID_TYPES.values():
        assert getattr(a, kind) == getattr(b, kind)
        assert set(getattr(a, kind)).isdisjoint(getattr(c, kind))


@pytest.mark.parametrize(("type_", "kind"), sorted(ID_TYPES.items()))
def test_a_query_can_state_an_existing_record_id(world, type_, kind):
    t = values.get(type_)
    drawn = {t.sample(world, str(k)) for k in range(20)}
    assert drawn <= set(getattr(world.records, kind)) and len(drawn) > 3
    assert all(re.fullmatch(t.schema["pattern"], v) for v in drawn)
    # v1 task assembly still takes such ids from the call that made them
    assert t.stated and not t.literal and not Ext("x", type_).literal


def test_records_are_plausible(world):
    r = world.records
    for a in r.alerts.values():
        price = world.markets.quote(world.markets.company(a.symbol)).price
        assert 0 < a.target_price < price
    assert all(i.issued < world.today <= i.due_date for i in r.invoices.values())
    assert all(world.markets.account(p.account_id).currency == p.currency and p.amount > 0
               for p in r.payments.values())
    assert all(s.run_at > world.now_iso for s in r.automations.values())


def test_an_existing_invoice_can_be_voided_once(sim, world):
    iid, inv = next(iter(world.records.invoices.items()))
    st = EpisodeState()
    body = call(sim, st, "void_invoice", invoice_id=iid)
    assert body["invoice_id"] == iid and body["status"] == "void"
    assert status_of(sim, st, "void_invoice", invoice_id=iid) == 409
    assert status_of(sim, st, "send_invoice", invoice_id=iid) == 409
    # the world is untouched: a fresh episode sees the invoice open again
    sent = call(sim, EpisodeState(), "send_invoice", invoice_id=iid)
    assert sent["status"] == "open" and sent["sent_to"] == inv.customer_email
    assert sent["total"] >= inv.amount and sent["due_date"] == inv.due_date


def test_refunding_an_existing_payment_credits_the_paying_account(sim, world):
    pid, pay = next(iter(world.records.payments.items()))
    st = EpisodeState()
    before = call(sim, st, "get_account_balance", account_id=pay.account_id)["available_balance"]
    body = call(sim, st, "refund_payment", payment_id=pid)
    assert (body["amount"], body["currency"]) == (pay.amount, pay.currency)
    after = call(sim, st, "get_account_balance", account_id=pay.account_id)["available_balance"]
    assert after == pytest.approx(before + pay.amount, abs=0.01)
    assert status_of(sim, st, "refund_payment", payment_id=pid) == 409


def test_an_existing_alert_can_be_deleted_once(sim, world):
    aid = next(iter(world.records.alerts))
    st = EpisodeState()
    assert call(sim, st, "delete_price_alert", alert_id=aid)["deleted"] is True
    assert status_of(sim, st, "delete_price_alert", alert_id=aid) == 404


def test_an_existing_automation_can_be_cancelled_once(sim, world):
    sid, auto = next(iter(world.records.automations.items()))
    st = EpisodeState()
    body = call(sim, st, "cancel_schedule", schedule_id=sid)
    assert (body["scene"], body["status"]) == (auto.scene, "cancelled")
    assert status_of(sim, st, "cancel_schedule", schedule_id=sid) == 409


def test_unknown_ids_are_still_not_found(sim):
    st = EpisodeState()
    assert status_of(sim, st, "refund_payment", payment_id="PAY-AAAAAAAAAA") == 404
    assert status_of(sim, st, "void_invoice", invoice_id="INV-AAAAAAAAAA") == 404
    assert status_of(sim, st, "delete_price_alert", alert_id="ALR-AAAAAAAA") == 404
    assert status_of(sim, st, "cancel_schedule", schedule_id="SCH-AAAAAAAA") == 404
