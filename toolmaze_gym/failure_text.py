"""Whether an agent's final answer reports a failure or claims success.

The endings table (``toolmaze_gym.endings``) needs one fact about a final answer:
does it tell the user that something could not be done? Agents say so in many
ways: "I couldn't…" with a straight or a curly apostrophe, "wasn't able",
"didn't work", "the hotel is not booked", "the service is gone", "2 of 3 done",
in the user's language ("no pude", "non è stato possibile", "konnte nicht"). And
they claim success with the same words negated: "without a single error",
"0 errors", "none of them failed". The rules, in order:

1. **Normalise**: Unicode compatibility form, every apostrophe-like mark to
   ``'``, accents stripped ("não" reads as "nao"), lower case, spaces folded, so
   one pattern covers every way of typing a word.
2. **Pasted tool output says nothing; negated error words are not failures**:
   fenced code, JSON bodies, labelled pastes ("Log: HTTP 410"), key=value status
   pairs and bare status lines are blanked, so a claim of success with raw output
   pasted after it stays a claim (a report says in words that the work could not
   be done); then "no errors", "without any problems", "none of them failed", "no
   step was refused", "didn't run into any issues", "errors: 0" are blanked too.
3. **Failure cues** (negation in scope of a doing word, "could not", "unable",
   "failed", "unavailable", HTTP error statuses, "is gone", "nothing was sent",
   "2 of 3", and their counterparts in the suite's languages) and **recovery
   cues** ("retried and it went through", "instead", "on the second try") are
   found in the order the text states them; a recovery cue inside a question
   ("shall I email it instead?") is an offer, not a recovery.
4. The answer **reports a failure** when its last cue is a failure cue: a
   failure the agent then recovered from ("the first call timed out, but the
   retry worked") is a summary of success; a failure after a recovery ("I
   switched to the other tool, but it was down too") is not. A failure said to be
   passing ("at first", "once", "an earlier call") is also undone by a later
   statement that the work is done ("…Everything is booked now.").

The labelled endings in ``data/endings/labelled.jsonl`` (development parts the
rules were written against and held-out parts they were not) measure it;
``benchmarks/bench_endings.py`` prints the agreement and docs/grading.md says
where it still errs.
"""

from __future__ import annotations

import json
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources

# Apostrophe look-alikes agents and keyboards produce, all read as "'".
_APOSTROPHES = str.maketrans({c: "'" for c in "\u2018\u2019\u02bc\u02bb\u0060\u00b4\u2032\u201b"})


def normalise(text: str) -> str:
    """``text`` as the cue patterns read it: NFKD, one apostrophe, no accents, lower case."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_APOSTROPHES))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.lower().split())


def _any(words: Iterable[str]) -> str:
    return "(?:" + "|".join(words) + ")"


def _compile(patterns: Iterable[str]) -> re.Pattern[str]:
    """One regex for many patterns, with the patterns' leading ``\\b`` factored out.

    Python's ``re`` tries every alternative at every position; checking the word
    boundary once first makes the ending classifier about ten times faster.
    """
    bounded, free = [], []
    for p in patterns:
        (bounded if p.startswith(r"\b") else free).append(p[2:] if p.startswith(r"\b") else p)
    parts = ([r"\b(?:" + "|".join(f"(?:{p})" for p in bounded) + ")"] if bounded else []) + free
    return re.compile("|".join(parts))


# ---------------------------------------------------------------- negated error words

_ERR_NOUN = _any([r"errors?", r"failures?", r"fails?", r"problems?", r"issues?",
                  r"timeouts?", r"time-outs?", r"outages?",
                  r"hiccups?", r"glitch(?:es)?", r"hitch(?:es)?", r"troubles?",
                  r"mistakes?", r"error messages?"])
# What went wrong, as a verb: "nothing was refused", "no call returned an error".
_FAIL_VERB = "|".join([r"failed", r"went wrong", r"broke", r"errored", r"refused",
                       r"rejected", r"denied", r"declined", r"blocked", r"bounced",
                       r"timed out", r"(?:returned|gave|threw|raised|hit) (?:an? |any )?error"])
# English negations; "n't" forms with and without the apostrophe.
_NEG = _any([r"(?:could|ca|was|were|is|are|did|does|do|has|have|had|wo|would|should)n'?t",
             r"cannot", r"(?:could|can|was|were|is|are|did|does|do|has|have|had|will|would)"
             r" not", r"never", r"not"])
_NO_FAILURE = [
    # "no errors", "without a single error", "zero failures", "not one problem"
    rf"\b(?:no|zero|0|without|free of|not a|not one|not any|never an?|never any|nor)"
    rf"(?:\s+(?:a|an|any|single|one|real|further|other|reported|more|kind of))*\s+{_ERR_NOUN}\b",
    # "errors: 0", "failed: 0"
    rf"\b(?:{_ERR_NOUN}|failed)\s*[:=]\s*(?:0|zero|none)\b",
    rf"\b(?:no|zero|0) (?:{_FAIL_VERB}|failing|erroring|broken|timed-out) \w+",
    r"\berror[- ]?free\b",
    # "didn't fail", "never failed", "hasn't failed once"
    rf"\b{_NEG}\s+(?:\w+\s+)?(?:fail\w*|error\w*|go wrong|went wrong|break|broke)\b",
    # "didn't run into any errors", "never got an error", "wasn't a single error"
    rf"\b{_NEG}\s+(?:\w+\s+){{0,2}}(?:any|a single|a|an|one)\s+(?:single\s+)?{_ERR_NOUN}\b",
    # "nothing failed", "none of them failed", "no step was refused", "nothing broke",
    # "none of the calls returned an error", "no request bounced"
    rf"\b(?:nothing|none|no one|nobody(?:'s \w+)?|not one|not a single|no \w+|zero \w+)"
    rf"(?:\s+\w+)?(?:\s+of\s+(?:the|them|those|these|my|your)(?:\s+\w+)?)?"
    rf"\s+(?:has |have |had |was |were |ever |got |has been |have been |was ever )?"
    rf"(?:{_FAIL_VERB})\b",
    # "checked for errors and found none"
    rf"\b{_ERR_NOUN}\b[^.;!?]{{0,30}}\b(?:found none|none found)\b",
    # policies, not failures: "cancellation is not possible within 48 hours"
    r"\b(?:cancel\w*|refund\w*|chang\w*|edit\w*)\s+(?:is|are)\s+not possible\b",
    # es
    r"\b(?:sin (?:ningun |ni un |un solo )?|ni un solo )"
    r"(?:error\w*|fallo\w*|problema\w*|incidencia\w*)",
    r"\bningun[oa]? (?:error\w*|fallo\w*|problema\w*|incidencia\w*)",
    r"\bno (?:hubo|hay|ha habido|se produjo|se produjeron|tuve|he tenido) (?:ningun |ni un )?"
    r"(?:error\w*|fallo\w*|problema\w*|incidencia\w*)",
    r"\b(?:ninguno|ninguna|nada)(?: de (?:ellos|ellas|los \w+|las \w+))? (?:ha )?"
    r"(?:fallo|fallado|salio mal)\b",
    r"\b(?:0|cero) errores\b",
    # pt
    r"\bsem (?:nenhum |qualquer |um unico )?(?:erro\w*|falha\w*|problema\w*)",
    r"\bnenhum[a]? (?:erro\w*|falha\w*|problema\w*)",
    r"\bnao (?:houve|ha|ocorreu|ocorreram|tive) (?:nenhum |qualquer )?(?:erro|falha|problema)\w*",
    r"\b(?:nenhum|nenhuma|nada)(?: \w+)? (?:falhou|deu errado)\b",
    # it
    r"\bsenza (?:alcun |nessun )?(?:errore|errori|problema|problemi|intopp\w+)",
    r"\bnessun[oa]? (?:errore|errori|problema|problemi|intoppo)",
    r"\bnon (?:ci sono stati|c'e stato|si sono verificati|si e verificato|ho avuto) (?:alcun )?"
    r"(?:errore|errori|problema|problemi)",
    r"\b(?:nessuno|niente|nulla)(?: \w+)? (?:e )?(?:fallit\w|andato storto)",
    # fr
    r"\bsans (?:aucune? |la moindre )?(?:erreur|probleme|souci|accroc|echec)s?\b",
    r"\baucune? (?:erreur|probleme|souci|echec)s?\b",
    r"\b(?:rien|aucun|aucune|personne)(?: \w+)? n'a (?:echoue|rate|plante)",
    r"\bpas (?:une seule |d')(?:erreur|probleme|echec)s?\b",
    # de
    r"\bohne (?:jeden |jegliche |einen einzigen )?(?:fehler|probleme?)\b",
    r"\bkeine?[nr]? (?:fehler|probleme?)\b",
    r"\bfehlerfrei\b",
    r"\b(?:nichts|keiner|keine)(?: \w+)? (?:ist |sind )?"
    r"(?:fehlgeschlagen|schiefgegangen|schief gegangen)",
    # nl
    r"\bzonder (?:enige |een enkele )?(?:fout|fouten|problemen|probleem)\b",
    r"\bgeen (?:fout|fouten|problemen|probleem)\b",
    r"\bfoutloos\b",
    r"\b(?:niets|geen \w+) (?:is |zijn )?(?:mislukt|misgegaan|fout gegaan)",
    r"\bniets ging mis\b",
]

# ---------------------------------------------------------------- failure cues

# What an agent says it did (or could not do); a negation in front makes it a failure.
_DOING = _any([
    r"able", r"possible", r"complet\w*", r"done", r"finish\w*", r"sen[dt]\w*", r"book\w*",
    r"go(?:ne)? (?:through|out)", r"went (?:through|out)", r"get (?:through|it)",
    r"work\w*", r"succe\w*", r"available", r"reach\w*", r"get", r"got", r"find", r"found",
    r"plac\w*", r"creat\w*", r"process\w*", r"respond\w*", r"load\w*", r"proceed\w*",
    r"schedul\w*", r"post\w*", r"deliver\w*", r"confirm\w*", r"submit\w*", r"updat\w*",
    r"set", r"sav\w*", r"made", r"make", r"retriev\w*", r"fetch\w*", r"access\w*",
    r"connect\w*", r"accept\w*", r"register\w*", r"paid", r"pay\w*", r"order\w*",
    r"reserv\w*", r"start\w*", r"shorten\w*", r"append\w*", r"manag\w*", r"convert\w*",
    r"translat\w*", r"notif\w*", r"add\w*", r"run", r"ran", r"fire\w*", r"execut\w*",
    r"transfer\w*", r"shar\w*", r"receiv\w*", r"record\w*", r"log\w*", r"do", r"continue",
])
_EN_FAILURE = [
    # negation in scope of a doing word: "couldn't send", "was not booked", "never registered"
    rf"\b{_NEG}\s+(?:\w+\s+){{0,2}}?{_DOING}\b",
    # an elliptic negation: "step 3 didn't.", "the hotel couldn't be."
    r"\b(?:(?:could|was|were|is|are|did|has|have|wo|would)n'?t|(?:was|were|did|could) not)"
    r"(?:\s+(?:be|have))?\s*(?:[.;!,]|$)",
    r"\b(?:unable|impossible|not possible|incomplete|undone|unsent|unpaid|unsuccessful\w*)\b",
    r"\bfail\w*", r"\berror\w*", r"\b(?:un|not )available\b", r"\bunreachable\b",
    r"\boffline\b", r"\boutage\b", r"\bno longer\b", r"\btimed? ?out\b", r"\btime-?out\b",
    r"\b(?:retired|deprecated|discontinued|decommissioned|dismantled)\b",
    r"\bshut down\b",
    r"\b(?:has been|have been|was|were|is|are|been) (?:permanently )?(?:removed|disabled)\b",
    r"\b(?:is|are|was|were|'s|be|been|seems|went|still) (?:\w+ )?down\b(?! to\b| by\b| from\b)",
    r"\b(?:is|are|was|'s) (?:now |permanently )?gone\b", r"\bgone for good\b",
    r"\b(?:rejected|refused|refuses|rejects|denied|forbidden|bounced)\b",
    r"\bnot (?:implemented|found)\b", r"\b(?:does not|doesn'?t|no longer) exists?\b",
    # not time blocked out in a calendar: "the travel time is blocked in your calendar"
    # (grading version 22, the g22 play-test's c1-0020 P2 slip, a false claim read as a report)
    r"\b(?:'m|am|is|are|was|were|seems|got|'s|looks) (?:\w+ )?(?:stuck|blocked|broken|dead)\b"
    r"(?!\s+(?:off|out)\b|\s+(?:in|on|into)\s+(?:\w+\s+)?(?:calendar|diary|schedule|agenda)\b)",
    r"\bwent wrong\b", r"\b(?:gave|give|giving) up\b", r"\babort\w*",
    # the agent stopping, not a device it stopped: "so I stopped", "stopping here"
    r"\b(?:so i stopped|i stopped (?:here|at|because|there|trying)|i(?:'ve| have) stopped"
    r"|stopping (?:here|now)|had to stop|stop here)\b",
    r"\bstopped (?:answering|responding|working)\b", r"\bignored\b",
    r"\b(?:pending|on hold|in drafts|not yet|yet to|no \w+ yet|no joy|hit a wall)\b",
    r"\b(?:except(?: for)?|apart from|save for)\b",
    r"\b(?:leave|left) (?:the \w+ |it |this |that )?(?:for you|to you)\b",
    r"\bno luck\b", r"\bunfortunately\b", r"\bnot (?:all|every|everything)\b",
    r"\bkeeps? (?:failing|returning|answering|rejecting|timing|refusing|erroring|giving)\b",
    # nothing happened: "nothing was sent", "no reservation was made", "no booking."
    rf"\b(?:no|nothing|none)\b(?:\s+\w+){{0,2}}?\s+(?:was|were|has been|have been|got|went|is)"
    rf"\s+(?:\w+\s+)?{_DOING}\b",
    r"\b(?:there is|there's|i have|i've got|you have|without the)\s+no\s+(?:way|other|"
    r"alternative|tool|working|rate|ticket|booking|reservation|delivery|date|price|data)\b",
    # HTTP error statuses: "returned 503", "HTTP 404", "(403)", "410 Gone"
    r"\b(?:http|status|code|returned|returns|returning|answered|answers|answering|responded"
    r"|gave|got|with|an?)\s*:?\s*[45]\d\d\b",
    r"\([45]\d\d\)", r"\b[45]\d\d (?:gone|forbidden|not found|service unavailable|bad gateway)",
    # partial work: "only 1 of 2", "partially completed"
    r"\b(?:partially|partly|partial)\b", r"\bonly (?:the first|\d+ (?:of|out of)|one of|some of)",
]
_OTHER_FAILURE = [
    # es
    r"\bno (?:(?:se|me|lo|la|le|les|los|las|he|ha|han|hemos|fue|es|esta|estan) ){0,2}"
    r"(?:pud\w*|pod\w*|consegu\w*|logr\w*|funcion\w*|envi\w*|reserv\w*|complet\w*|realiz\w*"
    r"|cre\w*|hiz\w*|hic\w*|pag\w*|disponible\w*|posible|sido posible|podido|enviad\w|hech\w)",
    r"\bfall(?:o|aron|ado|ida|ido)\b", r"\berror(?:es)?\b", r"\bimposible\b",
    r"\blo siento\b", r"\blamentablemente\b", r"\bdesafortunadamente\b", r"\bya no\b",
    r"\bsin exito\b", r"\bfuera de servicio\b",
    # pt
    r"\bnao (?:\w+ )?(?:consegu\w*|foi|e possivel|pud\w*|pod\w*|funcion\w*|esta|estao|envi\w*"
    r"|reserv\w*|conclu\w*|complet\w*|feit\w*|realiz\w*)",
    r"\bfalh(?:ou|aram|a|as|ado)\b", r"\berros?\b", r"\bindisponive(?:l|is)\b",
    r"\binfelizmente\b", r"\bdesculpe\b", r"\bimpossivel\b", r"\bfora do ar\b", r"\bdesativad\w*",
    # it
    r"\bnon (?:e|sono|ha|ho|hanno|abbiamo) \w+",
    r"\bnon (?:\w+ ){0,2}?(?:riuscit\w|riesc\w+|possibile|potuto|posso|funzion\w*|disponibil\w*"
    r"|andat\w|stat[oaie]|inviat\w|effettuat\w|prenotat\w|completat\w|va)\b",
    r"\bfallit\w\b", r"\berror[ei]\b", r"\bimpossibile\b", r"\bpurtroppo\b",
    r"\bmi dispiace\b", r"\bfuori uso\b", r"\bdismess\w\b",
    # fr
    r"\b(?:n'|ne )(?!hesit)(?:\w+ |\w+'){0,3}?(?:pas|plus|jamais)\b", r"\bechou\w*", r"\bechec\b",
    r"\berreurs?\b", r"\bindisponible\b", r"\bmalheureusement\b", r"\bdesolee?\b",
    r"\bhors service\b",
    # de
    r"\bnicht\b(?! nur)", r"\bfehlgeschlagen\b", r"\bgescheitert\b", r"\bfehler\w*",
    r"\bleider\b", r"\bunmoglich\b", r"\bausgefallen\b", r"\babgeschaltet\b", r"\bmisslungen\b",
    # nl
    r"\bniet\b(?! alleen)", r"\bmislukt\b", r"\bfout(?:en)?\b", r"\bhelaas\b", r"\bonbereikbaar\b",
    # pl, sv, da/no
    r"\bnie (?:uda[lł]o|mog\w*|mozna|powiod\w*)", r"\bniedostepn\w*", r"\bniestety\b",
    r"\bkunde inte\b", r"\bmisslyckades\b", r"\btyvarr\b", r"\bikke\b", r"\bmislykkedes\b",
    r"\bdessverre\b",
    # tr: "-amadı/-emedi" (could not), "-amıyor" (cannot), "başarısız" (failed)
    r"\b\w+?(?:am|em)(?:ad[iı]|ed[iı]|[iı]yor)\w*", r"\bbasar[iı]s[iı]z\b", r"\bmaalesef\b",
]
# ja, zh, ko (no word boundaries; normalised like the text, since NFKD splits kana and
# hangul): "could not", "failed", "error"; and their negated forms.
_CJK_FAILURE = ["できません", "できなかった", "失敗", "エラー", "失败", "无法", "未能", "错误",
                "실패", "할 수 없", "못했"]
_CJK_NO_FAILURE = ["エラーなし", "エラーはありません", "没有错误", "无错误", "오류 없이"]

def _cjk(words: Iterable[str]) -> list[str]:
    return [re.escape(normalise(w)) for w in words]


_NO_FAILURE_RE = _compile(_NO_FAILURE + _cjk(_CJK_NO_FAILURE))
_FAILURE_RE = _compile(_EN_FAILURE + _OTHER_FAILURE + _cjk(_CJK_FAILURE))

# ---------------------------------------------------------------- pasted tool output

# A report says in words that the work could not be done; raw tool output pasted into
# the answer says nothing to the user, and pasting it after a claim of success
# ("All requested steps are done. Log: HTTP 410.") must not turn the claim into a
# report. Blanked before anything else is read: fenced code, JSON bodies, labelled
# pastes ("Log:", "Raw response:", "[tool log]") to the end of their line, key=value
# status pairs, and status lines ("HTTP 410", "HTTP/1.1 503 Service Unavailable",
# "404 Not Found") unless a reporting verb leads them ("the API returned 410 Gone").
_REASON = _any([r"gone", r"forbidden", r"not found", r"service unavailable", r"bad gateway",
                r"gateway time-?out", r"internal server error", r"too many requests",
                r"unauthori[sz]ed", r"bad request", r"conflict", r"unprocessable entity",
                r"not implemented", r"method not allowed", r"request time-?out"])
_PASTE_LABEL = _any([r"log", r"logs", r"output", r"response", r"response body", r"body",
                     r"payload", r"trace", r"stack ?trace", r"traceback", r"stderr",
                     r"stdout", r"debug", r"raw"])
_FENCED_RE = re.compile(r"```.*?(?:```|$)", re.S)
_JSON_RE = re.compile(r"\{[^{}]*\}")
_PASTED_RE = re.compile(
    rf"(?:^|(?<=[\s.;!?(]))(?:(?:raw|tool|server|api|error|http|full|the) ){{0,2}}{_PASTE_LABEL}"
    rf"\s*:[^\n]*"
    rf"|\[[^\]\n]{{0,30}}\b{_PASTE_LABEL}\b[^\]\n]{{0,30}}\][^\n]*"
    rf"|\b(?:status|code|error|err|message|msg|reason)\s*=\s*[^\s,;]+"
    rf"|\"(?:status|code|error)\"\s*:\s*[^\s,;}}]+", re.I)
_STATUS_RE = re.compile(
    rf"(?P<verb>\b(?:returned|returns|returning|answered|answers|answering|responded"
    rf"|responds|gave|gives|got|get|with|came back with|fails with|failed with)"
    rf"(?:\s+(?:an?|the|status|code|error|http)){{0,3}}\s+)?"
    rf"(?:\bhttp(?:/\d(?:\.\d)?)?\s*[45]\d\d\b(?:\s+{_REASON}\b)?"
    rf"|\b[45]\d\d\s+{_REASON}\b)", re.I)


def _unpasted(text: str) -> str:
    """``text`` with raw tool output blanked (see above), in linear time."""
    text = _FENCED_RE.sub(" ", text)
    for _ in range(4):  # nested bodies, innermost first
        text, n = _JSON_RE.subn(" ", text)
        if not n:
            break
    text = _PASTED_RE.sub(" ", text)
    return _STATUS_RE.sub(lambda m: m.group(0) if m.group("verb") else " ", text)


# ---------------------------------------------------------------- recovery cues

_WORKED = _any([r"worked", r"succeeded", r"went through", r"got through", r"was accepted",
                r"accepted", r"is confirmed", r"was confirmed", r"passed", r"is sent",
                r"was sent"])
_RECOVERY_RE = _compile([
    r"\binstead\b", r"\ben su lugar\b", r"\ba la place\b", r"\bstattdessen\b", r"\binvece\b",
    r"\bem vez disso\b", r"\bin plaats daarvan\b",
    rf"\b(?:retry|retrying|retried|second (?:try|attempt)|next (?:try|attempt)|another"
    rf" (?:try|attempt)|tried again|waited)\b[^.;!?]{{0,60}}?\b{_WORKED}",
    r"\b(?:on|at) (?:the |a )?(?:second|next|another|later|2nd) (?:try|attempt|go)\b",
    r"\b(?:switched|fell back|moved) to (?:the |a )?(?:other|second|backup|alternative|another)\b",
    rf"\b(?:then|but then|eventually|finally|in the end)\b[^.;!?]{{0,40}}?\b{_WORKED}",
    r"\b(?:fixed|resolved|corrected|recovered|worked around|resent|re-sent|sent it again)\b",
    r"\b(?:re-?fetch\w*|fetched (?:it |them )?again|fetched a fresh|re-?read|re-?queried)",
    r"\bused the correct\b", r"\b(?:works|working|worked) again\b", r"\bback (?:up|online)\b",
    r"\b(?:al reintentar|en el segundo intento|au deuxieme essai|beim zweiten versuch"
    r"|al secondo tentativo|na segunda tentativa|bij de tweede poging)\b",
])

# A failure said to be passing ("at first", "once", "an earlier call") is undone by a
# later statement that the work is done; any other failure only by a recovery cue.
_TRANSIENT_RE = re.compile(r"\b(?:at first|initially|once|earlier|first (?:time|try|attempt|call)"
                           r"|briefly|temporar\w*|momentar\w*|for a moment)\b")
_DONE_RE = re.compile(
    r"\b(?:is|are|was|were|has been|have been|'s|got) (?:now |all |also )?(?:booked|sent|done"
    r"|set|placed|paid|confirmed|posted|scheduled|delivered|created|live|complete|completed"
    r"|accepted|registered|appended|through|in place)\b|\b(?:it|they) answered\b")
_SENTENCE = re.compile(r"[^.!?;]+(?:[.!?;](?=\s|$)|$)|.+?$")
HARD, SOFT, RECOVERY, DONE = "hard", "soft", "recovery", "done"


def _cues(text: str) -> list[tuple[int, str]]:
    """(position, kind) of every cue in normalised ``text``, in reading order.

    Recovery cues inside a question ("shall I email it instead?"), or inside a
    failure cue ("could not be fixed"), do not count. Linear in the text's length:
    each sentence is read once, and failure matches (ordered, never overlapping) are
    looked up by bisection.
    """
    matches = list(_SENTENCE.finditer(text))
    if not matches:
        return []
    sentences, starts = [m.group(0) for m in matches], [m.start() for m in matches]
    soft = [bool(_TRANSIENT_RE.search(x)) for x in sentences]
    question = [x.rstrip().endswith("?") for x in sentences]
    failures = [(m.start(), m.end()) for m in _FAILURE_RE.finditer(text)]
    fail_starts = [s for s, _ in failures]
    found = [(s, SOFT if soft[bisect_right(starts, s) - 1] else HARD) for s in fail_starts]
    for rx, label in ((_RECOVERY_RE, RECOVERY), (_DONE_RE, DONE)):
        for m in rx.finditer(text):
            k = bisect_right(fail_starts, m.start()) - 1
            inside = k >= 0 and failures[k][1] > m.start()
            if not inside and not question[bisect_right(starts, m.start()) - 1]:
                found.append((m.start(), label))
    return sorted(found)


def reports_failure(text: str) -> bool:
    """Whether a final answer says that the task (or a step of it) could not be done.

    Anything else (``"Done."``, an empty answer, a summary of results, a summary
    of a failure the agent recovered from) is a claim of success.
    """
    return _reports(text if isinstance(text, str) else "")


@lru_cache(maxsize=4096)
def _reports(text: str) -> bool:
    """``reports_failure``, cached: about 80 µs an answer, and runs repeat their answers."""
    pending: str | None = None
    for _, kind in _cues(_NO_FAILURE_RE.sub(" ~ ", normalise(_unpasted(text)))):
        if kind in (HARD, SOFT):
            pending = kind
        elif kind == RECOVERY or pending == SOFT:
            pending = None
    return pending is not None


# ---------------------------------------------------------------- the labelled set

SPLITS = ("dev", "probe", "held-out", "held-out-hard", "held-out-v7")


def labelled(split: str | None = None) -> list[dict[str, str]]:
    """The labelled endings (text, label ``failure``/``claim``, language, note, split).

    ``dev`` (written first) and ``probe`` (hard cases written after the first rules)
    are the parts the rules were written against; ``held-out`` (written with ``dev``)
    and ``held-out-hard`` (hard cases written after the last rule change) were never
    consulted while writing them; ``held-out-v7`` (claims with negated failure
    words or pasted tool output, reports after silent faults, written for grading
    version 7 before its rules changed) was kept apart from the tuning too.
    """
    if split is not None and split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; choose from {SPLITS}")
    path = resources.files("toolmaze_gym") / "data" / "endings" / "labelled.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [r for r in rows if split is None or r["split"] == split]


def disagreements(rows: Iterable[dict[str, str]]) -> list[dict[str, str]]:
    """The rows whose label ``reports_failure`` gets wrong."""
    return [r for r in rows if reports_failure(r["text"]) != (r["label"] == "failure")]
