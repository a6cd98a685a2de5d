"""Plural product names: a request that orders "2 Tidewater Active Travel Mug" reads
as a careless writer's (toolmaze-v5 review, issue 28); after a count above one the
name's last word is plural, and a query saying the plural still states the product."""

from __future__ import annotations

import re

# The plural of a product type's last word where "+s" is wrong.
_IRREGULAR = {"knife": "knives", "mouse": "mice"}


def plural_name(name: str) -> str:
    """A product name after a count above one: "2 Tidewater Active Travel Mugs",
    "2 ... Smartwatches"; a name already plural ("Hiking Boots") stays."""
    head, _, last = name.rpartition(" ")
    low = last.lower()
    if low in _IRREGULAR:
        word = last[0] + _IRREGULAR[low][1:]
    elif last.endswith("s"):
        word = last
    elif re.search(r"(ch|sh|x|z)$", low):
        word = last + "es"
    else:
        word = last + "s"
    return f"{head} {word}" if head else word
