"""Records the user made before the episode: price alerts, invoices, payments, automations.

A person asks "delete my alert ALR-…", "refund payment PAY-…" or "cancel the
automation SCH-…" about things that already exist, so the world keeps a few of
each, with ids the query can state (like flight bookings and itineraries). Every
record draws from its own hashing keys (``Records`` / kind / index), so adding this
family changes no other fact of the world. Tools copy a record into the episode
state on first use; what an Action changes lives there, never here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from functools import cached_property

from toolmaze_gym import hashing
from toolmaze_gym.world.base import Facts

N_ALERTS = 24
N_INVOICES = 24
N_PAYMENTS = 24
N_SCHEDULES = 24
INVOICE_TERMS_DAYS = 30
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_INVOICE_CURRENCIES = ("USD", "EUR", "GBP", "CHF", "CAD", "AUD")
_SERVICES = ("Consulting services", "Website redesign", "Quarterly maintenance",
             "Translation of product manual", "Photography session", "Logo design",
             "Data migration", "Workshop facilitation", "Copywriting package",
             "IT support retainer")


@dataclass(frozen=True)
class PriceAlert:
    alert_id: str
    symbol: str
    target_price: float
    created_at: str


@dataclass(frozen=True)
class Invoice:
    invoice_id: str
    customer_email: str
    description: str
    amount: float
    currency: str
    issued: str  # ISO date the invoice was sent (it is open)
    due_date: str


@dataclass(frozen=True)
class Payment:
    payment_id: str
    account_id: str
    recipient: str
    amount: float  # in the paying account's currency
    currency: str
    created_at: str


@dataclass(frozen=True)
class Automation:
    schedule_id: str
    site: str
    scene: str
    run_at: str  # ISO 8601 UTC, after ``world.now``


def _id(prefix: str, length: int, *key: object) -> str:
    return f"{prefix}-" + hashing.token(_ALPHABET, length, *key, "id")


class Records(Facts):
    """Pre-existing user records, by id; built lazily, one kind at a time."""

    def _ago(self, *key: object) -> str:
        t = self.world.now - timedelta(days=hashing.randint(1, 20, *key, "ago"),
                                       minutes=15 * hashing.randint(0, 60, *key, "ago-min"))
        return t.strftime("%Y-%m-%dT%H:%M:%SZ")

    @cached_property
    def alerts(self) -> dict[str, PriceAlert]:
        """Active price alerts a little below each stock's current price."""
        markets = self.world.markets
        out: dict[str, PriceAlert] = {}
        for i in range(N_ALERTS):
            k = self.key("alert", i)
            c = hashing.choice(markets.companies, *k, "symbol")
            share = hashing.randint(80, 95, *k, "share") / 100
            target = round(markets.quote(c).price * share, 2)
            aid = _id("ALR", 8, *k)
            out[aid] = PriceAlert(aid, c.symbol, target, self._ago(*k))
        return out

    @cached_property
    def invoices(self) -> dict[str, Invoice]:
        """Open invoices sent to people of the directory, one line each."""
        people = self.world.people.people
        out: dict[str, Invoice] = {}
        for i in range(N_INVOICES):
            k = self.key("invoice", i)
            issued = self.world.now.date() - timedelta(days=hashing.randint(1, 20, *k, "ago"))
            iid = _id("INV", 10, *k)
            out[iid] = Invoice(
                iid, hashing.choice(people, *k, "who").email,
                hashing.choice(_SERVICES, *k, "what"),
                float(hashing.randint(12, 480, *k, "amount") * 25),
                hashing.choice(_INVOICE_CURRENCIES, *k, "ccy"), issued.isoformat(),
                (issued + timedelta(days=INVOICE_TERMS_DAYS)).isoformat())
        return out

    @cached_property
    def payments(self) -> dict[str, Payment]:
        """Completed payments from the user's accounts, in each account's currency."""
        markets, people = self.world.markets, self.world.people.people
        out: dict[str, Payment] = {}
        for i in range(N_PAYMENTS):
            k = self.key("payment", i)
            acc = hashing.choice(markets.accounts, *k, "account")
            pid = _id("PAY", 10, *k)
            amount = round(hashing.uniform(20, 2500, *k, "amount"), 2)
            out[pid] = Payment(pid, acc.id, hashing.choice(people, *k, "who").email,
                               amount, acc.currency, self._ago(*k))
        return out

    @cached_property
    def automations(self) -> dict[str, Automation]:
        """Scenes scheduled to run at a home in the next two weeks."""
        devices, cities = self.world.devices, self.world.geo.city_names
        out: dict[str, Automation] = {}
        for i in range(N_SCHEDULES):
            k = self.key("automation", i)
            run = (self.world.now.replace(minute=0)
                   + timedelta(days=hashing.randint(1, 14, *k, "day"),
                               hours=hashing.randint(0, 23, *k, "hour")))
            sid = _id("SCH", 8, *k)
            out[sid] = Automation(sid, hashing.choice(cities, *k, "site"),
                                  hashing.choice(devices.scene_names, *k, "scene"),
                                  run.strftime("%Y-%m-%dT%H:%M:%SZ"))
        return out

    # -- samplers for the query's literals -----------------------------------------

    def sample_alert_id(self, key: str) -> str:
        return hashing.choice(sorted(self.alerts), "alert", key)

    def sample_invoice_id(self, key: str) -> str:
        return hashing.choice(sorted(self.invoices), "invoice", key)

    def sample_payment_id(self, key: str) -> str:
        return hashing.choice(sorted(self.payments), "payment", key)

    def sample_automation_id(self, key: str) -> str:
        return hashing.choice(sorted(self.automations), "automation", key)
