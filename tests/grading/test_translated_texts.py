"""A text asked in another language passes as a careful agent's own translation and
fails in English or with other facts (the draft v4 review's c1-0034: "catch Elena
Fischer up on #leadership ... put it into German"; the post was "Lunch order closes
at noon.", the translator returned "[de] Lunch order closes at noon.", and an own
German text was graded on the English word "Lunch")."""

from __future__ import annotations

import json

import pytest

from toolmaze_gym.agents.scripted import call_text
from toolmaze_gym.corpus import Simulator
from toolmaze_gym.episode import Episode
from toolmaze_gym.faults.profiles import FaultProfile
from toolmaze_gym.grading import grade
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.scenario_gen import ScenarioGenerator
from toolmaze_gym.tasks.scenarios import load_library

SCENARIO = "off-channel-brief-for-manager"
POST = "Lunch order closes at noon."


class German(ScenarioGenerator):
    """The generator with the c1-0034 draw: German."""

    def draw_params(self, sc, stream):
        return {**super().draw_params(sc, stream), "lang": "de"}


@pytest.fixture(scope="module")
def sim():
    return Simulator()


@pytest.fixture(scope="module")
def task(sim) -> Task:
    """A c1-0034-like task whose channel's latest post is the lunch order."""
    sc = next(s for s in load_library() if s.id == SCENARIO)
    gen = German(sim)
    for seed in range(200):
        t = gen.generate(sc, sc.levels[0], seed, f"t-tr-{seed}")
        if any(c.args.get("text") == POST or c.args.get("input") == POST
               for c in t.default_path.calls):
            return t
    pytest.fail("no draw routes the lunch-order post")


def _graded(task: Task, sim: Simulator, body: str, translate: bool) -> bool:
    """Success of the reference path with the mail's body replaced (and the
    translator call left out where ``translate`` is false)."""
    profile = FaultProfile(task.id, "P0", ())
    ep = Episode(task, "P0", sim, profile, 25)
    *calls, mail = task.default_path.calls
    for c in calls:
        if translate or "transl" not in c.tool:
            ep.step(call_text(c.tool, c.args))
    key = next(k for k in mail.args if "body" in k.lower())
    ep.step(call_text(mail.tool, {**mail.args, key: body}))
    ep.step(json.dumps({"name": "finish", "arguments": {"answer": "Done: the brief is sent."}}))
    return grade(task, profile, ep.steps, ep.truncated, sim).success


def test_the_translator_returns_german(task):
    out = next(c.response for c in task.default_path.calls if "transl" in c.tool)
    assert "Lunch" not in json.dumps(out) and "Mittag" in json.dumps(out, ensure_ascii=False)


@pytest.mark.parametrize(("body", "success"), [
    ("Die Bestellung fürs Mittagessen endet um 12 Uhr.", True),    # own words
    ("Mittagessen: Bestellungen nur bis 12 Uhr.", True),
    ("Die Mittagsbestellung schließt um 12 Uhr.", True),            # the phrasebook's own
    ("Lunch order closes at noon.", False),                         # English
    ("[de] Lunch order closes at noon.", False),                    # English, tagged
    ("Das Deployment wurde ohne Fehler abgeschlossen.", False),     # another post
    ("Danke an alle für die tolle Demo!", False),
])
def test_an_own_translation_passes_english_or_other_facts_fail(task, sim, body, success):
    assert _graded(task, sim, body, translate=False) is success


@pytest.mark.parametrize(("body", "success"), [
    ("Die Mittagsbestellung schließt um 12 Uhr.", True),
    ("[de] Lunch order closes at noon.", False),
    ("Das Deployment wurde ohne Fehler abgeschlossen.", False),
])
def test_after_calling_the_translator_the_same_holds(task, sim, body, success):
    assert _graded(task, sim, body, translate=True) is success


# -- c4-0094 (the draft v4 review): "nublado" for "cloudy" ----------------------------

CONDITIONS_ES = {"clear": "despejado", "cloudy": "nublado",
                 "partly cloudy": "parcialmente nublado", "sunny": "soleado",
                 "light rain": "lluvia ligera", "rain": "lluvia",
                 "windy": "ventoso", "fog": "niebla", "overcast": "cubierto"}


@pytest.fixture(scope="module")
def welcome(sim) -> Task:
    sc = next(s for s in load_library() if s.id == "tr-speaker-hotel-welcome")
    return ScenarioGenerator(sim).generate(sc, sc.levels[0], 3, "t-tr-welcome")


def _spanish(task: Task, high: float | None = None) -> str:
    """A careful agent's own Spanish welcome, the condition in Spanish."""
    got = {k: v for c in task.default_path.calls for k, v in c.response.items()}
    cond = CONDITIONS_ES.get(got["condition"])
    if cond is None:
        pytest.skip(f"no Spanish word here for {got['condition']!r}")
    c = got["high_c"] if high is None else high
    return (f"¡Bienvenida! Tu hotel está reservado (reserva {got['reservation_id']}). "
            f"Previsión: {cond}, máxima de {c:.1f} °C / {got['fahrenheit']:.1f} °F.")


def _welcome_graded(task: Task, sim: Simulator, body: str) -> bool:
    return _graded(task, sim, body, translate=False)


def test_an_own_spanish_welcome_with_the_condition_in_spanish_passes(welcome, sim):
    assert _welcome_graded(welcome, sim, _spanish(welcome)) is True


def test_an_own_spanish_welcome_with_a_wrong_high_fails(welcome, sim):
    got = {k: v for c in welcome.default_path.calls for k, v in c.response.items()}
    assert _welcome_graded(welcome, sim, _spanish(welcome, got["high_c"] - 1)) is False


# -- a quoted draft's summary, asked in German (uo-submit-piece-with-word-count) ---------

@pytest.fixture(scope="module")
def pitch(sim) -> Task:
    sc = next(s for s in load_library() if s.id == "uo-submit-piece-with-word-count")
    for seed in range(40):
        t = ScenarioGenerator(sim).generate(sc, sc.levels[0], seed, f"t-tr-pitch-{seed}")
        if any("tram line" in json.dumps(c.args) and "'de'" in repr(c.args)
               for c in t.default_path.calls if "transl" in c.tool):
            return t
    pytest.fail("no draw translates the tram-line summary into German")


def _pitch_graded(task: Task, sim: Simulator, summary: str) -> bool:
    """The reference path, no translator call, the webhook's payload the agent's own."""
    profile = FaultProfile(task.id, "P0", ())
    ep = Episode(task, "P0", sim, profile, 25)
    ids: dict[str, str] = {}  # the reference's delivery id -> this episode's
    for c in task.default_path.calls:
        args = dict(c.args)
        if "transl" in c.tool:
            continue
        if c.tool == "post_webhook":  # "Submission: 40 words. Abstract: <the German>"
            args["payload"] = args["payload"].split("Abstract:")[0] + f"Abstract: {summary}"
        args = {k: _swap(v, ids) for k, v in args.items()}
        ep.step(call_text(c.tool, args))
        if c.tool == "post_webhook":
            got = json.loads(ep.steps[-1].observation)
            ids.update({str(c.response[k]): str(got[k]) for k in c.response
                        if "delivery" in k and k in got})
    ep.step(json.dumps({"name": "finish", "arguments": {"answer": "Done: submitted."}}))
    return grade(task, profile, ep.steps, ep.truncated, sim).success


@pytest.mark.parametrize(("summary", "success"), [
    ("Die Stadt baut die alte Tramlinie endlich neu; der Rat hat gestern das Budget "
     "bewilligt.", True),
    ("Die Bauernmärkte der Region haben sich seit letztem Jahr verdoppelt.", False),
])
def test_an_own_german_summary_is_read_in_german(pitch, sim, summary, success):
    assert _pitch_graded(pitch, sim, summary) is success


def _swap(value: object, ids: dict[str, str]) -> object:
    """``value`` with each reference id replaced by this episode's."""
    if not isinstance(value, str):
        return value
    for ref, got in ids.items():
        value = value.replace(ref, got)
    return value
