"""Facts a text must tell together, in one clause (grading version 21).

toolmaze-v9's c4-0012 asked to "post the plan in the design channel" after two reviews
were set up, Elif Hughes on "Meeting minutes" with me and liam.kowalski@globex.net on
"Architecture overview" offline. A post that named both reviewers and both documents
with the two swapped ("Elif Hughes reviews "Architecture overview" offline; Liam
Kowalski reviews "Meeting minutes" with me") told each fact and the wrong plan. So a
pairing the plan asks (``asked_plan``) is an entry (TOLD_TOGETHER, ((type, value),
...)): some clause of the text, a stretch between stops, semicolons or line breaks (a
sentence, a list item, a table row), says every value of it.

A person the plan names by an e-mail address is named too by the name the address
spells ("Liam Kowalski" or "Liam" for liam.kowalski@globex.net: ``PERSON``), as a team
reads a plan.
"""

from __future__ import annotations

import re

# An entry (TOLD_TOGETHER, ((type, value), ...)): the values told in one clause.
TOLD_TOGETHER = "told_together"
# An entry (PERSON, name or e-mail address): the person named, in full, by the given
# name, or by the name an address spells.
PERSON = "person"

_LOCAL_PART = re.compile(r"^([^@\s]+)@")


def clauses(text: str) -> list[str]:
    """``text`` cut at stops, semicolons, line breaks and table cell bars' rows: a cell
    bar parts a row's cells, so a row is read whole by the line, not the bar."""
    rows = text.split("\n")
    out: list[str] = []
    for row in rows:
        if row.count("|") >= 2:  # a table row: its cells belong together
            out.append(row)
            continue
        out += [c for c in re.split(r"[;]|[.!?](?=\s|$)", row) if c.strip()]
    return out


def spelled_name(address: str) -> str:
    """The name an e-mail address spells ("Liam Kowalski" for
    liam.kowalski@globex.net; "" where its local part is not words)."""
    m = _LOCAL_PART.match(address.strip())
    if m is None:
        return ""
    words = [w for w in re.split(r"[._-]", m.group(1)) if w]
    return " ".join(w.capitalize() for w in words) if all(w.isalpha() for w in words) else ""
