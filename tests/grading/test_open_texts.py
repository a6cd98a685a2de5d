"""An own rendering carries what the request asked, not the words the task's author
chose where the request left them open (round 8, c2-0028: an interview invitation
written by the agent, with no title the request never gave)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.grading._helpers import played

EPISODE = Path(__file__).parent.parent / "data" / "played" / "v3-round8" / \
    "tmz-v3-c2-0028-P3.actions"


def _with_body(body: str) -> dict:
    lines = EPISODE.read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("create_draft "))
    draft = json.loads(lines[k].split(" ", 1)[1])
    lines[k] = "create_draft " + json.dumps({**draft, "body": body})
    lines[k + 1] = 'send_draft {"draft_id": "{last.draft_id}"}'
    # the new body's message has an id of its own: the finish tells that one
    lines[k + 2] = lines[k + 2].replace("MSG-49DZ6668K6", "{last.message_id}")
    return played("tmz-v3-c2-0028", "P3", lines)


@pytest.mark.parametrize(("body", "success"), [
    ("Interview on Friday 21 August 2026, 11:00-12:30 UTC (90 minutes), room london-fjord.",
     True),
    ("Interview on Friday 21 August 2026 (90 minutes), room london-fjord.", False),  # no time
    ("Interview on Friday 21 August 2026 at 11:00 UTC, room london-fjord.", False),  # no length
])
def test_an_own_invitation_needs_the_asked_facts_not_an_unasked_title(body, success):
    assert _with_body(body)["success"] is success
