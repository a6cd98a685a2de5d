"""Whether an own one-line summary is a faithful paraphrase of an article.

An agent asked to sum up a story in a line writes its own sentence: "processor lead
times are shortening for Australian manufacturers as the chip shortage eases" for
"Chip shortage eases for Australia manufacturers. Factories in Australia report
shorter lead times for processors." No sentence of the article is in it, and no fact
list of one sentence is the test either: a list of the article's city passes any story
about that city. A reader checks three things, and so does ``paraphrases``:

* **the core claim is there**: the summary carries every named place and company and
  every figure of the headline, or of the body's first sentence (the two places a
  story states its claim). Names read as people write them: a country by its
  adjective ("Australian"), a city for its country (a story "in London" is a story
  in the United Kingdom); figures as people round them (860 or 900 for 858). A
  figure elsewhere in the article may be left out (a secondary or absurd one: "858
  countries").
* **it is this story**: one stretch of the text (a sentence, a line, a clause after
  "headline:", or two of these side by side) shares at least ``MIN_SHARED`` content
  words with the article, and ``CORE_SHARED`` content words of that claim (two
  thirds of a shorter one's; stems, so
  "manufacturers" is "manufacturer"; a few synonyms, "chip" for "processor",
  ``data/wording/summary_words.json``), besides its names and figures.
* **nothing in that stretch contradicts it**: no place or company the article does not
  name (another story), and no figure that counts something the article counts with
  another figure ("85 countries" for 858).

Deterministic, offline, pure Python: stems and word lists, no model. It reads English
summaries; a summary asked in another language is checked on its facts
(``grading.arguments``).
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from importlib import resources
from itertools import pairwise

from toolmaze_gym.mentions import numbers_in
from toolmaze_gym.world.base import load_data

MIN_SHARED = 2  # content words a summary shares with its article, at the least
CORE_SHARED = 3  # ... and with the claim it carries (two thirds of a shorter one)

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)
_URL = re.compile(r"https?://\S+|\b[\w.-]+@[\w.-]+\b")
_DATES = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:\d{2})?)?"
                    r"|\b\d{1,2}:\d{2}\b")
# Where a message's summary may start or stop: sentence ends, lines, the colon after
# "Top story", a dash or a semicolon between two things said.
_STRETCH = re.compile(r"(?<=[.!?])\s+|\n+|:\s+|\s[-–—]\s|;\s*")
_FIGURE = re.compile(r"(?<![\w.])(\d[\d,.]*\d|\d)(\s*(?:%|percent\b|per\s?cent\b))?"
                     r"(?:\s*(million|billion|thousand|bn|m|k)\b)?[\s-]*([^\W\d_]+)?", re.I)
_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9}


@lru_cache(maxsize=1)
def _words() -> dict:
    path = resources.files("toolmaze_gym") / "data" / "wording" / "summary_words.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    stop = frozenset(data["stopwords"])
    synonyms: dict[str, str] = {}
    for group in data["synonyms"]:
        head = stem(group[0])
        for word in group:  # a phrase ("data centre") is no synonym of its words
            if " " not in word:
                synonyms.setdefault(stem(word), head)
    places: dict[str, frozenset[str]] = {}  # a written name -> the places it names
    cities = load_data("cities.json")
    for city in cities:
        places.setdefault(city[0].casefold(), frozenset())
        places[city[0].casefold()] |= {city[0]}
        places.setdefault(city[2].casefold(), frozenset())
        places[city[2].casefold()] |= {city[2]}
    acronyms: dict[str, str] = {}  # "US", "UK": matched as written ("tell us" is no place)
    for country, names in data["demonyms"].items():
        for name in names:
            if name.replace(".", "").isupper():
                acronyms[name] = country
            else:
                places[name.casefold()] = places.get(name.casefold(), frozenset()) | {country}
    country_of = {c[0]: c[2] for c in cities}
    companies = {c.casefold(): c for c in load_data("news.json")["companies"]}
    names = sorted({*places, *companies}, key=len, reverse=True)  # "New Zealand" first
    return {"stop": stop, "synonyms": synonyms, "places": places, "country_of": country_of,
            "companies": companies, "acronyms": acronyms,
            "names": _alternation(names),
            "acronym_names": _alternation(sorted(acronyms, key=len, reverse=True))}


def _alternation(names: list[str]) -> re.Pattern[str]:
    """One pattern for whole names, the first listed winning at a position."""
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w])")


def stem(word: str) -> str:
    """A light English stem: plurals, -ing, -ed, -er, -est, -ly and a final -e off, a
    doubled consonant undone ("planned", "topped"), so "shortening" meets "shorter"
    only through the synonym list and "manufacturers" meets "manufacturer"."""
    w = word.casefold().replace("’", "'")
    w = w.removesuffix("'s")
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ing", "ed", "est", "er", "ly"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            w = w[: -len(suffix)]
            if len(w) > 2 and w[-1] == w[-2] and w[-1] not in "aeiouls":
                w = w[:-1]
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


@lru_cache(maxsize=4096)
def _read(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str],
                              tuple[tuple[float, str], ...]]:
    """(content concepts, places, companies, figures with what they count) of ``text``."""
    w = _words()
    text = _DATES.sub(" ", _URL.sub(" ", text))
    places: set[str] = {w["acronyms"][a] for a in w["acronym_names"].findall(text)}
    text = w["acronym_names"].sub(" ", text)
    companies: set[str] = set()
    for name in w["names"].findall(text.casefold()):
        if name in w["companies"]:
            companies.add(w["companies"][name])
        else:
            places |= w["places"][name]
    low = w["names"].sub(" ", text.casefold())  # a name is no content word
    concepts = set()
    for token in _WORD.findall(low.replace("-", " ")):
        if token in w["stop"]:
            continue
        base = stem(token)
        if base in w["stop"] or len(base) < 2:
            continue
        concepts.add(w["synonyms"].get(base, base))
    figures = []
    for m in _FIGURE.finditer(text):
        values = sorted(numbers_in(m[1]))
        if not values:
            continue
        scale = _SCALE.get((m[3] or "").casefold(), 1.0)
        what = "percent" if m[2] else _concept(m[4] or "")
        figures.append((values[-1] * scale, what))
    return frozenset(concepts), frozenset(places), frozenset(companies), tuple(figures)


def _concept(word: str) -> str:
    if not word or word.casefold() in _words()["stop"]:
        return ""
    base = stem(word)
    return _words()["synonyms"].get(base, base)


def _rounds_to(said: float, true: float) -> bool:
    """Whether ``said`` is ``true`` as people round it: within half a unit of its last
    written digit (860 and 900 for 858; 12 or 13 for 12.5)."""
    if math.isclose(said, true, rel_tol=1e-9, abs_tol=1e-9):
        return True
    if said == 0:
        return False
    text = f"{said:.6f}".rstrip("0").rstrip(".")
    if "." in text:
        unit = 10.0 ** -len(text.split(".")[1])
    else:
        digits = text.lstrip("-")
        unit = 10.0 ** (len(digits) - len(digits.rstrip("0")))
    return abs(said - true) <= unit / 2 + 1e-9


def _places_carried(said: frozenset[str], want: frozenset[str]) -> bool:
    """Every place of ``want`` is said, or a city in it is (London says United Kingdom)."""
    country_of = _words()["country_of"]
    return all(p in said or any(country_of.get(s) == p for s in said) for p in want)


@lru_cache(maxsize=1)
def _exchanges() -> tuple[re.Pattern[str], dict[str, str]]:
    """(the pattern of the stock exchanges' codes and names, as written, and the
    country each is in): ``data/world/markets.json``."""
    country = {c[1]: c[2] for c in load_data("cities.json")}
    where: dict[str, str] = {}
    for code, (name, iso, _) in load_data("markets.json")["exchanges"].items():
        if iso in country:
            where[code] = where[name] = country[iso]
    names = sorted(where, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?!\w)"), where


@lru_cache(maxsize=1024)  # one article is read against every message that may sum it up
def _listed_in(article: str) -> frozenset[str]:
    """The countries of the exchanges ``article`` says a company is listed on ("listed
    on HKEX": Hong Kong), so that "a Hong Kong-listed beverages maker" names no place
    the article does not (grading version 17, v7 review c1-0090)."""
    pattern, where = _exchanges()
    return frozenset(where[m] for m in pattern.findall(article))


def _place_fits(place: str, article: frozenset[str]) -> bool:
    """A place the article names, the country of one of its cities, or a city in it."""
    country_of = _words()["country_of"]
    return place in article or country_of.get(place) in article or any(
        country_of.get(a) == place for a in article)


def _figures_carried(text_figures, want) -> bool:
    """Every figure of ``want`` is one of ``text_figures``, as people round it."""
    return all(any(_rounds_to(v, t) for v, _ in text_figures) for t, _ in want)


def _units(article: str) -> list[str]:
    """The places an article states its claim: its headline (the first line, where the
    article is "headline\\nbody") and the body's first sentence."""
    head, _, body = article.partition("\n")
    if not body:
        head, body = "", head
    first = re.split(r"(?<=[.!?])\s+", body.strip(), maxsplit=1)[0]
    return [u for u in (head, first) if u.strip()]


def _core_share(size: int) -> int:
    """Content words of a claim of ``size`` a summary must share: two thirds of it,
    at least two (a claim that short), at most ``CORE_SHARED``."""
    return min(size, CORE_SHARED, max(2, math.ceil(2 * size / 3)))


def _stretches(text: str) -> list[str]:
    parts = [p for p in _STRETCH.split(text) if p and p.strip()]
    return parts + [f"{a} {b}" for a, b in pairwise(parts)]


def other_story(stretch: str, article: str) -> bool:
    """Whether ``stretch`` names a place or company ``article`` does not: a stretch
    that carries a story's words about another city or firm tells another story."""
    _, places, companies, _ = _read(stretch)
    fits = _read(article)[1] | _listed_in(article)
    return any(not _place_fits(p, fits) for p in places) \
        or not companies <= _read(article)[2]


def stretches(text: str) -> list[str]:
    """The stretches of a message one thing is said in: its sentences, lines and
    clauses, and each two side by side."""
    return _stretches(text)


@lru_cache(maxsize=1024)
def paraphrases(text: str, article: str) -> bool:
    """Whether ``text`` (a message that may say other things too) sums up ``article``
    ("headline\\nbody", or a body alone) faithfully: see the module's rule."""
    if not isinstance(text, str) or not isinstance(article, str) or not article.strip():
        return False
    a_concepts, a_places, a_companies, a_figures = _read(article)
    fits = a_places | _listed_in(article)  # places a summary may name
    _, t_places, t_companies, t_figures = _read(text)
    cores = []  # the content words of each claim the text carries the names and figures of
    for unit in _units(article):
        u_concepts, u_places, u_companies, u_figures = _read(unit)
        if _places_carried(t_places, u_places) and u_companies <= t_companies \
                and _figures_carried(t_figures, u_figures):
            cores.append(u_concepts)
    if not cores:
        return False
    for stretch in _stretches(text):
        s_concepts, s_places, s_companies, s_figures = _read(stretch)
        if len(s_concepts & a_concepts) < MIN_SHARED or not any(
                len(s_concepts & c) >= _core_share(len(c)) for c in cores):
            continue  # not this story's claim in other words
        if any(not _place_fits(p, fits) for p in s_places) \
                or not s_companies <= a_companies:
            continue  # another story's place or company
        if any(not any(_rounds_to(v, t) for t, _ in a_figures) for v, _ in s_figures):
            continue  # a figure the article does not give ("85 countries" for 858)
        return True
    return False
