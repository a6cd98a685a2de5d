"""Translators translate what the tasks ask them to, and say plainly what they do not.

Two promises a careful agent relies on (issue 28, item 2):

* a sentence a request gives in one language and asks to be put into another
  (a colleague's report in German, "put it into English") comes back from every
  translator tool in that other language: the world's phrasebook holds it
  (``world.phrasebook``), and ``library_problems`` runs the translation behaviour on
  every such sentence of the scenario library, for every language a scenario may ask,
  and asks ``toolmaze_gym.language`` whether the result is in it (c1-0054: the tool
  handed back the German);
* a text the world has no translation for comes back tagged ("[es] <the English
  text>"), so each translator tool's doc says so in the words
  ``data/cues/doc_sources.toml`` declares (``[translators] untranslated``), and
  ``doc_problems`` finds the tools whose doc does not;
* a text routed through a translator with no figure, date, code or name
  ("Lunch order closes at noon.", a channel's latest post) is one the phrasebook
  translates into the language asked and lists the words of (``_heads``), so the
  translators return real German and an agent's own German is graded on German
  words, not on "Lunch" (c1-0034): ``built_problems`` reads a built task's calls
  (the coherence rule ``translated_texts``, on which the generator redraws), and
  ``routed_problems`` runs every world sentence a scenario may route through a
  translator (``ROUTED``, or a summary of a text param) in every language it may
  ask (``scenarios check``);
* a text a scenario's author wrote with holes ("Sorry {contact.name}, I'm ill: ...")
  and sends through a translator comes back in the language asked, not tagged:
  ``data/world/phrasebook_templates.json`` holds the template in every language the
  scenario may ask, and ``template_problems`` fills each template and runs the
  translation behaviour on it (toolmaze-v4 c3-0008 and c4-0095: about 35 templates
  came back "[nl] Sorry ...", English passed off as the language asked).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from toolmaze_gym.corpus.behaviours import get
from toolmaze_gym.corpus.catalog import Corpus
from toolmaze_gym.language import is_language
from toolmaze_gym.tasks.doc_examples import DocSources, load_doc_sources
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.scenarios import ArgSpec, ParamSpec, Scenario, StepSpec
from toolmaze_gym.text_facts import names_or_figures
from toolmaze_gym.world.base import load_data
from toolmaze_gym.world.phrasebook import heads, holes, translation

TRANSLATE = "text.translate"
LANGUAGE = "language_code"
_TAG = re.compile(r"^\[[a-z]{2}\]\s+")
# World sentences a step hands on as they are, by (capability, field): where they
# come from in the world's data (file, list). A channel's latest post is one.
ROUTED = {("office.chat.history", "text"): ("office.json", "chat_messages")}
# Steps that hand on their input's first sentence (every routed sentence is one).
PASS_ON = frozenset({"office.text.summarize", "text.summarize"})


def _values(p: ParamSpec | None) -> tuple:
    if p is None:
        return ()
    return p.choices or ((p.value,) if p.value is not None else ())


def doc_problems(corpus: Corpus, ds: DocSources | None = None) -> list[str]:
    """Each translator tool whose doc does not say what it does with a text it cannot
    translate."""
    ds = ds or load_doc_sources()
    return [f"{name}: a translator's doc must say plainly that a text it has no "
            f"translation for {ds.untranslated!r} (it comes back tagged)"
            for name in sorted(corpus.tools)
            if corpus[name].behaviour == TRANSLATE
            and ds.untranslated not in corpus[name].description]


def library_problems(scenarios: Iterable[Scenario]) -> list[str]:
    """Each sentence a request quotes and asks translated that the translators do not
    return in the language asked."""
    translate = get(TRANSLATE)
    out = []
    for sc, step, text, target in _translate_steps(scenarios):
        if text is None or target is None or target.kind != "param":
            continue
        params = sc.param_by_name
        for sentence in _quoted(sc, text):
            for lang in _values(params.get(target.ref)):
                got = translate(None, sentence, lang)["translated_text"]
                if not is_language(got, lang):
                    out.append(f"{sc.id}.steps.{step.id}: {sentence!r} into {lang!r} "
                               f"gives {got!r}, which is not {lang!r} (add it to "
                               "data/world/phrasebook.json)")
    return out


def _quoted(sc: Scenario, text: ArgSpec) -> tuple[str, ...]:
    """The sentences of the request a translator step's text carries: a quoted text
    param's choices, as the whole text or as a hole of the author's template ("{opinion}
    Delivered on {date}.": toolmaze-v7 c1-0081 sent "Does the job, though the manual is
    thin." into French and got it back in English); a step's output is the world's."""
    names = [text.ref] if text.kind == "param" else holes(text.text) if text.kind == "text" \
        else []
    return tuple(str(v) for n in names if (p := sc.param_by_name.get(n)) is not None
                 and p.type == "text" for v in _values(p))


def _translate_steps(scenarios: Iterable[Scenario],
                     ) -> Iterator[tuple[Scenario, StepSpec, ArgSpec | None, ArgSpec | None]]:
    """Each translator step of ``scenarios``, with its text and target-language args."""
    for sc in scenarios:
        for step in sc.steps:
            if step.use == TRANSLATE:
                args = {a.role: a for a in step.args}
                yield sc, step, args.get("text"), args.get("target_language")


def sentence_problems(text: str, target: str) -> list[str]:
    """What an agent's own translation of ``text`` into ``target`` could not be graded
    on: a text with no figure, date, code or name (``text_facts.names_or_figures``)
    is checked by its heads, English words ("Lunch") a translation does not carry, so
    the phrasebook must hold it in ``target`` (the translators then return real
    ``target``, not a tagged English text) and list the words its translation
    carries (``_heads``, c1-0034)."""
    body = _untagged(text)
    if not body or names_or_figures(body) or (target == "en" and _english(body)):
        return []
    if translation(body, target) is None:
        return [f"{body!r} into {target!r}: no figure, date, code or name survives its "
                f"translation and the phrasebook does not hold it in {target!r}, so the "
                "translators return it tagged English and an own translation is graded "
                "on English words (add it to data/world/phrasebook.json, with _heads)"]
    if not heads(body, target):
        return [f"{body!r} into {target!r}: no figure, date, code or name survives its "
                f"translation and its phrasebook entry lists no _heads for {target!r}, "
                "so an own translation is checked on nothing"]
    return []


def _untagged(text: str) -> str:
    return _TAG.sub("", " ".join(str(text).split()), count=1)


def _english(body: str) -> bool:
    """A text outside the phrasebook is the world's English (a template, a post)."""
    hit = translation(body, "en")
    return hit is None or hit[0] == "en"


def built_problems(task: Task, corpus: Corpus, world: object = None) -> list[str]:
    """Each translator call on a valid path of ``task`` whose text an own translation
    could not be graded on (``sentence_problems``): the coherence rule
    ``translated_texts`` the generator redraws on."""
    out = []
    for path in task.solutions:
        for c in path.calls:
            if c.tool not in corpus.tools or corpus[c.tool].behaviour != TRANSLATE:
                continue
            types = {p.name: p.type for p in corpus[c.tool].params}
            text = next((v for k, v in c.args.items() if types.get(k) == "text"), "")
            lang = next((v for k, v in c.args.items() if types.get(k) == LANGUAGE), "")
            out += [f"{c.tool}: {p}" for p in sentence_problems(str(text), str(lang))]
    return list(dict.fromkeys(out))


def _routed_pool(sc: Scenario, ref: str, depth: int = 0) -> tuple[str, ...]:
    """The world sentences a step field ``ref`` ("summary.summary") can carry: a
    routed source's, through any summarisers (run on each sentence), or a summary of
    the text params a summariser opens with (run on each choice alone)."""
    step_id, _, key = ref.partition(".")
    step = next((s for s in sc.steps if s.id == step_id), None)
    if step is None or depth > 8:
        return ()
    if (step.use, key) in ROUTED:
        name, field = ROUTED[(step.use, key)]
        return tuple(load_data(name)[field])
    if step.use not in PASS_ON:
        return ()
    src = next((a for a in step.args if a.role == "text"), None)
    texts = _routed_pool(sc, src.ref, depth + 1) if src is not None and src.kind == "field" \
        else _opening_choices(sc, src)
    return tuple(get(step.use)(None, t)[key] for t in texts)


def _opening_choices(sc: Scenario, arg: ArgSpec | None) -> tuple[str, ...]:
    """The sentences a summariser's text opens with: a quoted param's choices, or
    those of the param a template opens with ("{notes} Delivered by ...")."""
    if arg is None:
        return ()
    name = arg.ref if arg.kind == "param" else ""
    if arg.kind == "text" and arg.text.startswith("{"):
        name = arg.text[1:].split("}", 1)[0]
    p = sc.param_by_name.get(name)
    return tuple(str(v) for v in _values(p)) if p is not None and p.type == "text" else ()


def routed_problems(scenarios: Iterable[Scenario]) -> list[str]:
    """Each world sentence a scenario may route through a translator, in each language
    it may ask, that an own translation could not be graded on (``sentence_problems``)."""
    out = []
    for sc, step, text, target in _translate_steps(scenarios):
        ref = text.ref if text is not None and text.kind == "field" else _lone_hole(text)
        if not ref or target is None:
            continue
        langs = _values(sc.param_by_name.get(target.ref)) if target.kind == "param" else ()
        out += [f"{sc.id}.steps.{step.id}: {p}" for sentence in _routed_pool(sc, ref)
                for lang in langs for p in sentence_problems(sentence, lang)]
    return out


def _lone_hole(arg: ArgSpec | None) -> str:
    """The step field a template that is nothing but one hole hands on
    ("{gist.summary}"), or ""."""
    m = re.fullmatch(r"\{(\w+\.\w+)\}", arg.text.strip()) if arg and arg.kind == "text" else None
    return m.group(1) if m else ""


def template_problems(scenarios: Iterable[Scenario]) -> list[str]:
    """Each template a scenario's author wrote (more than a lone hole) that a
    translator step may send, in each language the step may ask, that the translation
    behaviour returns tagged (no entry of ``data/world/phrasebook_templates.json`` holds
    it in that language) or with a hole's value lost."""
    translate = get(TRANSLATE)
    out = []
    for sc, step, text, target in _translate_steps(scenarios):
        if text is None or text.kind != "text" or _lone_hole(text) or target is None:
            continue
        langs = (_values(sc.param_by_name.get(target.ref)) if target.kind == "param"
                 else (target.text,) if target.kind == "text" else ())
        values = {h: f"V{k}x{k}" for k, h in enumerate(dict.fromkeys(holes(text.text)))}
        filled = holes_filled(text.text, values)
        for lang in langs:
            got = translate(None, filled, str(lang))["translated_text"]
            lost = [h for h, v in values.items() if v not in got]
            if _TAG.match(got) or lost:
                out.append(f"{sc.id}.steps.{step.id}: the template {text.text!r} into "
                           f"{lang!r} comes back {'tagged' if _TAG.match(got) else 'without '}"
                           f"{'' if _TAG.match(got) else ', '.join(lost)} (give it a "
                           f"{lang!r} version in data/world/phrasebook_templates.json, "
                           "with the same holes)")
    return out


def holes_filled(template: str, values: dict[str, str]) -> str:
    """``template`` with each hole replaced by its value."""
    for h, v in values.items():
        template = template.replace("{" + h + "}", v)
    return template
