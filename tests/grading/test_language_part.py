"""A text asked "phrased in German" inside an English message: the agent's own
German line passes as the translator's tagged line does; a line in English or in
another language, or a German line with the wrong figure, does not."""

from __future__ import annotations

import json

import pytest

from tests.grading._helpers import played

TASK = "tmz-v3-c2-0084"  # quote a German-speaking retailer in Shanghai, price in German
LOOKUPS = [
    'search_products {"query": "Kestrel Essential Building Blocks Set"}',
    'apply_discount {"price": 61.99, "percent_off": 25}',
    'compute_vat {"net_amount": 46.49, "city": "Shanghai"}',
]


def _grade(price_line: str) -> dict:
    body = ("Hello Hugo,\n\nHere is our quote for the Kestrel Essential Building Blocks Set:"
            f"\n\n{price_line}\n\nThat is the list price less our 25% trade discount, plus "
            "Shanghai tax. Review score: 4.3 out of 5.\n\nBest regards")
    draft = {"to": "hugo.dubois@umbrella.co", "subject": "Quote: Kestrel Building Blocks",
             "body": body}
    return played(TASK, "P0", [*LOOKUPS, f"create_draft {json.dumps(draft)}",
                               'send_draft {"draft_id": "{last.draft_id}"}',
                               "finish Quote sent: 52.53 USD, rated 4.3."])


@pytest.mark.parametrize(("line", "success"), [
    ("Preis: 52,53 USD (US-Dollar)", True),
    ("Unser Preis beträgt 52,53 USD inklusive Rabatt und Steuer.", True),
    ("Price: 52.53 USD (US Dollar)", False),        # English, not German
    ("Prix : 52,53 USD (dollar américain)", False),  # French
    ("Preis: 52,35 USD (US-Dollar)", False),         # German, the wrong figure
])
def test_an_own_line_in_the_asked_language_stands_for_the_translation(line, success):
    assert _grade(line)["success"] is success
