"""A news story comes back translated (world edition 3, issue 28 item 2).

toolmaze-v5 summarised a story for a grandparent's text (gen-news-digest-for-grandparent)
and its translators handed back "[es] Telescope near Paris spots a comet ...": English
passed off as Spanish. Every story template of ``news.json``, filled with the world's
cities and their countries, is run here through the translator in every language
``news_texts.json`` covers: its headline, its description and its summary (the
description's first sentence) come back in that language, untagged, with its figures.
"""

from __future__ import annotations

import json

import pytest

from toolmaze_gym.corpus import EpisodeState, Simulator
from toolmaze_gym.corpus.behaviours.general_text import summarize_body, translate
from toolmaze_gym.tasks.scenarios import load_library
from toolmaze_gym.tasks.translators import _translate_steps
from toolmaze_gym.world import news_texts
from toolmaze_gym.world.base import load_data
from toolmaze_gym.world.phrasebook import holes

NEWS = load_data("news.json")
TEXTS = load_data("news_texts.json")
LANGUAGES = TEXTS["languages"]
CITIES = load_data("cities.json")
# Languages scenarios ask a story in whose translations are not written yet
# (issue 28 item 2): named so that a new one, or one written, is noticed here.
NOT_YET = {"ar", "pl", "sw"}


def _stories() -> list[tuple[str, str, str]]:
    """(headline, description, summary) of every template, each filled with three of
    the world's cities in turn, so that every city and country is said somewhere."""
    templates = [t for ts in NEWS["topics"].values() for t in ts]
    out = []
    for i, (head, body, *_) in enumerate(templates):
        for j in range(3):
            city, _code, country, *_ = CITIES[(3 * i + j) % len(CITIES)]
            fill = {"city": city, "country": country, "company": NEWS["companies"][i % 12],
                    "n": 17 + i, "pct": 3 + j}
            desc = body.format(**fill)
            out.append((head.format(**fill), desc, summarize_body(desc)))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_story_comes_back_in_the_language_asked(lang):
    untranslated = []
    for story in _stories():
        for text in story:
            said = translate(None, text, lang)["translated_text"]
            if said.startswith("[") or said == text:
                untranslated.append(text)
    assert untranslated == []


def test_a_summary_is_said_in_spanish_with_the_city_as_spanish_names_it():
    said = translate(None, "Astronomers near Lisbon say the comet will be visible to the "
                           "naked eye.", "es")["translated_text"]
    assert said == "Astrónomos cerca de Lisboa afirman que el cometa será visible a simple vista."


def test_a_country_is_said_as_the_language_names_it():
    said = translate(None, "Retail sales in Germany rise 12 percent", "es")["translated_text"]
    assert said == "Las ventas minoristas en Alemania suben un 12 por ciento"


def test_the_digest_a_grandparent_gets_is_spanish_on_edition_3_only():
    """gen-news-digest-for-grandparent as played: the story's summary through a
    translator tool; edition 2 (toolmaze-v5) keeps the tagged English it played."""
    sim = Simulator()
    said = {}
    for edition in (2, 3):
        s = sim.at_edition(edition)
        story = json.loads(s.call("search_news", {"topic": "science"}, EpisodeState()).to_json())
        summary = summarize_body(story["description"])
        got = json.loads(s.call("text_translator", {"text": summary, "to": "es"},
                                EpisodeState()).to_json())
        said[edition] = got["translation"]
    assert said[2].startswith("[es] ")
    assert not said[3].startswith("[") and said[3] != said[2][5:]


def test_every_version_has_the_english_holes():
    """A translation keeps each value (a figure, a company), its place names said
    in its own language and form."""
    for story in TEXTS["stories"]:
        for lang in LANGUAGES:
            for en, said in zip(story["en"], story[lang], strict=True):
                assert sorted(h.split("@")[0] for h in holes(said)) == sorted(holes(en)), said


def test_every_country_has_every_form_a_translation_uses():
    forms = {h.partition("@")[2] and f"{lang}@{h.partition('@')[2]}"
             for s in TEXTS["stories"] for lang in LANGUAGES for v in s[lang]
             for h in holes(v)} - {""}
    countries = {c[2] for c in CITIES}
    missing = [(c, f) for c in sorted(countries) for f in sorted(forms | set(LANGUAGES))
               if f not in TEXTS["countries"].get(c, {})]
    assert missing == []


def test_every_language_a_scenario_asks_of_a_story_is_written_or_named():
    asked = set()
    for sc, _step, text, target in _translate_steps(load_library()):
        if text is None or text.kind != "field" or target is None or target.kind != "param":
            continue
        uses = {s.use for s in sc.steps}
        if {"gen_news_digest", "news.top_story"} & uses:
            p = sc.param_by_name[target.ref]
            asked |= set(map(str, p.choices or (p.value,)))
    assert asked - set(LANGUAGES) == NOT_YET


def test_the_news_templates_load():
    assert len(news_texts.news_templates()) == 4 * sum(map(len, NEWS["topics"].values()))


@pytest.mark.parametrize(("text", "said"), [
    ("Retail sales in United States rise 12 percent",
     "Les ventes au détail progressent de 12 % aux États-Unis"),
    ("Canada signs trade pact with neighbours",
     "Accord commercial entre le Canada et les pays voisins"),
    ("Oslo marathon draws 300 runners in record heat",
     "Le marathon d'Oslo attire 300 coureurs sous une chaleur record"),
])
def test_french_says_a_country_in_the_form_its_sentence_needs(text, said):
    """'aux États-Unis', not 'en United States'; 'le Canada' inside a sentence."""
    assert translate(None, text, "fr")["translated_text"] == said


VISITING = ("I land in Lisbon at 2026-08-29T06:02:00+01:00 your time. Weather there now: "
            "Rain, 24.1 °C (75.4 °F). In the news: Telescope near Paris spots a comet "
            "visible next month")


@pytest.mark.parametrize(("lang", "headline"), [
    ("it", "Nelle notizie: Un telescopio vicino a Parigi avvista una cometa visibile il mese"),
    ("es", "En las noticias: Un telescopio cerca de Paris detecta un cometa"),
    ("pt", "Nas notícias: Telescópio perto de Paris deteta cometa visível no próximo mês"),
])
def test_a_headline_inside_a_translated_template_is_translated_too(lang, headline):
    """gen-visiting-mother-arrival-text: the message's last hole is the day's
    headline; it used to stay English inside the Italian message."""
    assert headline in translate(None, VISITING, lang)["translated_text"]


def test_a_headline_ending_a_sentence_is_translated_with_its_period():
    said = translate(None, "Telescope near Paris spots a comet visible next month.", "de")
    assert said["translated_text"] == ("Teleskop bei Paris entdeckt Kometen, der nächsten "
                                       "Monat sichtbar wird.")


NEWS_SCENARIOS = ("gen-news-digest-for-grandparent", "gen-remote-worker-morning",
                  "off-news-digest-doc-in-language", "gen-news-summary-to-lobby-screen",
                  "gen-visiting-mother-arrival-text")


def test_the_news_scenarios_translators_answer_in_the_language_asked():
    """Tasks built on edition 3 from the scenarios that send a story to a translator:
    no translator call of their solutions answers tagged English in a language
    written here (v5: "[es] Telescope near Paris ...")."""
    from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
    from toolmaze_gym.tasks.translators import TRANSLATE
    sim = Simulator().at_edition(3)
    lib = {s.id: s for s in load_library()}
    tagged, seen = [], 0
    for sid in NEWS_SCENARIOS:
        sc = lib[sid]
        for seed in range(3):
            task = ScenarioGenerator(sim).generate(sc, sc.levels[0], seed, "t")
            for path in task.solutions:
                for c in path.calls:
                    if sim.corpus[c.tool].behaviour != TRANSLATE:
                        continue
                    said = json.dumps(c.response, ensure_ascii=False)
                    lang = next((t for t in LANGUAGES if f'"{t}"' in said), None)
                    seen += lang is not None
                    if lang is not None and f"[{lang}]" in said:
                        tagged.append((sid, seed, said))
    assert seen and tagged == []


@pytest.mark.parametrize(("lang", "text", "said"), [
    ("fr", "Flood defences completed in Cairo", "Les protections contre les crues sont "
                                                "achevées au Caire"),
    ("fr", "Cairo marathon draws 300 runners in record heat",
     "Le marathon du Caire attire 300 coureurs sous une chaleur record"),
    ("it", "Flood defences completed in Cairo", "Completate le difese contro le alluvioni "
                                                "al Cairo"),
    ("it", "Researchers in Cairo map 40 new deep-sea species",
     "Ricercatori del Cairo descrivono 40 nuove specie degli abissi"),
])
def test_a_city_named_with_its_article_joins_the_word_before_it(lang, text, said):
    """Cairo is "Le Caire" and "Il Cairo": "au Caire", "al Cairo", not "à Le Caire"."""
    assert translate(None, text, lang)["translated_text"] == said


def test_the_offsite_comparison_is_said_in_spanish_throughout():
    """off-offsite-weather-comparison's text: its headlines, weather words and cities
    (holes of a phrasebook template) come back Spanish, not "Lisbon ...: rain"."""
    text = ("Lisbon on 2026-08-29: rain, high 24.1 C / 75.4 F; news: Telescope near Paris "
            "spots a comet visible next month. Munich: clear, high 20.0 C / 68.0 F; news: "
            "Germany launches its first weather satellite.")
    said = translate(None, text, "es")["translated_text"]
    assert said.startswith("Lisboa el 2026-08-29: lluvia, máxima 24.1 °C / 75.4 °F")
    assert "Múnich: despejado" in said
    assert said.endswith("noticias: Alemania lanza su primer satélite meteorológico.")
