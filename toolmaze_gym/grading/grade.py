"""Trajectory → grade: the one code path for metrics and rewards.

The rules are written for users in docs/grading.md; in short:

success   the outcome the user asked for: every required Action of a valid path
          done once, cleanly, with its arguments resolved against this episode's
          own responses (``resolution``); no Action outside those (wrong
          arguments, unrequested, duplicated: collateral damage); no corrupted
          value passed on; and an ending the endings table accepts. Sources and
          Processors are means (any order the data allows, a lookup skipped, a
          derivation done by the agent). Where a permanent fault left no valid
          path: an honest stop by an agent that never called a tool downstream
          of the victim. A request that asks to be told values (``Task.answer``)
          is done only when the final answer mentions each, as this episode's
          responses gave it (``unanswered`` lists the ones it left out).
exposed   a fault fired.
recovered (exposed only) every fired victim's slot was completed cleanly after
          the fault (a retry or an alternative), or the task succeeded after it,
          and no corrupted value reached a later call; where no path is left,
          the graceful stop. Judged independently of success.
c, c*     steps after the first perturbed response (the final step counts) and
          the fewest possible from there under the same fault rules; 0 when no
          fault fired, which reports and explanations print as n/a.
labels    each only when its event happened (see ``LABELS``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolmaze_gym import endings
from toolmaze_gym.corpus import Corpus, Simulator, load_corpus
from toolmaze_gym.episode import ENDINGS, Step
from toolmaze_gym.faults import FaultProfile
from toolmaze_gym.grading import cart_lines
from toolmaze_gym.grading.answer_sent import left_to_texts
from toolmaze_gym.grading.arguments import CURRENCY, EITHER_DIRECTION, MONEY, says
from toolmaze_gym.grading.asked_facts import all_asks
from toolmaze_gym.grading.asked_zone import zone_asked
from toolmaze_gym.grading.change_order import swapped_changes
from toolmaze_gym.grading.costs import agent_optimal_after, tools_called_after
from toolmaze_gym.grading.earnings_surprise import (
    EPS_PAIR,
    EPS_SURPRISE,
    pair_told_wrong,
    surprises,
    wrong_way,
)
from toolmaze_gym.grading.index import TaskIndex, task_index
from toolmaze_gym.grading.invented_ids import id_kinds, invented_told
from toolmaze_gym.grading.overtrust import _propagated
from toolmaze_gym.grading.recovery import recovered_and_switched
from toolmaze_gym.grading.resolution import PathMatch, near_sum_told, told_word
from toolmaze_gym.grading.tax_inclusion import TAX_BEHAVIOURS, wrong_way_told
from toolmaze_gym.grading.trace import Trace
from toolmaze_gym.grading.unconverted_sum import unconverted_told
from toolmaze_gym.grading.visa_need import VISA_NEED, need_told_wrong
from toolmaze_gym.grading.wrong_figures import (
    figures_shown,
    near_figures,
    sums_in_texts,
    typo_figures,
)
from toolmaze_gym.grading.zone_told import free_texts, told_anywhere, zone_asks
from toolmaze_gym.mentions import DATETIME_TYPES, mentions, wall_clock_mentioned
from toolmaze_gym.tasks.enumeration import min_remaining_calls
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.readings import names_base
from toolmaze_gym.world.geo import minor_units

# 2: harmful lists only Actions that are not expected calls; premature_give_up means
#    "no valid path completed" on a solvable (task, P); over_trust ignores values a
#    later call legitimately expects; one step fulfils at most one expected call.
# 3: free text graded on content; one endings table; collateral_damage, false_claim
#    and aborted_after_completion labels; corrupted values in free text are over-trust.
# 4: expected values resolved against the episode's own responses; success is the
#    user's outcome (required Actions; Sources and Processors are means); free text on
#    what was asked (or the agent's own text in the asked language); a corrupted value
#    passed on fails; labels only when their event happened.
# 5: the final answer must mention each value the request asks to be told; a city's
#    country counts as known, e-mail and invitation templates as derivable.
# 6: a corrupted value told to the user in the final answer is over-trust.
# 7: every competent way (issue 27): derivations in every slot shape, chain Sources
#    count; a Processor's text is its facts (own summaries, formats, translations);
#    mentions across punctuation, conventions, signs and directions, and a percent
#    change from either side when the request names no base; additive Actions split;
#    wrong_arguments apart from collateral_damage; c* for this agent's choices;
#    endings that cannot be gamed (negated failure words, pasted output, a silent
#    fault's stop names what is wrong).
# 8: the play-test's rounds (issue 27): money worked out in another order within its
#    rounding, whole units where a currency has no minor unit, a country's VAT rate
#    known; a time without a zone is the value's own clock, a range two times; a
#    currency by its sign, a common word in another form, a request phrase by its facts
#    (codes are facts of their own); an own line in the asked language inside a message;
#    a translator's tag over English excuses no asked word; a translation's source
#    lines are their facts (a temperature's second unit the same fact); a sum told in a
#    text within its rounding order; a chain value of common knowledge needs no call;
#    an own rendering needs no text the request left open.
# 9: the city, country and time zone of an airport code count as known (issue 28).
# 10: a text in another language is checked on what a translation keeps (figures,
#     dates, codes) and, for a world sentence the phrasebook translates, on its words
#     in that language; such a sentence under a translator's tag is not that language
#     (issue 28).
# 11: a record may be named by any of its identifiers; nil and negative figures in
#     words; cities by their exonyms; clock times in written zones fold to UTC; the
#     user's sentence asked in another language and an own summary of an article are
#     read by their facts (issues 27/28, v4 draft-2 review); a date's month in any
#     Latin-script language asked; an Action done through another shown tool with
#     the same effect on the same target (v4 play-test, issue 28e).
# 12: an own summary of a text the agent read is judged as a paraphrase of it (core
#     claim's names and figures, this story's words, nothing contradicted:
#     ``toolmaze_gym.paraphrase``), no longer by the facts of any one sentence; a rail
#     ticket by its train number (issue 27, v4-final play-test c2-0060, c3-0061,
#     c4-0016).
# 13: a train by a service number with a three-letter operator code (ICE5447), and a
#     time range states its length ("from 12:00 to 12:45" is 45 minutes; a text whose
#     every range has another length says no such duration); a city's time in the
#     text's language ("19h30, heure de Berlin"): issue 27, v5 play-test c1-0021 and
#     c2-0078. Labels that tell the truth: ``missing_action`` for an episode ended as
#     done without a required Action (``premature_give_up`` is an abort's), another
#     Action of the same step counts as an attempt (v5 play-test c4-0092, c3-0096).
#     A temperature in free text may be told in whole degrees with its unit, rounded
#     half away from zero ("a high around 84 °F" says 84.4 °F; v5 play-test c3-0043
#     P4); decimals keep the type's tolerance, typed arguments stay exact.
# 14: a setting in whole degrees ("set to an eco 21 °C", "a 21 °C heat set point") is
#     no reading it rounds to (toolmaze-v3 c4-0045 P2); a duration written out with its unit wins
#     over a time range of another length unless it glosses that range ("Open
#     09:00-17:00; the interview takes 45 minutes" says 45 minutes, "12:00 to 13:00 UTC
#     (45 minutes)" still does not); a text too short for the language detector is read
#     by the words the world knows in each language ("Chuva, 24,1 °C" is Portuguese,
#     v5 review c1-0000); c* counts a call after the fault that did the work of a lookup
#     the agent skipped (find_device for list_room_devices, v5 play-test c3-0016 P2).
# 15: the toolmaze-v6 play-test's false negatives (issue 27): the final answer read as
#     any text (a sum within its rounding order, c4-0065 P4); a service number with a
#     space after its code ("ICE 4215", c4-0081); a day and month in figures where the
#     reading is not in doubt ("14/09", "14.09.", c3-0050); a measured quantity told to
#     fewer decimals, rounded half up with its unit ("244.1 kg", "about 244 kg",
#     c2-0097); c* counts a clean lookup of an unusable side that did the work of the
#     chosen side's (c3-0092 P4).
#     Also: a status phrase told in a sentence ("the label has been
#     created", "UPS has created the shipping label") says it (v6 review c1-0021); a tax
#     at the destination's rate worked out by the agent and rounded to the cent is its
#     own value, as the unrounded one already was (v6 review c3-0085); a stateful lookup
#     (a calendar's first free slot) is read from the agent's latest call before the
#     Action where the reference run's answer leaves it undone, so bookings the request
#     does not order pass in either order (v6 review c4-0080).
# 16 (i27-v16b, the toolmaze-v7 play-test, issue 27): over-trust reads no corrupted value
#     in a figure the request states, one a clean response gave as the same type, or a
#     figure in degrees for a field that is no temperature (c2-0080 P4, c4-0081 P3); an
#     Action done through another shown tool is matched by its target (a second room set
#     with the first room's tool; a thermostat set by the id an earlier response gave
#     for the room), and what the world resolved from the agent's arguments needs no
#     provenance nor costs a lookup in c*, while what it sent is read as sent (c4-0070
#     P3); a °C reading told in °F where the request asks for
#     neither Celsius nor both units (c1-0041 P3); an optional place the request names
#     (ship_to_city, c3-0055 P0); an own text to the person its step names may greet
#     them by the given name (c3-0007 P4). Reasons: a tool never called is said to be
#     so; a text in another language than asked is said to be (p2, p3, p4).
#     And (i27-v16, the toolmaze-v6 play-test's lenient slips): a sum a cent or more off the
#     expected one passes only as the agent's own rounding (``own_rounding``): never
#     where a response printed the sum (1,229.19 for the tax tool's 1,229.18 AUD,
#     c3-0010), and no further off than a cent plus a cent of each value it had to work
#     out on the way, carried to the sum (925.57 SEK for 80.32 EUR at 11.525809 fails,
#     c3-0071; 1,205.31 GBP for 1,205.21 fails, c2-0092), in texts, typed amounts and
#     the final answer alike. A time the request asks in a zone ("in local time",
#     "what time that is in Mexico City") is told as that zone's clock, not the instant
#     in another zone (c2-0077, c3-0032: ``asked_zone``). Booking references the
#     request asks for are the codes: a flight number or a hotel's name no longer stands
#     in for them there (c3-0074: ``asked_references``). A headline asked by its
#     content is said by its own words less its names, not by its names alone (c1-0000:
#     "Flood defences completed" is the title asked, "Hello from Vienna" is not;
#     ``headline_words``). A weather condition in the words people use for it ("sunny
#     and dry" for "clear", "rainy (15.1 mm)" for "light rain": c1-0061, c3-0071). Both
#     EPS figures of a report told as the surprise in per cent with its direction
#     ("missed the estimate by 16.98 %": c4-0087; ``earnings_surprise``).
# 17 (i27-v17, the toolmaze-v7 blind review and play-test, issue 27): a time told to a
#     visitor is read on the visited place's clock where the request writes none: "we
#     meet at 10:00" to a Paris visitor says 08:00Z, "08:00" unlabelled no longer does
#     (c3-0022; ``asked_zone.visit_offset``). A whole hour with its half of the day is
#     that clock ("8 am UTC", c3-0006 P2). A temperature told more finely than the tool
#     printed it, with its unit, says the tool's figure where that could be rounded from
#     it ("6.88 C" for 6.9, c1-0031), and a °F figure converted from a °C reading a
#     Processor computed carries that reading's rounding ("59.8 °F" for the tool's
#     59.7 from a 15.4 °C dew point, c2-0078 P3; ``converted_reading``).
#     An exchange a company is listed on names its place in an own summary ("a Hong
#     Kong-listed beverages maker" for "listed on HKEX", c1-0090).
# 18 (i27-v18, the v6/v7 play-tests' open grader defects, issue 27): a fact the request
#     asks to be told (a question, "tell me ...", "I'd like the ... (actual vs.
#     estimated EPS)", named by a scenario cue) that no ask declares must be in the final
#     answer, unless a text to the user themself carries it (v6 c4-0005, c4-0050; v7
#     c1-0010: ``asked_facts``). A text the request asks to note several facts carries
#     each one its reference text carries (v7 c4-0099's to-do without the refund:
#     ``noted_facts``). A figure asked beside an equal one is written as its own (v7
#     c4-0020: the 100 % match of the 4,800 EUR pledge; ``second_figure``), and a
#     story's summary beside its headline adds a word of the body (``summary_beside``).
#     "Overcast"
#     (and "grey skies") says the forecast's "cloudy" (v7 c3-0077 P2).
# 19 (issue 27: the toolmaze-v8 play-test's false negatives, i27-v19a, and its lenient
#     slips, i27-v19b):
#   - a sum named beside it with the currency its own response gave it in says a text's
#     asked currency ("USD 218.11", the budget's remainder log_expense gave in USD,
#     where the push was asked CHF: v8 c2-0048 P1; ``sum_currency``);
#   - a sheet row's cells apart by commas are words ("Hotel,245.73,EUR" names EUR), so
#     one row per item fills the sheet (v8 c3-0031 P1; ``mentions._CELLS``);
#   - a question is read from its sentence's start, not from a URL's dot: "Update my
#     tracker at URL: what are my 5 ADA worth ...?" asks the tracker's content, not the
#     final answer (v8 c3-0070, the other_tool variant; ``asked_facts.in_sentence``).
#   - a sum the agent worked out from printed values is one rounding (down, up or half up, at the
#     precision it wrote) of the exact value its tool's documented rule gives, not a cent
#     either way (196.75 for 983.68 / 5 = 196.736 fails, c1-0092 P1: ``own_rounding``).
#     A sum a text carries that the final answer states wrong fails, though the answer
#     need not tell it: a figure told near it (as ``says`` reads a sum) that is no
#     rounding of it at its own precision nor the agent's own rounding is a wrong claim
#     to the user (¥69,188,915 for 69,188,015.37, c3-0040 P2: ``wrong_figures``).
#     A sum is asked by its price: a step that prices a quantity the request asks at a
#     price it states, whose sum no step reads, is asked of the final answer ("how much
#     did the house use? The home pays 0.29 a kWh": its cost, 117.85, c4-0005 P2:
#     ``asked_facts.priced_refs``).
#     A text in another language says the weather condition the request asks in that
#     language's words ("temporale" for "thunderstorm": ``condition_synonyms.
#     condition_said_in``), where the request asks the weather itself, not a figure of
#     it ("the forecast (high in °C and °F)": ``asked_condition``); up to version 18 a
#     condition there went unchecked (c1-0014 P0's reason without any weather passed).
#   - (i27-v19c, asks the v8 blind review found graded nowhere) a time the request asks
#     in a named zone, converted for itself (read by no later step: c4-0001's call with
#     Lena "at 12:00 UTC ... in their local time", 14:00 Vienna; or asked by "find out
#     when ...": c3-0012's landing "local time", 11:24), is told on that zone's clock in
#     a text the agent sent or the final answer (``zone_told``). An amount and an EPS of
#     the same value are two figures: each ask needs its own occurrence, unless told
#     another way (c4-0014's MSFT dividend and EPS, both 3.32: ``second_figure.FIGURES``).
# 20: a cue word said inside a longer cue of another output names that output (the
#     toolmaze-v9 play-test, c1-0067 P3: "notify the household of the new temperature"
#     named the set point, "new temperature", and the reading, "temperature", so the
#     notification failed without the old reading the request asked of the answer:
#     ``noted_facts._named``). An optional text left out (a push's title) passes where
#     the call's other texts tell what was asked of it (c2-0041 P2: the talk's local
#     time, asked of the title only, told in the message: ``Matcher.optional_texts``).
# 21: what the toolmaze-v9 blind review and the v21 play-test found graded too leniently
#     or too strictly (docs/grading.md names each rule's module and case). An order the
#     request states holds (``stated_order``: a check "after checking" precedes its
#     Action, a state read "then" follows it; c4-0080, c3-0071). "All of it" asks every
#     figure the steps came to (``all_of_it``; c4-0080, c4-0091); a text asked for "the
#     plan" carries who does what (``asked_plan``, ``told_together``; c4-0012) and one
#     asked to greet "by name" the name (``by_name``; c3-0040); a value asked of the user
#     is not demanded of a text sent for other details (``asked_elsewhere``; c1-0032). A
#     wrong figure in any sent text fails as in the answer, and so does an unconverted
#     amount under the converted currency (``unconverted_sum``; c4-0091, c4-0054 P1). A
#     status and a user's comment are read in the text's language (``status_phrases``,
#     ``senses``; c1-0091, c1-0080), and a text in another language claims no other
#     weather condition (``condition_synonyms.condition_claimed``; c2-0030 P1). A headline
#     is read on its content words (``headline_words``; c3-0040), "gusty winds" says windy
#     (c2-0088), a name of several words may be reordered (``text_facts.name_reordered``;
#     c4-0088), a weekday of the coming week names its date (``weekday_dates``; c2-0010),
#     a bare clock beside the one city of the request is that city's (``venue_clock``;
#     c4-0088), a clock glossed by another instant tells neither (c2-0041 P2), the asked
#     zone is the reference's (``asked_zone.asked_clock``; c3-0043 P3), and a stand-in
#     Processor is one call in c* (``costs``). An id told that misnames a shown one, or
#     only a refused call carried, is a false claim (``invented_ids``; c1-0005, c1-0094);
#     a sum mistyped beside a currency is a wrong figure (``wrong_figures.typo_figures``;
#     c1-0005, c4-0028); an earnings surprise told the other way too
#     (``earnings_surprise.wrong_way``; c4-0038). Old and new values told the wrong way
#     round are wrong figures (``change_order``; c3-0028); a text with no asks of its own
#     is asked what its clause names (a title's landing time, c4-0090); a currency may be
#     told by its English name and a small count in words of the text's language (c3-0058,
#     c1-0068); a printed figure may be rounded coarser from its exact value (c2-0024).
# 22: what toolmaze-v10's blind review and play-test found graded too strictly, or too
#     leniently (docs/grading.md). A sentence's head is said in any inflection ("wants"
#     for "They want ...": ``text_facts.head_said``; c2-0046 P0); a text that writes no
#     date tells a clock on the value's own day, and a day range's first day is a date
#     written ("24-28 Aug": ``mentions``; c4-0070 P0, c2-0002); a percent change may be
#     told rounded, a whole one hedged ("up about 80%":
#     ``mentions._rounded_percent``; c4-0045 P3); a visa asked about but not its type is
#     told by whether one is needed (``visa_need``; c4-0056 P1, c1-0035); a weather
#     condition the request narrows to a figure is asked of no text
#     (``asked_condition.without_narrowed_condition``; c1-0083); "the lot" asks every
#     figure, a formatted price line standing for the figure it dresses (``all_of_it``;
#     c4-0089); "in the destination's time zone" asks the local clock as "local time"
#     does (``asked_zone``; c4-0093). From the play-test of version 22 itself
#     (tests/data/played/v10-g22): a booking code of capitals alone told mistyped is an
#     invented id (``invented_ids``; c3-0028 P4), and time "blocked in your calendar"
#     reports no failure (``failure_text``; c1-0020 P2).
# 23: what the toolmaze-v10 blind review and the play-test of version 22 left graded too
#     leniently or too strictly (docs/grading.md). A stated check inside the Action's own
#     lookup precedes it (``stated_order``; c3-0037); "the change" asks a text each booking
#     and cancellation (``asked_change``; c4-0023), "when will it come?" the delivery date
#     (``asked_delivery``; c4-0024) and "summary" the run's summary (``asked_summary``;
#     c1-0046 P1). A "[es]" tag is no language (``untranslated``; c2-0001 P2); a visa's
#     need told the other way (``visa_need.need_told_wrong``; c4-0090 P1), a price on the
#     wrong side of tax (``tax_inclusion``; c1-0005 P0) and an EPS pair told the wrong way
#     round (``earnings_surprise.wrong_pair``; c4-0012 P2, c4-0072 P2) are wrong claims; a
#     record's key the episode never showed is invented however unlike the shown ones
#     (``invented_ids``). A lookup the agent's own values ask otherwise is answered by its
#     own clean call, never the reference run's (``resolution._own_answer``; c4-0083 P2).
#     From the play-test of version 23 itself (tests/data/played/v10-g23): a value told as
#     what a tool kept answering before the agent switched is a warning, not over-trust
#     (``overtrust._results``; c2-0016 P4).
# 24: a corrupted number passed on rounded is over-trust, as its exact copy is: a stale
#     26.76 °C texted as "26,8 °C" (``overtrust._told_rounded``, ``_rounded_from``; the
#     v10-g23 play-test's c4-0084 P4, which failed without the label). Only the label
#     moves: such a value failed its step already, and no scripted agent's record changes.
# 25: a stock check stated with the order precedes it, as "once you've checked it's in
#     stock" did: "(check they're in stock)", "confirm stock", "only if in stock", "if
#     they have it in stock" (``stated_order.CHECK_FIRST``; the v10-g23 play-test's
#     c4-0043 P2 and c2-0012 P0 slips, which ordered with no stock check and passed).
#     A step a careful agent may no longer skip moves fault profiles, so it came with
#     the build of toolmaze-v11, whose profiles are placed under it.
# 26: what the toolmaze-v11 blind review found graded too leniently or too strictly
#     (tests/data/reviews/v11). A weather condition the request asks is read in the
#     language of a text whose part is asked in one (a Portuguese digest beside the
#     weather: ``TextRule._need_reading``; c3-0067, where "ensolarado" or no weather for
#     a cloudy day passed); the translators' tagged answer to a text they do not know is
#     English, not the language asked, where the world translates the request's own text
#     (``TextRule.left_untranslated``; c3-0008); "whether it'll rain" is answered by rain
#     told or denied (``asked_condition.rain_question``, ``condition_synonyms.
#     rain_answered``; c2-0074, "nie będzie padać" for a windy day); a time
#     range's zone, written after its end, is its start's too ("12:00-12:45 Berlin time"
#     is 10:00 UTC: ``mentions._RANGE_END``; c2-0086, an invite two hours early passed,
#     and the right "14:00-14:45 Berlin time" failed).
# 27: what the toolmaze-v11 blind review found graded too leniently and the next suite's
#     library could not fix. A sentence with no figure or name gives its ranks as its
#     figures ("troisième étage": ``text_facts._ordinals``, ``ranks_kept``; c1-0055, an
#     own translation with the printer on the fourth floor passed on its head); "(tell me
#     the current reading first)" orders the device's own state read before the Action
#     that changes it, and nothing else (``stated_order.READ_FIRST``; c4-0051, the
#     thermostat read after its set point passed).
# 28: what the toolmaze-v12 blind review found graded too leniently. A weather condition
#     or a status a text or the answer tells is one a response showed before it, in any
#     words (``resolution.told_word``): an Italian SMS's "cielo sereno" for delivery days
#     whose forecasts were never fetched passed (c4-0045), and so did the visa trip's
#     flight status told with its lookup skipped (which the oracle's c* counted out,
#     toolmaze-v11 c4-0059, c4-0094, v12 c4-0061, c4-0081 P2); "what's left in the
#     account" reads the balance after the payment, as "then" does (``stated_order.
#     THEN``; c2-0081, the balance read before the instalment passed).
# 29: what the toolmaze-v13 blind review found graded too strictly. A clock's "am" or
#     "pm" is a word of its own (``mentions._HALF_DAY``, in ``_CLOCK``, ``_HM`` and
#     ``_RANGE_END``): "14:00 Amsterdam time" was read as "14:00 am" (no such time) and
#     lost, so a push telling the guests' arrival in Amsterdam time failed (c4-0053).
# 30: the cart's two lines in either order (``cart_lines``): a failure is graded again
#     against the task's twin with the lines swapped, as a request that orders two
#     products "together" names no order (toolmaze-v13 review c4-0055, the shoes first);
#     a flight's status in the words people tell it with (``status_phrases.
#     flight_status_told``): "on time (no delay)" failed for not saying "scheduled"
#     (toolmaze-v13 sweep c4-0035).
# 31: what toolmaze-v14's review and play-test found. A weather condition is not said by
#     a wider one that holds its word (``mentions.without_wider_conditions``): "light
#     rain" passed for a rain day and "partly cloudy" for a cloudy one (review c2-0087,
#     c2-0026); a country is carried by its adjective (``text_facts.country_said``,
#     data/world/demonyms.json): "its Polish producers" failed a summary of "Poland
#     streaming hit ..." (play-test c3-0050 P3).
# 32: what toolmaze-v14's review and the sweep of the noted-facts rule found too strict.
#     A clause asks the Action whose own words begin it, to the next errand
#     (``action_clauses.own_starts``): "book a room ... and invite Ines Moreau" held the
#     invite's subject to the room (c4-0034, c4-0005, c4-0060, c4-0020, c2-0083). An own
#     tax at the standard rate counts after the chain's price lookups were called
#     (``_Provenance.worked_out_alone``: c1-0005's 10 % GST on the quoted price), and a
#     tax label that heads a figure labels that figure (``tax_inclusion._heads_figure``:
#     "USD 72.59 (net 65.99)"). Then what toolmaze-v15's review and play-test found: a
#     faithful own translation of a world-generated text is no guess
#     (``_Provenance.translated``, play-test c3-0009 P1), a tool's rounding on the way
#     carries through a rate (``resolution._rounded_on_the_way``, review c2-0045), a
#     translation keeps the weekdays its source names (``text_facts.weekdays_kept``,
#     c1-0027), and an answer the request sends on is not asked of the final answer
#     (``answer_sent``, c3-0088).
GRADING_VERSION = "32"
LABELS = ("over_trust", "retry_loop", "premature_give_up", "missing_action", "false_claim",
          "aborted_after_completion", "wrong_arguments", "collateral_damage", "path_switch",
          "graceful_stop")
RETRY_LOOP = 3  # identical failing calls that make a loop
# A call's identity for the loop count: ``json.dumps(..., sort_keys=True, default=str)``
# with its encoder built once (the same text).
_CALL_KEY = json.JSONEncoder(sort_keys=True, default=str).encode


@dataclass
class Grade:
    success: bool
    exposed: bool
    recovered: bool | None
    c: int  # 0 where no fault fired: reports print n/a there (``exposed`` says which)
    c_star: int
    c_rec: float
    labels: list[str] = field(default_factory=list)
    ended_by: str = ""
    path: list[int] | None = None  # the completed solution's choice
    # Actions no expected call accounts for, step indices: a required Action sent with a
    # wrong value (``wrong_arguments``) or one the request did not ask for
    # (``collateral_damage``); ``wrong_argument_steps`` tells which is which.
    harmful: list[int] = field(default_factory=list)
    # Required Actions not done right, closest path: tool, slot, the nearest step that
    # called the tool (None: never called) and the first argument that differs.
    missing: list[dict[str, Any]] = field(default_factory=list)
    # Values the request asked to be told that the final answer does not mention:
    # type, value (this episode's), slot (None: a value the query states); with
    # ``told``, a sum a text carries that the answer states wrong (version 19).
    unanswered: list[dict[str, Any]] = field(default_factory=list)
    version: str = GRADING_VERSION

    def to_dict(self) -> dict[str, Any]:
        return {"success": self.success, "exposed": self.exposed, "recovered": self.recovered,
                "c": self.c, "c_star": self.c_star, "c_rec": self.c_rec,
                "labels": list(self.labels), "ended_by": self.ended_by,
                "path": None if self.path is None else list(self.path),
                "harmful": list(self.harmful), "missing": [dict(m) for m in self.missing],
                "unanswered": [dict(m) for m in self.unanswered], "version": self.version}


def _failing_loop(steps: Sequence[Step]) -> bool:
    failing = Counter(_CALL_KEY([s.action.get("name"), s.action.get("arguments")])
                      for s in steps if s.kind == "call" and (s.fault or (s.status or 0) >= 400))
    return bool(failing) and max(failing.values()) >= RETRY_LOOP


def _downstream_calls(idx: TaskIndex, trace: Trace, profile: FaultProfile) -> list[int]:
    """Steps, before or after the fault, that call a tool downstream of a victim.

    A tool counts when only downstream slots use it, or when the step is one of a
    downstream slot's expected calls (a tool can serve an upstream slot too).
    """
    down: set[str] = set()
    for v in profile.victims:
        down |= idx.down_slots[v.slot]
    elsewhere = {t for s in idx.slot_ids if s not in down
                 for t in idx.slot_by_id[s].tools}
    only_down = {t for s in down for t in idx.slot_by_id[s].tools} - elsewhere
    down_steps = {i for cid, found in trace.pos.items() if idx.calls[cid].slot in down
                  for i in found}
    return [i for i, s in enumerate(trace.steps) if s.kind == "call"
            and (s.action.get("name") in only_down or i in down_steps)]


def _no_path_left(trace: Trace, profile: FaultProfile) -> bool:
    """Whether the faults met so far leave no valid path (the task is blocked)."""
    if not trace.faults:
        return False
    if trace.idx.unsolvable(profile):
        return True
    if not profile.permanent:
        return False
    unusable: dict[str, set[int]] = {}
    for i in trace.faults:
        f = trace.steps[i].fault
        unusable.setdefault(f["slot"], set()).update(trace.idx.fault_sides(f))
    return min_remaining_calls(trace.idx.task, set(), unusable) is None


def _situation(completed: bool, blocked: bool, unsolvable: bool) -> str:
    if completed:
        return endings.COMPLETED
    if blocked:
        return endings.BLOCKED
    return endings.DOOMED if unsolvable else endings.OPEN


def _recovered(trace: Trace, over_trust: bool, success: bool) -> tuple[bool, bool]:
    """(recovered, switched), as the path listing shows it (``grading.recovery``)."""
    return recovered_and_switched(trace, over_trust, success)


def wrong_argument_steps(steps: Sequence[Step], required: Sequence[tuple[str, int | None]],
                         harmful: Sequence[int]) -> list[int]:
    """The harmful steps that are a required Action sent with a wrong value: a call of
    the tool of a required Action (``required``: its tool, and the step that did it
    right, None when none did) that was not done right before this step. The others
    are Actions the request did not ask for (an unrequested tool, or a duplicate of
    one already done): collateral damage. The explanation and the labels share it."""
    out = []
    for i in harmful:
        tool = steps[i].action.get("name")
        if any(t == tool and (done is None or done > i) for t, done in required):
            out.append(i)
    return out


def _required(idx: TaskIndex, m: PathMatch) -> list[tuple[str, int | None]]:
    """The required Actions of path ``m``: (tool, the step that did it right or None),
    each also under the other Action tools of its step (``slot_actions``)."""
    return [(tool, m.steps.get(c)) for c in m.path.cids if idx.calls[c].tool in idx.actions
            for tool in slot_actions(idx, idx.calls[c].slot, idx.calls[c].tool)]


def slot_actions(idx: TaskIndex, slot_id: str, tool: str) -> tuple[str, ...]:
    """``tool`` and the other Actions one step of the task can be done with (its other
    sides: send_sms where the closest path took create_twilio_message). A call of any
    of them is an attempt at that step, right or wrong: never an unrequested Action,
    never a step left unattempted (v5 play-test c3-0096)."""
    slot = idx.slot_by_id.get(slot_id)
    others = [t for t in slot.tools if t in idx.actions] if slot is not None else []
    return (tool, *(t for t in others if t != tool))


def _unanswered(trace: Trace, best: PathMatch, answer: str, asked: Sequence[tuple[Any, ...]]
                ) -> list[dict[str, Any]]:
    """The asked values the final answer leaves out, each as this episode gave it (the
    reference run's where the agent never made the step: a value it knew). The answer
    is read as any text is (``says``): a sum within its rounding order counts, 667.40
    PLN for a 667.41 worked out in the other order (grading version 15), but only as
    the agent's own rounding (``resolution.near_sum_told``, grading version 16): a sum
    a response printed is told to the cent. ``asked``: the task's ``all_asks``."""
    task = trace.idx.task
    out = []
    # a percent change from either side (readings)
    either = not trace.idx.once("names_base", lambda: names_base(task.query))
    zoned = {(z[2], z[3]) for z in trace.idx.once(  # version 19
        "zone_asks", lambda: zone_asks(task, trace.idx.corpus))}
    whole = any(m[0] == CURRENCY and isinstance(m[1], str) and minor_units(m[1]) == 0
                for m in asked)
    for m in asked:
        type_, value, slot = m[0], m[1], m[2] if len(m) >= 4 else None
        if slot is not None:
            value = best.outputs.get(slot, {}).get(m[3], value)
        told = says(answer, EITHER_DIRECTION, value) if type_ == "percent_change" and either \
            else says(answer, type_, value)
        if told and type_ == MONEY and slot is not None and not mentions(answer, type_, value):
            told = near_sum_told(trace.idx, trace.view, best, slot, value, answer,
                                 whole or _whole_units(task, best, slot))
        if (slot, m[3] if slot else None) in zoned:  # told in the answer or any text
            told = told_anywhere(_texts_sent(trace), answer, value)
        elif told and type_ in DATETIME_TYPES and zone_asked(task.query, value):
            told = wall_clock_mentioned(answer, type_, value)  # the asked zone's clock
        if told and slot is not None and told_word(type_, value) \
                and not trace.view.seen(type_, value, len(trace.steps)):
            out.append({"type": type_, "value": value, "slot": slot, "unread": True})
        elif not told:
            out.append({"type": type_, "value": value, "slot": slot})
    return out


def _texts_sent(trace: Trace) -> list[str]:
    """The free texts of every Action the agent made that its tool took (a subject, a
    body)."""
    return [t for _, t in _sent_texts(trace)]


def _told_wrong(trace: Trace, best: PathMatch, answer: str, asked: Sequence[tuple[Any, ...]]
                ) -> list[dict[str, Any]]:
    """The sums a text carries that the final answer need not tell but states wrong
    (grading version 19, ``wrong_figures``; v8 play-test c3-0040 P2: ¥69,188,915 for
    69,188,015.37, though the SMS carried it right), each with the figure ``told``. The
    agent's own rounding of a sum it worked out is no wrong figure (``near_sum_told``).
    ``asked``: the task's ``all_asks``, whose sums ``_unanswered`` holds instead."""
    task = trace.idx.task
    answered = {(m[2], m[3]) for m in asked if len(m) >= 4}
    out = []
    for type_, value, slot, key in sums_in_texts(task):
        if (slot, key) in answered:
            continue  # asked of the answer: ``_unanswered`` holds it to the sum
        value = best.outputs.get(slot, {}).get(key, value)
        wrong = _wrong_figures(trace, best, slot, answer, value)
        if wrong:
            out.append({"type": type_, "value": value, "slot": slot, "told": wrong[0]})
    return out


def _sent_wrong(trace: Trace, best: PathMatch, answer: str, asked: Sequence[tuple[Any, ...]]
                ) -> list[dict[str, Any]]:
    """The wrong figures the agent sent someone (grading version 21, toolmaze-v9
    play-test c4-0054 P1 `push-wrong-chf`): in a message, a sum the task works out told
    near it and wrong, as ``_told_wrong`` reads the final answer (``wrong_figures``);
    in a message or the answer, an amount told under the code of the currency a step
    converted it into (``unconverted_sum``); in a message or the answer, an earnings
    surprise told the other way (``earnings_surprise.wrong_way``, version 21), or its
    two EPS figures the wrong way round (``earnings_surprise.wrong_pair``); in a
    message or the answer, a change's old and new values told the other way round
    (``change_order``, version 21); in a message or the answer, a visa's need told the
    other way (``visa_need.need_told_wrong``, version 23); in a message or the answer, a
    net price told as with tax or a gross one as before it (``tax_inclusion``, version
    23). Each with
    the figure ``told`` and the tool it was ``sent`` by ("" for the final answer)."""
    task = trace.idx.task
    sent = _sent_texts(trace)
    in_texts = sums_in_texts(task)
    facts = [*in_texts, *(m for m in asked if len(m) >= 4 and m[0] == MONEY
                          and all(m[2:4] != f[2:4] for f in in_texts))]
    out = []
    for type_, value, slot, key in facts:
        value = best.outputs.get(slot, {}).get(key, value)
        for tool, text in sent:
            wrong = _wrong_figures(trace, best, slot, text, value)
            if wrong:
                out.append({"type": type_, "value": value, "slot": slot, "told": wrong[0],
                            "sent": tool})
                break
    told = [("", answer), *sent]
    for tool, text in told:
        out += [{"type": MONEY, "value": value, "slot": slot, "told": figure, "sent": tool}
                for slot, value, figure in unconverted_told(task, best.outputs, text)
                if all(slot != o["slot"] or "sent" not in o for o in out)]
    for slot, pct in surprises(best.outputs):  # the surprise told the other way (v21)
        way = next(((tool, w) for tool, text in told if (w := wrong_way(text, pct))), None)
        if way is not None:
            out.append({"type": EPS_SURPRISE, "value": round(pct, 2), "slot": slot,
                        "told": way[1], "sent": way[0]})
        elif (pair := pair_told_wrong(best.outputs[slot], told)) is not None:  # (v23)
            out.append({"type": EPS_PAIR, "value": pair[0], "slot": slot, "told": pair[2],
                        "sent": pair[1]})
    for tool, text in told:  # a change told the other way round (v21)
        out += [{"type": "changed_to", "value": value, "slot": slot, "told": figure,
                 "sent": tool} for slot, value, figure in swapped_changes(task, best.outputs,
                                                                          text)]
    out += wrong_way_told(((b, trace.view.body(i)) for i, s in enumerate(trace.steps)
                           if s.clean_ok and (b := _behaviour(trace, s)) in TAX_BEHAVIOURS),
                          told)  # a net price told as with tax, or the other way (v23)
    for tool, text in told:  # a visa needed where none is, or the other way (v23)
        out += [{"type": VISA_NEED, "value": value, "slot": slot, "told": words,
                 "sent": tool} for slot, value, words in need_told_wrong(best.outputs, text)]
    return out


def _wrong_figures(trace: Trace, best: PathMatch, slot: str, text: str, value: Any
                   ) -> list[float]:
    """The figures ``text`` tells for ``slot``'s sum ``value`` wrongly: near it and no
    own rounding of the agent's (``near_sum_told``), or it mistyped where the episode
    showed no such figure (grading version 21; ``wrong_figures``)."""
    near = near_figures(text, value)
    if near:
        whole = _whole_units(trace.idx.task, best, slot)
        return [] if near_sum_told(trace.idx, trace.view, best, slot, value, text, whole) \
            else near
    typos = typo_figures(text, value)
    if not typos:
        return []
    shown = figures_shown(trace.idx.task.query, (s.observation for s in trace.steps
                                                 if s.kind == "call"), best.outputs)
    return [n for n in typos if round(abs(n), 2) not in shown]


def _behaviour(trace: Trace, step: Step) -> str:
    """The behaviour of the tool ``step`` called ("" for one the corpus lacks)."""
    spec = trace.idx.corpus.tools.get(str(step.action.get("name")))
    return spec.behaviour if spec is not None else ""


def _sent_texts(trace: Trace) -> list[tuple[str, str]]:
    """(tool, text) of every free text of an Action the agent made that its tool took."""
    return [(str(trace.steps[i].action.get("name")), t) for i in trace.actions
            for t in free_texts(trace.idx.corpus, str(trace.steps[i].action.get("name")),
                                trace.steps[i].action.get("arguments"))]


def _whole_units(task: Task, best: PathMatch, slot: str) -> bool:
    """Whether ``slot``'s sum is in a currency with no minor unit, so the answer may tell
    it in whole units: the currency it returns, else the one it converts into (v8
    play-test c3-0040: "¥42,008,267" for a conversion into JPY, asked in the final
    answer since version 18, where no JPY ask of the answer said so)."""
    codes = [v for k, v in best.outputs.get(slot, {}).items() if k.split("@")[0] == CURRENCY]
    if not codes and slot in task.slot_by_id:
        codes = [i.source.value for i in task.slot_by_id[slot].inputs
                 if i.role == "quote" and i.source.is_literal]
        codes += [best.outputs.get(i.source.slot, {}).get(f"{CURRENCY}@{i.source.field}")
                  for i in task.slot_by_id[slot].inputs
                  if i.role == "quote" and not i.source.is_literal]
    return any(isinstance(c, str) and minor_units(c) == 0 for c in codes)


def _missing(idx: TaskIndex, m: PathMatch) -> list[dict[str, Any]]:
    out = []
    for cid in m.missing:
        call = idx.calls[cid]
        step, arg = m.wrong.get(cid, (None, ""))
        out.append({"tool": call.tool, "slot": call.slot, "step": step, "argument": arg,
                    "expected": m.expected.get(cid, {})})
    return out


def _ending_labels(verdict: endings.Verdict, best: PathMatch, trace: Trace,
                   situation: str, ending: str) -> set[str]:
    """The endings table's labels, kept only when their event happened: giving up
    and claiming success are about required Actions never attempted (a call of
    another Action of the same step is an attempt); an Action attempted with wrong
    arguments is ``wrong_arguments``, not a give-up. Only an abort gives up: an
    episode ended as done (finish, a plain answer) with a required Action never
    attempted is ``missing_action`` (v5 play-test c4-0092: the door was found locked
    and the lock call left out)."""
    found = set(verdict.labels)
    if situation == endings.OPEN:
        idx = trace.idx
        called = {trace.steps[i].action.get("name") for i in range(len(trace.steps))
                  if trace.steps[i].kind == "call"}
        never = [cid for cid in best.missing
                 if not set(slot_actions(idx, idx.calls[cid].slot, idx.calls[cid].tool))
                 & called]
        if not never:
            found -= {"premature_give_up", "false_claim"}
        elif ending != "abort" and "premature_give_up" in found:
            found = (found - {"premature_give_up"}) | {"missing_action"}
    return found


def grade(task: Task, profile: FaultProfile, steps: Sequence[Step], truncated: bool = False,
          sim: Simulator | None = None, corpus: Corpus | None = None) -> Grade:
    """The grade of one trajectory (see the module docstring and docs/grading.md): a
    failure is graded again against the task's twin with the cart's lines the other way
    round (``cart_lines``, version 30), and a success there is the grade."""
    corpus = corpus or (sim.corpus if sim else load_corpus())
    steps = list(steps)
    got = _grade(task, profile, steps, truncated, corpus)
    if not got.success and (twin := cart_lines.swapped(task, corpus)) is not None:
        other = _grade(twin, profile, steps, truncated, corpus)
        if other.success:
            return other
    return got


def _grade(task: Task, profile: FaultProfile, steps: list[Step], truncated: bool,
           corpus: Corpus) -> Grade:
    """The grade of one trajectory against ``task`` as it stands."""
    idx = task_index(task, corpus)
    trace = Trace(idx, steps)
    first = trace.faults[0] if trace.faults else -1
    exposed = bool(trace.faults)
    last = steps[-1].kind if steps else ""
    ended_by = last if last in ENDINGS else ""
    ending = ended_by if not truncated else ""
    over_trust = _propagated(steps, idx)

    best, completed = trace.best()
    harmful = trace.extra_actions(best)
    blocked = not completed and _no_path_left(trace, profile)
    situation = _situation(completed, blocked, idx.unsolvable(profile))
    silent = endings.silent_faults((steps[i].fault for i in trace.faults), corpus) \
        if blocked else ()
    verdict = endings.judge(situation, ending, steps[-1].action.get("text", "") if ending
                            else "", silent)
    probed = blocked and bool(_downstream_calls(idx, trace, profile))
    # an id told that the episode never showed is a false claim (version 21)
    invented = invented_told(steps, task.query, idx.once("id_kinds", lambda: id_kinds(
                             task.tools, corpus)), corpus,
                             steps[-1].action.get("text", "") if ending else "")
    graceful = blocked and verdict.ok and not probed and not invented
    unanswered = []
    if completed and ended_by == "finish":
        answer = steps[-1].action.get("text", "")
        # with the facts no ask declared (version 18), once per task
        asked = idx.once("all_asks", lambda: all_asks(task, corpus))
        # not what the request sends on to someone else ("text them the answer", 32)
        mine = idx.once("asks_for_me", lambda: left_to_texts(task, asked))
        unanswered = _unanswered(trace, best, answer, mine) \
            + _told_wrong(trace, best, answer, asked) + _sent_wrong(trace, best, answer, asked)
    unanswered += invented
    success = verdict.ok and not harmful and not probed and not over_trust and not unanswered

    recovered: bool | None = None
    switched = False
    if exposed:
        if blocked:
            recovered = graceful
        else:
            recovered, switched = _recovered(trace, over_trust, success)
    c = len(steps) - first - 1 if exposed else 0
    c_star = agent_optimal_after(trace, profile, first, tools_called_after(steps, first)) \
        if exposed else 0
    c_rec = (1 - (c_star / max(c, c_star)) * success) if exposed else 0.0

    found = _ending_labels(verdict, best, trace, situation, ending)
    found |= {"over_trust"} if over_trust else set()
    found |= {"false_claim"} if any(not o["sent"] for o in invented) else set()
    found |= {"retry_loop"} if _failing_loop(steps) else set()
    wrong = wrong_argument_steps(steps, _required(idx, best), harmful)
    found |= {"wrong_arguments"} if wrong else set()
    found |= {"collateral_damage"} if set(harmful) - set(wrong) else set()
    found |= {"path_switch"} if switched else set()
    found |= {"graceful_stop"} if graceful else set()
    return Grade(success=success, exposed=exposed, recovered=recovered, c=c, c_star=c_star,
                 c_rec=round(c_rec, 6), labels=[x for x in LABELS if x in found],
                 ended_by=ended_by, path=list(best.path.choice) if success and completed
                 else None, harmful=[] if success else harmful,
                 missing=[] if completed or success else _missing(idx, best),
                 unanswered=unanswered)


def grade_record(record: Mapping[str, Any], task: Task, profile: FaultProfile,
                 corpus: Corpus | None = None) -> Grade:
    """Re-grade a stored trajectory record with the current grader."""
    steps = [Step.from_dict(s) for s in record["steps"]]
    return grade(task, profile, steps, bool(record.get("truncated")), corpus=corpus)
