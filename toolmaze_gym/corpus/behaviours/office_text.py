"""Office text processors: summaries, statistics, e-mail bodies, action items, invites.

Pure functions of their input text (the only world fact used is the mailbox
owner's name for a signature), so the providers of one capability agree exactly
and every count they report can be recomputed by a careful reader.
"""

from __future__ import annotations

import math
import re

from toolmaze_gym.corpus.behaviours import CallContext, add_minutes, behaviour
from toolmaze_gym.corpus.behaviours.office_common import (
    duration,
    iso,
    person_by_name,
    sentences,
    when,
    words,
)

SUMMARY_MAX_WORDS = 60

_CUES = re.compile(
    r"\b(please|need to|needs to|must|should|todo|to-do|action|follow up|follow-up|"
    r"remember to|make sure|let's|will|assign|send|review|schedule|book|prepare|update|"
    r"confirm|fix|call|submit|share)\b", re.IGNORECASE)


def _clip(text: str, limit: int) -> str:
    parts = text.split()
    return text if len(parts) <= limit else " ".join(parts[:limit]) + "…"


@behaviour("office.text.summarize")
def summarize(ctx: CallContext, text: str) -> dict:
    """Lead-based extractive summary: the first third of the sentences, at most 60 words."""
    sents = sentences(text) or [text.strip()]
    keep = max(1, math.ceil(len(sents) / 3))
    summary = _clip(" ".join(sents[:keep]), SUMMARY_MAX_WORDS)
    n = words(summary)
    return {"summary": summary, "word_count": n,
            "compression_pct": round(100.0 * n / max(words(text), 1), 1)}


@behaviour("office.text.stats")
def text_stats(ctx: CallContext, text: str) -> dict:
    return {"word_count": words(text), "character_count": len(text),
            "sentence_count": len(sentences(text)) or 1}


@behaviour("office.text.compose_email")
def compose_email(ctx: CallContext, recipient_name: str, message: str) -> dict:
    person = person_by_name(ctx, recipient_name, "recipient_name")
    first = person.name.split()[0]
    body = (f"Hi {first},\n\n{message.strip()}\n\nBest regards,\n"
            f"{ctx.world.office.me.name}")
    return {"body": body, "recipient_name": person.name, "word_count": words(body)}


def _items(text: str) -> list[str]:
    sents = sentences(text) or [text.strip()]
    found = [s for s in sents if _CUES.search(s)] or sents[:1]
    return [s.rstrip(".!? ") or s for s in found]


@behaviour("office.text.action_items")
def action_items(ctx: CallContext, text: str) -> dict:
    """Sentences that ask for something; the first sentence when none does."""
    items = _items(text)
    return {"action_items": "; ".join(items), "item_count": len(items)}


@behaviour("office.text.meeting_invite")
def meeting_invite(ctx: CallContext, subject: str, start: str, duration_minutes: int) -> dict:
    begin = when(start, "start")
    minutes = duration(duration_minutes, "duration_minutes")
    end = add_minutes(begin, minutes, "start")
    me = ctx.world.office.me
    invite = (f"{subject.strip()}\nWhen: {begin:%a %d %b %Y, %H:%M}-{end:%H:%M} UTC "
              f"({minutes} min)\nOrganizer: {me.name} <{me.email}>")
    return {"invite": invite, "start": iso(begin), "duration_minutes": minutes,
            "word_count": words(invite)}
