"""Office types: message, calendar, document and ticket identifiers, statuses, counts.

Identifiers are opaque and come from earlier calls, or name a record the workspace
held before the episode (an event, a ticket, a document: a query may state those);
the enums a user can name (a channel, a priority, a sharing role, a file name) are
literals so a query can state them.
"""

from __future__ import annotations

from toolmaze_gym import hashing
from toolmaze_gym.values.catalog import enum_type, id_type, number_type, pattern_type

# ---------------------------------------------------------------- identifiers

id_type("contact_id", "CT", 8, "directory contact id, e.g. CT-7Q2X9ZLM")


def _held(kind: str):
    """A sampler drawing the id of a record the workspace holds before the episode."""
    return lambda world, key: world.office.sample_record(kind, key)


id_type("email_message_id", "MSG", 10, "mail message id, e.g. MSG-7Q2X9ZLM4K",
        existing=lambda world, key: world.office.sample_message_id(key))
id_type("draft_id", "DRF", 8, "mail draft id, e.g. DRF-7Q2X9ZLM", existing=_held("drafts"))
id_type("sms_message_id", "SM", 10, "SMS message SID, e.g. SM-7Q2X9ZLM4K")
id_type("chat_message_id", "CHT", 10, "chat message id, e.g. CHT-7Q2X9ZLM4K")
id_type("meeting_id", "EVT", 10, "calendar event id, e.g. EVT-7Q2X9ZLM4K",
        existing=_held("meetings"))
id_type("room_booking_id", "RB", 8, "room reservation id, e.g. RB-7Q2X9ZLM")
id_type("document_id", "DOC", 10, "document id, e.g. DOC-7Q2X9ZLM4K",
        existing=_held("documents"))
id_type("spreadsheet_id", "SHT", 10, "spreadsheet id, e.g. SHT-7Q2X9ZLM4K",
        existing=_held("sheets"))
id_type("permission_id", "PRM", 8, "sharing permission id, e.g. PRM-7Q2X9ZLM")
id_type("task_id", "TSK", 8, "task id, e.g. TSK-7Q2X9ZLM")
id_type("ticket_id", "TKT", 8, "support ticket id, e.g. TKT-7Q2X9ZLM", existing=_held("tickets"))
id_type("reminder_id", "RMD", 8, "reminder id, e.g. RMD-7Q2X9ZLM")
id_type("file_id", "FILE", 10, "stored file id, e.g. FILE-7Q2X9ZLM4K", existing=_held("files"))

enum_type("room_id", lambda w: w.office.room_ids,
          "meeting-room id as listed by the room finder, e.g. 'paris-atlas'", literal=False)

# ---------------------------------------------------------------- literals a user can name

enum_type("channel_name", lambda w: w.office.channels,
          "chat channel name without the '#', e.g. 'general'")
enum_type("share_role", lambda w: ("reader", "commenter", "writer"),
          "sharing role: reader, commenter or writer")
enum_type("ticket_priority", lambda w: ("low", "normal", "high", "urgent"),
          "ticket priority: low, normal, high or urgent")


def _file_name_sample(world, key: str) -> str:
    return hashing.choice(world.office.file_names, "file_name", key)


pattern_type("file_name", r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,79}\.[A-Za-z0-9]{1,5}$",
             "a file name with an extension, e.g. 'report.pdf'", _file_name_sample,
             literal=True)

# ---------------------------------------------------------------- statuses (responses only)

enum_type("message_status", lambda w: ("queued", "sent", "delivered", "draft", "scheduled"),
          "delivery state of a message", literal=False)
enum_type("meeting_status", lambda w: ("confirmed", "tentative", "rescheduled", "cancelled"),
          "state of a calendar event", literal=False)
enum_type("ticket_status", lambda w: ("open", "assigned", "in_progress", "resolved", "closed"),
          "state of a support ticket", literal=False)
enum_type("record_status", lambda w: ("created", "updated", "shared", "uploaded", "confirmed",
                                      "scheduled", "notStarted", "open"),
          "result of a create/update request", literal=False)

# ---------------------------------------------------------------- counts

number_type("word_count", 0, 1e6, "number of words in a text, never negative", integer=True,
            sample_lo=1, sample_hi=400)
number_type("character_count", 0, 1e7, "number of characters in a text, never negative",
            integer=True, sample_lo=1, sample_hi=2400)
number_type("byte_size", 0, 1e10, "size in bytes, never negative", integer=True,
            sample_lo=10, sample_hi=10**6)
