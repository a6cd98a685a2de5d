"""The world's generated names and sentences read as a careful writer's (issue 28,
the toolmaze-v5 review of c1-0091): no doubled period after a name that ends in one
("Meta Platforms Inc.."), no "a" before a vowel ("a internet content company")."""

from __future__ import annotations

import re

import pytest

from toolmaze_gym.corpus import EpisodeState, Simulator
from toolmaze_gym.tasks.scenario_gen import _fill
from toolmaze_gym.tasks.scenarios import load_library

DOUBLE_PERIOD = re.compile(r"(?<!\.)\.\.(?!\.)")
# "a" before a vowel sound; "a university", "a one-..." and "a US..." are fine
A_VOWEL = re.compile(r"\ba (?!uni|use|one|eu|us\b|ur)[aeiouAEIOU]\w*")


def _odd(text: str) -> list[str]:
    return DOUBLE_PERIOD.findall(text) + A_VOWEL.findall(text)


@pytest.fixture(scope="module")
def sim3() -> Simulator:
    return Simulator().at_edition(3)


def test_company_descriptions_read_well(sim3):
    bad = {}
    for c in sim3.world.markets.companies:
        resp = sim3.call("company_overview", {"symbol": c.symbol}, EpisodeState()).to_json()
        if _odd(resp):
            bad[c.symbol] = _odd(resp)
    assert bad == {}


def test_news_stories_read_well(sim3):
    news, geo = sim3.world.news, sim3.world.geo
    bad = [(t, city, a.headline + " " + a.description)
           for t in news.templates for city in geo.city_names[:40]
           for a in [news.top_story(t, city)] if _odd(a.headline + " " + a.description)]
    assert bad == []


def test_a_name_ending_a_sentence_keeps_one_period():
    """c1-0091's request read "looking at Meta Platforms Inc.. Get the share price";
    a name's own period ends the sentence, one mid-sentence stays. (The library no
    longer ends a sentence on such a name, tasks.name_stops; the fill still copes.)"""
    sc = next(s for s in load_library() if s.id == "fin-investor-club-brief")
    said = ("Our investor club is looking at {company}. Get the share price.",
            "Please write a quick brief on {company}: current price.")
    ends, inside = (_fill(sc, p, {"company": "Meta Platforms Inc."}) for p in said)
    assert "looking at Meta Platforms Inc. Get the share price" in ends and not _odd(ends)
    assert "a quick brief on Meta Platforms Inc.: current price" in inside


def test_an_article_fits_the_value_it_stands_before():
    """v5 requests read "a urgent ticket" and "a Obsidian Trail Power Bank": "a" before
    a value said with a vowel is "an"; "a high" and "a one-" stay."""
    lib = {s.id: s for s in load_library()}
    sc = next(s for s in lib.values() if any("open a {priority}-priority ticket" in p
                                             for p in s.phrasings))
    phr = next(p for p in sc.phrasings if "open a {priority}-priority ticket" in p)
    assert "open an urgent-priority ticket" in _fill(sc, phr, {"priority": "urgent"})
    assert "open a high-priority ticket" in _fill(sc, phr, {"priority": "high"})
    two = next(s for s in lib.values() if any("buy a {first} and a {second}" in p
                                              for p in s.phrasings))
    phr = next(p for p in two.phrasings if "buy a {first} and a {second}" in p)
    said = _fill(two, phr, {"first": "Veloxa Trail Travel Mug",
                            "second": "Obsidian Trail Power Bank"})
    assert "buy a Veloxa Trail Travel Mug and an Obsidian Trail Power Bank" in said
    assert not _odd(said)


def test_no_product_name_says_a_word_twice(sim3):
    """v5 sold a "Granite Smart Smart Plug" (44 such names): the adjective drawn was
    the product type's own first word. Edition 3's catalogue has none; edition 2's
    keeps them, as v5 was played on them."""
    def doubled(world) -> list[str]:
        return [n for n in world.commerce.product_names
                if len({w.lower() for w in n.split()}) < len(n.split())]
    assert doubled(sim3.world) == []
    assert doubled(Simulator().at_edition(2).world)  # the v5 world, unchanged


def test_a_count_above_one_orders_plural_products():
    """v5 asked to "order 2 Tidewater Active Travel Mug": after a count above one the
    product is plural, after one it is not, and the plural query still states it."""
    from toolmaze_gym.tasks.queries import stated_as
    sc = next(s for s in load_library() if any("buy {qty} {product}" in p for p in s.phrasings))
    phr = next(p for p in sc.phrasings if "buy {qty} {product}" in p)
    base = {p.name: "x" for p in sc.params}
    two = _fill(sc, phr, {**base, "qty": 2, "product": "Tidewater Active Travel Mug"})
    one = _fill(sc, phr, {**base, "qty": 1, "product": "Tidewater Active Travel Mug"})
    knives = _fill(sc, phr, {**base, "qty": 3, "product": "Lumen Pro Chef's Knife"})
    assert "buy 2 Tidewater Active Travel Mugs" in two
    assert "buy 1 Tidewater Active Travel Mug " in one
    assert "buy 3 Lumen Pro Chef's Knives" in knives
    assert stated_as(knives, "product_name", "Lumen Pro Chef's Knife")


def test_a_choice_gone_from_the_catalogue_is_not_drawn(sim3):
    """Scenarios list "Granite Smart Smart Plug" among their choices; edition 3 does
    not sell it, so its requests never name it, while v5's draws stay as built."""
    from toolmaze_gym import hashing
    from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
    sc = next(s for s in load_library() for p in s.params
              if "Granite Smart Smart Plug" in (p.choices or ()))
    param = next(p for p in sc.params if "Granite Smart Smart Plug" in (p.choices or ()))
    new, old = ScenarioGenerator(sim3), ScenarioGenerator(Simulator().at_edition(2))
    drawn = {new._draw(param, hashing.Stream("t", i), 0) for i in range(200)}
    assert "Granite Smart Smart Plug" not in drawn and len(drawn) > 1
    assert "Granite Smart Smart Plug" in {old._draw(param, hashing.Stream("t", i), 0)
                                          for i in range(200)}


def test_a_generated_price_in_a_sentence_loses_its_label(sim3):
    """v5's c2-0001 thanked a customer: "We received Price: 7,620.00 EUR (Euro) for
    invoice ...". A generated text in a template's hole reads as part of the sentence;
    a text that keeps the label still mentions the price."""
    from toolmaze_gym.mentions import mentions
    from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
    sc = next(s for s in load_library() if s.id == "up-invoice-paid-thank-customer")
    task = ScenarioGenerator(sim3).generate(sc, "C2", 0, "t")
    texts = [i.source.value for s in task.slots for i in s.inputs
             if i.source.is_literal and str(i.source.value).startswith("Thank you")]
    assert texts and all(re.search(r"We received [\d,.]+ [A-Z]{3} \(", t) for t in texts)
    price = "Price: 7,620.00 EUR (Euro)"
    assert mentions("We received 7,620.00 EUR (Euro).", "text", price)
    assert mentions(f"We received {price}.", "text", price)
    assert not mentions("We received 7,620.00 EUR.", "text", "All-hands: 7 people")


def _texts_of(sim, scenario: str, level: str, seed: int = 0) -> list[str]:
    """The texts a task built from ``scenario`` writes (payloads, messages)."""
    from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
    sc = next(s for s in load_library() if s.id == scenario)
    task = ScenarioGenerator(sim).generate(sc, level, seed, "t")
    return [i.source.value for s in task.slots for i in s.inputs
            if i.source.is_literal and isinstance(i.source.value, str)
            and len(i.source.value.split()) > 4]


def test_a_headline_in_a_text_ends_its_sentence(sim3):
    """v5 c3-0000 read "... a comet visible next month All-hands: 17:00 ...": a
    summary of a headline in a hole before a new sentence gets its period."""
    texts = _texts_of(sim3, "gen-friday-digest-screen", "C3")
    assert texts and not [t for t in texts if re.search(r"[a-z0-9] All-hands:", t)]
    assert any(". All-hands:" in t for t in texts)


def test_a_fahrenheit_figure_is_said_once(sim3):
    """v5 c4-0000 read "23.7 °C (74.7 °F). (74.7 F).": the report's own Fahrenheit
    figure is not repeated by the template after it."""
    texts = _texts_of(sim3, "gen-remote-worker-morning", "C4")
    said = [t for t in texts if "Weather now" in t]
    assert said and not [t for t in said if re.search(r"°F\)\.? \([-\d.]+ F\)", t)]


def test_an_italian_translation_says_ad_amsterdam(sim3):
    """A translated template filled with a city read "arrivare a Amsterdam"; edition 3
    says "ad Amsterdam" (and French "d'Oslo"), edition 2 answers as v5 was played."""
    text = ("Worth it. It costs 12.50 EUR today and 2 takes 3 days to reach Amsterdam.")

    def said(sim, target: str, city: str = "Amsterdam") -> str:
        args = {"text": text.replace("Amsterdam", city), "target_language": target}
        return sim.call("translate_text", args, EpisodeState()).body["translated_text"]
    assert "arrivare ad Amsterdam" in said(sim3, "it")
    assert "arrivare a Berlin" in said(sim3, "it", "Berlin")
    assert "arrivare a Amsterdam" in said(Simulator().at_edition(2), "it")
    from toolmaze_gym.world.euphony import euphonic
    assert euphonic("le colis de Oslo", "fr") == "le colis d'Oslo"
    assert euphonic("Madrid y Irlanda", "es") == "Madrid e Irlanda"


def test_the_labels_left_out_are_the_generated_texts_own():
    """``unlabelled`` drops only a label a generated text opens with; a request's
    "Quote: 40 × ..." subject keeps its word (v3 c2-0010 graded it as stated)."""
    from toolmaze_gym.mentions import GENERATED_LABELS, unlabelled
    from toolmaze_gym.world.base import load_data
    opened = {m.group(1) for t in load_data("generated_texts.json")["templates"]
              for m in [re.match(r"(\w+): \{", t["en"])] if m}
    assert opened == set(GENERATED_LABELS)
    assert unlabelled("Quote: 40 × Saffron Urban Strategy Board Game").startswith("Quote")


@pytest.mark.parametrize("lang", ["it", "tr", "es", "pt"])
def test_the_arrival_text_said_once_in_fahrenheit_is_translated(lang):
    """gen-visiting-mother-arrival-text sends "Weather there now: <report> (<F> F)."; with
    the report's own Fahrenheit figure said once, the translator still knows the text."""
    from toolmaze_gym.corpus.behaviours import general_text
    from toolmaze_gym.tasks.scenario_gen import _once_in_fahrenheit
    sent = _once_in_fahrenheit(
        "I land in Oslo at 17:00 your time. Weather there now: Partly cloudy, 23.7 °C "
        "(74.7 °F). (74.7 F). In the news: Bluepeak Energy opens a data centre near Zurich")
    got = general_text.translate(None, sent, lang)["translated_text"]
    assert "(74.7 F)" not in sent and not got.startswith(f"[{lang}]")
    assert "74.7 °F" in got and "Oslo" in got
