"""Every phrasing says where an order goes, where the grade requires a ship-to city.

toolmaze-v5's c2-0079 graded an order shipped to Buenos Aires (``ship_to_city``)
while its request only said "the tax due in Buenos Aires": a careful reader orders
to the account's own address and fails. A scenario that binds an order's ship-to
city to a stated city must say in every phrasing that the goods go there: the city's
placeholder comes right after "to" ("order 3 to {city}", "delivered to {city}"), or
after a word of sending or living within a few words ("shipped to", "who lives in"), or
the goods are sent "there" after the city is named.
A city named only as the place of a tax or a party is no destination.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

SHIP_ROLE = "ship_to_city"
# a word of sending or living a few words before "in {city}" / "to {city}"
DEST_WORDS = ("ship", "ships", "shipped", "shipping", "deliver", "delivers", "delivered",
              "delivery", "send", "sent", "lives", "live", "i'm", "i am", "we're", "home",
              "arrive", "arrives", "reach", "reaches", "goes", "go", "friend", "gift")
_NEAR = 7  # words between the destination word and the city's placeholder


def says_destination(phrasing: str, param: str) -> bool:
    """Whether the phrasing sends the goods to ``{param}`` (see the module doc)."""
    hole = re.escape("{" + param + "}")
    flat = " ".join(phrasing.split()).casefold().replace("\u2019", "'")
    if re.search(rf"\bto {hole}", flat):
        return True
    words = "|".join(re.escape(w) for w in DEST_WORDS)
    before = rf"\b(?:{words})\b(?:\W+[\w'×{{}}]+){{0,{_NEAR}}}?\W+(?:in|to|at) {hole}"
    # or the city first, then the goods sent "there" ("taxed for {city}, shipped there")
    sent = "ship|shipped|shipping|deliver|delivered|send|sent"
    after = rf"{hole}.*\b(?:{sent})\b(?: it| them)? there\b"
    return re.search(before, flat) is not None or re.search(after, flat) is not None


def ship_to_problems(sc: Scenario) -> list[str]:
    """Every phrasing that leaves unsaid where an order with a stated ship-to goes."""
    where = f"{sc.file}: {sc.id}"
    out = []
    for step in sc.steps:
        for a in step.args:
            if a.role != SHIP_ROLE or a.kind != "param":
                continue
            out += [f"{where}.phrasings[{k}]: step {step.id!r} ships the order to "
                    f"{{{a.ref}}}, but the phrasing does not say the goods go there "
                    f"(say \"to {{{a.ref}}}\", \"delivered to {{{a.ref}}}\", "
                    f"\"shipped to ...\")"
                    for k, p in enumerate(sc.phrasings) if not says_destination(p, a.ref)]
    return out
