"""A status told in another language (``toolmaze_gym.status_phrases.status_said_in``,
grading version 21, toolmaze-v9 review c1-0091: a Dutch "bezorgd" passed for "in
transit")."""

from __future__ import annotations

import pytest

from toolmaze_gym.mentions import mentions
from toolmaze_gym.status_phrases import status_said_in, status_told, statuses_claimed

REF = ("Bestelling SO-GZFWHZWA (tracking 1Z2ABY051GDKCRR8BP) staat op 'in transit' bij "
       "UPS, laatst gescand in Zürich, verwacht op maandag 24 augustus.")


@pytest.mark.parametrize(("text", "code"), [
    (REF, "nl"),  # the translator's output keeps the English status quoted
    ("Bestelling SO-GZFWHZWA is onderweg met UPS, verwachte levering maandag.", "nl"),
    ("Het pakket is nog niet bezorgd, het is onderweg.", "nl"),  # negated: no claim
    ("Das Paket ist unterwegs und wird am Montag zugestellt.", "de"),  # a plan
    ("Le colis est en transit, il sera livré lundi.", "fr"),
    ("El pedido está en camino; entrega prevista el lunes.", "es"),
    ("Il pacco è in transito, consegna prevista lunedì.", "it"),
    ("A encomenda está em trânsito.", "pt"),
    ("Paczka jest w drodze.", "pl"),
])
def test_in_transit_told_in_the_texts_language(text, code):
    assert status_said_in(text, "in transit", code)


@pytest.mark.parametrize(("text", "code"), [
    ("Bestelling SO-GZFWHZWA is bezorgd door UPS, laatst gescand in Zürich.", "nl"),
    ("Das Paket wurde zugestellt.", "de"),
    ("Le colis a été livré.", "fr"),
    ("El pedido fue entregado.", "es"),
    ("Il pacco è stato consegnato.", "it"),
    ("A encomenda foi entregue.", "pt"),
    ("Paczka została doręczona.", "pl"),
    ("Das Paket ist storniert.", "de"),
    ("Il pacco è in consegna oggi.", "it"),  # out for delivery is another status
    ("Staat op 'in transit', maar is al bezorgd.", "nl"),  # two statuses
    ("Bestelling SO-GZFWHZWA, laatst gescand in Zürich.", "nl"),  # none
])
def test_another_or_no_status_is_not_in_transit(text, code):
    assert not status_said_in(text, "in transit", code)


def test_delivered_told_in_dutch():
    assert statuses_claimed("Is bezorgd door UPS.", "nl") == {"delivered"}
    assert status_said_in("Uw pakket is afgeleverd.", "delivered", "nl")
    assert not status_said_in("Uw pakket wordt vandaag bezorgd.", "delivered", "nl")


def test_an_english_status_in_a_sentence_stays_as_it_was():
    assert status_told("UPS has created the shipping label", "label created")
    assert not status_told("the label has not been created", "label created")


def test_a_negation_denies_only_its_own_clause():
    assert status_said_in("Nog niet bezorgd, maar onderweg met UPS.", "in transit", "nl")


@pytest.mark.parametrize("text", [
    "Your flight is on time (no delay) and lands at 14:35 Milan time.",
    "AZ1234 is running on time.", "No delays reported for the flight.",
    "The flight is scheduled to land at 14:35.",
])
def test_a_scheduled_flight_told_as_on_time(text):
    """toolmaze-v13 sweep c4-0035: "is on time (no delay)" failed for not saying
    "scheduled" (grading version 30)."""
    assert mentions(text, "flight_status", "scheduled")


@pytest.mark.parametrize("text, value", [
    ("The flight is not on time today.", "scheduled"),
    ("Your flight lands at 14:35.", "scheduled"),
    ("The flight is on time.", "delayed"),
    ("It is running late by 40 minutes.", "scheduled"),
])
def test_no_other_or_denied_flight_status(text, value):
    assert not mentions(text, "flight_status", value)


def test_a_delayed_flight_told_in_other_words():
    assert mentions("Bad news: the flight is running late.", "flight_status", "delayed")
    assert not mentions("The flight is not late.", "flight_status", "delayed")
