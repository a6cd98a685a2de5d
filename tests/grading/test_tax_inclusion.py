"""A price told as including tax is the price with tax (grading version 23,
``grading/tax_inclusion.py``; v9-g21 play-test c1-0005 P0 ``wrong-unit-claim-keeps-72.59``:
"unit price including GST is 65.99 USD", the net, beside the right "3 x 72.59")."""

from __future__ import annotations

import pytest

from tests.grading.test_played import PLAYED, played_text, replay_variant
from toolmaze_gym.grading.tax_inclusion import prices, told_the_other_way

SLIP = PLAYED / "v9-g21" / "slips" / "tmz-v9-c1-0005-P0.wrong-unit-claim-keeps-72.59.actions"
WRONG = "unit price including GST is 65.99 USD"
NET, GROSS = frozenset({65.99}), frozenset({72.59})


def test_a_tax_steps_net_is_its_gross_less_the_tax():
    body = {"gross_amount": 72.59, "vat.vat_amount": 6.6, "vat.vat_rate": 10.0,
            "net_amount": 65.99}
    assert prices([("shop.tax", body), ("shop.quote", {"total": 1.0})]) == (NET, GROSS)


@pytest.mark.parametrize(("text", "wrong"), [
    ("unit price including GST is 65.99 USD", [("including GST", 65.99)]),
    ("Unit price incl. GST: 65.99 USD", [("incl. GST", 65.99)]),
    ("72.59 USD net", [("net", 72.59)]),
    ("72.59 plus GST", [("plus GST", 72.59)]),
    ("Unit price incl. Australian GST (10%): 72.59 USD (65.99 net).", []),  # the slip's answer
    ("Quoted unit price 65.99 USD net; with GST 72.59 USD.", []),
    ("65.99 before GST, 72.59 after", []),
    ("Line total incl. GST: 3 x 72.59 = 217.77 USD.", []),
    ("costs 72.59 per unit including 6.6 tax (10%)", []),               # the reference's
    ("Net 65.99, gross 72.59.", []),
    ("65.99 USD", []),                                                  # no label
    # grading version 32 (toolmaze-v14 review c1-0005 ownmult): a label that heads a
    # figure of its own labels that figure, not the one before it
    ("Unit price incl. 10% Australian GST: USD 72.59 (net 65.99).", []),
    ("USD 72.59 (net: USD 65.99)", []),
    ("net 72.59 (65.99 gross)", [("net", 72.59), ("gross", 65.99)]),
    ("72.59 net of GST", [("net", 72.59)]),
])
def test_a_figure_is_read_by_its_tax_label(text, wrong):
    assert told_the_other_way(text, NET, GROSS) == wrong


@pytest.mark.parametrize(("new", "success"), [
    (WRONG, False),
    ("unit price including GST is 72.59 USD", True),
    ("unit price 72.59 USD with GST", True),
    ("unit price excluding GST is 65.99 USD", True),
    ("unit price excluding GST is 72.59 USD", False),
])
def test_the_ticket_tells_the_price_on_its_side_of_tax(tmp_path, new, success):
    text = played_text(SLIP)
    assert WRONG in text
    g, out = replay_variant(SLIP, text.replace(WRONG, new), "tmz-v9-c1-0005-P0", tmp_path)
    assert g["success"] is success, out
    assert ("on the other side of tax: a wrong figure" in out) is not success
