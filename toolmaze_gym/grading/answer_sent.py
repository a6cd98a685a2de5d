"""An answer the request sends on is not asked of the final answer (grading version 32).

toolmaze-v15's review c3-0088: "My friend Leo Haddad wants a Saffron Studio Polarized
Sunglasses. How many are in stock, and how do buyers rate it? Text them the answer in
Portuguese." The questions are Leo's; the request sends their answer to Leo, and the
SMS carries it. A run that texted 182 and 4.6 and told the user only that it had,
failed for not telling the user 182 and 4.6 (the blind reviewer: a fair success).

So where the request sends "the answer" on ("text them the answer", "e-mail her the
answers"), a value it asks to be told that a text of the run must carry is not asked of
the final answer as well. A figure the final answer does tell is still read (a wrong one
fails as before: ``grade._told_wrong``).
"""

from __future__ import annotations

import re
from typing import Any

from toolmaze_gym.tasks.model import Task

# "text them the answer", "email Leo the answers", "send her the answer in Portuguese"
_SENT_ON = re.compile(r"\b(?:text|sms|send|e-?mail|mail|message|forward|whatsapp)\b"
                      r"[^.;!?]{0,40}?\bthe answers?\b", re.I)


def sends_the_answer_on(query: str) -> bool:
    """Whether ``query`` sends its questions' answer to someone by a text."""
    return _SENT_ON.search(query) is not None


def left_to_texts(task: Task, asks: tuple[tuple[Any, ...], ...]) -> tuple[tuple[Any, ...], ...]:
    """``asks`` less those a text of the run must carry, where the request sends the
    answer on (``sends_the_answer_on``); all of them otherwise."""
    if not sends_the_answer_on(task.query):
        return asks
    carried = {(m[2], m[3]) for s in task.slots for i in s.inputs for m in i.mentions
               if len(m) >= 4}
    return tuple(a for a in asks if len(a) < 4 or (a[2], a[3]) not in carried)
