"""Short words that change before a vowel in the phrasebook's languages.

A translated template says "arrivare a {city}"; filled with Amsterdam it read
"a Amsterdam", where an Italian writes "ad Amsterdam" (issue 28, v6 review). The
rules hold wherever the words meet, so a translator applies them to its whole
answer (a hand-written template already follows them): Italian "a"/"e" become
"ad"/"ed" before the same vowel, French "de"/"que" elide before a name with a vowel, Spanish
"y" becomes "e" before an "i" sound and "o" becomes "u" before an "o". A name with its
own article (Cairo: French "Le Caire", Italian "Il Cairo") joins the word before it as
the language writes it: "au Caire", "du Caire", "al Cairo", "del Cairo".
"""

from __future__ import annotations

import re

_FR_ARTICLE = {"à le": "au", "de le": "du", "à les": "aux", "de les": "des"}
_IT_ARTICLE = {"a": "al", "di": "del", "da": "dal", "in": "nel", "su": "sul"}

_RULES: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "it": ((re.compile(r"(?<!\S)([Aa]) (?=[Aa]\w)"), r"\1d "),
           (re.compile(r"(?<!\S)([Ee]) (?=[Ee]\w)"), r"\1d "),
           (re.compile(r"(?<!\S)(a|di|da|in|su) Il (?=\w)"),
            lambda m: _IT_ARTICLE[m.group(1)] + " ")),
    "fr": ((re.compile(r"(?<!\S)([Dd]e|[Qq]ue) (?=[AEIOUY][a-zà-ÿ])"),
            lambda m: m.group(1)[:-1] + "'"),
           (re.compile(r"(?<!\S)(à|de) (Les?) (?=\w)"),
            lambda m: _FR_ARTICLE[f"{m.group(1)} {m.group(2).lower()}"] + " ")),
    "es": ((re.compile(r"(?<!\S)y (?=[IiYy]\w|[Hh]i\w)"), "e "),
           (re.compile(r"(?<!\S)o (?=[Oo]\w|[Hh]o\w)"), "u ")),
}


def euphonic(text: str, target: str) -> str:
    """``text`` (in ``target``) with its short words fitted to the word after them."""
    for rx, repl in _RULES.get(target, ()):
        text = rx.sub(repl, text)
    return text
