"""News: the day's top story per topic and city, written from templates.

A story is a pure function of (seed, topic, city, today), so every news provider
reports the same headline for the same question and it was published within the
last hours of ``world.now``: a stale ``published_at`` is a fault, never a fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from toolmaze_gym import hashing
from toolmaze_gym.world.base import Facts, load_data


@dataclass(frozen=True)
class Article:
    topic: str
    city: str
    headline: str
    description: str
    source: str
    url: str
    published_at: str


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].rstrip("-")


class News(Facts):
    def __init__(self, world) -> None:
        super().__init__(world)
        data = load_data("news.json")
        self.templates: dict[str, list[list[str]]] = data["topics"]
        self.topics: tuple[str, ...] = tuple(self.templates)
        self.sources: tuple[tuple[str, str], ...] = tuple(tuple(s) for s in data["sources"])
        self.source_names: tuple[str, ...] = tuple(s[0] for s in self.sources)
        self.companies: tuple[str, ...] = tuple(data["companies"])

    def top_story(self, topic: str, city: str | None = None, rank: int = 0) -> Article:
        """The ``rank``-th story of the day for a topic, optionally about one city."""
        topic = topic.strip().lower()
        geo = self.world.geo
        if city is None:
            city = hashing.choice(geo.city_names, *self.key("city", topic, self.world.today))
        c = geo.city(city)
        k = self.key("story", topic, c.name, self.world.today, rank)
        head, body, *bounds = hashing.choice(self._templates(topic, c.name), *k, "tpl")
        # A count a story can hold (a squad of 23-30, not of 858): its template's own
        # range, else (and in edition 1) any count from 3 to 900.
        low, high = bounds[0].get("n", (3, 900)) if bounds and \
            self.world.has("news_count_ranges") else (3, 900)
        fill = {"city": c.name, "country": c.country,
                "company": hashing.choice(self.companies, *k, "co"),
                "n": hashing.randint(low, high, *k, "n"), "pct": hashing.randint(2, 40, *k, "pct")}
        headline, description = head.format(**fill), body.format(**fill)
        name, domain = hashing.choice(self.sources, *k, "src")
        minutes = hashing.randint(12, 20 * 60, *k, "age")
        published = (self.world.now - timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")
        url = f"https://{domain}/{topic}/{_slug(headline)}-{hashing.randint(1000, 99999, *k, 'u')}"
        return Article(topic, c.name, headline, description, name, url, published)

    def _templates(self, topic: str, city: str) -> list[list]:
        """The topic's templates a story about ``city`` today may be written from: from
        world edition 7 (``seasonal_headlines``) only those whose ``season`` fits the
        city's month (toolmaze-v9 c4-0080: "Flood defences completed in Madrid" in its
        dry August heat)."""
        every = self.templates[topic]
        if not self.world.has("seasonal_headlines"):
            return every
        month = self.world.now.month
        fitting = [t for t in every
                   if season_misfit(self._season(t), city, month) is None]
        return fitting or every

    def _season(self, template: list) -> str:
        """``_season``, less a league's end before world edition 10 (``league_seasons``):
        a title clinched in August was news there (toolmaze-v13 c4-0010)."""
        season = _season(template)
        return "" if season == "league_end" and not self.world.has("league_seasons") \
            else season

    def misfit(self, headline: str, city: str) -> str | None:
        """Why ``headline``, a story about ``city`` today, does not fit its season (None:
        it fits, or no seasonal template writes it)."""
        for template in (t for ts in self.templates.values() for t in ts if self._season(t)):
            pattern = re.escape(template[0]).replace(re.escape("{city}"), re.escape(city))
            if re.fullmatch(re.sub(r"\\\{\w+\\\}", ".+?", pattern), headline):
                return season_misfit(self._season(template), city, self.world.now.month)
        return None


def _season(template: list) -> str:
    """A template's ``season`` (news.json): "wet" (no flood story in a dry month),
    "warm" (no heat record in a cool month), "league_end" (no title clinched while the
    leagues are off or just begun); empty for a story of any season."""
    return template[2].get("season", "") if len(template) > 2 else ""


def season_misfit(season: str, city: str, month: int) -> str | None:
    """Why a story of ``season`` does not fit ``city`` in ``month`` (None: it does)."""
    from toolmaze_gym.world.geo import _dry_months, normal_high

    if season == "wet" and month in _dry_months().get(city, frozenset()):
        return f"a flood story in {city}'s dry month {month}"
    normal = normal_high(city, month)
    if season == "warm" and normal is not None and normal < WARM_FROM_C:
        return f"a heat record in {city} in month {month}, normal high {normal:g} °C"
    if season == "league_end" and month in LEAGUE_OFF_MONTHS:
        return f"a league title clinched in {city} in month {month}"
    return None


# A heat record is news in a month whose normal high is at least this (not Auckland's
# 15 °C August).
WARM_FROM_C = 20.0
# Months in which no football league is clinched "with two games to spare": Europe's
# leagues end in May or June and start in August, and the others (MLS, the Asian,
# Scandinavian and South American leagues) end from October on.
LEAGUE_OFF_MONTHS = frozenset({7, 8, 9})
