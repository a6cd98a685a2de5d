"""Translation, summarisation and message formatting (General domain).

Translation is deterministic and inspectable: a sentence of the world's phrasebook
(``world.phrasebook``: a report a colleague wrote in German) comes back in the
language asked for; any other text has no translation in this world and comes back
as it is, tagged with its target language ("[de] …"), as the tools' docs say, so a
chain's output shows which steps ran, and every provider returns the same text for
the same request. Summaries keep the first
sentence, capped in words, so they are never longer than their source.
"""

from __future__ import annotations

import re

from toolmaze_gym.corpus.behaviours import CallContext, ToolError, behaviour
from toolmaze_gym.corpus.behaviours.general_common import field_name
from toolmaze_gym.world.euphony import euphonic
from toolmaze_gym.world.localise import localised
from toolmaze_gym.world.phrasebook import translation

_TAG = re.compile(r"^\[([a-z]{2})\]\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
SUMMARY_WORDS = 20


def _body(text: str) -> tuple[str, str]:
    """(language tag or 'en', text without the tag)."""
    text = " ".join(text.split())
    m = _TAG.match(text)
    return (m.group(1), text[m.end():]) if m else ("en", text)


def _require_text(ctx: CallContext, text: str) -> str:
    if not text.strip():
        field = field_name(ctx, "text")
        raise ToolError(422, "invalid_parameter", f"{field} must not be blank", field)
    return text


@behaviour("text.translate")
def translate(ctx: CallContext, text: str, target_language: str) -> dict:
    source, body = _body(_require_text(ctx, text))
    target = target_language.strip().lower()
    # Edition 1 translated sentences only; the scenario checks call this with no
    # context (tasks.translators), asking of today's world.
    templates = ctx is None or ctx.world.has("template_translations")
    generated = ctx is None or ctx.world.has("generated_text_translations")
    known = translation(body, target, templates, generated,
                        None if ctx is None else ctx.world.edition)
    if known is not None:
        source, translated = known
        if ctx is None or ctx.world.has("preposition_euphony"):
            translated = euphonic(translated, target)  # "ad Amsterdam", not "a Amsterdam"
        if ctx is None or ctx.world.has("localised_dates_units"):
            # "lunes 31 de agosto", "23.7 °C"; "a las 11:45 UTC del viernes ..." (edition 5)
            translated = localised(translated, target,
                                   ctx is None or ctx.world.has("clock_first_datetimes"))
    else:
        translated = body if target == "en" else f"[{target}] {body}"
    return {"translated_text": translated, "target_language": target,
            "source_language": source, "characters": len(body)}


# Words whose period ends an abbreviation, not a sentence: a company's name ("Meta
# Platforms Inc. is ...") is no sentence of its own.
ABBREVIATIONS = frozenset({"inc.", "ltd.", "co.", "corp.", "plc.", "llc.", "ag.", "s.a.",
                           "n.v.", "e.g.", "i.e.", "etc.", "mr.", "mrs.", "ms.", "dr.", "st."})


def _first_sentence(body: str, abbreviations: bool) -> str:
    """``body`` up to its first sentence end (past abbreviations when ``abbreviations``:
    world edition 3; before, "Inc." ended the sentence)."""
    for m in _SENTENCE_END.finditer(body):
        word = body[:m.start()].rsplit(None, 1)[-1].lower()
        if not (abbreviations and word in ABBREVIATIONS):
            return body[:m.start()]
    return body


def summarize_body(body: str, abbreviations: bool = True) -> str:
    first = _first_sentence(body, abbreviations)
    words = first.split()
    return first if len(words) <= SUMMARY_WORDS else " ".join(words[:SUMMARY_WORDS]) + " …"


@behaviour("text.summarize")
def summarize(ctx: CallContext, text: str) -> dict:
    source, body = _body(_require_text(ctx, text))
    summary = summarize_body(body, ctx is None or ctx.world.has("summary_abbreviations"))
    if source != "en":
        summary = f"[{source}] {summary}"
    ratio = min(100.0, round(100 * len(summary) / max(1, len(" ".join(text.split()))), 1))
    return {"summary": summary, "compression_pct": ratio, "language": source}


def _money(amount: float) -> str:
    return f"{amount:,.2f}"


@behaviour("text.format_price")
def format_price(ctx: CallContext, amount: float, currency: str) -> dict:
    code = currency.strip().upper()
    name = ctx.world.geo.currencies.get(code, [code])[0]
    return {"message": f"Price: {_money(amount)} {code} ({name})", "amount": amount,
            "currency": code}


@behaviour("text.weather_report")
def weather_report(ctx: CallContext, temperature_c: float, condition: str) -> dict:
    f = round(temperature_c * 9 / 5 + 32, 1)
    text = f"{condition.strip().capitalize()}, {temperature_c:.1f} °C ({f:.1f} °F)."
    return {"report": text, "temperature_c": temperature_c, "condition": condition.strip().lower()}
