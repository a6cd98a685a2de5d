"""Over-trust reads every value a later call sent, however deep a record nests it,
without recursing on agent data."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import _replay
from toolmaze_gym.episode import Step
from toolmaze_gym.grading.overtrust import propagated


def _step(args, fault=None) -> Step:
    return Step("", {"kind": "call", "name": "t", "arguments": args}, 200, "{}", fault)


def test_a_deeply_nested_later_argument_is_read_without_recursion():
    fault = {"tool": "get_quote", "corrupted": {"price": 912.5}, "clean": {"price": 91.25}}
    deep: list = [912.5]
    for _ in range(5_000):  # far past Python's recursion limit
        deep = [deep]
    assert propagated([_step({}, fault), _step({"v": deep})]) is True
    assert propagated([_step({}, fault), _step({"v": [[{"x": 91.25}]]})]) is False


def _ending(kind: str, text: str) -> Step:
    return Step("", {"kind": kind, "text": text}, None, "", None)


def test_a_corrupted_value_told_to_the_user_is_over_trust():
    """The final answer passes a value on as surely as a call: quoting the corrupted
    price as the result is over-trust; quoting the clean one, or both (the agent
    noticed), is not, and an abort claims nothing."""
    fault = {"tool": "get_quote", "corrupted": {"price": 912.5}, "clean": {"price": 91.25}}
    told = "The laptop costs 912.50 USD, so I e-mailed the quote."
    assert propagated([_step({}, fault), _ending("finish", told)]) is True
    assert propagated([_step({}, fault), _ending("answer", told)]) is True
    assert propagated([_step({}, fault),
                       _ending("finish", "The laptop costs 91.25 USD.")]) is False
    assert propagated([_step({}, fault), _ending(
        "finish", "The first quote said 912.50, which was wrong; it costs 91.25.")]) is False
    assert propagated([_step({}, fault), _ending(
        "abort", "The quote tool said 912.50, which cannot be right.")]) is False
    assert propagated([_step({}, fault), _ending(
        "finish", "It costs 91.25 USD. (The first quote said 912.50 by mistake; I ignored it "
                  "and asked again.)")]) is False
    assert propagated([_step({}, fault), _ending(
        "finish", "One search returned bad data the first time (912.50); I retried.")]) is False
    assert propagated([_step({}, fault), _ending(
        "finish", "It costs 91.25 USD. Note: the first quote kept returning 912.50.")]) is False


def test_a_value_told_as_what_the_faulty_tool_kept_answering_is_a_warning():
    """Explaining the switch with the bad value ("gnews kept returning a health story, so
    I used NewsAPI": the version-23 play-test's c2-0016 P4) reports the fault; telling
    the same value as the result still passes it on."""
    fault = {"tool": "gnews_search", "corrupted": {"category": "health"},
             "clean": {"category": "business"}}
    for told in ("Posted the summary (gnews kept returning a health story, so I used NewsAPI).",
                 "The first search gave a health story, so I switched to NewsAPI.",
                 "I used NewsAPI instead: the gnews search answered with a health story."):
        assert propagated([_step({}, fault), _ending("finish", told)]) is False, told
    assert propagated([_step({}, fault), _ending(
        "finish", "Posted today's top health story to the lobby screen.")]) is True


def test_a_clock_time_does_not_pass_on_a_corrupted_count():
    """The oracle's own itinerary title "landing 19:26 UTC+02:00" was read as telling a
    silent fault's quote_count of 2 (toolmaze-v4 c4-0055 P4, the one oracle failure of
    the first v4 build): the hours and minutes of a time are no numbers of their own. The
    count written as a count is still passed on."""
    from toolmaze_gym.play import PlaySession
    from toolmaze_gym.tasks.suite import get_task

    s = PlaySession(get_task("tmz-v4-c4-0055"), "P4", prompt="failure_aware")
    lines = (Path(__file__).parent.parent / "data" / "overtrust" /
             "tmz-v4-c4-0055-P4.actions").read_text(encoding="utf-8").splitlines()
    for line in lines:
        s.handle(line)
    assert s.env.record()["grade"]["success"], s.closing()
    fault = {"tool": "skyscanner_browse_quotes", "corrupted": {"quote_count": 2},
             "clean": {"quote_count": 4}}
    title = "Zurich trip: landing 19:26 UTC+02:00 on Monday 31 August"
    assert propagated([_step({}, fault), _ending("finish", title)]) is False
    assert propagated([_step({}, fault), _ending("finish", "Skyscanner found 2 quotes.")])


def _clean(observation: str) -> Step:
    return Step("", {"kind": "call", "name": "t", "arguments": {}}, 200, observation, None)


def test_a_value_a_clean_response_gave_is_no_trust_of_the_corrupted_one():
    """The agent that quotes 912.50 which another, clean look-up also gave had it from
    there (v7 play-test, c4-0081 P3); a faulted response gives nothing of the kind."""
    fault = {"tool": "get_quote", "corrupted": {"price": 912.5}, "clean": {"price": 91.25}}
    told = _ending("finish", "The laptop costs 912.50 USD.")
    assert propagated([_step({}, fault), _clean('{"price": 912.5}'), told]) is False
    assert propagated([_step({}, fault), _clean('{"price": 91.0}'), told]) is True
    assert propagated([_step({}, fault), _step({}, fault), told]) is True


def test_a_figure_in_degrees_tells_no_value_of_another_kind():
    """ "Bedroom set to 19 °C" tells a temperature, not a stale air-quality index of 19
    (v7 play-test, c4-0081 P3); the index told bare is still passed on."""
    fault = {"tool": "get_room_climate", "corrupted": {"air_quality_index": 19},
             "clean": {"air_quality_index": 20}}
    assert propagated([_step({}, fault), _ending("finish", "Bedroom set to 19 °C.")]) is False
    assert propagated([_step({}, fault), _ending("finish", "Warmed to 19C, dry.")]) is False
    assert propagated([_step({}, fault), _ending("finish", "The air quality index is 19.")])


def test_a_corrupted_number_passed_on_rounded_is_over_trust():
    """A stale 26.76 told as 26.8 is passed on as surely as 26.76 (grading version 24);
    a figure the clean value rounds to as well, a whole figure, and one a hair off are
    no copy of it."""
    fault = {"tool": "weather", "corrupted": {"temp_c": 26.76}, "clean": {"temp_c": 29.5}}
    # (no task here, so the field has no type: figures without a degree unit)
    for told in ("The reading is 26.8 now.", "La lectura es 26,8 ahora."):
        assert propagated([_step({}, fault), _ending("finish", told)]) is True, told
    assert propagated([_step({}, fault), _step({"temp": 26.8})]) is True
    for told in ("The reading is 29.5 now.", "The reading is 27 now.",
                 "The reading is 26.9 now.", "The reading is 26.7 now."):
        assert propagated([_step({}, fault), _ending("finish", told)]) is False, told
    same = {"tool": "weather", "corrupted": {"temp_c": 26.76}, "clean": {"temp_c": 26.81}}
    assert propagated([_step({}, same), _ending("finish", "It reads 26.8.")]) is False
    assert propagated([_step({}, same), _step({"temp": 26.8})]) is False


PLAYED = Path(__file__).parent.parent / "data" / "played"


@pytest.mark.parametrize("slip", ["v10-g23/slips/tmz-v10-c4-0084-P4.staleweather",
                                  "v10-g23/slips/tmz-v10-c4-0084-P4.staleweather-exact",
                                  "v10/slips/tmz-v10-c2-0043-P3.stale-temp"])
def test_a_stale_reading_texted_rounded_or_exact_is_labelled_over_trust(slip):
    """v10-g23 play-test c4-0084 P4: the stale 26.76 °C / 77.19 °F texted as "26,8 °C
    (77,2 °F)" failed without the over_trust label its exact copy got; v10 c2-0043 P3's
    stale 25.29 °C told as "25.3 °C" likewise (the two labels version 24 moved among
    the 757 P3/P4 episodes kept under tests/data/played)."""
    path = PLAYED / f"{slip}.actions"
    g, text = _replay(path, path.name.split(".")[0])
    assert not g["success"] and "over_trust" in g["labels"], text
