"""Every phrasing asks for each Action the grader requires, over the library and by rule."""

from __future__ import annotations

import pytest

from toolmaze_gym.cli.scenarios import main as scenarios_main
from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.tasks.action_cues import (
    action_problems,
    action_steps,
    data_problems,
    default_cues,
    parse_action_cues,
    step_cues,
)
from toolmaze_gym.tasks.capabilities import capabilities
from toolmaze_gym.tasks.scenarios import check_files, load_library

from .test_scenarios import GOOD

CORPUS = load_corpus()
MAIL_0 = "Mail it to {me}."  # GOOD's first phrasing asks for the e-mail with "Mail"
_CUES = 'cues = { "convert.converted_amount" = ["cost", "price"] }'


def _check(tmp_path, text):
    path = tmp_path / "financial.toml"
    path.write_text(text)
    return check_files([path])


def _action_problems(tmp_path, text):
    return [p for p in _check(tmp_path, text)[1] if "never asks for step" in p
            or "no Action step" in p]


def test_every_action_of_the_library_is_asked_for_by_every_phrasing():
    """The static proof over every shipped scenario (load_library would refuse too)."""
    lib = load_library()
    assert [p for sc in lib for p in action_problems(sc, CORPUS)] == []
    assert sum(len(action_steps(sc, CORPUS)) for sc in lib) > 600


def test_every_action_behaviour_of_the_corpus_has_cues():
    assert data_problems(CORPUS) == []
    cues = dict(default_cues())
    del cues["office.mail.send"]
    cues["weather.forecast"] = ("forecast",)
    assert data_problems(CORPUS, cues) == [
        "actions.toml: behaviour 'office.mail.send' of an Action tool has no cues",
        "actions.toml: 'weather.forecast' is neither the behaviour of an Action tool nor a "
        "capability with Action sides"]


def test_a_phrasing_that_omits_its_action_is_reported(tmp_path):
    assert MAIL_0 in GOOD and _action_problems(tmp_path, GOOD) == []
    problems = _action_problems(tmp_path, GOOD.replace(MAIL_0, "It is for {me}."))
    assert problems == [
        "financial.toml: fin-test-quote-mail.phrasings[0]: never asks for step 'mail' "
        "(office.mail.send, an Action the grader requires): none of its cues "
        f"{list(default_cues()['office.mail.send'])}"]


def test_a_cue_inside_a_placeholder_does_not_count(tmp_path):
    """A param named ``mail`` says nothing about sending one."""
    text = (GOOD.replace(MAIL_0, "It is for {mail}.").replace("{me}", "{mail}")
            .replace("me = {", "mail = {").replace('"$me"', '"$mail"'))
    assert "{mail}" in text
    problems = _check(tmp_path, text)[1]
    assert [p for p in problems if "phrasings[0]: never asks for step 'mail'" in p]
    assert not [p for p in problems if "phrasings[1]" in p]  # "send the figure" asks


def test_a_scenario_adds_its_own_words_for_a_step(tmp_path):
    """``cues = { "<step id>" = [...] }``: the scenario's words count, and the data's
    still do (the second phrasing keeps passing on "send")."""
    text = GOOD.replace(MAIL_0, "Pass it on to {me}.")
    assert _action_problems(tmp_path, text)
    own = text.replace(_CUES, _CUES.replace("{ ", '{ "mail" = ["pass it on"], ', 1))
    (sc,), problems = _check(tmp_path, own)
    assert problems == []
    assert ("mail", ("pass it on",)) in sc.cues


@pytest.mark.parametrize("ref", ["quote", "nosuch"])
def test_words_for_a_step_that_is_no_action_are_reported(tmp_path, ref):
    text = GOOD.replace(_CUES, _CUES.replace("{ ", f'{{ "{ref}" = ["price"], ', 1))
    assert _action_problems(tmp_path, text) == [
        f"financial.toml: fin-test-quote-mail.cues.{ref}: {ref!r} is no Action step of this "
        'scenario; cues are for step outputs ("step.key") or, by step id, for an Action step']


def test_alternatives_of_a_step_share_its_cues(tmp_path):
    """A group step takes the cues of the Action tools of all its sides: "draft" (the
    create_draft -> send_draft side) asks for it, and so does "mail" (send_email's)."""
    cap = capabilities(CORPUS)["office_email_via_draft"]
    sc = next(s for s in _check(tmp_path, GOOD)[0])
    step = sc.step_by_id["mail"]
    words = step_cues(CORPUS, step, cap, {}, default_cues())
    assert {"draft", "mail", "send"} <= set(words)
    text = GOOD.replace('use = "office.mail.send"', 'use = "office_email_via_draft"')
    assert _action_problems(tmp_path, text) == []  # "Mail it to {me}."
    assert _action_problems(tmp_path, text.replace(MAIL_0, "Draft it for {me}.")) == []
    assert _action_problems(tmp_path, text.replace(MAIL_0, "It is for {me}."))


def test_the_scenarios_check_command_reports_it(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace(MAIL_0, "It is for {me}."))
    assert scenarios_main(["check", "--no-trial", str(bad)]) == 1
    assert ("bad.toml: fin-test-quote-mail.phrasings[0]: never asks for step 'mail'"
            in capsys.readouterr().out)


@pytest.mark.parametrize(("text", "what"), [
    ("[behaviour]\n\"office.mail.send\" = []\n", "office.mail.send: a non-empty list"),
    ("[behaviour]\n\"office.mail.send\" = \"email\"\n", "a non-empty list"),
    ("[behavior]\n", "expected one [behaviour] table"),
    ("[behaviour\n", "not valid TOML"),
])
def test_a_broken_cue_file_says_what_is_wrong(text, what):
    cues, problems = parse_action_cues(text)
    assert cues == {} and len(problems) == 1 and what in problems[0], problems
