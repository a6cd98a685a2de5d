"""The toolmaze-v11 review's and play-test's library findings, each held by a check
that fails on the v11 wording (tests/data/reviews/v11, tests/data/played/v11-g25)."""

from __future__ import annotations

import dataclasses
import re

from toolmaze_gym.grading.all_of_it import says_all
from toolmaze_gym.tasks.graded_figures import ungraded_figure_problems
from toolmaze_gym.tasks.plurals import count_problems
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.suite import get_task
from toolmaze_gym.world.base import load_data

LIB = {sc.id: sc for sc in load_library()}


def _with_param(sc, name, **changes):
    params = tuple(dataclasses.replace(p, **changes) if p.name == name else p
                   for p in sc.params)
    return dataclasses.replace(sc, params=params)


def test_a_count_that_can_be_one_before_a_plural_noun_is_reported():
    """toolmaze-v11 c1-0074: "plus 1 extra hours at 75 EUR an hour"."""
    sc = LIB["fin-cash-sale-paid-invoice"]
    assert count_problems(sc) == []
    found = count_problems(_with_param(sc, "hours", choices=(1, 2, 3, 4)))
    assert any('"{hours} extra hours" can read "1 extra hours"' in p for p in found), found
    assert any(".steps." in p for p in found), found  # the invoice line says it too
    assert count_problems(_with_param(sc, "hours", choices=(), range=(1, 5))) != []
    assert [p for s in LIB.values() for p in count_problems(s)] == []


def test_c1_0077_says_what_the_budget_post_carries():
    """v11 c1-0077 said "convert the taxed total" (with the order's shipping or not) and
    "post all of it" (which asked the stock count of the check): each phrasing now names
    the subtotal plus tax and lists what it posts."""
    v11 = get_task("tmz-v11-c1-0077", "toolmaze-v11").query
    assert says_all(v11, ("post",)) and "taxed total" in v11
    sc = LIB["sh-restock-by-sku-budget-log"]
    for phrasing in sc.phrasings:
        assert "subtotal plus tax" in phrasing and "taxed total" not in phrasing
        assert not says_all(phrasing, ("post", "tell", "send")), phrasing
    assert ungraded_figure_problems(sc) == []


def test_a_subtotal_named_as_a_figure_is_still_reported():
    """"the subtotal plus tax" names a sum; "the subtotal and the tax", or v8 c3-0001's
    "the order's subtotal plus the tax due in Berlin on it", asks the subtotal."""
    sc = LIB["sh-restock-by-sku-budget-log"]
    for said in ("the subtotal and the tax", "the subtotal plus the tax due"):
        asked = dataclasses.replace(sc, phrasings=tuple(
            p.replace("the subtotal plus tax", said) for p in sc.phrasings))
        assert len(ungraded_figure_problems(asked)) == len(sc.phrasings), said


def test_a_language_is_said_once_and_the_weather_is_where_the_parcel_goes():
    """v11 c2-0074: "(they read Polish, Polish)", and Cairo's weather for a parcel."""
    assert "Polish, Polish" in get_task("tmz-v11-c2-0074", "toolmaze-v11").query
    sc = LIB["sh-parcel-rain-neighbour"]
    assert not any(re.search(r"\b(\w+), \{language\}", p) for p in sc.phrasings)
    assert sc.param_by_name["city"].derived_from == "order"


_GENDERED = re.compile(r"^[¡]?(Bienvenid[oa]|Benvenut[oa]|Bem-vind[oa])\b")


def test_a_welcome_the_library_translates_greets_every_guest_alike():
    """v11 c4-0076: the Spanish welcome said "¡Bienvenido" to Hana; the templates the
    library's texts fill now greet without a gender."""
    texts = {a.text for sc in LIB.values() for st in sc.steps for a in st.args if a.text}
    used = [t for t in load_data("phrasebook_templates.json")["templates"]
            if t.get("en") in texts]
    welcomes = [t for t in used if "welcome" in t["en"].lower()]
    assert len(welcomes) >= 3
    said = {lang: v for t in welcomes for lang, v in t.items() if not lang.startswith("_")}
    assert said and not any(_GENDERED.search(v) for t in welcomes
                            for lang, v in t.items() if not lang.startswith("_")), said
