"""A text asked to tell "the plan" carries who does what and when, each person told with
their titles in one clause (grading version 21; toolmaze-v9 review c4-0012: "post the
plan in the design channel" was graded on the Singapore clock alone, so a one-liner and
a plan with the reviewers and documents swapped passed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.grading.test_reviewed import review_changed
from toolmaze_gym.corpus.catalog import load_corpus
from toolmaze_gym.grading.arguments import says
from toolmaze_gym.grading.asked_plan import plan_asked
from toolmaze_gym.grading.noted_facts import with_noted
from toolmaze_gym.grading.told_together import (
    PERSON,
    TOLD_TOGETHER,
    clauses,
    spelled_name,
)
from toolmaze_gym.tasks.suite import get_task

ACTIONS = Path(__file__).parent.parent / "data" / "reviews" / "v9" / "actions"


_graded = review_changed
REF = ("Reviews: Elif Hughes on \"Meeting minutes\" at 08:00 UTC on Monday 31 August, "
       "16:00 UTC+08:00 on Monday 31 August in Singapore (10 min, commenter access); "
       "liam.kowalski@globex.net reviews \"Architecture overview\" offline by Saturday 22 "
       "August.")


def test_the_plan_is_asked_unless_the_request_spells_it_out():
    assert plan_asked(["post the plan in the design channel"])
    assert plan_asked(["notification with the plan, the dew point and the battery level"])
    assert not plan_asked(["post a brief summary of the plan (room, time and the link)"])
    assert not plan_asked(["a short summary of the plan with the meeting time"])
    assert not plan_asked(["post a note in the design channel"])


def test_a_clause_is_a_sentence_a_list_item_or_a_table_row():
    text = "Plan: Elif on A. Liam: B; chase 22 Aug.\n| Elif | A | with me |\n- Liam: B"
    assert clauses(text) == ["Plan: Elif on A", " Liam: B", " chase 22 Aug",
                             "| Elif | A | with me |", "- Liam: B"]


def test_a_person_is_named_by_the_address_or_the_name_it_spells():
    assert spelled_name("liam.kowalski@globex.net") == "Liam Kowalski"
    assert spelled_name("ops@example.com") == "Ops"
    assert spelled_name("l.k2@x.org") == ""
    for text in ("liam.kowalski@globex.net", "Liam Kowalski", "Liam"):
        assert says(text, PERSON, "liam.kowalski@globex.net")
    assert not says("Lena", PERSON, "liam.kowalski@globex.net")


def test_a_pair_is_told_in_one_clause():
    pair = ((PERSON, "Elif Hughes"), ("text", "Meeting minutes"))
    assert says("Elif Hughes: Meeting minutes, with me.", TOLD_TOGETHER, pair)
    assert says("| Elif | Meeting minutes | with me |", TOLD_TOGETHER, pair)
    assert not says("Elif Hughes: Architecture overview. Liam: Meeting minutes.",
                    TOLD_TOGETHER, pair)


def test_the_plan_asks_the_people_titles_and_dates_and_pairs_them():
    task = get_task("tmz-v9-c4-0012")
    post = next(s for s in with_noted(task, load_corpus()).slots if s.id == "s9")
    asks = {(m[0], json.dumps(m[1])) for i in post.inputs for m in i.mentions}
    assert asks == {
        ("iso_datetime", '"2026-08-31T16:00:00+08:00"'),
        ("text", '"Meeting minutes"'), ("text", '"Architecture overview"'),
        (PERSON, '"Elif Hughes"'), (PERSON, '"liam.kowalski@globex.net"'),
        ("iso_date", '"2026-08-22"'),
        (TOLD_TOGETHER, '[["person", "Elif Hughes"], ["text", "Meeting minutes"]]'),
        (TOLD_TOGETHER, '[["person", "liam.kowalski@globex.net"], '
                        '["text", "Architecture overview"]]'),
    }


@pytest.mark.parametrize(("post", "success", "reason"), [
    (REF, True, ""),
    ("Review plan: Elif Hughes goes through Meeting minutes with me on Mon 31 Aug at 16:00 "
     "Singapore time. Liam Kowalski reviews Architecture overview on his own; I'll chase "
     "him by Sat 22 Aug.", True, ""),                                     # own words
    ("Liam (liam.kowalski@globex.net) takes Architecture overview offline, due 22 August. "
     "Elif Hughes reviews Meeting minutes with me, 31 August 16:00 Singapore time.",
     True, ""),                                                           # other order
    ("Review plan\n| Reviewer | Document | How | When |\n|---|---|---|---|\n"
     "| Elif Hughes | Meeting minutes | with me | 31 Aug, 16:00 Singapore time |\n"
     "| liam.kowalski@globex.net | Architecture overview | offline | by 22 Aug |",
     True, ""),                                                           # a table
    ("Plan for the reviews:\n- Elif: \"Meeting minutes\", with me on 31 August at 16:00 "
     "Singapore time\n- Liam: \"Architecture overview\", offline, due 22 August",
     True, ""),                                                           # a list
    ("Elif: 16:00 Singapore time, 31 Aug", False, "Meeting minutes"),     # one line
    ("Reviews: Elif Hughes reviews \"Architecture overview\" offline by 22 August; Liam "
     "Kowalski reviews \"Meeting minutes\" with me on Monday 31 August, 16:00 Singapore "
     "time.", False, "told_together"),                                    # swapped
    ("Elif Hughes reviews Meeting minutes with me on 31 August, 16:00 Singapore time; "
     "Liam Kowalski reviews Architecture overview offline by 23 August.",
     False, "2026-08-22"),                                                # wrong chase date
    ("Elif Hughes reviews Meeting minutes with me on 31 August, 16:00 Singapore time; "
     "Architecture overview is reviewed offline by 22 August.",
     False, "liam.kowalski@globex.net"),                                  # who left out
])
def test_the_posted_plan(tmp_path, post, success, reason):
    g, out = _graded(tmp_path, ACTIONS / "c4-0012.ref.txt", json.dumps(REF), json.dumps(post))
    assert g["success"] is success, out
    assert reason in out, out


@pytest.mark.parametrize(("message", "success"), [
    ("Hana arrives Saturday 22 August; the welcome scene runs at 12:34 Barcelona time. "
     "Bedroom cooled to 26 C, dew point 19.3 C. Front door lock battery 82%.", True),
    ("Welcome scene runs at 10:34 UTC on 22 August, bedroom at 26 C. Dew point 19.3 C; "
     "lock battery 82%.", True),                      # one guest's day: no name needed
    ("Dew point 19.3 C; front door lock battery 82%.", False),    # no plan
    ("Welcome scene runs at 10:44 UTC on 22 August. Dew point 19.3 C; lock battery 82%.",
     False),                                                      # a wrong time
])
def test_a_notification_with_the_plan_tells_the_scenes_time(tmp_path, message, success):
    """v9 c4-0075: "send a home notification with the plan, the dew point and the
    battery level" asks the welcome scene's time beside the two figures."""
    task = get_task("tmz-v9-c4-0075")
    lines = [f"{c.tool} {json.dumps(c.args)}" for c in task.default_path.calls]
    path = tmp_path / "c4-0075.ref.txt"
    path.write_text("\n".join(lines) + "\nfinish The dew point is 19.3 C.\n", "utf-8")
    sent = json.loads(lines[-1].partition(" ")[2])["message"]
    g, out = _graded(tmp_path, path, json.dumps(sent), json.dumps(message))
    assert g["success"] is success, out
    assert success or "schedule_scene" in out, out
