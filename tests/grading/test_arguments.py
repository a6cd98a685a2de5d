"""Argument matching (docs/grading.md): which sent arguments count as an expected call.

Typed arguments go through the semantic types' normalisers (ids keep their case,
names and codes ignore it, dates compare to the day, datetimes to the minute);
optional parameters must be absent or default; free text is graded on content.
Calls are checked one at a time with ``matches`` and, where the rule is about a
whole task, through real trajectories.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from tests.grading._helpers import (
    ABORT,
    FINISH,
    PINNED,
    call,
    graded,
    play,
    profile,
    simulator,
    suite,
    tasks,
)
from toolmaze_gym import values
from toolmaze_gym.agents.scripted import call_text
from toolmaze_gym.episode import Step
from toolmaze_gym.grading import grade, matches
from toolmaze_gym.tasks.model import Call, Task
from toolmaze_gym.tasks.suite import V1_NAME


def _corpus():
    return simulator().corpus


def _step(tool: str, args: dict[str, Any]) -> Step:
    return Step(raw="", action={"kind": "call", "name": tool, "arguments": args}, status=200,
                observation="{}", fault=None)


def _expected(where: Callable[[Call, str, str], bool]) -> tuple[Call, str]:
    """An expected call of some suite task and one of its parameters that ``where``
    accepts (given the call, the parameter name and its semantic type)."""
    for task in suite():
        for c in task.default_path.calls:
            spec = _corpus()[c.tool]
            for p in spec.params:
                if p.name in c.args and where(c, p.name, p.type):
                    return c, p.name
    raise AssertionError("no suite call fits")


def _matches(c: Call, **changes: Any) -> bool:
    return matches(_corpus(), c, _step(c.tool, {**c.args, **changes}))


def _of_type(*names: str) -> Callable[[Call, str, str], bool]:
    return lambda c, p, t: t in names


# ---------------------------------------------------------------- typed arguments


def test_the_expected_arguments_match():
    c, _ = _expected(lambda c, p, t: True)
    assert matches(_corpus(), c, _step(c.tool, dict(c.args)))
    assert not matches(_corpus(), c, _step(c.tool + "_v2", dict(c.args)))
    assert not matches(_corpus(), c, _step(c.tool, {k: v for k, v in list(c.args.items())[1:]}))


def test_ids_keep_their_case():
    c, p = _expected(_of_type("email_message_id", "meeting_id", "document_id", "ticket_id"))
    assert _matches(c, **{p: f"  {c.args[p]} "})  # surrounding space is not content
    assert not _matches(c, **{p: c.args[p].lower()})


def test_names_and_codes_ignore_case():
    c, p = _expected(_of_type("city_name", "currency_code", "crypto_asset", "stock_symbol"))
    assert _matches(c, **{p: c.args[p].swapcase()})


def test_free_text_ignores_case_and_spacing():
    c, p = _expected(lambda c, p, t: t == "text" and " " in c.args[p])
    assert _matches(c, **{p: "  " + c.args[p].upper().replace(" ", "   ") + " "})


def test_dates_compare_to_the_day_no_coarser():
    c, p = _expected(_of_type("iso_date"))
    day = c.args[p]
    assert _matches(c, **{p: day + "T15:30:00Z"})
    y, m, d = (int(x) for x in day.split("-"))
    other = f"{y:04d}-{m:02d}-{d + 1 if d < 28 else d - 1:02d}"
    assert not _matches(c, **{p: other})


def test_datetimes_compare_to_the_minute_no_coarser():
    from datetime import timedelta

    from toolmaze_gym.values.catalog import parse_utc_naive

    c, p = _expected(_of_type("iso_datetime"))
    at = parse_utc_naive(c.args[p])

    def iso(dt, zone="Z"):
        return dt.strftime("%Y-%m-%dT%H:%M:%S") + zone

    assert _matches(c, **{p: iso(at + timedelta(seconds=59))})  # seconds do not count
    assert _matches(c, **{p: iso(at + timedelta(hours=2), "+02:00")})  # the same instant
    assert not _matches(c, **{p: iso(at + timedelta(minutes=1))})
    assert not _matches(c, **{p: iso(at + timedelta(hours=1))})


def test_amounts_within_the_type_tolerance():
    c, p = _expected(_of_type("money_amount"))
    x = float(c.args[p])
    assert _matches(c, **{p: x + 0.001})
    assert not _matches(c, **{p: x + 0.01})


def test_extra_or_non_default_optional_arguments_do_not_match():
    """An unknown parameter, or an optional one the call leaves alone sent with a
    value other than its default, makes a different call."""
    c, _ = _expected(lambda c, p, t: any(not q.required and q.default is not None
                                         and q.name not in c.args
                                         for q in _corpus()[c.tool].params))
    opt = next(q for q in _corpus()[c.tool].params
               if not q.required and q.default is not None and q.name not in c.args)
    assert _matches(c, **{opt.name: opt.default})
    other = "sell" if opt.default != "sell" else "buy"
    assert not _matches(c, **{opt.name: other})
    assert not _matches(c, dry_run=True)
    c, _ = _expected(lambda c, p, t: any(not q.required and q.default is None
                                         and q.name not in c.args and q.type != "text"
                                         for q in _corpus()[c.tool].params))
    opt = next(q for q in _corpus()[c.tool].params
               if not q.required and q.default is None and q.name not in c.args
               and q.type != "text")  # optional free text: test_an_optional_text_...
    sample = values.get(opt.type).sample(simulator().world, "grading-test")
    assert not _matches(c, **{opt.name: sample})


# ---------------------------------------------------------------- Sources and Processors


def _swapped_input(category: str) -> tuple[Task, int, str, Any]:
    """A C1 task, a call of s* of ``category`` and a literal argument of it replaced
    by another valid value that the tool answers with 200 (like
    get_crypto_price(asset="BTC") where the user asked for TRX)."""
    world = simulator().world
    for task in tasks("C1"):
        S = task.default_path.calls
        for k, c in enumerate(S):
            spec = _corpus()[c.tool]
            if spec.category != category:
                continue
            for p in spec.params:
                t = values.get(p.type)
                want = c.args.get(p.name)
                if not isinstance(want, str) or p.type == "text" or not t.literal or p.enum:
                    continue
                other = next((x for x in (t.sample(world, f"swap{i}") for i in range(20))
                              if not t.same(x, want)), None)
                if other is None:
                    continue
                actions = [call(x) for x in S[:k]] + [call(c, **{p.name: other})] \
                    + [call(x) for x in S[k + 1:]]
                ep = play(task, "P0", actions)
                if all(s.status == 200 for s in ep.steps):
                    return task, k, p.name, other
    raise AssertionError(f"no C1 {category} call can be swapped")


def test_action_fed_a_fact_the_episode_never_showed_fails():
    """A lookup made for the wrong entity (the user asked for Vienna, the agent
    looked up Shanghai) and the Action then sent with the right values anyway:
    values the episode never showed the agent are the reference's, not its own."""
    task, k, name, other = _swapped_input("Source")
    S = task.default_path.calls
    actions = [call(x) for x in S[:k]] + [call(S[k], **{name: other})] \
        + [call(x) for x in S[k + 1:]] + [FINISH]
    g = graded(play(task, "P0", actions))
    assert g.success is False and g.path is None
    assert g.labels == ["wrong_arguments"]  # a required Action, sent with unshown values
    assert [m["tool"] for m in g.missing] == [S[-1].tool]


def test_a_tools_exact_wording_the_episode_never_showed_fails():
    """A formatter called with a wrong input (it answered "Fog, ..."), and then the
    formatter's exact right sentence sent on anyway: the agent may write a report in its
    own words, but a tool's wording it was never shown is the reference run's."""
    task, k, name, other = _swapped_input("Processor")
    S = task.default_path.calls
    actions = [call(x) for x in S[:k]] + [call(S[k], **{name: other})] \
        + [call(x) for x in S[k + 1:]] + [FINISH]
    g = graded(play(task, "P0", actions))
    assert g.success is False and "wrong_arguments" in g.labels


# ---------------------------------------------------------------- free text on content


def _text_action_task(suite: str = PINNED) -> tuple[Task, int, str]:
    """A C1 task whose s* has an Action with a free-text argument quoted by the query."""
    for task in tasks("C1", name=suite):
        for k, c in enumerate(task.default_path.calls):
            if _corpus()[c.tool].category != "Action":
                continue
            for p in _corpus()[c.tool].params:
                if p.type == "text" and isinstance(c.args.get(p.name), str) \
                        and c.args[p.name].rstrip(".") in task.query:
                    return task, k, p.name
    raise AssertionError("no C1 task quotes an Action's text")


def _with_text(task: Task, k: int, name: str, text: str, mode: str = "P0") -> Any:
    S = task.default_path.calls
    actions = [call(x) for x in S[:k]] + [call(S[k], **{name: text})] \
        + [call(x) for x in S[k + 1:]] + [FINISH]
    return graded(play(task, mode, actions))


def test_free_text_in_any_wording_succeeds():
    task, k, name = _text_action_task()
    quoted = task.default_path.calls[k].args[name]
    g = _with_text(task, k, name, f"Hi! As discussed — {quoted.lower().rstrip('.')}. Thanks")
    assert g.success is True and g.harmful == [] and g.labels == []


def test_free_text_missing_the_required_value_is_a_wrong_argument():
    task, k, name = _text_action_task()
    g = _with_text(task, k, name, "Hi! As discussed. Thanks")
    assert g.success is False
    assert k in g.harmful and g.labels == ["wrong_arguments"]


def _with_mentions(task: Task, k: int, name: str, required) -> Task:
    """``task`` with the Input behind s*[k]'s free-text parameter ``name`` carrying
    ``required`` mentions (the toolmaze-v2 task data)."""
    c = task.default_path.calls[k]
    slot = task.slot_by_id[c.slot]
    quoted = c.args[name]
    idx = next(i for i, inp in enumerate(slot.inputs) if inp.type == "text"
               and inp.source.is_literal and inp.source.value == quoted)
    inputs = list(slot.inputs)
    inputs[idx] = dataclasses.replace(inputs[idx], mentions=tuple(required))
    slots = [dataclasses.replace(s, inputs=tuple(inputs)) if s.id == slot.id else s
             for s in task.slots]
    return dataclasses.replace(task, slots=slots)


def test_declared_mentions_are_what_free_text_must_state():
    """With ``Input.mentions`` the text must mention those values (numbers in any
    common formatting, names in any case) and nothing else is required."""
    task, k, name = _text_action_task()
    required = [("money_amount", 1234.5), ("person_name", "Freya Sato"),
                ("iso_date", "2026-08-29")]
    v2 = _with_mentions(task, k, name, required)
    S = v2.default_path.calls

    def run(text: str):
        actions = [call(x) for x in S[:k]] + [call(S[k], **{name: text})] \
            + [call(x) for x in S[k + 1:]] + [FINISH]
        ep = play(task, "P0", actions)
        return grade(v2, profile(task, "P0"), ep.steps, ep.truncated, simulator())

    ok = run("Freya SATO approved €1,234.50 on 29 Aug 2026.")
    assert ok.success is True and ok.labels == []
    for wrong in ("Freya Sato approved €1,243.50 on 29 Aug 2026.",    # altered amount
                  "Freya Sato approved €1,234.50 on 30 Aug 2026.",    # altered date
                  "Someone approved €1,234.50 on 29 Aug 2026."):      # missing name
        g = run(wrong)
        assert g.success is False and "wrong_arguments" in g.labels, wrong


def test_corrupted_value_quoted_in_free_text_is_over_trust():
    """An implicit fault's corrupted number, written into a later free-text argument
    (an e-mail quoting the wrong price), is over-trust."""
    for task in tasks("C1"):
        S = task.default_path.calls
        from tests.grading._helpers import victim_index

        v = victim_index(task, "P3")
        ep = play(task, "P3", [call(c) for c in S[: v + 1]])
        f = ep.steps[v].fault
        bad = next((b for b in f["corrupted"].values()
                    if isinstance(b, int | float) and not isinstance(b, bool)), None)
        later = next((j for j in range(v + 1, len(S)) for p in _corpus()[S[j].tool].params
                      if p.type == "text" and p.name in S[j].args), None)
        if bad is None or later is None:
            continue
        p = next(p.name for p in _corpus()[S[later].tool].params
                 if p.type == "text" and p.name in S[later].args)
        text = f"Heads-up: the reported value is {bad}."  # the bad number, not the clean one
        actions = [call(c) for c in S[: v + 1]] + [call(c) for c in S[v + 1: later]] \
            + [call(S[later], **{p: text})]
        g = graded(play(task, "P3", [*actions, ABORT]))
        if play(task, "P3", actions).steps[-1].status != 200:
            continue
        assert "over_trust" in g.labels and g.recovered is False
        return
    pytest.fail("no C1 task lets a corrupted number reach free text")


def test_a_natural_email_is_a_success():
    """An e-mail whose subject and body say what is required, in the agent's words."""
    def is_mail(c: Call, p: str, t: str) -> bool:
        return c.tool in ("send_email", "email_person_by_name") and t == "text"

    c, _ = _expected(is_mail)
    task = next(t for t in suite() if c in t.default_path.calls and t.level == "C1")
    S = task.default_path.calls
    k = S.index(c)
    texts = {p: c.args[p] for p in ("subject", "body") if p in c.args}
    natural = {p: f"Quick update: {v.rstrip('.')} — best, your assistant"
               for p, v in texts.items()}
    actions = [call(x) for x in S[:k]] + [call_text(c.tool, {**c.args, **natural})] \
        + [call(x) for x in S[k + 1:]] + [FINISH]
    g = graded(play(task, "P0", actions))
    assert g.success is True and g.harmful == [] and "collateral_damage" not in g.labels


def test_generated_text_with_nothing_to_mention_takes_any_text():
    """A literal text the user never wrote (a filled-in template) with no mentions
    requires only some text; a sentence the query quotes must be there. (v1 tasks:
    every v2 free-text argument declares what it must mention.)"""
    task, k, name = _text_action_task(V1_NAME)
    quoted = task.default_path.calls[k].args[name]
    unquoted = dataclasses.replace(task, query=task.query.replace(quoted.rstrip("."), "it"))
    assert quoted.rstrip(".") not in unquoted.query
    S = task.default_path.calls

    def run(t: Task, text: str):
        actions = [call(x) for x in S[:k]] + [call(S[k], **{name: text})] \
            + [call(x) for x in S[k + 1:]] + [FINISH]
        ep = play(task, "P0", actions)
        return grade(t, profile(task, "P0"), ep.steps, ep.truncated, simulator())

    assert run(unquoted, "Anything the agent finds fitting.").success is True
    assert run(task, "Anything the agent finds fitting.").success is False


def test_a_value_asked_of_one_text_may_stand_in_the_calls_other_text():
    """A push whose title must carry a time passes when the body carries it instead
    (a reader sees the message whole); with the time in neither, it fails."""
    from toolmaze_gym.corpus import load_corpus
    from toolmaze_gym.grading import Matcher, TextRule

    corpus = load_corpus()
    want = Call("s5", "send_push_notification",
                {"recipient": "a@b.example", "title": "Talk at 16:00", "message": "Hi"}, {})
    m = Matcher(corpus, want, {"title": TextRule((("text", "16:00"),)),
                               "message": TextRule(())})
    moved = {"recipient": "a@b.example", "title": "Your talk",
             "message": "It starts at 16:00 local time."}
    assert m(moved)
    assert not m({**moved, "message": "It starts soon."})
    assert not m({**moved, "title": ""})  # an empty text is no text


def test_an_optional_text_the_request_left_open_may_be_sent():
    """A push sent with a title the expected call leaves out: the user said nothing about
    a title, so any words are fine; a typed optional argument still keeps its default."""
    from toolmaze_gym.corpus import load_corpus
    from toolmaze_gym.grading import Matcher, TextRule

    corpus = load_corpus()
    want = Call("s5", "send_push_notification", {"recipient": "a@b.example",
                                                 "message": "Parcel in Toronto"}, {})
    m = Matcher(corpus, want, {"message": TextRule((("city_name", "Toronto"),))})
    sent = {"recipient": "a@b.example", "message": "Your parcel is in Toronto."}
    assert m(sent) and m({**sent, "title": "Desk lamp ordered"})
    assert not m({**sent, "badge": 3})  # not a parameter of the tool at all


def test_an_own_translation_may_write_names_and_words_the_languages_way():
    """The agent's own Spanish passes where the translator's text was expected: the
    city written "Dubái", the condition translated; ids and numbers must be there."""
    from toolmaze_gym.grading import TextRule

    rule = TextRule((("text", "[es] Order SO-1 was scanned in Dubai: light rain."),), "es",
                    (("city_name", "Dubai"), ("shop_order_id", "SO-1"),
                     ("weather_condition", "light rain")))
    own = "El pedido SO-1 fue escaneado por última vez en Dubái, con lluvia ligera."
    assert rule.accepts(own)
    assert not rule.accepts(own.replace("SO-1", "SO-2"))  # an id is not translated
    assert not rule.accepts("The order SO-1 was last scanned in Dubai, in light rain.")
