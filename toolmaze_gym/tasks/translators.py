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
  ``doc_problems`` finds the tools whose doc does not.
"""

from __future__ import annotations

from collections.abc import Iterable

from toolmaze_gym.corpus.behaviours import get
from toolmaze_gym.corpus.catalog import Corpus
from toolmaze_gym.language import is_language
from toolmaze_gym.tasks.doc_examples import DocSources, load_doc_sources
from toolmaze_gym.tasks.scenarios import ParamSpec, Scenario

TRANSLATE = "text.translate"


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
    for sc in scenarios:
        params = sc.param_by_name
        for step in sc.steps:
            if step.use != TRANSLATE:
                continue
            args = {a.role: a for a in step.args}
            text, target = args.get("text"), args.get("target_language")
            if text is None or target is None or {text.kind, target.kind} != {"param"}:
                continue  # a text the author wrote, or a step's output: tagged, as documented
            for sentence in _values(params.get(text.ref)):
                for lang in _values(params.get(target.ref)):
                    got = translate(None, sentence, lang)["translated_text"]
                    if not is_language(got, lang):
                        out.append(f"{sc.id}.steps.{step.id}: {sentence!r} into {lang!r} "
                                   f"gives {got!r}, which is not {lang!r} (add it to "
                                   "data/world/phrasebook.json)")
    return out
