"""An own one-line summary of a news story: a faithful paraphrase passes, a near miss
does not (``toolmaze_gym.paraphrase``, issue 27's last grader failures c2-0060 and
c3-0061 of the v4-final play-test).

The world writes its stories from ``data/world/news.json``; the last test plays every
story against every other one of the same city, company and figures, so "another
story about London" can never pass for this one.
"""

from __future__ import annotations

import json
from importlib import resources

import pytest

from toolmaze_gym.paraphrase import paraphrases

CHIPS = ("Chip shortage eases for Australia manufacturers\n"
         "Factories in Australia report shorter lead times for processors. "
         "Helix Foods said deliveries to Sydney are back to normal.")
DRAMA = ("United Kingdom streaming hit becomes a global success\n"
         "A drama filmed in London topped charts in 858 countries. "
         "Producers in United Kingdom are planning a second season.")
ARENA = ("Helix Foods opens a concert arena in Toronto\n"
         "The arena in Toronto seats 238 people. Helix Foods booked its first season of concerts.")
MARATHON = ("Berlin marathon draws 512 runners in record heat\n"
            "More than 512 runners finished the Berlin marathon. "
            "Organisers added water stations after temperatures climbed.")
# A message that says other things too, as the played pushes and posts do.
AROUND = ("Weather in Sydney now: rain, 14.2 °C (57.6 °F), humidity 82%. "
          "Top tech headline: {}. https://tmz.link/k9nfbtwj")

PARAPHRASES = [
    (CHIPS, "processor lead times are shortening for Australian manufacturers as the chip "
            "shortage eases"),  # c2-0060 as played
    (CHIPS, "Australia's chip crunch is easing: its factories wait less for processors"),
    (CHIPS, "Factories in Australia report shorter lead times for processors."),  # the tool's
    (DRAMA, "a London-filmed streaming drama has become a global chart-topper and a second "
            "season is planned"),  # c3-0061 as played, the absurd 858 left out
    (DRAMA, "A British streaming drama shot in London is a global hit"),
    (DRAMA, "a drama filmed in London topped the charts in nearly 860 countries"),  # rounded
    (ARENA, "Helix Foods has opened a 238-seat concert arena in Toronto"),
    (ARENA, "Toronto gets a new concert venue from Helix Foods"),  # a secondary figure left out
    (MARATHON, "Over 500 runners finished Berlin's marathon in record heat"),  # rounded
    (CHIPS, "Australian factories tell us processor lead times are shorter"),  # "us": no US
]

NEAR_MISSES = [
    # another story of the same city (the feed's film festival)
    (DRAMA, "the London film festival announces 412 world premieres"),
    # the right story, a wrong figure
    (DRAMA, "a drama filmed in London topped charts in 85 countries"),
    (MARATHON, "More than 215 runners finished the Berlin marathon in record heat"),
    (ARENA, "Helix Foods has opened a 2,380-seat concert arena in Toronto"),
    # the right story in the wrong place
    (CHIPS, "processor lead times are shortening for New Zealand manufacturers"),
    (DRAMA, "a US-made streaming drama filmed in London is a global hit"),
    # another story in the same feed: the markets story, the same company's other news
    (CHIPS, "Quantix Labs shares jumped after a profit beat on the Sydney exchange"),
    (CHIPS, "Helix Foods opens a data centre near Sydney that runs on renewable power"),
    # the core claim's figure left out where the headline states it
    (MARATHON, "Runners finished the Berlin marathon in record heat"),
    # empty and generic
    (CHIPS, "here is the news"),
    (DRAMA, "Top story in London today"),
    (CHIPS, ""),
]


@pytest.mark.parametrize(("article", "summary"), PARAPHRASES)
def test_a_faithful_paraphrase_passes(article, summary):
    assert paraphrases(summary, article)
    assert paraphrases(AROUND.format(summary), article), "inside a longer message"


@pytest.mark.parametrize(("article", "summary"), NEAR_MISSES)
def test_a_near_miss_fails(article, summary):
    assert not paraphrases(summary, article)
    assert not paraphrases(AROUND.format(summary), article), "inside a longer message"


def test_a_message_that_names_the_city_elsewhere_is_no_summary():
    """c2-0060's push names Sydney for the talk and the weather: the story's places are
    all in the message, and still no sentence of it says the story."""
    text = ("Your Sydney talk starts at 00:00 local time. Weather in Sydney now: rain. "
            "Top tech headline: https://tmz.link/k9nfbtwj")
    assert not paraphrases(text, CHIPS)


def _stories(fill):
    path = resources.files("toolmaze_gym") / "data" / "world" / "news.json"
    topics = json.loads(path.read_text(encoding="utf-8"))["topics"]
    return [(h.format(**fill), b.format(**fill)) for ts in topics.values() for h, b, *_ in ts]


@pytest.mark.parametrize("figures", [{"n": 412, "pct": 12}, {"n": 77, "pct": 31}])
def test_every_story_is_told_by_its_own_lines_and_by_no_other_story(figures):
    """For every story the world can write: its headline and its first sentence pass as
    a summary; no line of any other story about the same city, company and country
    (with the same figures, the hardest case) does."""
    fill = {"city": "London", "country": "United Kingdom", "company": "Helix Foods", **figures}
    stories = _stories(fill)
    wrong = []
    for i, (head, body) in enumerate(stories):
        article = f"{head}\n{body}"
        first = body.split(". ")[0] + "."
        for own in (head, first):
            if not paraphrases(f"Top story: {own}", article):
                wrong.append(f"own line refused: {own!r}")
        for j, (h2, b2) in enumerate(stories):
            if i != j:
                for other in (h2, b2, f"{h2}. {b2}"):
                    if paraphrases(f"Top story: {other}", article):
                        wrong.append(f"{head!r} told by {other!r}")
    assert not wrong, wrong[:5]


GALEONIX = ("Galeonix Consumer Products Holdings Ltd is a beverages company in the Consumer "
            "Defensive sector, listed on HKEX.")


@pytest.mark.parametrize(("summary", "passes"), [
    ("Galeonix is a Hong Kong-listed beverages maker.", True),      # v7 review c1-0090
    ("Galeonix Consumer Products Holdings Ltd is a Hong Kong-listed beverages maker.", True),
    ("Galeonix Consumer Products Holdings Ltd is a beverages company.", True),
    ("Galeonix is a Tokyo-listed beverages maker.", False),         # another exchange
    ("Galeonix is a London-listed beverages company.", False),
])
def test_an_exchange_names_the_place_a_company_is_listed_in(summary, passes):
    """"listed on HKEX" says Hong Kong (grading version 17): a condensed company
    description may name the place for the exchange, never another place."""
    assert paraphrases(summary, GALEONIX) is passes
