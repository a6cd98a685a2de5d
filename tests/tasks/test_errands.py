"""A C4 goal's parts belong to one errand a person asks for in one message."""

from __future__ import annotations

from dataclasses import replace

from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.tasks.errands import (
    default_errands,
    errand_problems,
    scenario_steps,
    stray_parts,
    task_stray_parts,
)
from toolmaze_gym.tasks.scenarios import ArgSpec, StepSpec, load_library
from toolmaze_gym.tasks.suite import get_task

CORPUS = load_corpus()
LIB = {sc.id: sc for sc in load_library()}
# v3's C4 tasks with a headline or news digest glued on ("the main travel headline
# today" beside a check-in; "a short digest of the latest travel news" beside two
# cities' flights and hotels; "plus the top travel news story" beside away mode).
GLUED = ["tmz-v3-c4-0011", "tmz-v3-c4-0028", "tmz-v3-c4-0033", "tmz-v3-c4-0051",
         "tmz-v3-c4-0067", "tmz-v3-c4-0073", "tmz-v3-c4-0079"]


def _declared(task) -> tuple[str, ...]:
    sc = LIB.get(task.meta["scenario"])
    return sc.themes if sc else ()


def test_every_c4_scenario_of_the_library_is_one_errand():
    assert [p for sc in LIB.values() for p in errand_problems(sc, CORPUS)] == []


def test_v3s_glued_on_news_parts_are_stray():
    """The counter-examples, as built and shipped, and no other v3 C4 task."""
    found = {}
    for k in range(100):
        task = get_task(f"tmz-v3-c4-{k:04d}")
        stray = task_stray_parts(task, CORPUS, _declared(task))
        if stray:
            found[task.id] = stray
    assert sorted(found) == GLUED
    assert all(any(th == {"news"} for _, th in stray) for stray in found.values())
    (ids,) = [ids for ids, th in found["tmz-v3-c4-0073"] if th == {"news"}]
    news = [s for s in get_task("tmz-v3-c4-0073").slots if s.id in ids]
    assert [CORPUS[t].behaviour for s in news for t in s.tools] == ["news.top_story"]


def test_putting_the_headline_back_into_the_check_in_briefing_is_reported():
    """The library's scenario without its news step passes; with v3's step it fails."""
    sc = LIB["tr-day-before-checkin-and-allowance"]
    assert errand_problems(sc, CORPUS) == []
    news = StepSpec("news", "news.top_story", (ArgSpec("topic", "param", "topic"),))
    push = sc.steps[-1]
    message = next(a for a in push.args if a.role == "message")
    told = replace(message, text=message.text + " News: {news.headline}.",
                   mention=(*message.mention, "news.headline"))
    push = replace(push, args=tuple(told if a is message else a for a in push.args))
    glued = replace(sc, steps=(*sc.steps[:-1], news, push))
    problems = errand_problems(glued, CORPUS)
    assert len(problems) == 2 and all("shares no parameter and no theme" in p for p in problems)
    assert any("part ['news'] (news)" in p for p in problems)


def test_a_declared_theme_is_what_lets_a_part_in():
    """Breaking the rule fails: without its declaration the market-news digest beside
    two stocks is a stray; a theme nobody has is reported."""
    sc = LIB["fin-two-stocks-earnings-digest"]
    assert sc.themes == ("news",) and errand_problems(sc, CORPUS) == []
    assert stray_parts(*scenario_steps(sc, CORPUS, default_errands()))
    assert errand_problems(replace(sc, themes=()), CORPUS)
    assert "'gossip' is no theme" in errand_problems(replace(sc, themes=("gossip",)), CORPUS)[0]


def test_parts_joined_by_data_or_a_shared_given_belong():
    """v3's c4-0018 (offsite costs): the landing time reads the flight, the sheet and
    the ticket carry the figures: one errand, nothing stray."""
    task = get_task("tmz-v3-c4-0018")
    assert task_stray_parts(task, CORPUS, _declared(task)) == []
    assert task_stray_parts(get_task("tmz-v3-c1-0001"), CORPUS) == []  # C4 only
