"""Tool docs agree with the tasks (issue 28, item 2): every example a doc gives is a
literal or names declared sources, and a parameter whose doc names sources is fed
by the scenario library only from them."""

from __future__ import annotations

import dataclasses

import pytest

from toolmaze_gym.corpus.catalog import Corpus, load_corpus
from toolmaze_gym.tasks.doc_examples import (
    doc_problems,
    examples,
    library_feeds,
    load_doc_sources,
)
from toolmaze_gym.tasks.scenarios import ArgSpec, Scenario, load_library
from toolmaze_gym.tasks.suite import get_task

V3_ECO_DOC = "Outdoor temperature in °C, e.g. a forecast high"  # as toolmaze-v3 shipped it


def _with_param_doc(tool: str, param: str, doc: str) -> Corpus:
    """The shipped corpus with one parameter's doc replaced."""
    corpus = load_corpus()
    spec = corpus[tool]
    params = tuple(dataclasses.replace(p, description=doc) if p.name == param else p
                   for p in spec.params)
    tools = [dataclasses.replace(spec, params=params) if t.name == tool else t
             for t in corpus.tools.values()]
    return Corpus(tools, list(corpus.groups))


def _fed_low(scenario: Scenario) -> Scenario:
    """``scenario`` with the forecast high it feeds the eco setpoint read as the low."""
    def arg(a: ArgSpec) -> ArgSpec:
        return dataclasses.replace(a, ref="weather.low_c") if a.ref == "weather.high_c" else a
    steps = tuple(dataclasses.replace(st, args=tuple(arg(a) for a in st.args))
                  if st.id == "eco" else st for st in scenario.steps)
    return dataclasses.replace(scenario, steps=steps)


def test_the_shipped_docs_agree_with_the_library():
    assert doc_problems(load_corpus(), load_library()) == []


def test_c4_0079_the_v3_eco_doc_named_a_forecast_high_the_task_fed_a_low():
    """The v3 doc, over the scenario of tmz-v3-c4-0079 as v3 built it (its eco step fed
    the forecast low; the library's feeds the high since world edition 7), alone: the
    check names it."""
    scenario = get_task("tmz-v3-c4-0079").meta["scenario"]
    lib = [_fed_low(s) for s in load_library() if s.id == scenario]
    assert lib and lib[0] != next(s for s in load_library() if s.id == scenario)
    corpus = _with_param_doc("recommend_eco_setpoint", "outdoor_temperature_c", V3_ECO_DOC)
    problems = doc_problems(corpus, lib)
    assert problems and all("weather.forecast.low_c" in p for p in problems)
    assert f"{scenario}.eco feeds it weather.forecast.low_c" in problems[0]


def test_a_doc_that_names_only_some_sources_fails_on_the_others():
    corpus = _with_param_doc("recommend_eco_setpoint", "outdoor_temperature_c",
                             "Outdoor temperature in °C: the day's forecast low")
    fed = {p.split(" feeds it ")[1] for p in doc_problems(corpus, load_library())}
    assert fed == {"weather.current.temp_c", "weather.forecast.high_c"}


def test_an_undeclared_descriptive_example_fails():
    corpus = _with_param_doc("recommend_eco_setpoint", "outdoor_temperature_c",
                             "Outdoor temperature in °C, e.g. the dew point")
    problems = doc_problems(corpus, load_library())
    assert any("example 'the dew point' is no literal value" in p for p in problems)


@pytest.mark.parametrize(("doc", "found"), [
    ("Ticker symbol, e.g. 'AAPL'", ["'AAPL'"]),
    ("Term in months, e.g. 360", ["360"]),
    ("Change from an old value to a new one, e.g. a price to today's price; old > 0.",
     ["a price to today's price"]),
    ("Text (for example a note).", ["a note"]),
])
def test_examples_are_the_clause_after_a_marker(doc, found):
    assert examples(doc, load_doc_sources().markers) == found


def test_the_library_feeds_the_eco_setpoint_from_the_weather_steps():
    feeds = library_feeds(load_corpus(), load_library())
    sources = {s for s, _ in feeds[("recommend_eco_setpoint", "outdoor_temperature_c")]}
    assert sources == {"weather.current.temp_c", "weather.forecast.low_c",
                       "weather.forecast.high_c"}
