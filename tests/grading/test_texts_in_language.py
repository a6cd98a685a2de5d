"""A text asked in another language is read in that language (grading version 21,
toolmaze-v9 review c1-0080 and c1-0091): a user's comment in its sense, a parcel's
status in that language's words. Played on the reviewed v9 tasks, the reference
replay with its text replaced."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.grading._helpers import played

ACTIONS = Path(__file__).parent.parent / "data" / "reviews" / "v9" / "actions"


def _with_text(replay: str, tool: str, key: str, text: str) -> list[str]:
    """The lines of ``replay`` with ``tool``'s argument ``key`` set to ``text``."""
    out = []
    for line in (ACTIONS / f"{replay}.txt").read_text(encoding="utf-8").splitlines():
        name, _, args = line.partition(" ")
        if name == tool:
            line = f"{name} {json.dumps({**json.loads(args), key: text}, ensure_ascii=False)}"
        out.append(line)
    return out


@pytest.mark.parametrize(("comment", "success"), [
    ("Tut, was es soll, obwohl das Handbuch dünn ist.", True),
    ("Die Gebrauchsanleitung ist knapp, aber es erfüllt seinen Zweck.", True),
    ("Ein dünnes Handbuch, doch das Gerät tut, was es soll.", True),
    ("Die Anleitung ist ausgezeichnet, alles perfekt.", False),
    ("Tut, was es soll. Das Handbuch liegt bei.", False),
    ("Tut, was es soll, obwohl das Handbuch nicht dünn ist.", False),
])
def test_the_users_german_comment_is_read_in_its_sense(comment, success):
    lines = _with_text("c1-0080.ref", "post_product_review", "body",
                       f"{comment} Geliefert am Donnerstag, 13. August.")
    assert played("tmz-v9-c1-0080", "P0", lines)["success"] is success


@pytest.mark.parametrize(("status", "success"), [
    ("is onderweg met UPS", True),
    ("staat op 'in transit' bij UPS", True),
    ("is nog niet bezorgd, maar onderweg met UPS", True),
    ("is bezorgd door UPS", False),
    ("is afgeleverd door UPS", False),
    ("is geannuleerd door UPS", False),
])
def test_the_parcels_status_is_read_in_dutch(status, success):
    body = (f"Bestelling SO-GZFWHZWA {status}, laatst gescand in Zürich, verwachte "
            "levering maandag 24 augustus.")
    lines = _with_text("c1-0091.ref", "create_draft", "body", body)
    lines = [line if not line.startswith("send_draft") else
             'send_draft {"draft_id": "{last.draft_id}"}' for line in lines]
    assert played("tmz-v9-c1-0091", "P0", lines)["success"] is success
