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


# A count written before a plural noun ("{hours} extra hours", "{qty} units"): the
# nouns a request counts, with the words that may stand between.
_COUNTED = re.compile(r"\{(\w+)\}\s+(?:(?:extra|more|additional|other|further)\s+)?"
                      r"(units|hours|days|nights|weeks|months|years|minutes|shares|coins"
                      r"|items|people|guests|tickets|seats|colleagues|travellers|pieces)\b")


def _can_be_one(p) -> bool:
    if p.value is not None:
        return p.value == 1
    if p.choices:
        return 1 in p.choices
    return bool(p.range) and p.range[0] <= 1 <= p.range[1]


def count_problems(sc) -> list[str]:
    """Each text that writes a count that can be 1 before a plural noun: "plus 1 extra
    hours at 75 EUR an hour" (toolmaze-v11 c1-0074) reads as a careless writer's."""
    texts = [(f"phrasings[{k}]", t) for k, t in enumerate(sc.phrasings)]
    texts += [(f"steps.{st.id}.{a.role}", a.text) for st in sc.steps for a in st.args if a.text]
    out = []
    for where, text in texts:
        for m in _COUNTED.finditer(text):
            p = sc.param_by_name.get(m.group(1))
            if p is not None and _can_be_one(p):
                out.append(f"{sc.file}: {sc.id}.{where}: \"{m.group(0)}\" can read \"1 "
                           f"{m.group(0).split(None, 1)[1]}\": draw {p.name} above 1, or "
                           "word the count so one reads right")
    return out
