"""A story's summary asked beside its headline says more than the headline (grading
version 18).

toolmaze-v7's c4-0020 asked the run's screen for "Toronto's leading sports headline with
a one-line summary". An own summary is judged as a paraphrase of the story (``GIST``:
"headline\\nbody"), and the headline alone paraphrases it, so a screen with the headline
and no summary passed (issue 27). Where the same text is asked the headline too, the
summary must add a word of the story's body outside the headline.
"""

from __future__ import annotations

import re
from typing import Any

from toolmaze_gym.paraphrase import paraphrases

# An entry (GIST_BESIDE, article) asks for a summary of ``article`` ("headline\nbody")
# in a text that carries the headline as well.
GIST_BESIDE = "gist_beside_headline"


def without_headline(text: str, headline: str) -> str:
    """``text`` with each copy of ``headline`` (any case, spacing) taken out."""
    words = [re.escape(w) for w in headline.split()]
    if not words:
        return text
    return re.sub(r"\s+".join(words), " ", text, flags=re.I)


def _content_words(text: str) -> set[str]:
    """Words of five letters or more, lower-cased: what a sentence is about."""
    return {w.lower() for w in re.findall(r"[^\W\d_]{5,}", text)}


def summary_beside(text: str, article: Any) -> bool:
    """Whether ``text`` sums up the story (``paraphrases``) with something the headline
    does not say: a word of the story's body that is not the headline's, outside the
    headline ("finished", "water stations")."""
    if not isinstance(article, str) or not paraphrases(text, article):
        return False
    head, _, body = article.partition("\n")
    if not body:
        return True
    new = _content_words(body) - _content_words(head)
    return bool(new & _content_words(without_headline(text, head)))
