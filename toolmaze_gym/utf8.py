"""Text that UTF-8 can encode, whatever a model or a client sent.

Models emit lone surrogates (a byte-level tokenizer cut mid-character, a JSON escape
of half a pair such as ``"\\ud800"``), and Python strings hold them happily, but no
UTF-8 writer can: a record holding one cannot be written, sent or printed. So every
record is cleaned where it is made (:meth:`toolmaze_gym.episode.Episode.record`), not
by each writer that might remember to.
"""

from __future__ import annotations

import json
from typing import Any

_ENCODE = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


def valid_text(text: str) -> str:
    """``text`` as valid Unicode: a surrogate pair kept apart becomes the character it
    encodes, a lone surrogate U+FFFD. Models emit both (a byte-level tokenizer cut
    mid-character, a JSON escape of half a pair), and UTF-8 can encode neither."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


def valid_strings(obj: Any) -> Any:
    """``obj`` (JSON-shaped: dicts, lists, strings, numbers) with every string and key
    made valid by :func:`valid_text`; the very same object when nothing needed it, so
    a clean record costs one walk and no copy."""
    if isinstance(obj, str):
        return valid_text(obj)
    if isinstance(obj, dict):
        items = [(valid_strings(k), valid_strings(v)) for k, v in obj.items()]
        same = all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(items, obj.items(),
                                                                    strict=True))
        return obj if same else dict(items)
    if isinstance(obj, list | tuple):
        out = [valid_strings(v) for v in obj]
        return obj if all(a is b for a, b in zip(out, obj, strict=True)) else type(obj)(out)
    return obj


def valid_record(rec: dict[str, Any]) -> dict[str, Any]:
    """A record as :func:`valid_strings` makes it, checked first in one pass of the C
    JSON encoder (a clean record, nearly every one, costs a fifth of the walk)."""
    try:
        text = _ENCODE(rec)
        if text.isascii():
            return rec
        text.encode("utf-8")
    except (UnicodeEncodeError, TypeError, ValueError, RecursionError):
        return valid_strings(rec)
    return rec
