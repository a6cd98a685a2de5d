"""Office workspace: documents, spreadsheets, tasks, tickets and file storage.

Entities created in the episode live in its state; the workspace's records from
before the episode are world facts (``Office.records``), so updates and reads work
on both and a later read reflects every earlier change. Any other id is a 404
naming the id, as a real API answers.
"""

from __future__ import annotations

import math
from typing import Any

from toolmaze_gym.corpus import adapters
from toolmaze_gym.corpus.behaviours import CallContext, ToolError, behaviour, not_found
from toolmaze_gym.corpus.behaviours.office_common import (
    counter,
    future_day,
    peek,
    person_by_email,
    table,
    words,
)
from toolmaze_gym.values.catalog import make_id

READING_WPM = 200


def _norm(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------- documents


def _document(ctx: CallContext, doc_id: str, touch: bool = False) -> dict[str, Any]:
    """The episode's copy of a document; ``touch`` keeps it so a change persists."""
    if doc_id in peek(ctx, "documents"):
        return table(ctx, "documents")[doc_id]
    held = ctx.world.office.document(doc_id)
    if held is None:
        raise not_found("document", doc_id, "document_id")
    title, count = held
    doc = {"title": title, "words": count}
    if touch:
        table(ctx, "documents")[doc_id] = doc
    return doc


@behaviour("office.doc.create")
def create_document(ctx: CallContext, title: str) -> dict:
    did = make_id("DOC", 10, _norm(title), counter(ctx, "document"))
    table(ctx, "documents")[did] = {"title": title, "words": 0}
    ctx.state.record(ctx.tool, {"action": "document.create", "document_id": did})
    return {"document_id": did, "url": ctx.world.office.doc_url(did), "status": "created"}


@behaviour("office.doc.append")
def append_document(ctx: CallContext, document_id: str, text: str) -> dict:
    doc = _document(ctx, document_id, touch=True)
    doc["words"] += words(text)
    ctx.state.record(ctx.tool, {"action": "document.append", "document_id": document_id,
                                "words": words(text)})
    return {"document_id": document_id, "word_count": doc["words"], "status": "updated"}


def review_minutes(word_count: int) -> int:
    """Time to block for reading: 200 words a minute, rounded up to 5 minutes (at least 5)."""
    return max(5, 5 * math.ceil(word_count / READING_WPM / 5))


@behaviour("office.doc.get")
def get_document(ctx: CallContext, document_id: str) -> dict:
    doc = _document(ctx, document_id)
    return {"document_id": document_id, "title": doc["title"], "word_count": doc["words"],
            "review_minutes": review_minutes(doc["words"]),
            "url": ctx.world.office.doc_url(document_id)}


@behaviour("office.doc.share")
def share_document(ctx: CallContext, document_id: str, email: str, role: str) -> dict:
    """Idempotent per (document, grantee): sharing again updates the role."""
    _document(ctx, document_id)
    email, role = email.strip().lower(), role.strip().lower()
    pid = make_id("PRM", 8, document_id, email)
    table(ctx, "permissions")[pid] = {"document_id": document_id, "email": email, "role": role}
    ctx.state.record(ctx.tool, {"action": "document.share", "document_id": document_id,
                                "email": email, "role": role})
    return {"permission_id": pid, "document_id": document_id, "email": email, "role": role,
            "status": "shared"}


# ---------------------------------------------------------------- spreadsheets


@behaviour("office.sheet.create")
def create_sheet(ctx: CallContext, title: str) -> dict:
    sid = make_id("SHT", 10, _norm(title), counter(ctx, "sheet"))
    table(ctx, "sheets")[sid] = {"title": title, "rows": 0}
    ctx.state.record(ctx.tool, {"action": "sheet.create", "spreadsheet_id": sid})
    return {"spreadsheet_id": sid, "url": ctx.world.office.sheet_url(sid), "status": "created"}


@behaviour("office.sheet.append")
def append_row(ctx: CallContext, spreadsheet_id: str, values: str) -> dict:
    sheet = peek(ctx, "sheets").get(spreadsheet_id)
    if sheet is None:
        rows = ctx.world.office.sheet_rows(spreadsheet_id)
        if rows is None:
            raise not_found("spreadsheet", spreadsheet_id, "spreadsheet_id")
        sheet = table(ctx, "sheets")[spreadsheet_id] = {"title": "", "rows": rows}
    else:
        sheet = table(ctx, "sheets")[spreadsheet_id]
    sheet["rows"] += 1
    ctx.state.record(ctx.tool, {"action": "sheet.append", "spreadsheet_id": spreadsheet_id,
                                "row": sheet["rows"]})
    return {"spreadsheet_id": spreadsheet_id, "row_count": sheet["rows"], "updated_rows": 1,
            "status": "updated"}


# ---------------------------------------------------------------- tasks


@behaviour("office.task.create")
def create_task(ctx: CallContext, title: str, due: str) -> dict:
    day = future_day(ctx, due, "due").isoformat()
    tid = make_id("TSK", 8, _norm(title), day, counter(ctx, "task"))
    table(ctx, "tasks")[tid] = {"title": title, "due": day, "status": "open"}
    ctx.state.record(ctx.tool, {"action": "task.create", "task_id": tid, "due": day})
    return {"task_id": tid, "due": day, "status": "open", "completed": False}


# ---------------------------------------------------------------- tickets


def _ticket(ctx: CallContext, ticket_id: str, touch: bool = False) -> dict[str, Any]:
    """The episode's copy of a ticket; ``touch`` keeps it so a change persists."""
    if ticket_id in peek(ctx, "tickets"):
        return table(ctx, "tickets")[ticket_id]
    f = ctx.world.office.ticket(ticket_id)
    if f is None:
        raise not_found("ticket", ticket_id, "ticket_id")
    t = {"summary": f.summary, "status": f.status, "priority": f.priority,
         "assignee": f.assignee}
    if touch:
        table(ctx, "tickets")[ticket_id] = t
    return t


def _ticket_view(ticket_id: str, t: dict[str, Any]) -> dict[str, Any]:
    return {"ticket_id": ticket_id, "summary": t["summary"], "status": t["status"],
            "priority": t["priority"], "assignee": t["assignee"],
            "url": f"https://support.example.com/tickets/{ticket_id}"}


def _open_ticket(ctx: CallContext, summary: str, description: str, priority: str) -> str:
    priority = priority.strip().lower()
    tid = make_id("TKT", 8, _norm(summary), _norm(description), priority,
                  counter(ctx, "ticket"))
    table(ctx, "tickets")[tid] = {"summary": summary, "description": description,
                                  "status": "open", "priority": priority,
                                  "assignee": ctx.world.office.me.email}
    ctx.state.record(ctx.tool, {"action": "ticket.create", "ticket_id": tid,
                                "priority": priority})
    return tid


def _assign(ctx: CallContext, ticket_id: str, assignee: str) -> dict[str, Any]:
    person = person_by_email(ctx, assignee, "assignee")
    t = _ticket(ctx, ticket_id, touch=True)
    t.update(assignee=person.email, status="closed" if t["status"] == "closed" else "assigned")
    ctx.state.record(ctx.tool, {"action": "ticket.assign", "ticket_id": ticket_id,
                                "assignee": person.email})
    return _ticket_view(ticket_id, t)


@behaviour("office.ticket.create")
def create_ticket(ctx: CallContext, summary: str, description: str, priority: str) -> dict:
    tid = _open_ticket(ctx, summary, description, priority)
    return _ticket_view(tid, _ticket(ctx, tid))


@behaviour("office.ticket.create_assigned")
def create_assigned(ctx: CallContext, summary: str, description: str, priority: str,
                    assignee: str) -> dict:
    person_by_email(ctx, assignee, "assignee")
    return _assign(ctx, _open_ticket(ctx, summary, description, priority), assignee)


@behaviour("office.ticket.assign")
def assign_ticket(ctx: CallContext, ticket_id: str, assignee: str) -> dict:
    return _assign(ctx, ticket_id, assignee)


@behaviour("office.ticket.close")
def close_ticket(ctx: CallContext, ticket_id: str, resolution: str) -> dict:
    t = _ticket(ctx, ticket_id, touch=True)
    if t["status"] == "closed":
        raise ToolError(409, "conflict", f"ticket {ticket_id} is already closed", "ticket_id")
    t.update(status="closed", resolution=resolution)
    ctx.state.record(ctx.tool, {"action": "ticket.close", "ticket_id": ticket_id})
    return {**_ticket_view(ticket_id, t), "closed_at": ctx.world.now_iso}


@behaviour("office.ticket.get")
def get_ticket(ctx: CallContext, ticket_id: str) -> dict:
    return _ticket_view(ticket_id, _ticket(ctx, ticket_id))


# ---------------------------------------------------------------- files


def _upload(ctx: CallContext, file_name: str, content: str) -> dict[str, Any]:
    fid = make_id("FILE", 10, file_name.strip(), content, counter(ctx, "file"))
    size = len(content.encode("utf-8"))
    table(ctx, "files")[fid] = {"name": file_name.strip(), "size": size}
    ctx.state.record(ctx.tool, {"action": "file.upload", "file_id": fid})
    return {"file_id": fid, "file_name": file_name.strip(), "size_bytes": size,
            "status": "uploaded"}


def _share_link(ctx: CallContext, file_id: str) -> dict[str, Any]:
    files = table(ctx, "files")
    if file_id not in files:
        held = ctx.world.office.file(file_id)
        if held is None:
            raise not_found("file", file_id, "file_id")
        name, size = held
        files[file_id] = {"name": name, "size": size}
    url = ctx.world.office.share_url(file_id)
    files[file_id]["link"] = url
    ctx.state.record(ctx.tool, {"action": "file.share_link", "file_id": file_id})
    return {"file_id": file_id, "url": url, "file_name": files[file_id]["name"],
            "size_bytes": files[file_id]["size"], "status": "shared"}


@behaviour("office.file.upload")
def upload_file(ctx: CallContext, file_name: str, content: str) -> dict:
    return _upload(ctx, file_name, content)


@behaviour("office.file.share_link")
def create_share_link(ctx: CallContext, file_id: str) -> dict:
    return _share_link(ctx, file_id)


@behaviour("office.file.upload_and_share")
def upload_and_share(ctx: CallContext, file_name: str, content: str) -> dict:
    return _share_link(ctx, _upload(ctx, file_name, content)["file_id"])


# Microsoft To Do reports task state in its own vocabulary.
adapters.register("todo_status", lambda v: {"open": "notStarted"}.get(v, v),
                  "from_todo_status", lambda v: {"notStarted": "open"}.get(v, v))
