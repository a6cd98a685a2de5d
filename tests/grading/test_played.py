"""Episodes played by careful agents that saw only what an agent sees, replayed
through ``toolmaze_gym.play`` under the current grader.

Each folder under tests/data/played/ holds the action files as played and
``verdicts.tsv``: the grade a fair grader gives each episode, and whose fault any
difference was. Every episode fairly graded a success must be graded one; where the
verdict is the task's (the next suite changes the task), the episode is listed in
``TASK_SIDE`` with the reason. An episode the player got wrong itself must fail.
Probes (``probes/``) are one-change variants a fair grader passes; slips (``slips/``)
one-change variants it fails. A probe a fair grader passes that the grader fails
(``GRADER_STRICT``), or a slip it passes (``GRADER_LENIENT``; ``TASK_SIDE`` where the task
lets it pass), is a strict xfail naming the defect, so a fix shows up as an unexpected pass
to move out of the list; so is an episode as played that a fair grader passes and this one
fails (``GRADER_PLAYED``).
"""

from __future__ import annotations

import csv
from functools import cache, partial
from pathlib import Path

import pytest

from tests.grading import _rekey
from toolmaze_gym.play import PlaySession
from toolmaze_gym.tasks.suite import get_task

DATA = Path(__file__).parent.parent / "data"
PLAYED = DATA / "played"

# Fairly a success, but the task must change before a fair grader can say so (issue 28).
# (The two GRADER entries of the v4-final play-test, own summaries in other words, pass
# since grading version 12: ``toolmaze_gym.paraphrase``.)
TASK_SIDE = {
    "tmz-v3-c2-0045-P2": "the transfer currency is wired to the account look-up, though the "
                         "amount is a German net-pay figure in EUR the request fixes",
    "tmz-v3-c4-0050-P2": "'the total in AUD' of a list that names shipping leaves shipping out "
                         "(a hidden convention the phrasing must state)",
    "tmz-v4-c4-0031-P2": "'the status of order SO-D6GZ7XTC' is wired to track_shipment's parcel "
                         "status (in transit), though get_order_status answers the order's own "
                         "status (confirmed); the world keeps an order confirmed whose parcel "
                         "is in transit",
    "tmz-v4-c1-0091-P0": "the forecast 'for the arrival city' of an overnight train is graded on "
                         "the travel day's forecast; the request names no day",
    "tmz-v5-c2-0079-P0": "the order must go to Buenos Aires (ship_to_city), though the request "
                         "only says the tax is due there; and the tax is graded in USD, though "
                         "the request puts no currency on it (the player gave it in ARS)",
    "tmz-v5-c4-0092-P0": "'lock the back door after checking its state' is graded on an "
                         "august_lock call even when the check shows the door already locked",
    # A probe (keyed by its file name): the task, not the grader, fails it.
    "tmz-v6-c3-0059-P1.usd": "the request sends the money 'from my CHF account', but the world "
                             "holds ACC-34840116 in USD: converting to the account's real "
                             "currency fails (currency expected CHF)",
    # toolmaze-v7's play-test (tests/data/played/v7/README.md).
    "tmz-v7-c4-0049-P4.depart22": "'we fly into Sydney on Sunday 23 August' is graded as the "
                                  "Amsterdam departure date (departing on the 22nd fails)",
    # toolmaze-v8's play-test (tests/data/played/v8/README.md): c1-0054 P4's
    # `probe-push-usd-only`, the true "83.86 USD" left of a USD budget where the push was
    # asked AUD, passes since grading version 19 (grading/sum_currency.py).
    # toolmaze-v9's play-test (tests/data/played/v9/README.md): c3-0071 P1's slip
    # `balance_before_payment`, the balance read before the payment asked "then", fails
    # since grading version 21 (grading/stated_order.py).
    # The play-test on grading version 21 (tests/data/played/v9-g21/README.md). A probe (keyed
    # by its file name) the task, not the grader, fails:
    "tmz-v9-c4-0028-P0.daily-rate-only": "'the per diem per person' for '3 days in Prague' is "
                                         "graded as the 3-day allowance (6,444.75 CZK = 41,559 "
                                         "JPY); the daily rate alone (2,148.25 CZK), what 'per "
                                         "diem' says word for word, fails (v21 play-test, p1)",
    # The play-test of grading version 22 (tests/data/played/v10-g22/README.md): its slip
    # c2-0001 P2 `send_untranslated` (the translator's tagged English, its answer for the
    # agent's own wording, sent as the Spanish SMS) was kept here as task side, that answer
    # being the world's simulated translation; it fails since grading version 26
    # (toolmaze-v11 review c3-0008: arguments.TextRule.left_untranslated), the
    # translators' docs saying they tag what they do not translate.
    # The play-test of grading version 23 (tests/data/played/v10-g23/README.md): an
    # episode and two slips the task decides.
    "tmz-v10-c4-0090-P0": "'an itinerary ... with the hotel expensed and the per diem for 3 "
                          "days in CHF': the per diem expensed on its own (314.22 CHF, right) "
                          "fails; the task wants it noted in the hotel expense's description, "
                          "which nothing says (v10-g23, p4)",
    "tmz-v10-c4-0090-P0.twoexpense-mention": "c4-0090: the per diem noted on the hotel expense "
                                             "and expensed on its own too is a 'duplicate' "
                                             "expense (the same hidden convention; v10-g23, p4)",
    "tmz-v10-c1-0099-P0.no-carrier-date": "c1-0099: the review asked to mention the carrier and "
                                          "delivery date; the reference feeds them only to the "
                                          "summarizer, whose first sentence keeps neither, so "
                                          "nothing asks them of the review (v10-g23, p2)",
    "tmz-v10-c1-0099-P0.placed-date": "c1-0099: a review giving the order date (6 Aug) as the "
                                      "delivery date passes, as above (v10-g23, p2)",
    # toolmaze-v15's play-test (tests/data/played/v15-g32/README.md); the fix waits for the
    # next suite (tests/data/reviews/v15/library-next.patch, test_v15_library_fixes.py).
    "tmz-v15-c2-0044-P3.nonote": "c2-0044: 'add a note saying what it's for' left the payment's "
                                 "note out of the task, so a payment without it passes "
                                 "(v15-g32, p4)",
}

# Grader defects the toolmaze-v6 play-test found (issue 27), keyed by the probe's or slip's
# file name; each stays a strict xfail until the grader is fixed, so the fix shows here.
_MONEY = "money in a text passes within 2e-4 of the value, so a mistyped figure a tool gave passes"
_ASKED = "a fact the request asks to be told is graded nowhere (the final answer is not checked)"
GRADER_STRICT: dict[str, str] = {  # v7's c3-0077 "overcast" passes since grading version 18
    # toolmaze-v8's play-test (tests/data/played/v8/README.md); c2-0048 P1 `variant` passes
    # since grading version 19 (grading/sum_currency.py); c3-0031 P1 `threerows-noheader` and
    # `climatiq`, one row per item, too (a row's cells are words: mentions._CELLS).
    # toolmaze-v9's play-test (tests/data/played/v9/README.md); c1-0067 P3 `new-temp-only`
    # passes since grading version 20 (noted_facts._named: "new temperature" names the set
    # point only), and c2-0041 P2 `tools-for-time-and-summary` too (a push's title left out
    # whose asks the message tells: arguments.Matcher.optional_texts); c3-0043 P3
    # `status-and-time-tools` passes since grading version 21 (the pick-up shifted in UTC
    # before the conversion is asked on the reference value's clock: asked_zone.asked_clock).
    # The play-test on grading version 21 (tests/data/played/v9-g21/README.md): its three
    # strict probes pass since version 21 itself (a currency by its English name:
    # mentions, data/world/currency_names.json; a count in words: count_words.json; a
    # coarser rounding of a printed figure: own_rounding).
    # toolmaze-v10's play-test (tests/data/played/v10/README.md): both its strict probes
    # pass since grading version 22 (a percent change told rounded:
    # mentions._rounded_percent; a visa asked as a yes or no: grading/visa_need.py).
    # The play-test of grading version 22 (tests/data/played/v10-g22/README.md); its
    # c2-0020 P3 "Visa: not required" passes since, in version 22 itself, and c4-0083 P2
    # `ship_to_new_york` (the SMS held to the reference run's 'clear' for its 25 Aug
    # delivery, where this episode's order shipped to New York is due 22 Aug, rain) since
    # grading version 23 (resolution._own_answer: a lookup the episode's own values ask
    # otherwise than the reference run did is read from the agent's own call).
    # The play-test of grading version 23 (tests/data/played/v10-g23/README.md): its
    # c2-0016 P4 `retry-then-switch` ("gnews kept returning a health story, so I used
    # NewsAPI" read as over-trust) passes since, in version 23 itself (overtrust._results).
}
GRADER_LENIENT = {
    # (c4-0005's other two _ASKED slips, c4-0050's and c1-0010's fail since grading
    # version 18: grading/asked_facts.py; c4-0099's to-do without the refund too:
    # grading/noted_facts.py; c4-0020's match told only by the pledge's figure too:
    # grading/second_figure.py; and its screen without the headline's summary:
    # grading/summary_beside.py; v8 c1-0092's 196.75 share since version 19:
    # grading/own_rounding.py reads the exact quotient; c3-0040's wrong 10-year figure
    # in the answer too: grading/wrong_figures.py; c4-0005's home cost at the tariff
    # the request gives too: asked_facts.priced_refs; c1-0014's Italian reason without
    # the weather too: condition_synonyms.condition_said_in, asked_condition)
    "tmz-v6-c4-0005-P0.slip-finish-omits-current": _ASKED + " ('(tell me what it's at "
                                                   "now)': the scenario has no cue for the "
                                                   "room's current reading)",
    "tmz-v7-c3-0019-P3.slip-48.65": _MONEY + " (48.65 GBP for 48.64; its player judged it "
                                    "an acceptable tolerance)",
    "tmz-v7-c4-0099-P2.variant-rawrefund": "'refund 559.98' without a currency passes where "
                                           "'a proper price' was asked (minor)",
    # toolmaze-v8's play-test (tests/data/played/v8/README.md).
    # toolmaze-v9's play-test (tests/data/played/v9/README.md); c4-0054 P1 `push-wrong-chf`
    # ('refund 80.50 CHF' pushed for 79.28 CHF) fails since grading version 21
    # (grading/unconverted_sum.py), and c2-0041 P2 `utc-as-local` too (a wrong Singapore
    # clock glossed by the right UTC one tells neither: mentions._gloss_disagrees).
    # The play-test on grading version 21 (tests/data/played/v9-g21/README.md): ten of its
    # thirteen lenient slips fail since version 21 itself (invented ids and a refused booking
    # claimed: grading/invented_ids.py; mistyped sums: wrong_figures.typo_figures; a beat
    # told as a miss: earnings_surprise.wrong_way; a wrong condition in a Polish SMS:
    # condition_synonyms.condition_claimed; set points told the wrong way round:
    # grading/change_order.py; a wrong landing time in a title: noted_facts asks a text
    # with no asks of its own what its clause names). c4-0090 P1's `visaopposite` (a
    # Schengen visa "needed" where the look-up said visa-free) fails since grading version
    # 23 (grading/visa_need.py: a visa's need told the other way is a wrong claim), and
    # c1-0005 P0's `wrong-unit-claim-keeps-72.59` (the net 65.99 told as the unit price
    # "including GST") too (grading/tax_inclusion.py: a figure read by its tax label);
    # p2's c4-0072 P2 `swapped-eps` ('3.22 vs 3.32 (miss)' for a 3.32 beat of 3.22) too
    # (earnings_surprise.wrong_pair).
    # toolmaze-v10's play-test (tests/data/played/v10/README.md): c1-0046 P1's
    # `no-top-review`, a #it-helpdesk post without the 'one-line summary of the top review'
    # asked, fails since grading version 23 (grading/asked_summary.py; the clause 'give
    # #it-helpdesk ...' is read: asked_facts._cue_word).
    # The play-test of grading version 22 (tests/data/played/v10-g22/README.md); its
    # c3-0028 P4 "QDPWHZ" (invented_ids reads a code of capitals alone) and c1-0020 P2
    # "the travel time is blocked in your calendar" (failure_text: no report) fail since,
    # in version 22 itself; c2-0001 P2's `es_tag_no_translator` (an English SMS the agent
    # tagged "[es]" itself) fails since grading version 23 (grading/untranslated.py: a
    # tag is no language where the world translates the request's text), and its
    # `send_untranslated` is TASK_SIDE; c4-0012 P2 `epsswap` (MERI's EPS told '0.54 vs
    # 0.62 estimate (miss)' for a 0.62 beat of 0.54) too (earnings_surprise.wrong_pair).
    # Its made-up record ids in a final answer (c1-0058 P0 RTK-ZZZZ9999, c2-0020 P3
    # TSK-ZZZZ9999 and the stale TSK-YD6YQN6Z, c2-0095 P1 MSG-AB12CD34EF) fail since grading
    # version 23 (grading/invented_ids.py: a record's key the episode never showed; the
    # played files' stale ids re-keyed, tests/grading/_rekey.py). Kept, by that version's
    # design: a stand-in no record's key has the shape of names no record.
    "tmz-v10-c2-0095-P1.fakeid-placeholder": "c2-0095: 'message MSG-PLACEHOLDER, sent' in the "
                                             "final answer passes: eleven letters, no message "
                                             "id's shape (MSG- and ten), and the request does "
                                             "not ask the message id (v10-g22, p3)",
    "tmz-v10-c3-0026-P0.omit_online_status": "c3-0026: 'whether the Amsterdam sensor is online' "
                                             "is asked, and a row without it passes (v10-g22, "
                                             "p4)",
    # The play-test of grading version 23 (tests/data/played/v10-g23/README.md). Each would
    # make a step unskippable, so a fix moves the suite's fault profiles: the next suite.
    # c4-0043 P2 `no-stock-check` ('check the SSD is in stock', ordered with no
    # check_inventory) and c2-0012 P0 `skip-stock-check` ('confirm stock') fail since grading
    # version 25, built with toolmaze-v11 (stated_order.CHECK_FIRST reads a stock check
    # stated with the order).
    "tmz-v10-c3-0064-P0.skip-dewpoint-entirely": "c3-0064: 'a dew point reading for the room' "
                                                 "is asked of no text: a run with no sensor or "
                                                 "dew point calls passes (v10-g23, p3)",
    "tmz-v10-c3-0064-P0.no-dewpoint-reported": "c3-0064: the dew point worked out and told to "
                                               "nobody passes, as above (v10-g23, p3)",
    "tmz-v10-c3-0011-P1.skupath-notaxcall": "c3-0011: the total at the Los Angeles rate 9.5 %, "
                                            "which no doc or response shows, passes with no "
                                            "tax call (a right guess of a tool-only value; "
                                            "v10-g23, p4)",
    "tmz-v10-c4-0094-P1.unseen-seat": "c4-0094: a household message quoting a seat ('coach 1 "
                                      "seat 12') no response gave passes: free text is read for "
                                      "ids and asked values only (minor; v10-g23, p1)",
}

# Episodes as played that a fair grader passes and this one fails, keyed by the episode: each
# stays a strict xfail until the grader is fixed (issue 27: toolmaze-v7's play-test).
GRADER_PLAYED: dict[str, str] = {  # all four of v7's fixed by grading version 16; v8's
    # c3-0040 P2 ('¥42,008,267' in the final answer) passes since grade._whole_units
    # toolmaze-v9's c1-0067 P3 (the household held to the old reading 21.5) passes since
    # grading version 20 (noted_facts._named).
    # toolmaze-v10's three (c2-0046 P0, c4-0070 P0, c4-0045 P3) pass since grading
    # version 22: a sentence's head in any inflection (text_facts.head_said), a clock in a
    # text that writes no date on the value's own day and a range's first day read
    # (mentions._instant_told, _RANGE_START_NY), a percent change told rounded
    # (mentions._rounded_percent).
    # v3-round8's c4-0039 P1: since the v12 review's library fix (c18a246) the beach week's
    # "the sunglasses order ... and its delivery date in the note" is an ask of the note
    # (the cue "delivery date"), read of the old task too (asked_facts.scenario_of: its
    # steps are unchanged), and held to the shipping quote's date. On edition 1 the quote
    # (25 Aug) and the order (26 Aug) disagreed and the player noted the order's own; on
    # the edition v13 plays on they agree (its three beach tasks).
    "tmz-v3-c4-0039-P1": "the note's delivery date is held to the shipping quote's 25 Aug; "
                         "the order's own 26 Aug (edition 1's world disagreed) fails",
}

# Fault-mode episodes whose fault a careful agent never meets: it sits on a tool the
# reference path calls but a competent path skips, so the episode tests no recovery. Task
# side (issue 28 item 3: a fault belongs on a step every valid path takes), keyed by the
# episode; each a strict xfail of ``test_a_fault_mode_episode_meets_its_fault``.
FAULT_AVOIDABLE = {
    "tmz-v4-c3-0008-P4": "the fault sat on find_contact / search_directory_people; "
                         "lookup_contact_by_email needs neither",
    "tmz-v4-c1-0076-P1": "the 429 sat on get_stock_quote; place_stock_order reports the fill "
                         "price itself",
    "tmz-v8-c4-0069-P4": "the fault sits on the optional summarizer (generate_tldr / "
                         "summarize_key_points); an agent that writes its own summary skips it",
}


# Played on a world a careful person did not believe, which issue 28 (the v4-draft2 review)
# fixed since: the replay gets today's facts, and the player's typed values are the old
# ones. The v3 task itself shows the old facts and goes when the suite is rebuilt.
_PEG = "played when the world's DKK/HKD rate was outside its peg band (v4-draft2 c3-0063)"
_POST = ("played when the alert channel's latest post was an office chore, no action item "
         "(v4-draft2 c2-0030)")
WORLD_FIXED = {
    "tmz-v3-c1-0038-P0": _PEG, "tmz-v3-c1-0083-P3": _PEG, "tmz-v3-c3-0030-P3": _PEG,
    "tmz-v3-c3-0097-P3": _PEG, "tmz-v3-c1-0084-P0": _POST, "tmz-v3-c2-0034-P1": _POST,
}


def _verdicts() -> list[tuple[str, str, str]]:
    out = []
    for folder in sorted(p for p in PLAYED.iterdir() if (p / "verdicts.tsv").exists()):
        with (folder / "verdicts.tsv").open(encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                out.append((folder.name, row["episode"], row["fair_grade"]))
    return out


def _fault_modes() -> list[tuple[str, str, str]]:
    """(folder, episode, fault_met) of every fault-mode episode whose verdict says whether
    the player met the fault (``yes`` or ``no``; P0 rows and older tables say nothing)."""
    out = []
    for folder in sorted(p for p in PLAYED.iterdir() if (p / "verdicts.tsv").exists()):
        with (folder / "verdicts.tsv").open(encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                if row.get("fault_met") in ("yes", "no"):
                    out.append((folder.name, row["episode"], row["fault_met"]))
    return out


@cache
def _rekeyed() -> dict[Path, tuple[tuple[str, str], ...]]:
    """File -> (id played, id replayed) for each record id today's world keys anew
    (``tests/data/played/rekey.py`` writes the table and says why)."""
    out: dict[Path, list[tuple[str, str]]] = {}
    with (PLAYED / "rekeyed.tsv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            out.setdefault((DATA / row["file"]).resolve(), []).append(
                (row["played"], row["replayed"]))
    return {k: tuple(v) for k, v in out.items()}


def played_text(path: Path) -> str:
    """A played file's actions, its records' ids as today's world keys them: an id the
    episode showed when played, kept by a later text after the file's one change (or the
    world) gave the record a new one, is written as the replay shows it, so the file is
    judged on what it was made to test and not on a stale id (grading version 23 fails
    an id the episode never showed: ``grading/invented_ids.py``)."""
    text = path.read_text(encoding="utf-8")
    for old, new in _rekeyed().get(path.resolve(), ()):
        text = text.replace(old, new)
    return text


def _replay(path: Path, episode: str) -> tuple[dict, str]:
    """The episode replayed on the task its id names, under the faults that task's
    own suite shipped (a tmz-v3 episode keeps v3's profiles after the default moves on)."""
    task_id, mode = episode.rsplit("-", 1)
    s = PlaySession(get_task(task_id), mode, prompt="failure_aware")
    for line in played_text(path).splitlines():
        if s.done:
            break
        s.handle(line)
    if not s.done:
        s.stop("input ended")
    return s.env.record()["grade"], s.closing()



def replay_changed(source: Path, episode: str, old: str, new: str, tmp_path: Path,
                   count: int = -1) -> dict:
    """The grade of ``episode`` replayed from ``source`` with ``old`` written ``new``
    (``count`` times; every time by default): a one-change variant of a played file.
    The change must land, or the variant would replay the original and prove nothing."""
    text = played_text(source)
    assert old in text, f"{old!r} is not in {source.name}"
    return replay_variant(source, text.replace(old, new, count), episode, tmp_path)[0]


def replay_variant(source: Path, changed: str, episode: str, tmp_path: Path
                   ) -> tuple[dict, str]:
    """The grade and explanation of ``changed``, a variant of played file ``source``,
    replayed as ``episode``. Where the change gives a record a new id (a message's
    hashes its body), a later text that keeps the source's id for that same call's
    record tells the new one, as ``played_text`` does for the files (``_rekey``)."""
    text = played_text(source)
    rec = _rekey.record(changed, episode)
    if any(u["told"] in text for u in _rekey.invented(rec)):
        base = partial(_rekey.calls, _rekey.record(text, episode))
        for a, b in _rekey.rekeyed(changed, text, episode, base, slip=True):
            changed = changed.replace(a, b)
    path = tmp_path / source.name
    path.write_text(changed, encoding="utf-8")
    return _replay(path, episode)


def _cases():
    for folder, episode, fair in _verdicts():
        if fair != "success":
            continue
        why = TASK_SIDE.get(episode) or GRADER_PLAYED.get(episode) or WORLD_FIXED.get(episode)
        marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
        yield pytest.param(folder, episode, id=f"{folder}/{episode}", marks=marks)


@pytest.mark.parametrize(("folder", "episode"), list(_cases()))
def test_a_fair_success_is_graded_a_success(folder, episode):
    g, text = _replay(PLAYED / folder / f"{episode}.actions", episode)
    assert g["success"], text


def _fault_cases():
    for folder, episode, met in _fault_modes():
        why = FAULT_AVOIDABLE.get(episode)
        marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
        yield pytest.param(folder, episode, met, id=f"{folder}/{episode}", marks=marks)


@pytest.mark.parametrize(("folder", "episode", "met"), list(_fault_cases()))
def test_a_fault_mode_episode_meets_its_fault(folder, episode, met):
    """A fault-mode episode a careful player finished without meeting the fault measured no
    recovery at all: the fault must sit where every valid path goes. Where the player met
    it (``met`` is ``yes``), the replay must show it fired too."""
    g, text = _replay(PLAYED / folder / f"{episode}.actions", episode)
    assert g["exposed"], f"{met=}: {text}"


def test_every_fault_the_players_never_met_is_listed():
    """A fault-mode episode recorded as not meeting its fault is a task-side finding, so it
    must be named in ``FAULT_AVOIDABLE`` (and only such episodes may be)."""
    unmet = {e for _, e, met in _fault_modes() if met == "no"}
    assert unmet == set(FAULT_AVOIDABLE)


def _fair_failures():
    for folder, episode, fair in _verdicts():
        if fair == "failure":
            yield pytest.param(folder, episode, id=f"{folder}/{episode}")


@pytest.mark.parametrize(("folder", "episode"), list(_fair_failures()))
def test_an_episode_the_agent_got_wrong_is_graded_a_failure(folder, episode):
    """Where the player's own miss decided the outcome, the grader must not pass it."""
    g, text = _replay(PLAYED / folder / f"{episode}.actions", episode)
    assert not g["success"], text


def _variants(kind: str, known: dict[str, str]):
    """The files of one kind, each a strict xfail where a listed defect decides it."""
    for path in sorted(PLAYED.glob(f"*/{kind}/*.actions")):
        episode = path.name.split(".")[0]
        why = known.get(path.name.removesuffix(".actions"))
        marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
        yield pytest.param(path, episode, id=path.name, marks=marks)


def _probes():
    return _variants("probes", {**TASK_SIDE, **GRADER_STRICT})


@pytest.mark.parametrize(("path", "episode"), list(_probes()))
def test_a_probe_a_fair_grader_passes_is_graded_a_success(path, episode):
    g, text = _replay(path, episode)
    assert g["success"], text


def _slips():
    # A slip keyed in TASK_SIDE passes because the task, not the grader, lets it (v9's
    # c3-0071: no order between a payment and the balance read after it).
    return _variants("slips", {**TASK_SIDE, **GRADER_LENIENT})


@pytest.mark.parametrize(("path", "episode"), list(_slips()))
def test_a_slip_a_fair_grader_fails_is_graded_a_failure(path, episode):
    """Slips (``slips/``) are one-change variants of a played episode that get an
    asked fact wrong or leave it out: the rule that passes the episode must not pass
    them."""
    g, text = _replay(path, episode)
    assert not g["success"], text


def test_every_verdict_has_its_actions_and_every_actions_file_a_verdict():
    for folder in (p for p in PLAYED.iterdir() if (p / "verdicts.tsv").exists()):
        listed = {e for f, e, _ in _verdicts() if f == folder.name}
        files = {p.stem for p in folder.glob("*.actions")}
        assert listed == files, folder


def test_every_listed_defect_names_a_file_that_is_kept():
    """A defect list keyed by a renamed or dropped file would xfail nothing, silently."""
    kept = {p.name.removesuffix(".actions") for p in PLAYED.glob("*/*/*.actions")}
    named = {k for k in TASK_SIDE if "." in k} | set(GRADER_STRICT) | set(GRADER_LENIENT)
    assert named <= kept, named - kept


def test_every_listed_episode_is_a_fair_success_that_is_kept():
    """An episode list keyed by a renamed episode, or one whose verdict is not a fair
    success, would xfail nothing, silently."""
    fair = {e for _, e, g in _verdicts() if g == "success"}
    named = {k for k in TASK_SIDE if "." not in k} | set(GRADER_PLAYED) | set(WORLD_FIXED)
    assert named <= fair, named - fair


# Recoveries as short as the shortest, whose C_rec should match the probe's (issue 27).
EQUAL_COST = [
    # c* took no lookup from the side a permanent fault closed (c* 3 for a 4-step path)
    # until grading version 15
    pytest.param("v6", "tmz-v6-c3-0092-P4", "tmz-v6-c3-0092-P4.flightaware", id="v6/c3-0092-P4"),
]


@pytest.mark.parametrize(("folder", "episode", "probe"), EQUAL_COST)
def test_a_recovery_as_short_as_the_probes_costs_the_same(folder, episode, probe):
    """The played episode and its probe take equally many steps after the fault (one
    lookup swapped for another), so neither recovery may be dearer than the other."""
    played, _ = _replay(PLAYED / folder / f"{episode}.actions", episode)
    swapped, _ = _replay(PLAYED / folder / "probes" / f"{probe}.actions", episode)
    assert played["c"] == swapped["c"]
    assert played["c_rec"] == swapped["c_rec"]
