"""Every Action step carries content the request asks for (a notification with no
asked content is not a task step)."""

from __future__ import annotations

from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.tasks.action_content import address_roles, empty_action_problems
from toolmaze_gym.tasks.scenarios import check_files, load_library
from toolmaze_gym.tasks.suite import get_task

from .test_scenarios import GOOD

CORPUS = load_corpus()
ASKED = 'asks = ["convert.converted_amount", "cur"]'
# v3's tmz-v3-c4-0004: "... and send the Los Angeles household a notification."
V3_NOTIFY = "iot-err-cabin-energy-setback"


def _problems(tmp_path, text):
    path = tmp_path / "financial.toml"
    path.write_text(text)
    return [p for p in check_files([path])[1] if "ask nothing" in p]


def test_every_action_of_the_library_carries_asked_content():
    lib = load_library()
    assert [p for sc in lib for p in empty_action_problems(sc, CORPUS)] == []


def test_a_mail_whose_texts_ask_nothing_is_reported(tmp_path):
    assert ASKED in GOOD and _problems(tmp_path, GOOD) == []
    empty = GOOD.replace(ASKED, "asks = []").replace(
        'cues = { "convert.converted_amount" = ["cost", "price"] }\n', "")
    assert _problems(tmp_path, empty) == [
        "financial.toml: fin-test-quote-mail.steps.mail: office.mail.send is an Action whose "
        "texts ask nothing and whose other arguments only address it (['to']): give a text "
        "the asks the request states, or drop the step"]


def test_content_besides_the_address_makes_a_step():
    """A booking's dates or a payment's amount are content though its note asks nothing;
    the rule is about arguments that only address a message."""
    assert {"to", "channel", "site", "recipient"} <= address_roles()
    assert not {"amount", "start", "temperature_c", "product_id"} & address_roles()


def test_v3s_notification_with_nothing_asked_is_now_asked_for():
    """The counter-example: v3's c4-0004 notified the household with a text whose asks
    were empty (no mention checked); the library's scenario now asks for the cabin bill
    and the setpoint in every phrasing."""
    task = get_task("tmz-v3-c4-0004")
    assert task.meta["scenario"] == V3_NOTIFY
    notify = task.slots[-1]
    assert CORPUS[notify.alternatives[0][-1]].behaviour == "iot.notify"
    assert all(not i.mentions for i in notify.inputs)
    sc = next(sc for sc in load_library() if sc.id == V3_NOTIFY)
    step = sc.step_by_id["notify"]
    assert {m for a in step.args for m in a.mention} == {"cabin_bill.converted_amount",
                                                          "setback.setpoint_c"}
