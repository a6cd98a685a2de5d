"""What a (task, corpus) pair derives is made once per pair object, never for an equal one."""

from __future__ import annotations

from toolmaze_gym.identity_cache import IdentityCache


def test_a_pair_is_made_once_and_an_equal_copy_again():
    cache: IdentityCache[int] = IdentityCache(8)
    made: list[int] = []
    a, b, copy = [1], [2], [1]

    def make() -> int:
        made.append(1)
        return len(made)

    assert cache.get(a, b, make) == 1 and cache.get(a, b, make) == 1
    assert cache.get(copy, b, make) == 2  # equal, not the same object
    assert len(made) == 2


def test_the_least_recently_used_pair_goes_first():
    cache: IdentityCache[str] = IdentityCache(2)
    x, y, z, corpus = object(), object(), object(), object()
    cache.get(x, corpus, lambda: "x")
    cache.get(y, corpus, lambda: "y")
    cache.get(x, corpus, lambda: "x again")  # x used last: y is the oldest
    cache.get(z, corpus, lambda: "z")
    assert len(cache) == 2
    assert cache.get(x, corpus, lambda: "x made anew") == "x"
    assert cache.get(y, corpus, lambda: "y made anew") == "y made anew"
    cache.clear()
    assert len(cache) == 0 and cache.get(x, corpus, lambda: "x cold") == "x cold"
