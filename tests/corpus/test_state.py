"""Episode state copies: a trial call (a fault's clean run, a wrong-entity re-run) must
never leak into the episode, and a copy must keep the records' shape."""

from __future__ import annotations

from toolmaze_gym.corpus.state import EpisodeState


def _booked() -> EpisodeState:
    state = EpisodeState()
    rec = {"id": "BK-1", "guests": ["ana"], "status": "confirmed"}
    state.table("bookings")["BK-1"] = rec
    state.seq("log").append(rec)  # the same record under two names
    state.record("book_hotel", {"id": "BK-1"})
    return state


def test_copy_is_independent_and_keeps_shared_records_shared():
    state = _booked()
    twin = state.copy()
    twin.table("bookings")["BK-1"]["status"] = "cancelled"
    twin.table("bookings")["BK-1"]["guests"].append("bo")
    twin.record("cancel", {"id": "BK-1"})
    assert state.table("bookings")["BK-1"] == {"id": "BK-1", "guests": ["ana"],
                                               "status": "confirmed"}
    assert len(state.effects) == 1
    # one record reachable two ways stays one record in the copy, as deepcopy keeps it
    assert twin.seq("log")[0] is twin.table("bookings")["BK-1"]
    assert twin.seq("log")[0]["status"] == "cancelled"


def test_fork_copies_only_when_used_and_never_writes_back():
    state = _booked()
    fork = state.fork()
    assert fork._copy is None  # a pure tool reads nothing: no copy is made
    fork.table("bookings")["BK-2"] = {"id": "BK-2"}
    fork.record("book_hotel", {"id": "BK-2"})
    assert fork.counter("bk") == 1
    assert set(state.table("bookings")) == {"BK-1"}
    assert len(state.effects) == 1 and "_counters" not in state.data
    assert set(fork.table("bookings")) == {"BK-1", "BK-2"}
