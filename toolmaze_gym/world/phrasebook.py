"""The world's sentences in the languages they are told in: what a translator returns.

A sentence the world or a request gives in one language (a colleague's problem
report in German, a team channel's latest post) is an entry of
``data/world/phrasebook.json`` with its versions in other languages, written once by
hand; a translator tool returns the version asked for, so "put it into English" gets
English (issue 28, c1-0054: the tool used to hand back the German) and "put it into
German" gets German (c1-0034: "[de] Lunch order closes at noon." was English). A text
outside the phrasebook has no translation in this world: the translator tools say so
in their docs and tag it instead (``general_text``).

A sentence with no figure or name ("Lunch order closes at noon.") has nothing that
survives translation for a grader to check, so its entry also lists, under
``_heads``, per language, the words one of which any faithful translation carries
("mittag" or "12" in German): an agent's own translation is checked on them
(``grading.arguments``), lower-cased and without accents. The same holds for a
sentence whose only facts are names ("Can someone review my PR?"), since a
translation may rename them: only figures, dates and codes survive it
(``text_facts.survives_translation``).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from toolmaze_gym.world.base import load_data
from toolmaze_gym.world.edition import has

HEADS = "_heads"


def _key(text: str) -> str:
    """Sentences compare with their spacing and case evened out."""
    return " ".join(text.split()).casefold()


def fold(text: str) -> str:
    """Lower case without accents: how a text is matched against ``_heads``."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold())
                   if not unicodedata.combining(c))


def versions(entry: dict) -> dict[str, str]:
    """An entry's sentences by language (its ``_``-keys are notes, no versions)."""
    return {k: v for k, v in entry.items() if not k.startswith("_")}


@cache
def _index() -> dict[str, tuple[str, dict]]:
    """Each version of each entry -> (its language, the entry)."""
    out: dict[str, tuple[str, dict]] = {}
    for entry in load_data("phrasebook.json"):
        for lang, sentence in versions(entry).items():
            out[_key(sentence)] = (lang, entry)
    return out


def translation(text: str, target: str, templates: bool = True,
                generated: bool = False, edition: int | None = None,
                ) -> tuple[str, str] | None:
    """(the text's language, its version in ``target``), or None when the phrasebook
    does not hold the text in ``target``: a sentence of its own, else (unless
    ``templates`` is off: world edition 1 translated sentences only) a filled
    template (``template_translation``), else (when ``generated`` is on: world
    edition 3, the translators' own answer; off by default, as the graders read
    editions before 3) a text another tool generated (``generated_translation``).
    With ``edition``, an entry that arrived with a later change (its ``_change``) is
    not held."""
    hit = _sentence(text, target, edition)
    if hit is None and templates:
        hit = template_translation(text, target, generated, edition)
    if hit is None and generated:
        hit = generated_translation(text, target, _places_checked(edition))
    return hit


def _places_checked(edition: int | None) -> bool:
    """Whether a generated template's place holes must hold places (``_places_held``):
    from world edition 6; ``edition`` None is the latest."""
    return edition is None or has(edition, "place_holes_hold_places")


@cache
def _generated() -> dict:
    """``generated_texts.json`` with the news stories' translations merged in
    (``world.news_texts``): their templates and their place names."""
    from toolmaze_gym.world.news_texts import news_templates, place_words

    data = load_data("generated_texts.json")
    return {**data, "places": place_words(),
            "templates": [*data["templates"], *news_templates()]}


def generated_translation(text: str, target: str, places: bool = True,
                          ) -> tuple[str, str] | None:
    """(the language of the generated text, its ``target`` version), or None: a text
    a tool generated from a template of ``generated_texts.json`` (a weather report
    "Rain, 24.1 °C (75.4 °F).") in ``target``, each hole's value said in ``target``
    where the file's ``words`` hold it ("Chuva"), else as it is (toolmaze-v5 c1-0000:
    the translators tagged it "[pt] Rain, ..."). With ``places`` (world edition 6) a
    template whose city or country hole holds no place of the world does not match
    (``_places_held``); without, such a hole's form was looked up and not found."""
    body = " ".join(text.split())
    for entry in _generated()["templates"]:
        vs = versions(entry)
        if target.startswith("_") or target not in vs:
            continue
        for lang, tpl in vs.items():
            if entry.get("_from", lang) != lang:
                continue  # a news story is matched in English only (world.news_texts)
            m = _pattern(tpl).fullmatch(body)
            if m is None:
                continue
            values = dict(zip(holes(tpl), m.groups(), strict=True))
            if places and not _places_held(values):
                continue
            try:
                return lang, _fill_words(vs[target], values, target, places)
            except _Untranslated:
                return None  # an e-mail whose message has no translation stays tagged
    return None


# A generated template's holes that name a place, and where the world's places of each
# kind are listed: a story's city is one of cities.json, its country one of the
# countries news_texts.json names in every language.
_PLACE_HOLES = ("city", "country")


@cache
def _places() -> dict[str, frozenset[str]]:
    """Each place hole's name -> the world's places it may hold (casefolded)."""
    return {"city": frozenset(row[0].casefold() for row in load_data("cities.json")),
            "country": frozenset(c.casefold() for c in load_data("news_texts.json")["countries"])}


def _places_held(values: dict[str, str]) -> bool:
    """Whether each city or country hole of a matched template holds such a place. A
    template's leading hole takes any text before the story's own words, so "In my own
    words, the gist: Hong Kong parliament passes ..." matched "{country} parliament
    passes ..." with a "country" no language has a form of (toolmaze-v8 c3-0072)."""
    for hole, value in values.items():
        name = hole.split("@")[0]
        if name in _PLACE_HOLES and value.casefold() not in _places()[name]:
            return False
    return True


class _Untranslated(LookupError):
    """A hole "{message@text}" holds a text with no translation in the language asked."""


def _fill_words(template: str, values: dict[str, str], target: str,
                places: bool = True) -> str:
    """``template`` with each hole's value said in ``target`` (``_word``); a hole
    "{country@in}" says the value in its form "in" ("en France", "au Canada"), and a
    sentence that starts with one starts with a capital ("La France lance ...")."""
    said = _HOLE.sub(lambda h: _word(values[h.group(1).split("@")[0]], target,
                                     h.group(1).partition("@")[2], places), template)
    return said[:1].upper() + said[1:]


def _word(value: str, target: str, form: str = "", places: bool = True) -> str:
    """A generated hole's value in ``target`` (``words``), keeping its capital; a
    place as ``target`` names it, as written ("le Canada" inside a sentence), in
    its ``form`` where the template asks one ("in": "au Canada")."""
    if form == "text":
        return _text(value, target, places)
    place = _generated()["places"].get(value.casefold(), {})
    if form or target in place:
        return place[f"{target}@{form}" if form else target]
    said = _generated()["words"].get(value.casefold(), {}).get(target)
    if said is None:
        return value
    return said[:1].upper() + said[1:] if value[:1].isupper() else said


def _text(value: str, target: str, places: bool = True) -> str:
    """A hole "{message@text}" (an e-mail's message) in ``target``: a sentence of
    ``generated_texts.json``'s ``words``, else the phrasebook's; none: ``_Untranslated``."""
    said = _generated()["words"].get(" ".join(value.split()).casefold(), {}).get(target)
    if said is None:
        hit = _sentence(value, target) or template_translation(value, target, True) \
            or generated_translation(value, target, places)
        if hit is None:
            raise _Untranslated(value)
        said = hit[1]
    return said


def _sentence(text: str, target: str, edition: int | None = None) -> tuple[str, str] | None:
    """(the sentence's language, its ``target`` version) from the phrasebook; an entry
    marked with a world change (``_change``: a sentence the world learnt then, such as
    edition 5's request comments, toolmaze-v7 c1-0081) only in an ``edition`` that
    has it."""
    hit = _index().get(_key(text))
    if hit is None or target.startswith("_") or target not in hit[1]:
        return None
    change = hit[1].get("_change")
    if edition is not None and change and not has(edition, change):
        return None
    return hit[0], hit[1][target]


_HOLE = re.compile(r"\{([^{}]+)\}")


def holes(template: str) -> list[str]:
    """A template's holes, in order ("contact.name" of "Sorry {contact.name}, ...")."""
    return _HOLE.findall(template)


@cache  # one per template of the data files: a translation tries every template, and
# building each pattern again was 10 % of replaying 2,000 records (re's own cache of
# 512 compiled patterns holds fewer than the templates in all their languages)
def _pattern(template: str) -> re.Pattern[str]:
    """A template as a pattern: its words as they are (spacing and case evened out),
    each hole any text."""
    parts = _HOLE.split(" ".join(template.split()))
    rx = "".join(re.escape(p) if i % 2 == 0 else "(.+?)" for i, p in enumerate(parts))
    return re.compile(rx, re.IGNORECASE | re.DOTALL)


# A template's versions that world edition 6 (``room_names``) says instead, whose room
# holes ask a form of the room ("{room@in}": "im Büro"; data/world/room_words.json).
ROOM_VERSIONS = "_room_names"
ROOM_HOLE = "room"


@cache
def _templates() -> tuple[tuple[dict[str, str], dict[str, re.Pattern[str]]], ...]:
    return tuple((versions(e), {lang: _pattern(v) for lang, v in versions(e).items()})
                 for e in load_data("phrasebook_templates.json")["templates"])


@cache
def _room_versions() -> dict[str, dict[str, str]]:
    """A template's English version -> the versions world edition 6 says instead
    (``_room_names``)."""
    return {e["en"]: e[ROOM_VERSIONS] for e in load_data("phrasebook_templates.json")
            ["templates"] if ROOM_VERSIONS in e and "en" in e}


@cache
def _room_patterns(english: str) -> dict[str, re.Pattern[str]]:
    return {lang: _pattern(v) for lang, v in _room_versions()[english].items()}


def _versions(own: dict[str, str], patterns: dict[str, re.Pattern[str]], rooms: bool,
              ) -> tuple[dict[str, str], list[tuple[str, str, re.Pattern[str]]]]:
    """(the versions a template says, those a text may fill: (language, version,
    pattern)). With ``rooms`` (edition 6) it says its ``_room_names`` versions, and a
    text may fill either (a German text written before says "Im Raum office")."""
    sources = [(lang, own[lang], rx) for lang, rx in patterns.items()]
    over = _room_versions().get(own.get("en", "")) if rooms else None
    if not over:
        return own, sources
    return {**own, **over}, [(lang, over[lang], rx)
                             for lang, rx in _room_patterns(own["en"]).items()] + sources


def template_translation(text: str, target: str, generated: bool = False,
                         edition: int | None = None) -> tuple[str, str] | None:
    """(the language of the template version ``text`` fills, the ``target`` version
    filled with the same values), or None when no template matches or it has no
    ``target`` version. With ``generated`` (edition 3) a hole holding a text another
    tool generated ("We received Price: 7,620.00 EUR (Euro)") is translated too; from
    edition 6 (``room_names``) a room is said in ``target`` ("Im Büro", not "Im Raum
    office": toolmaze-v8 c3-0009), in the template's own version where a room hole
    asks a form of a room the world does not have."""
    body = " ".join(text.split())
    rooms = edition is None or has(edition, "room_names")
    for own, patterns in _templates():
        if target.startswith("_") or target not in own:
            continue
        said, sources = _versions(own, patterns, rooms)
        for lang, version, rx in sources:
            m = rx.fullmatch(body)
            if m is None:
                continue
            values = dict(zip((h.partition("@")[0] for h in holes(version)), m.groups(),
                              strict=True))
            try:
                return lang, _fill(said[target], values, target, generated, edition, rooms)
            except _NoRoom:
                return lang, _fill(own[target], values, target, generated, edition, rooms)
    return None


def _fill(template: str, values: dict[str, str], target: str, generated: bool = False,
          edition: int | None = None, rooms: bool = False) -> str:
    """``template`` with each hole's value, in ``target`` where the phrasebook has it;
    with ``rooms`` (edition 6) a room hole's room as ``target`` says it (``_room``)."""
    def said(h: re.Match[str]) -> str:
        name, _, form = h.group(1).partition("@")
        if rooms and name == ROOM_HOLE:
            return _room(values[name], target, form, _starts_sentence(template, h.start()))
        return _hole_value(values[name], target, generated, edition)

    return _HOLE.sub(said, template)


class _NoRoom(LookupError):
    """A hole asks a form of a room ("{room@in}") that holds none of the world's rooms."""


@cache
def _room_words() -> dict[str, dict[str, str]]:
    """Each room (as devices.json names it) -> its words by language and form."""
    return {k: v for k, v in load_data("room_words.json").items() if not k.startswith("_")}


@cache
def _room_index() -> dict[str, str]:
    """Each way a language says a room (casefolded) -> the room: a text in any language
    gives its room back ("im Büro", "kontoret": "office")."""
    out = {room: room for room in _room_words()}
    for room, words in _room_words().items():
        out.update({w.casefold(): room for w in words.values()})
    return out


def _room(value: str, target: str, form: str, capital: bool) -> str:
    """A room hole's value in ``target``, in ``form`` ("in": "im Büro"), with a capital
    where it starts a sentence; a value that is no room, or a language without the
    room's words, as it is, unless a form is asked (``_NoRoom``)."""
    room = _room_index().get(" ".join(value.split()).casefold())
    word = None if room is None else \
        room if target == "en" and not form else _room_words()[room].get(
            f"{target}@{form}" if form else target)
    if word is None:
        if form:
            raise _NoRoom(value)
        return value
    return word[:1].upper() + word[1:] if capital else word


def _starts_sentence(template: str, at: int) -> bool:
    """Whether a hole at ``at`` starts a sentence of ``template``."""
    before = template[:at].rstrip()
    return not before or before.endswith((".", "!", "?"))


def _hole_value(value: str, target: str, generated: bool = False,
                edition: int | None = None) -> str:
    """A hole's text in ``target`` where the phrasebook holds it as a sentence (or,
    with ``generated``, as a generated text's template, a weather word or a place:
    off-offsite-weather-comparison's "Lisbon ...: rain" said "Lisboa ...: lluvia")."""
    hit = _sentence(value, target, edition)
    if hit is None and generated:
        hit = generated_translation(value, target, _places_checked(edition))
        if hit is None:
            return _word(value, target)
    return value if hit is None else hit[1]


def heads(text: str, target: str) -> tuple[str, ...]:
    """The words (folded) one of which a faithful ``target`` version of ``text``
    carries; empty when the phrasebook lists none."""
    hit = _index().get(_key(text))
    if hit is None:
        return ()
    return tuple(fold(w) for w in hit[1].get(HEADS, {}).get(target, ()))


def says_heads(text: str, source: str, target: str) -> bool | None:
    """Whether ``text`` carries one of the heads of ``source`` in ``target`` (None: the
    phrasebook lists none, so there is nothing to check)."""
    words = heads(source, target)
    return any(_has(fold(text), w) for w in words) if words else None


def _has(folded: str, word: str) -> bool:
    """A head as the start of a word ("mittag" in "Mittagsbestellung"), a short one
    (3 letters or fewer: "pr", "qa", "12") as a whole word; in a script written
    without spaces (Japanese), anywhere."""
    if not word.isascii():
        return word in folded
    end = "(?![a-z0-9])" if len(word) <= 3 else ""  # Latin letters: "PRをレビュー"
    return re.search(rf"(?<![a-z0-9]){re.escape(word)}{end}", folded) is not None
