"""Which language a text is written in, among the languages the suite uses.

A scenario may ask for a text "in Portuguese"; the grader accepts the translator
tool's output or a text the agent wrote itself in that language, and this module
decides the latter. It is built on ``py3langid`` (langid.py's naive Bayes model over
byte n-grams, BSD-licensed): the model ships inside the wheel (about 4 MB), nothing is
downloaded, and the same text always gets the same answer.

Two things make short agent texts hard, and both are handled before the model reads
the text:

* **ids, numbers, units, codes and addresses carry no language** ("BK-7Q2X9ZLM",
  "1.5.3", "14 %", "°C", "kWh", "EUR", "ana@example.com", a URL) but shift the
  n-gram counts; they are removed, as is the translator's "[pt] " tag (a tag, not a
  translation);
* **the model knows 97 languages**, and a short text often scores best in one the
  suite never uses; it is restricted to the languages of
  ``data/world/languages.json``.

A text too short to judge ("Chuva, 24,1 °C": five letters once the figure goes) is
read by its words instead (``reads_as``, for the grader only: the suite's library
checks keep ``is_language``): it is in a language when every word is one of that
language's words the world knows (its weather conditions, ``condition_words.json``,
and the phrasebook's sentences) and not every word is English.

``detect`` says the most likely language, or ``None`` when too little language is
left to judge (fewer than ``MIN_LETTERS`` letters) or no language is likely enough.
``is_language`` also accepts a text that is as good in the asked language as in a
close sibling ("Reserva confirmada" is Spanish and Portuguese), but never a text
that reads best as English.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from py3langid.langid import MODEL_FILE, LanguageIdentifier

from toolmaze_gym.world import phrasebook
from toolmaze_gym.world.base import load_data

MIN_LETTERS = 8  # fewer letters than this (after ids and numbers go) decide nothing
MIN_CONFIDENCE = 0.25  # ``detect``'s least probability for a language to be named
SIBLING_SHARE = 0.5  # ``is_language``: the asked language's least share of the best

# What carries no language: a translator tag, URLs, e-mail addresses, any token with
# a digit in it (ids, numbers, times, versions), and codes in capitals (EUR, AC, SMS).
_NOISE = re.compile(
    r"\b(?:https?://|www\.)\S+|\S+@\S+\.\S+"
    r"|[A-Za-z0-9_.,:/%+#-]*\d[A-Za-z0-9_.,:/%+#-]*"  # ASCII only: CJK text has no spaces
    r"|\b[A-Z][A-Z0-9_-]+\b"
    r"|°\s*[CFK]?|\b(?:kWh|Wh|kW|km|kg|ml|cm|mm|mph|km/h|hPa)\b")  # units go with numbers
_TAG = re.compile(r"^\s*\[[A-Za-z]{2,3}(?:-[A-Za-z]{2,4})?\]\s*")


def languages() -> tuple[str, ...]:
    """The ISO 639-1 codes the suite uses (``data/world/languages.json``)."""
    return tuple(load_data("languages.json"))


@cache
def _identifier():
    """The py3langid model, restricted to the suite's languages, loaded once (about 2 s)."""
    model = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    model.set_languages(list(languages()))
    return model


def clean(text: str) -> str:
    """``text`` without what carries no language (see the module docstring)."""
    text = _TAG.sub("", text)
    if text.isupper():  # a shouted text: its words are words, not codes
        text = text.lower()
    return " ".join(_NOISE.sub(" ", text).split())


def _ranked(text: str) -> tuple[tuple[str, float], ...] | None:
    """The suite's languages by probability for ``text``, or None with too few letters."""
    if not isinstance(text, str):
        return None
    return _ranked_text(text)


@lru_cache(maxsize=1024)  # a grade asks one text in several rules, on every path
def _ranked_text(text: str) -> tuple[tuple[str, float], ...] | None:
    bare = clean(text)
    if sum(c.isalpha() for c in bare) < MIN_LETTERS:
        return None
    return tuple(_identifier().rank(bare))


def detect(text: str) -> str | None:
    """The ISO 639-1 code of the language ``text`` is written in, or ``None``.

    ``None``: fewer than ``MIN_LETTERS`` letters once ids, numbers and codes are
    removed, or no language with probability ``MIN_CONFIDENCE`` or more.
    """
    ranked = _ranked(text)
    if not ranked or ranked[0][1] < MIN_CONFIDENCE:
        return None
    return ranked[0][0]


def is_language(text: str, code: str) -> bool:
    """Whether ``text`` is written in the language ``code`` (``"pt"``, ``"pt-BR"``).

    True when ``code`` is the most likely language, or when it has at least
    ``SIBLING_SHARE`` of the most likely one's probability and that one is not
    English (a text that reads best as English is never another language).
    """
    want = code.strip().lower().split("-")[0] if isinstance(code, str) else ""
    if want not in languages():
        raise ValueError(f"unknown language code {code!r}; the suite uses "
                         f"{', '.join(languages())}")
    ranked = _ranked(text)
    if not ranked:
        return False
    best, p_best = ranked[0]
    if best == want:
        return True
    p_want = dict(ranked)[want]
    return best != "en" and want != "en" and p_want >= SIBLING_SHARE * p_best


# A word of a short text: a run of anything but spacing, digits and punctuation (so
# the marks of Devanagari or Arabic stay with their letters).
_WORD = re.compile(r"[^\s\d.,;:!?()\[\]{}\"'/\\|*+=<>\u2013\u2014-]+")


@cache
def _vocabulary(code: str) -> frozenset[str]:
    """The words of language ``code`` the world knows, folded (``phrasebook.fold``):
    its weather conditions (``condition_words.json``) and its phrasebook sentences."""
    words = {phrasebook.fold(w) for w in load_data("condition_words.json").get(code, ())}
    for entry in load_data("phrasebook.json"):
        sentence = phrasebook.versions(entry).get(code)
        if isinstance(sentence, str):
            words |= {phrasebook.fold(w) for w in _WORD.findall(clean(sentence))}
    return frozenset(words)


def reads_as(text: str, code: str) -> bool:
    """``is_language``, and for a text too short for the model (fewer than
    ``MIN_LETTERS`` letters once ids and numbers go) its words: each a word of
    ``code`` the world knows (``_vocabulary``), and not each an English one, so
    "Chuva, 24,1 °C" is Portuguese and "Rain, 24.1 °C" is not."""
    if is_language(text, code):
        return True
    if not isinstance(text, str) or sum(c.isalpha() for c in clean(text)) >= MIN_LETTERS:
        return False  # long enough for the model, which has said no
    want = code.strip().lower().split("-")[0]
    # Units and codes go before case is evened out ("小雨, 24.1 °C" is all "upper").
    bare = _NOISE.sub(" ", _TAG.sub("", text))
    words = [phrasebook.fold(w) for w in _WORD.findall(bare) or _WORD.findall(clean(text))]
    if not words or not all(w in _vocabulary(want) for w in words):
        return False
    return want == "en" or not all(w in _vocabulary("en") for w in words)
