"""General types: weather conditions, news topics and outlets, clock offsets, dispatch ids.

Conditions and topics are words a user says, so they are literals; an outlet
name or a UTC offset is read from a response, never stated by a user.
"""

from __future__ import annotations

from toolmaze_gym.values.catalog import enum_type, id_type, number_type
from toolmaze_gym.world.geo import CONDITIONS

enum_type("weather_condition", lambda w: CONDITIONS,
          "a weather condition, e.g. 'light rain' or 'partly cloudy'")
enum_type("news_topic", lambda w: w.news.topics, "a news section, e.g. 'technology'")
enum_type("news_source", lambda w: w.news.source_names, "name of the news outlet",
          literal=False)
number_type("utc_offset_hours", -12, 14, "offset from UTC in hours, between -12 and +14",
            sample_lo=-8, sample_hi=10)
enum_type("dispatch_status", lambda w: ("delivered", "sent", "queued", "created"),
          "delivery state of a webhook, push message or link", literal=False)

id_type("webhook_delivery_id", "WHK", 10, "webhook delivery id, e.g. WHK-7Q2X9ZLM4K")
id_type("push_notification_id", "PSH", 10, "push notification id, e.g. PSH-7Q2X9ZLM4K")
id_type("short_link_id", "LNK", 8, "short link id, e.g. LNK-7Q2X9ZLM")
number_type("multiplier", 0, 1e6, "a dimensionless factor, e.g. 0.15 for 15 %", sample_hi=2)
