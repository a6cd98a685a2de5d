"""News stories hold counts their story can hold: a football squad of 23-30 players, a
drama charting in 3-40 countries, never any count from 3 to 900 (the v4 final
play-test's "topped charts in 858 countries", which careful players left out of their
summaries as absurd)."""

from __future__ import annotations

import re

from toolmaze_gym.world import World

# (where the story states the count, the count's plausible range)
PLAUSIBLE = [(r"squad of (\d+)", 23, 30), (r"charts in (\d+)", 3, 40),
             (r"exceeded the offer (\d+)", 2, 6), (r"seats (\d+)", 4000, 20000),
             (r"(\d+) runners finished", 1500, 30000), (r"free for (\d+)", 3, 30),
             (r"fly (\d+) new routes", 3, 25)]


def _stories():
    w = World(0).build_all()
    for topic in w.news.topics:
        for city in w.geo.city_names[:40]:
            for rank in range(3):
                yield w.news.top_story(topic, city, rank)


def test_every_count_is_one_its_story_can_hold():
    seen = {words: 0 for words, _, _ in PLAUSIBLE}
    for story in _stories():
        for words, low, high in PLAUSIBLE:
            m = re.search(words, story.description)
            if m:
                seen[words] += 1
                assert low <= int(m.group(1)) <= high, (story.headline, story.description)
    assert all(seen.values()), seen  # each kind of story was drawn and checked


def test_every_template_with_a_count_names_its_range():
    """A new template with {n} must say what count it can hold."""
    w = World(0)
    w.build_all()
    for topic, templates in w.news.templates.items():
        for head, body, *bounds in templates:
            if "{n}" in head + body:
                assert bounds and bounds[0]["n"][0] < bounds[0]["n"][1], (topic, head)
