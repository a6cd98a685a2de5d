"""Outbound General actions: webhooks, push messages and short links.

Each records what it sent in the episode state (``webhooks``, ``push``, ``links``)
so a later step, a grader or a test can see the side effect. Shortening is
idempotent, as at real link shorteners: one long URL, one short link, whose code is
its id's (LNK-S7RMRFEJ is https://tmz.link/s7rmrfej), so the two always agree.
"""

from __future__ import annotations

from toolmaze_gym.corpus.behaviours import CallContext, ToolError, behaviour
from toolmaze_gym.corpus.behaviours.general_common import field_name
from toolmaze_gym.values.catalog import make_id

SHORT_DOMAIN = "https://tmz.link"


def _text(ctx: CallContext, value: str, canonical: str) -> str:
    value = " ".join(value.split())
    if not value:
        field = field_name(ctx, canonical)
        raise ToolError(422, "invalid_parameter", f"{field} must not be blank", field)
    return value


@behaviour("dispatch.webhook")
def webhook(ctx: CallContext, url: str, payload: str) -> dict:
    body = _text(ctx, payload, "payload")
    n = ctx.state.counter("webhooks")
    delivery = make_id("WHK", 10, ctx.world.seed, url, body, n)
    ctx.state.seq("webhooks").append({"delivery_id": delivery, "url": url, "payload": body})
    ctx.state.record(ctx.tool, {"delivery_id": delivery, "url": url})
    return {"delivery_id": delivery, "status": "delivered", "url": url, "response_code": 200,
            "delivered_at": ctx.world.now_iso}


@behaviour("dispatch.push")
def push(ctx: CallContext, recipient: str, message: str, title: str | None = None) -> dict:
    body = _text(ctx, message, "message")
    to = recipient.strip().lower()
    n = ctx.state.counter("push")
    pid = make_id("PSH", 10, ctx.world.seed, to, body, n)
    ctx.state.seq("push").append({"notification_id": pid, "recipient": to, "title": title,
                                  "message": body})
    ctx.state.record(ctx.tool, {"notification_id": pid, "recipient": to})
    return {"notification_id": pid, "status": "sent", "recipient": to, "message": body,
            "sent_at": ctx.world.now_iso}


def short_url(link_id: str) -> str:
    """The short URL of link ``link_id``: its code is the id without 'LNK-', lower-cased."""
    return f"{SHORT_DOMAIN}/{link_id.removeprefix('LNK-').lower()}"


@behaviour("dispatch.shorten")
def shorten(ctx: CallContext, long_url: str) -> dict:
    links = ctx.state.table("links")
    link_id = make_id("LNK", 8, ctx.world.seed, long_url)
    short = short_url(link_id)
    if short not in links:
        links[short] = long_url
        ctx.state.record(ctx.tool, {"short_url": short, "long_url": long_url})
    return {"short_url": short, "link_id": link_id, "long_url": long_url,
            "created_at": ctx.world.now_iso}
