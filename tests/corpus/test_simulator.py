"""The simulator's own guarantees: what it echoes is valid UTF-8, and its shared
response memo is bounded by what the project controls, not by what agents send."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from toolmaze_gym.corpus import EpisodeState, Simulator

FREE_TEXT_TOOLS = {"create_itinerary": {}, "create_document": {}, "create_spreadsheet": {},
                   "word_count": {}, "translate_text": {"target_language": "fr"}}


@pytest.mark.parametrize("tool,text", [
    ("create_itinerary", "Trip \ud83d to Rome"), ("create_document", "\udfff"),
    ("create_spreadsheet", "Budget \ud800"),
])
def test_a_lone_surrogate_is_a_422_naming_the_parameter(sim, tool, text):
    r = sim.call(tool, {"title": text}, EpisodeState())
    body = r.to_json()
    body.encode("utf-8")  # what it echoes is valid UTF-8
    err = json.loads(body)["error"]
    assert (r.status, err["type"], err["field"]) == (422, "invalid_parameter", "title")
    assert "lone surrogate" in err["message"] and "title" in err["message"]


def test_a_lone_surrogate_in_a_nested_or_unknown_argument_is_refused_too(sim):
    for args in ({"title": ["ok", {"x": "\ud800"}]}, {"\ud800": 1}, {"title": "ok", "\udc00": "a"}):
        r = sim.call("create_document", args, EpisodeState())
        assert r.status in (400, 422)
        r.to_json().encode("utf-8")


def test_valid_pairs_and_plain_unicode_still_work(sim):
    for title in ("Trip 😀 to Rome", "Reise nach Zürich", "東京"):
        r = sim.call("create_document", {"title": title}, EpisodeState())
        assert r.status == 200 and r.ok


def _growth(sim: Simulator, calls: int, size: int) -> int:
    """Bytes still held after ``calls`` distinct ``size``-character titles."""
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for k in range(calls):
        sim.call("create_itinerary", {"title": f"{k:06d}" + "t" * size}, EpisodeState())
        sim.call("word_count", {"text": f"{k:06d}" + "w" * size}, EpisodeState())
    grown = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return grown


def test_the_memo_does_not_keep_what_agents_send(corpus, world):
    # issue 17: +188 MB for 10,000 distinct 15 kB titles (bounded only at 200,000 entries)
    sim = Simulator(corpus, world)
    grown = _growth(sim, 2_000, 15_000)
    assert grown < 8 * 2**20, f"{grown / 2**20:.1f} MiB kept for 2,000 long titles"


def test_the_memo_is_bounded_in_bytes_for_short_distinct_arguments(corpus, world,
                                                                   monkeypatch):
    from toolmaze_gym.corpus import simulator

    monkeypatch.setattr(simulator, "MEMO_CHARS", 1 << 20)  # 1 Mi characters, to fill it
    sim = Simulator(corpus, world)
    grown = _growth(sim, 3_000, 200)  # each call memoisable, 6,000 distinct ones
    assert 0 < sim.memo_chars <= simulator.MEMO_CHARS
    assert len(sim._memo) < 6_000  # it was emptied on the way
    assert grown < 4 * simulator.MEMO_CHARS


def test_the_memo_still_serves_repeated_pure_calls(corpus, world):
    sim = Simulator(corpus, world)
    a = sim.call("word_count", {"text": "one two three"}, EpisodeState())
    b = sim.call("word_count", {"text": "one two three"}, EpisodeState())
    assert a is b and a.status == 200
