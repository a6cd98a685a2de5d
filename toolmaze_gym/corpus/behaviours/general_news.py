"""News search (General domain): every provider reads ``world.news``'s top story."""

from __future__ import annotations

from toolmaze_gym.corpus.behaviours import CallContext, behaviour, not_found
from toolmaze_gym.corpus.behaviours.general_common import field_name
from toolmaze_gym.corpus.behaviours.weather import city_of


@behaviour("news.top_story")
def top_story(ctx: CallContext, topic: str, city: str | None = None) -> dict:
    news = ctx.world.news
    key = topic.strip().lower()
    if key not in news.topics:
        raise not_found("topic", topic, field_name(ctx, "topic"))
    name = city_of(ctx, city).name if city else None
    a = news.top_story(key, name)
    return {"topic": a.topic, "city": a.city, "headline": a.headline,
            "description": a.description, "source": a.source, "url": a.url,
            "published_at": a.published_at}
