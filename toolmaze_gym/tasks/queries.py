"""Queries: deterministic templates from the task spec, and the reverse check.

Each slot becomes a clause describing its capability with the literals it needs;
clauses are joined with varied openers and connectors. The reverse check proves
that every literal the DAG needs can be read back from the query and that no tool
identifier leaks. An optional paraphrase hook (any callable, e.g. an LLM) may
rewrite a query; its output must pass the same check or it is discarded.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.corpus import Corpus
from toolmaze_gym.mentions import DATE_TYPES, DATETIME_TYPES, mentions, spoken_forms
from toolmaze_gym.tasks.model import Slot, Task
from toolmaze_gym.tasks.people_words import country_adjective, country_in, said, say_amount
from toolmaze_gym.tasks.plurals import plural_name

_VERBS = {
    "get": "check", "fetch": "fetch", "search": "search for", "find": "find", "lookup": "look up",
    "query": "check", "list": "list", "send": "send", "post": "post", "create": "create",
    "book": "book", "set": "set", "convert": "convert", "translate": "translate",
    "format": "format", "calculate": "calculate", "compute": "compute", "schedule": "schedule",
    "add": "add", "update": "update", "cancel": "cancel", "record": "record", "hold": "hold",
    "place": "place", "track": "track", "estimate": "estimate", "summarize": "summarize",
    "summarise": "summarise", "extract": "extract", "round": "round", "apply": "apply",
    "share": "share", "upload": "upload", "append": "append", "reserve": "reserve",
    "check": "check", "adjust": "adjust", "turn": "turn", "lock": "lock", "unlock": "unlock",
    "notify": "notify", "publish": "publish", "log": "log", "pay": "pay", "transfer": "transfer",
    "assign": "assign", "close": "close", "buy": "buy", "delete": "delete",
    "generate": "generate", "compose": "compose", "draft": "draft", "email": "e-mail",
    "grant": "grant", "issue": "issue", "initiate": "start", "mark": "mark",
    "multiply": "multiply", "open": "open", "order": "order", "purchase": "purchase",
    "recommend": "recommend", "render": "render", "reply": "reply to", "request": "request",
    "reschedule": "reschedule", "shorten": "shorten", "split": "split",
    "submit": "submit", "switch": "switch", "void": "void", "write": "write",
    "activate": "activate", "detect": "detect", "forward": "forward", "calc": "calculate",
    "verify": "verify", "refund": "refund", "rate": "rate",
    "tag": "tag", "move": "move", "rename": "rename", "remove": "remove", "review": "review",
}
_PREPOSITIONS = {"to", "in", "by", "of", "for", "from", "on", "with"}
_ADVERBS = {"now", "online", "later", "instantly"}
_PROVIDERS = {"finance", "yahoo", "stripe", "graph", "slack", "teams", "amadeus",
              "shopify", "openweather", "google", "deepl", "v2", "v3", "api"}

_TYPE_PHRASE: dict[str, str] = {
    "city_name": "in {v}", "email": "to {v}", "phone": "at {v}", "person_name": "for {v}",
    "iso_date": "on {v}", "iso_datetime": "at {v}", "currency_code": "in {v}",
    "stock_symbol": "for {v}", "text": "with the text {v}",
}
_OPENERS = ("", "Please ", "Could you ", "I need you to ", "Can you ", "Help me ")
_THEN = (", then ", "; after that, ", ", and then ", ". Next, ", ", then ")
_LAST = (", and finally ", ". Finally, ", ", and ", ". Once that is done, ")


def _words(name: str) -> list[str]:
    return [w for w in name.split("_") if w and w not in _PROVIDERS]


def capability(name: str) -> str:
    """A verb phrase for a tool, from its API-style name (never the name itself).

    Words before the verb are usually a provider (``honeywell_get_thermostat``)
    and are dropped; ``x_to_y`` names are conversions.
    """
    words = _words(name) or name.split("_")
    verb_at = next((i for i, w in enumerate(words) if w in _VERBS), None)
    if verb_at is None:
        if "to" in words[1:-1]:
            return "convert " + " ".join(words)
        if words[-1].endswith(("er", "or")):  # an agent noun: a converter, a translator
            return "run the " + " ".join(words)
        return "get the " + " ".join(words)
    verb = _VERBS[words[verb_at]]
    rest = words[verb_at + 1:] or words[:verb_at]
    if not rest:
        return f"{verb} it"
    if set(rest[-1:]) <= _ADVERBS and set(rest[:-1]) <= _PREPOSITIONS:  # check_in_online
        return f"{verb} {' '.join(rest)}"
    if rest[0] in _PREPOSITIONS:  # add_to_cart -> "add to the cart"
        tail = " ".join(rest[1:])
        return f"{verb} {rest[0]} the {tail}" if tail else f"{verb} {rest[0]}"
    return f"{verb} the {' '.join(rest)}"


def literal_text(value: Any) -> str:
    """How a literal is written in a query (and searched for by the reverse check)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def say(value: Any) -> str:
    """How toolmaze-v2 writes a value in a query or a text: exactly, so the value
    the grader asks for is the one the agent reads (``literal_text`` rounds floats
    to six significant digits, which v1 keeps for its shipped queries)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)


SWITCH_ROLES = frozenset({"on"})  # arguments that switch a device: said "on"/"off"
BOOL_WORDS = {True: ("yes", "on", "true"), False: ("no", "off", "false")}


def say_as(type_: str, value: Any, words: tuple[str, str] | None = None) -> str:
    """How toolmaze-v2 writes a literal of semantic type ``type_`` for a person: a
    language by its name ("Spanish", not "es"), a boolean as ``words`` (the true
    and the false word: "on"/"off" for a switch), a date, a time or a count of
    decimals in people's words (``people_words``), anything else as ``say``."""
    if isinstance(value, bool):
        return (words or ("yes", "no"))[0 if value else 1]
    spoken = spoken_forms(type_, value, loosely=False)
    return spoken[0] if spoken else said(type_, value) or say(value)


def stated_as(text: str, type_: str, value: Any) -> bool:
    """Whether ``text`` states ``value`` in a way ``say_as`` could have written it
    (the value itself, or its spoken form; a boolean as one of its usual words).
    Words and codes that have a spoken form are found only as whole words: "it"
    inside "translate it" is not Italian."""
    low = text.lower()
    if isinstance(value, bool):
        return any(re.search(rf"\b{w}\b", low) for w in BOOL_WORDS[value])
    if type_ in DATE_TYPES | DATETIME_TYPES:  # in any words the grader reads
        return mentions(text, type_, value, loosely=False)
    spoken = spoken_forms(type_, value, loosely=False) \
        + ((said(type_, value),) if said(type_, value) else ()) \
        + ((country_in(value),) if type_ == "country_code" and country_in(value) else ()) \
        + ((country_adjective(value),) if type_ == "country_code" and country_adjective(value)
           else ()) \
        + ((say_amount(value),) if type_ == "money_amount" and say_amount(value) else ())
    if not spoken:
        return say(value).lower() in low or (
            type_ == "product_name" and plural_name(say(value)).lower() in low)
    return any(re.search(rf"(?<!\w){re.escape(form.lower())}(?!\w)", low)
               for form in (say(value), *spoken))


def _phrase(type_: str, role: str, value: Any) -> str:
    v = literal_text(value)
    if type_ == "text":
        v = f'"{v}"'
    template = _TYPE_PHRASE.get(type_)
    if template:
        return template.format(v=v)
    return f"({role.replace('_', ' ')}: {v})"


def clause(corpus: Corpus, slot: Slot, side: Sequence[str]) -> str:
    literals = [_phrase(i.type, i.role, i.source.value) for i in slot.inputs
                if i.source.is_literal]
    head = capability(side[-1])
    return " ".join([head, *literals])


def compose(corpus: Corpus, slots: Sequence[Slot], sides: Sequence[Sequence[str]],
            key: str) -> str:
    parts = [clause(corpus, s, side) for s, side in zip(slots, sides, strict=True)]
    opener = hashing.choice(_OPENERS, "open", key)
    text = opener + parts[0]
    for i, part in enumerate(parts[1:], start=1):
        sep = (hashing.choice(_LAST, "last", key) if i == len(parts) - 1
               else hashing.choice(_THEN, "then", key, i))
        text += sep + (part[0].upper() + part[1:] if sep.endswith(". ") else part)
    text = text[0].upper() + text[1:]
    return text + ("?" if opener.strip() in {"Could you", "Can you"} else ".")


def reverse_check(task: Task, corpus: Corpus, query: str | None = None) -> list[str]:
    """Problems with a query: literals it does not state, tool names it leaks."""
    q = task.query if query is None else query
    low = q.lower()
    problems = [f"literal {literal_text(e['value'])!r} ({e['type']}) not stated"
                for e in task.entities if literal_text(e["value"]).lower() not in low]
    for name in task.tools:
        if "_" in name and re.search(rf"\b{re.escape(name)}\b", q):
            problems.append(f"query leaks tool name {name!r}")
    return problems


Paraphraser = Callable[[str, Task], str]


def paraphrase(task: Task, corpus: Corpus, fn: Paraphraser) -> Task:
    """Rewrite ``task.query`` with ``fn``; keep the original if the rewrite fails the check."""
    try:
        candidate = fn(task.query, task)
    except Exception:  # a user-supplied callable: any failure keeps the template query
        return task
    if not isinstance(candidate, str) or not candidate.strip() or reverse_check(task, corpus,
                                                                                candidate):
        return task
    task.query = candidate
    task.meta = {**task.meta, "paraphrased": True}
    return task
