"""Office messaging: directory contacts, e-mail, drafts, SMS and team chat.

Providers of one capability (SMTP-style send_email and Graph sendMail, Twilio and a
plain SMS gateway, Slack/Teams/Google Chat) call the same core here, so they return
the same message id for the same request and record the same side effect.
"""

from __future__ import annotations

import math

from toolmaze_gym.corpus.behaviours import CallContext, ToolError, behaviour, not_found
from toolmaze_gym.corpus.behaviours.office_common import (
    counter,
    peek,
    person_by_email,
    person_by_name,
    seq,
    table,
)
from toolmaze_gym.values.catalog import make_id
from toolmaze_gym.world.people import Person

# ---------------------------------------------------------------- contacts


def _contact(ctx: CallContext, p: Person) -> dict:
    return {"contact_id": ctx.world.office.contact_id(p), "name": p.name, "email": p.email,
            "phone": p.phone}


@behaviour("office.contact.find")
def find_contact(ctx: CallContext, name: str) -> dict:
    return _contact(ctx, person_by_name(ctx, name, "name"))


@behaviour("office.contact.by_email")
def contact_by_email(ctx: CallContext, email: str) -> dict:
    return _contact(ctx, person_by_email(ctx, email, "email"))


# ---------------------------------------------------------------- e-mail


def _send_mail(ctx: CallContext, to: str, subject: str, body: str, kind: str = "new") -> dict:
    to = to.strip().lower()
    mid = make_id("MSG", 10, to, " ".join(subject.split()), " ".join(body.split()),
                  counter(ctx, "email"))
    seq(ctx, "outbox").append({"message_id": mid, "to": to, "subject": subject, "body": body,
                               "kind": kind, "sent_at": ctx.world.now_iso})
    ctx.state.record(ctx.tool, {"action": "email.send", "message_id": mid, "to": to})
    return {"message_id": mid, "to": to, "status": "sent", "sent_at": ctx.world.now_iso}


@behaviour("office.mail.send")
def send_mail(ctx: CallContext, to: str, subject: str, body: str) -> dict:
    return _send_mail(ctx, to, subject, body)


@behaviour("office.mail.send_to_name")
def send_mail_to_name(ctx: CallContext, name: str, subject: str, body: str) -> dict:
    p = person_by_name(ctx, name, "name")
    return {**_send_mail(ctx, p.email, subject, body), "name": p.name}


@behaviour("office.mail.create_draft")
def create_draft(ctx: CallContext, to: str, subject: str, body: str) -> dict:
    to = to.strip().lower()
    did = make_id("DRF", 8, to, subject, body, counter(ctx, "draft"))
    table(ctx, "drafts")[did] = {"to": to, "subject": subject, "body": body, "sent": False}
    ctx.state.record(ctx.tool, {"action": "email.draft", "draft_id": did, "to": to})
    return {"draft_id": did, "to": to, "status": "draft"}


@behaviour("office.mail.send_draft")
def send_draft(ctx: CallContext, draft_id: str) -> dict:
    drafts = table(ctx, "drafts")
    draft = drafts.get(draft_id)
    if draft is None:
        held = ctx.world.office.draft(draft_id)
        if held is None:
            raise not_found("draft", draft_id, "draft_id")
        to, subject, body = held
        draft = drafts[draft_id] = {"to": to, "subject": subject, "body": body, "sent": False}
    if draft["sent"]:
        raise ToolError(409, "conflict", f"draft {draft_id} was already sent", "draft_id")
    draft["sent"] = True
    return _send_mail(ctx, draft["to"], draft["subject"], draft["body"])


@behaviour("office.mail.latest_from")
def latest_from(ctx: CallContext, sender: str) -> dict:
    if ctx.world.people.by_email(sender) is None:
        raise not_found("messages from", sender, "sender")
    m = ctx.world.office.latest_mail_from(sender)
    return {"message_id": m.message_id, "sender": m.sender, "subject": m.subject,
            "received_at": m.received_at}


@behaviour("office.mail.reply")
def reply(ctx: CallContext, message_id: str, body: str) -> dict:
    sent = next((m for m in peek(ctx, "outbox") if m["message_id"] == message_id), None)
    if sent is not None:  # a follow-up to a message sent earlier in the episode
        to, subject = sent["to"], sent["subject"]
    else:
        original = ctx.world.office.mail(message_id)
        if original is None:
            raise not_found("message", message_id, "message_id")
        to, subject = original.sender, original.subject
    subject = subject if subject.startswith("Re:") else f"Re: {subject}"
    return _send_mail(ctx, to, subject, body, kind="reply")


# ---------------------------------------------------------------- SMS


def _send_sms(ctx: CallContext, to: str, body: str) -> dict:
    sid = make_id("SM", 10, to, " ".join(body.split()), counter(ctx, "sms"))
    segments = 1 if len(body) <= 160 else math.ceil(len(body) / 153)
    seq(ctx, "sms").append({"sid": sid, "to": to, "body": body})
    ctx.state.record(ctx.tool, {"action": "sms.send", "sid": sid, "to": to})
    return {"sid": sid, "to": to, "status": "queued", "segments": segments,
            "created_at": ctx.world.now_iso}


@behaviour("office.sms.send")
def send_sms(ctx: CallContext, to: str, body: str) -> dict:
    return _send_sms(ctx, to.strip(), body)


@behaviour("office.sms.send_to_name")
def send_sms_to_name(ctx: CallContext, name: str, body: str) -> dict:
    p = person_by_name(ctx, name, "name")
    return {**_send_sms(ctx, p.phone, body), "name": p.name}


# ---------------------------------------------------------------- chat


def _channel(ctx: CallContext, channel: str, field: str = "channel") -> str:
    name = channel.strip().lstrip("#").lower()
    if name not in ctx.world.office.channels:
        raise not_found("channel", channel, field)
    return name


@behaviour("office.chat.post")
def post_chat(ctx: CallContext, channel: str, text: str) -> dict:
    name = _channel(ctx, channel)
    mid = make_id("CHT", 10, name, " ".join(text.split()), counter(ctx, "chat"))
    table(ctx, "chat").setdefault(name, []).append(
        {"message_id": mid, "text": text, "posted_at": ctx.world.now_iso})
    ctx.state.record(ctx.tool, {"action": "chat.post", "message_id": mid, "channel": name})
    return {"message_id": mid, "channel": name, "status": "sent", "posted_at": ctx.world.now_iso}


@behaviour("office.chat.history")
def channel_history(ctx: CallContext, channel: str) -> dict:
    name = _channel(ctx, channel)
    text, author, posted_at, count = ctx.world.office.channel_latest(name)
    posted = peek(ctx, "chat").get(name, [])
    if posted:
        text, author, posted_at = posted[-1]["text"], ctx.world.office.me.name, \
            posted[-1]["posted_at"]
    return {"channel": name, "text": text, "author": author, "posted_at": posted_at,
            "message_count": count + len(posted)}
