"""How v2 queries say values (languages by name, switches as on/off, the author's
words for a boolean) and params derived from another (the day of a date-time)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from toolmaze_gym import hashing
from toolmaze_gym.mentions import mentions
from toolmaze_gym.tasks.queries import say_as, stated_as
from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
from toolmaze_gym.tasks.scenarios import check_files, load_library
from toolmaze_gym.tasks.solvability import solvability_problems, stated
from toolmaze_gym.world.base import load_data

LIB = {s.id: s for s in load_library()}
NAMES = load_data("languages.json")


@pytest.fixture(scope="module")
def gen():
    return ScenarioGenerator()


def _lang_task(gen):
    """A task whose language code is no English word ("it" would be stated anyway)."""
    sc = LIB["gen-news-summary-to-lobby-screen"]
    for k in range(20):
        task = gen.generate(sc, "C1", f"wording{k}", "t")
        code = next(e["value"] for e in task.entities if e["type"] == "language_code")
        if code not in ("it", "no"):
            return task, code
    raise AssertionError("no draw with a language code that is not an English word")


def test_a_language_is_named_in_the_query_not_coded(gen):
    task, code = _lang_task(gen)
    phrasing = LIB["gen-news-summary-to-lobby-screen"].phrasings[task.meta["phrasing"]]
    before = phrasing.split("{lang}")[0][-12:]  # the words the author put before it
    assert before + NAMES[code] in task.query
    assert before + code not in task.query and 'language "' not in task.query


def test_the_language_name_counts_as_stated_and_removing_it_is_caught(gen, corpus):
    task, code = _lang_task(gen)
    assert solvability_problems(task, corpus) == []
    broken = dataclasses.replace(task, query=task.query.replace(NAMES[code], "their language"))
    assert any(f"literal {code!r} is not stated" in p
               for p in solvability_problems(broken, corpus))


def test_a_query_states_a_language_by_name_as_a_whole_word():
    assert stated("Please translate it into German.", "de", "language_code")
    assert not stated("Please translate it into French.", "de", "language_code")
    assert not stated("Please decide in French.", "de", "language_code")


def test_a_text_may_name_the_language_or_give_its_code():
    assert mentions("Summary translated into Spanish.", "language_code", "es")
    assert mentions("Summary (es) attached.", "language_code", "es")
    assert not mentions("Summary translated into French.", "language_code", "es")
    assert not mentions("Summary in Spanishes.", "language_code", "es")


def test_a_time_zone_is_said_and_read_by_its_city():
    """A person writes "Prague time", not "Europe/Prague" (issue 28 item 5)."""
    assert say_as("timezone", "America/Mexico_City") == "Mexico City time"
    assert mentions("Prague is on Prague time.", "timezone", "Europe/Prague")
    assert mentions("Prague is on Europe/Prague.", "timezone", "Europe/Prague")
    assert not mentions("Prague is on Vienna time.", "timezone", "Europe/Prague")


def test_a_switch_is_said_on_or_off(gen):
    sc = LIB["iot-kids-room-light-and-sensor"]
    on = sc.param_by_name["on"].value
    task = gen.generate(sc, "C1", "wording", "t")
    word = "on" if on else "off"
    assert re.search(rf"\b{word}\b", task.query)
    assert "light on:" not in task.query and not re.search(r"\b(yes|no)\b", task.query)


def test_boolean_words_and_their_statement():
    assert say_as("boolean", True, ("locked", "unlocked")) == "locked"
    assert say_as("boolean", False, ("locked", "unlocked")) == "unlocked"
    assert say_as("boolean", False) == "no" and say_as("language_code", "de") == "German"
    assert stated_as("switch the lights off", "boolean", False)
    assert not stated_as("switch the lights offline", "boolean", False)


SCENARIO = '''
domain = "General"

[[scenario]]
id = "gen-test-picnic-invite"
goal = "Invite a friend to a picnic and tell them the forecast for that day."
phrasings = [
  "Invite {friend} to a picnic in {city} on {day} at {start} ({minutes} min), with the forecast.",
  "Put a picnic in {city} with {friend} in my calendar: {day}, {start}, {minutes} min, forecast.",
]
cues = { "forecast.condition" = ["forecast"] }
[scenario.params]
city = { type = "city_name", choices = ["Paris", "Madrid"] }
start = { type = "iso_datetime" }
day = { type = "iso_date", from = "start" }
minutes = { type = "duration_minutes", choices = [90] }
friend = { type = "email" }
[[scenario.steps]]
id = "forecast"
use = "weather.forecast"
args = { city = "$city", date = "$day" }
[[scenario.steps]]
id = "invite"
use = "office.cal.schedule"
[scenario.steps.args]
attendee = "$friend"
start = "$start"
duration_minutes = "$minutes"
subject = { text = "Picnic in {city}: {forecast.condition}", asks = ["forecast.condition"] }
'''


def test_a_derived_param_is_the_date_of_its_source(tmp_path):
    path = tmp_path / "general.toml"
    path.write_text(SCENARIO)
    (sc,), problems = check_files([path])
    assert problems == []
    gen = ScenarioGenerator()
    for k in range(5):
        params = gen.draw_params(sc, hashing.Stream("derived", k))
        assert params["day"] == params["start"][:10]
        assert list(params) == [p.name for p in sc.params]


@pytest.mark.parametrize(("old", "new", "what"), [
    ('from = "start"', 'from = "stop"', "'stop' is not a drawn param"),
    ('day = { type = "iso_date", from = "start" }',
     'day = { type = "iso_date", from = "city" }', "cannot derive iso_date from city_name"),
    ('from = "start"', 'from = "start", choices = ["2026-08-20"]', "at most one of"),
])
def test_a_bad_derivation_is_reported(tmp_path, old, new, what):
    path = tmp_path / "general.toml"
    path.write_text(SCENARIO.replace(old, new, 1))
    problems = check_files([path])[1]
    assert any("params.day" in p and what in p for p in problems), problems


def test_boolean_words_only_for_booleans(tmp_path):
    path = tmp_path / "general.toml"
    path.write_text(SCENARIO.replace("in {city} on", "in {city:here/there} on", 1))
    problems = check_files([path])[1]
    assert any("phrasings[0]" in p and "only a boolean param takes them" in p
               for p in problems), problems


# toolmaze-v8's goals as the v8 blind review read them (the tasks keep only the query)
V8_GOALS = {
    "tmz-v8-c1-0073": "As soon as I land back home, set a room's heating to the eco level for "
                      "the weather outside there right now.",
    "tmz-v8-c4-0072": "Warm up a chilly room now and order smart plugs to put its heaters on "
                      "timers, telling the household the room's temperature, the new setpoint "
                      "and when the plugs arrive.",
    "tmz-v8-c4-0014": "Compare two stocks I'm choosing between (price, dividend, latest "
                      "earnings) with a digest of today's market news, in one e-mail.",
}
V8_DATA_WORDS = [("tmz-v8-c1-0073", "says \"our office\""),  # "our office thermostat"
                 ("tmz-v8-c4-0072", "calls a room chilly"),  # "chilly" at 19.7 °C
                 ("tmz-v8-c4-0014", "says the latest earnings")]  # 2025-Q3 in Aug 2026


@pytest.mark.parametrize(("task_id", "problem"), V8_DATA_WORDS)
def test_the_v8_words_the_data_contradict_are_caught(gen, task_id, problem):
    from toolmaze_gym.tasks.data_words import data_word_problems
    from toolmaze_gym.tasks.suite import get_task

    task = get_task(task_id, "toolmaze-v8")
    found = data_word_problems(task, V8_GOALS[task_id], gen.sim.world)
    assert any(p.startswith(problem) for p in found), found


DATA_WORD_SCENARIOS = sorted(sid for sid, sc in LIB.items()
                             if any(p.type in ("home_room", "fiscal_quarter") for p in sc.params))


@pytest.mark.parametrize("sid", DATA_WORD_SCENARIOS)
def test_generated_requests_and_goals_say_what_the_world_bears_out(gen, sid):
    """A home room "office" is "home office" after "our"; "chilly" only below 18 °C;
    "latest" earnings only of the latest reported quarter (the v8 review's c1-0073,
    c4-0072, c4-0014)."""
    from toolmaze_gym.tasks.data_words import data_word_problems
    from toolmaze_gym.tasks.scenario_gen import ScenarioBuildError

    sc = LIB[sid]
    built = 0
    for k in range(6):
        try:
            task = gen.generate(sc, (sc.levels or ("C3",))[0], f"data-words-{k}", "t")
        except ScenarioBuildError:
            continue
        built += 1
        assert data_word_problems(task, sc.goal, gen.sim.world) == [], (task.query, sc.goal)
        if built == 2:
            break
    assert built, sid


def test_v8_c1_0073_now_says_our_home_office(gen):
    from toolmaze_gym.tasks.scenario_gen import _fill

    sc = LIB["eh-landed-set-heating-for-weather"]
    params = {**gen.draw_params(sc, hashing.Stream("v8", sc.id)), "room": "office",
              "airport": "JNB"}
    query = _fill(sc, sc.phrasings[1], params)
    assert "put our home office thermostat there" in query, query
    assert stated_as(query, "home_room", "office")


def test_the_generator_rejects_a_task_whose_words_the_data_contradict(gen):
    """v8 c1-0073 ("our office thermostat" of a home room) is refused by the acceptance
    check the suite builder runs."""
    from toolmaze_gym.tasks.suite import get_task

    task = get_task("tmz-v8-c1-0073", "toolmaze-v8")
    assert any(p.startswith("words the data contradict: says \"our office\"")
               for p in gen.problems(task, LIB[task.meta["scenario"]], faults=False))
