"""Queries: stated literals, no leaked tool names, and the paraphrase hook."""

from __future__ import annotations

import copy

from toolmaze_gym.tasks.queries import capability, paraphrase, reverse_check
from toolmaze_gym.tasks.suite import V1_NAME, get_task


def test_capability_phrases_never_repeat_the_identifier():
    for name in ("get_quote_snapshot", "honeywell_get_thermostat", "celsius_to_fahrenheit",
                 "send_email"):
        phrase = capability(name)
        assert name not in phrase and phrase


def test_reverse_check_catches_a_dropped_literal_and_a_leaked_name(corpus):
    task = get_task("tmz-v1-c1-0003", V1_NAME)
    assert reverse_check(task, corpus) == []
    literal = str(task.entities[0]["value"])
    assert reverse_check(task, corpus, task.query.replace(literal, "something")) != []
    assert reverse_check(task, corpus, task.query + " " + task.tools[0]) != []


def test_paraphrase_hook_is_kept_only_when_it_passes_the_check(corpus):
    task = copy.deepcopy(get_task("tmz-v1-c2-0004", V1_NAME))
    good = paraphrase(copy.deepcopy(task), corpus, lambda q, t: "Hi! " + q)
    assert good.query.startswith("Hi! ") and good.meta["paraphrased"]
    bad = paraphrase(copy.deepcopy(task), corpus, lambda q, t: "Do the usual thing.")
    assert bad.query == task.query
    broken = paraphrase(copy.deepcopy(task), corpus, lambda q, t: 1 / 0)
    assert broken.query == task.query
