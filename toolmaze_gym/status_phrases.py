"""A status phrase told as people write it: "label created" in a sentence.

A carrier's status reads like a form's field ("label created": a noun and what
happened to it), and a person telling it writes a sentence: "the label has been
created", "UPS has created the shipping label". Those say the status as surely as
the phrase itself (toolmaze-v6 review, c1-0021: both failed while "label created,
awaiting pickup" passed), so a text mentions a status of the form ``<noun>
<participle>`` when it says the participle of the noun in the passive (the noun,
then auxiliaries only, then the participle) or in the active (the participle, then
at most two words such as an article or "shipping", then the noun), with no
negation before it ("the label has not been created" says no such thing). Another
status stays another: "in transit" never says "label created".

A text asked in another language tells the status in that language's words
(``status_said_in``, grading version 21, toolmaze-v9 review c1-0091: a Dutch "is
bezorgd door UPS", delivered, passed for "in transit" because a common word was not
checked in a translation). The phrases of each status per language are data,
``data/wording/statuses.toml``; English is read beside them (a translator keeps
"'in transit'" as written). The text says the status when it says one of its phrases,
and says no other status: a phrase after a negation ("nog niet bezorgd") or a plan
("wird am Montag zugestellt") claims nothing.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache, lru_cache
from importlib import resources

from toolmaze_gym.world.phrasebook import fold

# The types whose values are such status phrases (``values.domains.shopping``).
STATUS_TYPES = frozenset({"shipment_status", "order_status"})

# Words that may stand between a noun and its participle in the passive:
# "label has been created", "label's been created", "label was just created".
_AUXILIARIES = ("has", "have", "had", "was", "were", "is", "are", "be", "been", "being",
                "now", "just", "already", "successfully", "also")
_NEGATION = re.compile(r"\b(?:not|never|no|yet to)\s*$|n't\s*$")
_FORM = re.compile(r"([a-z]+) ([a-z]+ed)")  # "label created"


@lru_cache(maxsize=64)
def _patterns(value: str) -> tuple[re.Pattern[str], ...]:
    """The passive and active sentences of ``value`` (none when it is no
    ``<noun> <participle>`` phrase)."""
    m = _FORM.fullmatch(" ".join(value.casefold().split()))
    if not m:
        return ()
    noun, done = map(re.escape, m.groups())
    aux = "|".join(_AUXILIARIES)
    passive = rf"\b{noun}s?(?:'s)?(?:\s+(?:{aux}))*\s+{done}\b"
    active = rf"\b{done}\s+(?:[\w-]+\s+){{0,2}}?{noun}s?\b"
    return re.compile(passive), re.compile(active)


def status_told(text: str, value: str) -> bool:
    """Whether ``text`` tells status ``value`` in a sentence of its own (see the
    module docstring); the phrase word for word is ``mentions``' plain rule."""
    flat = " ".join(text.replace("\u2019", "'").casefold().split())
    for rx in _patterns(value):
        for m in rx.finditer(flat):
            if not _NEGATION.search(flat[max(0, m.start() - 12):m.start()]):
                return True
    return False


@cache
def _wording() -> dict:
    """``data/wording/statuses.toml``, read once."""
    path = resources.files("toolmaze_gym") / "data" / "wording" / "statuses.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _phrase(phrase: str) -> str:
    """A listed phrase as a pattern: whole words, a final ``*`` letting the word go on."""
    stem = phrase.removesuffix("*")
    tail = r"\w*" if phrase.endswith("*") else ""
    return rf"(?<!\w){re.escape(stem)}{tail}(?!\w)"


def _any_of(words: list[str]) -> re.Pattern[str]:
    """Any of ``words``, each read as ``_phrase`` reads a listed phrase."""
    return re.compile("|".join(_phrase(w) for w in words))


@cache
def _reader(code: str) -> tuple[re.Pattern[str], tuple[str, ...], re.Pattern[str]]:
    """(every status phrase of ``code`` and English, one group each, longest first so
    that "wordt vandaag bezorgd" is read before "bezorgd"; the status of each group;
    the words that take a status back: negations and plans)."""
    data = _wording()
    of: dict[str, str] = {}
    for status, by_language in data["status"].items():
        for lang in dict.fromkeys(("en", code)):
            for phrase in by_language.get(lang, ()):
                of.setdefault(phrase, status)
    ordered = sorted(of, key=lambda p: len(p.removesuffix("*")), reverse=True)
    either = re.compile("|".join(f"({_phrase(p)})" for p in ordered))
    back = [w for part in ("negation", "pending") for lang in dict.fromkeys(("en", code))
            for w in data[part].get(lang, ())]
    return either, ("", *(of[p] for p in ordered)), _any_of(back)


def statuses_claimed(text: str, code: str) -> frozenset[str]:
    """The statuses ``text`` (in language ``code``, or English) says a parcel or order
    is in: its phrases, less those after a negation or a plan within three words of its clause."""
    either, status, back = _reader(code)
    flat = " ".join(fold(text.replace("\u2019", "'")).split())
    return frozenset(status[m.lastindex] for m in either.finditer(flat)
                     if not back.search(_just_before(flat, m.start(), 3)))


def _just_before(text: str, at: int, n: int) -> str:
    """The ``n`` words before position ``at`` in its clause ("niet bezorgd, maar
    onderweg": no word of "niet bezorgd" stands before "onderweg")."""
    clause = _CLAUSE_END.split(text[:at])[-1]
    return " ".join(clause.split()[-n:])


_CLAUSE_END = re.compile(r"[,.;:!?()]")


def flight_status_told(text: str, value: str) -> bool:
    """Whether ``text`` tells a flight's status ``value`` in the words people use for it
    (``[flight]`` of the wordlist: "on time" for scheduled), not after a negation."""
    phrases = _wording().get("flight", {}).get(value, {}).get("en", ())
    if not phrases:
        return False
    flat = " ".join(fold(text.replace("\u2019", "'")).split())
    deny = _any_of(_wording()["negation"]["en"])
    return any(not deny.search(_just_before(flat, m.start(), 2))
               for m in _any_of(list(phrases)).finditer(flat))


def status_listed(value: str) -> bool:
    """Whether the wordlist knows status ``value`` in other languages."""
    return value in _wording()["status"]


def status_said_in(text: str, value: str, code: str) -> bool:
    """Whether ``text``, asked in language ``code``, tells status ``value``: it claims
    that status in that language or in English, and no other (see the module
    docstring)."""
    return statuses_claimed(text, code) == {value}
