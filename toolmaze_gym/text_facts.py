"""The facts a sentence carries: its figures and its names.

A Processor that writes text (a summary that keeps an article's first sentence, a
formatted price line) is a means, not a wording the user asked for: an agent that
writes its own summary or its own line carries the same facts in other words. The
facts of a text are what a reader checks it by:

* every **figure** (a number, read as ``toolmaze_gym.mentions`` reads numbers:
  either convention, any punctuation around it);
* every **name**: a run of capitalised words ("Helix Foods", "Zurich", "Gare de
  Lyon" keeps its lower-case joiners), less the common words that open a sentence
  ("The", "Top", "Today"); a lone capitalised word that opens a sentence is no
  name, since a sentence's first word is capitalised whatever it is.
* a text with neither has its **heads**: the first word of each sentence ("Budget
  is approved …" is about the budget), which a summary in other words still names,
  and its **ranks** ("the third floor", "3rd"), the figures such a sentence gives.

Tags a tool adds (``[es]`` before a translation) are no facts. In another
language the heads are translated too, so there only figures and names are checked
(``grading.arguments``).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from toolmaze_gym.mentions import mentions, numbers_in
from toolmaze_gym.world.base import load_data
from toolmaze_gym.world.localise import weekday_names

Fact = tuple[str, object]  # (semantic type for ``mentions``: "" for plain, value)

# A temperature given again in the other unit ("36.8 °C (98.2 °F)") is one fact: a
# text that says 36.8 °C says it, in whichever unit its reader uses.
_SECOND_UNIT = re.compile(r"(-?\d+(?:\.\d+)?)\s?°\s?C\s*\((-?\d+(?:\.\d+)?)\s?°\s?F\)")


def _one_unit(m: re.Match[str]) -> str:
    c, f = float(m[1]), float(m[2])
    return f"{m[1]} °C" if abs(c * 9 / 5 + 32 - f) <= 0.1 else m[0]


_DEGREES = re.compile(r"°\s?[CFK]\b")  # a unit's letter ("27.1 °C") is no name
_TAG = re.compile(r"^\s*\[[a-z]{2,3}(?:-[A-Za-z]{2,4})?\]\s*")
_WORD = re.compile(r"[^\W\d_][\w'’.-]*", re.UNICODE)
_JOINERS = frozenset({"de", "du", "des", "la", "le", "di", "da", "del", "van", "von",
                      "der", "den", "of", "and", "&", "y", "e"})
# Words that open sentences in the texts the corpus writes and people write; a
# capitalised one of these at a sentence start is no name.
_OPENERS = frozenset({
    "a", "an", "the", "this", "that", "these", "those", "it", "its", "there", "here", "our",
    "your", "my", "his", "her", "their", "we", "you", "i", "he", "she", "they", "in", "on",
    "at", "for", "from", "by", "with", "after", "before", "today", "tomorrow", "yesterday",
    "new", "top", "latest", "breaking", "update", "note", "please", "all", "some", "most",
    "more", "less", "one", "two", "three",
})


@lru_cache(maxsize=2048)
def facts(text: str) -> tuple[Fact, ...]:
    """The figures and names ``text`` carries, in order of appearance."""
    text = _SECOND_UNIT.sub(_one_unit, _TAG.sub("", text or ""))
    dates, text = _dates(text)
    out: list[Fact] = [*dates, *(("", n) for n in sorted(_figures(text)))]
    # A code ("SO-HW4MMQX2") is a fact of its own, never part of a name: "Order
    # SO-HW4MMQX2" is the code in any words ("bestelling SO-HW4MMQX2").
    out += [("", code) for code in _CODE.findall(text)]
    out += [("", name) for name in _names(_CODE.sub(" ; ", _DEGREES.sub("°", text)))]
    if not out:  # no figure, no name: what each sentence is about, its first word
        out = [("", word) for word in _heads(text)] + [(ORDINAL, n) for n in _ordinals(text)]
    return tuple(dict.fromkeys(out))


ORDINAL = "ordinal"  # a fact's kind: a rank a sentence with no figure gives ("third floor")
_ORDINAL_DIGITS = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th|e|ème|º|ª)(?!\w)", re.I)
_FIRST_RANK = 3  # ordinals.json lists the ranks from the third


@lru_cache(maxsize=1)
def _ordinal_words() -> dict[str, int]:
    """Each language's ordinal words (data/wording/ordinals.json) -> the rank."""
    path = resources.files("toolmaze_gym") / "data" / "wording" / "ordinals.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {w.casefold(): n for lang, rows in data.items() if not lang.startswith("_")
            for n, forms in enumerate(rows, start=_FIRST_RANK) for w in forms}


def _ordinals(text: str) -> list[int]:
    """The ranks a text gives in words of the languages the suite asks, or in digits
    ("the third floor", "troisième étage", "3rd"): in a sentence with no figure they
    are its figures (grading version 27, toolmaze-v11 review c1-0055: an own
    translation that put the printer on the fourth floor for "troisième étage" carried
    the sentence's head and passed). Not "first" and "second" (an opener, "a second
    trip")."""
    words = _ordinal_words()
    ranks = [words.get(w.casefold().split("-")[0]) for w in _TOKEN_DASH.findall(text)]
    return [n for n in ranks if n] + [int(m) for m in _ORDINAL_DIGITS.findall(text)]


def ranks_kept(text: str, source: str) -> bool:
    """Whether ``text`` gives every rank ``source`` gives, in any language's words or
    in digits: a translation in other words keeps the floor it names."""
    said = _ordinals(text)
    return all(n in said for n in _ordinals(source))


@lru_cache(maxsize=1)
def _weekday_words() -> dict[str, int]:
    """A weekday's name in English and each language the world writes dates in
    (``world.localise``), case-folded -> its index (Monday 0)."""
    return {w.casefold(): k for names in weekday_names().values()
            for k, w in enumerate(names)}


def _weekdays(text: str) -> set[int]:
    words = _weekday_words()
    return {words[w] for w in (t.casefold().removesuffix("'s")
                               for t in re.findall(r"[^\W\d_]+(?:'s)?", text)) if w in words}


def weekdays_kept(text: str, source: str) -> bool:
    """Whether ``text`` names every weekday ``source`` names, in any language's words
    (grading version 32; toolmaze-v15 review c1-0027: a German summary moving "the
    meeting am Donnerstag" to "am Freitag" passed, as a sentence with no figure keeps
    nothing as written)."""
    return _weekdays(source) <= _weekdays(text)


def ordinal_said(text: str, n: object) -> bool:
    """Whether ``text`` gives the rank ``n`` in words or digits ("third", "3rd")."""
    return n in _ordinals(text)


def _heads(text: str) -> list[str]:
    """The first word of each sentence that is no common opener ("Budget is approved
    …", "Legal needs to review …"): a summary in other words still names them."""
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        words = [w for w in _WORD.findall(sentence)]
        head = next((w.rstrip(".") for w in words if w.lower().rstrip(".") not in _OPENERS),
                    None)
        if head and len(head) > 2:
            out.append(head.lower())
    return out


def carries(text: str, source: str, names: bool = True) -> bool:
    """Whether ``text`` carries every fact of ``source`` (in any wording); without
    ``names`` only its dates, figures and codes (a translation renames places)."""
    kept = facts(source) if names else _dated_figures_and_codes(source)
    return all(ordinal_said(text, v) if t == ORDINAL else
               mentions(text, t, v) or (not t and (name_reordered(text, v) or head_said(text, v)
                                                   or country_said(text, v)))
               for t, v in kept)


def country_said(text: str, name: object) -> bool:
    """Whether ``text`` names country ``name`` by its adjective ("its Polish producers"
    for Poland; ``data/world/demonyms.json``, grading version 31, toolmaze-v14
    play-test c3-0050 P3), as a whole word."""
    forms = _demonyms().get(name.casefold()) if isinstance(name, str) else None
    return bool(forms) and any(re.search(rf"(?<![\w.]){re.escape(f)}(?![\w])", text)
                               for f in forms)


@lru_cache(maxsize=1)
def _demonyms() -> dict[str, tuple[str, ...]]:
    """Country (case-folded, as ``facts`` gives a name) -> its adjectives, as written."""
    return {k.casefold(): tuple(v) for k, v in load_data("demonyms.json").items()
            if not k.startswith("_")}


_SUFFIXES = ("ies", "ied", "ing", "ed", "es", "s", "e")


def _stem(word: str) -> str:
    """``word`` less one inflection ("wants", "wanted", "wanting" → "want"; "approve",
    "approved" → "approv"), where at least three letters stay."""
    word = word.casefold()
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def head_said(text: str, head: object) -> bool:
    """Whether ``text`` names a sentence's head (a lower-case word ``_heads`` gives) in
    any inflection: "They want a third store" is about wanting, and "the client wants a
    third store" says it (grading version 22, toolmaze-v10 play-test c2-0046)."""
    if not isinstance(head, str) or not head.islower() or not head.isalpha():
        return False
    stem = _stem(head)
    return any(_stem(w) == stem for w in _TOKEN.findall(text))


# Words a name said in another order may have between its words ("Tesla room (Rome)",
# "Rome's Tesla room", "the Tesla room in Rome"): what the named thing is, and little words.
_FILLERS = frozenset({"room", "meeting", "conference", "hall", "venue", "the", "in", "at",
                      "of", "s"})
_CLAUSE = re.compile(r"[.;:!?\n]+(?:\s|$)")
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_TOKEN_DASH = re.compile(r"[^\W\d_][\w-]*", re.UNICODE)  # "third-floor" is "third" here


def name_reordered(text: str, name: object) -> bool:
    """Whether ``text`` says the name of several words ``name`` (a room "Rome Tesla",
    from a tool's response) by its words in another order, or with one in parentheses:
    "Tesla room (Rome)". Every word of the name within one stretch of the text that
    holds nothing but them and ``_FILLERS``, so "Tesla room" alone, where Tesla rooms
    are in several cities, or "Rome time, Tesla room ...", does not name the Rome room
    (grading version 21, toolmaze-v9 review c4-0088)."""
    if not isinstance(name, str):
        return False
    want = {w.casefold() for w in _TOKEN.findall(name) if w.lower() not in _JOINERS}
    if len(want) < 2:
        return False
    for clause in _CLAUSE.split(text):
        run: set[str] = set()
        for token in (t.casefold() for t in _TOKEN.findall(clause)):
            if token in want:
                run.add(token)
                if run == want:
                    return True
            elif token not in _FILLERS:
                run = set()
    return False


def survives_translation(text: str) -> bool:
    """Whether ``text`` carries a fact a translation keeps as written: a date, a figure
    or a code (names may be translated, heads always are)."""
    return bool(_dated_figures_and_codes(text))


def _dated_figures_and_codes(text: str) -> tuple[Fact, ...]:
    text = _SECOND_UNIT.sub(_one_unit, _TAG.sub("", text or ""))
    dates, rest = _dates(text)
    # A date in another language's words ("del 20 al 23 de agosto de 2026") keeps
    # its day and year as figures.
    days = [("", float(int(v[8:10]))) for _, v in dates] + [("", float(v[:4])) for _, v in dates]
    out: list[Fact] = [*days, *(("", n) for n in sorted(_figures(_CODE.sub(" ", rest))))]
    out += [("", code) for code in _CODE.findall(rest)]
    return tuple(dict.fromkeys(out))


# An id or code: capitals and digits, with a hyphen ("HR-Q28PRY7T") or without
# ("ZSN5V8", "EC4298").
_CODE = re.compile(r"\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])(?:[A-Z0-9]+(?:-[A-Z0-9]+)+"
                   r"|[A-Z0-9]{4,})\b")
_ISO_DT = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:\d{2})?")
_ISO_D = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def _dates(text: str) -> tuple[list[Fact], str]:
    """The ISO dates and date-times ``text`` writes, as typed facts (a reader writes
    "20 de agosto de 2026" for 2026-08-20), and the text without them."""
    found: list[Fact] = [("iso_datetime", m) for m in _ISO_DT.findall(text)]
    text = _ISO_DT.sub(" ", text)
    found += [("iso_date", m) for m in _ISO_D.findall(text)]
    return found, _ISO_D.sub(" ", text)


def _figures(text: str) -> set[float]:
    """One value per written number: a number that reads two ways is kept when any
    reading is found (``mentions`` tries them all), so its first reading stands."""
    found: set[float] = set()
    for token in re.findall(r"(?<![^\W\d_])\d[\d.,]*\d(?![^\W\d_])|(?<![^\W\d_])\d(?![^\W\d_])",
                            _CODE.sub(" ", text)):
        values = sorted(numbers_in(token))
        if values:
            found.add(values[0] if len(values) == 1 else _plain(token, values))
    return found


def _plain(token: str, values: list[float]) -> float:
    """The reading of an ambiguous number an English text means (``1,234`` = 1234)."""
    try:
        return float(token.replace(",", ""))
    except ValueError:
        return values[0]


def _names(text: str) -> list[str]:
    names: list[str] = []
    run: list[str] = []
    pending: list[str] = []  # lower-case joiners inside a run ("Gare de Lyon")
    at_start = False  # the run opens a sentence
    end = 0
    for m in _WORD.finditer(text):
        word = m.group() if _abbreviation(m.group()) else m.group().rstrip(".")
        before = text[: m.start()].rstrip()
        if text[end: m.start()].strip():  # punctuation between words ends a name
            _close(run, at_start, names)
            run, pending = [], []
        end = m.end()
        starts = not before or (before.endswith((".", "!", "?", ":", "\n")) \
            and not _abbreviation(before.rsplit(None, 1)[-1]))
        if word[:1].isupper() and not (run and starts):
            if not run:
                at_start = starts
            run += [*pending, word]
            pending = []
            continue
        if run and word.lower() in _JOINERS:
            pending.append(word)
            continue
        _close(run, at_start, names)
        run, pending = [], []
        if word[:1].isupper():
            run, at_start = [word], starts
    _close(run, at_start, names)
    return names


def _close(run: list[str], at_start: bool, names: list[str]) -> None:
    """A run that opens a sentence loses its opening common words ("The", "Top"), and
    a lone word left there is no name: every sentence's first word is capitalised."""
    if at_start:
        while run and run[0].lower() in _OPENERS:
            run = run[1:]
        if len(run) < 2:
            return
    if run:
        names.append(" ".join(run))


def _abbreviation(word: str) -> bool:
    """"St." and "Dr." do not end a sentence."""
    return word.endswith(".") and len(word) <= 3 and word[:1].isupper()


def names_or_figures(text: str) -> bool:
    """Whether ``text`` carries a figure or a name (facts other than its heads)."""
    stripped = _TAG.sub("", text or "")
    return bool(_figures(stripped) or _names(stripped))
