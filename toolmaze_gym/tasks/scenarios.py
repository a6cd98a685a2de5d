"""The scenario library: hand-written user goals, kept as TOML data.

A scenario is a goal a person has, the parameters it is about (drawn from the
world), its steps as capability calls with arguments bound at field level, and
several goal-level phrasings. ``docs/scenarios.md`` documents the format; this
module parses it and reports every problem with file, scenario and field, so
authors can fix a whole file in one pass (``toolmaze scenarios check FILE``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from toolmaze_gym import values
from toolmaze_gym.corpus import Corpus, load_corpus
from toolmaze_gym.corpus.spec import DOMAINS
from toolmaze_gym.tasks.account_currency import account_currency_problems
from toolmaze_gym.tasks.action_content import empty_action_problems, unasked_optional_problems
from toolmaze_gym.tasks.action_cues import action_problems
from toolmaze_gym.tasks.aggregates import aggregate_problems
from toolmaze_gym.tasks.asked_ids import asked_id_problems
from toolmaze_gym.tasks.asks import asks_problems, holes, parse_answer, parse_asks, parse_cues
from toolmaze_gym.tasks.budget_fit import budget_fit_problems
from toolmaze_gym.tasks.capabilities import capabilities, key_types, role_types
from toolmaze_gym.tasks.check_then_act import check_then_act_problems
from toolmaze_gym.tasks.conventions import convention_problems, idle_steps
from toolmaze_gym.tasks.derived import DERIVATIONS as _DERIVERS
from toolmaze_gym.tasks.derived import DerivationError, derive
from toolmaze_gym.tasks.dividend_payers import dividend_problems
from toolmaze_gym.tasks.errands import errand_problems
from toolmaze_gym.tasks.graded_figures import ungraded_figure_problems
from toolmaze_gym.tasks.judgement_words import judgement_problems
from toolmaze_gym.tasks.model import LEVELS
from toolmaze_gym.tasks.name_stops import name_stop_problems
from toolmaze_gym.tasks.placement import placement_problems
from toolmaze_gym.tasks.plurals import count_problems
from toolmaze_gym.tasks.premises import Premise, check_premises, parse_premises
from toolmaze_gym.tasks.questions import question_problems
from toolmaze_gym.tasks.rebill_vat import rebill_problems
from toolmaze_gym.tasks.repeats import same_scenarios
from toolmaze_gym.tasks.request_words import phrasing_words
from toolmaze_gym.tasks.roles import role_problems
from toolmaze_gym.tasks.room_party import room_party_problems
from toolmaze_gym.tasks.scoped_words import scoped_problems
from toolmaze_gym.tasks.share_requests import share_request_problems
from toolmaze_gym.tasks.ship_to_words import ship_to_problems
from toolmaze_gym.tasks.site_readings import site_reading_problems
from toolmaze_gym.tasks.stated_scope import scope_problems
from toolmaze_gym.tasks.tariff_words import tariff_problems

_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_FIELD = re.compile(r"^([a-z][a-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)$")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
MIN_PHRASINGS = 2
_SCENARIO_KEYS = {"id", "goal", "levels", "params", "steps", "phrasings", "domain", "cues",
                  "premises", "answer", "themes", "readings"}
_PARAM_KEYS = {"type", "choices", "value", "range", "differs_from", "from", "state", "workday"}
# Record states a param may be drawn in (``state = "delivered"``): type -> state -> the
# world's records in that state (``ScenarioGenerator._draw``).
RECORD_STATES = {"shop_order_id": {"delivered": lambda w: sorted(w.commerce.delivered_orders)},
                 "flight_booking_ref": {"flown": lambda w: _flown_bookings(w)},
                 "itinerary_id": {"flown": lambda w: _flown_itineraries(w),
                                  "by_rail": lambda w: _rail_itineraries(w)}}
# A record drawn with no state given is drawn in this one: a trip a task names flies a
# route its carrier flies (the world's bookings are older than that rule).
DEFAULT_STATES = {"flight_booking_ref": "flown", "itinerary_id": "flown"}


def _flown_bookings(world: Any) -> list[str]:
    """Booked flights on a route their carrier flies (``coherence.flight_carriers``):
    the world's bookings are older than that rule and many are not."""
    from toolmaze_gym.tasks.coherence import carrier_problem
    travel = world.travel
    return sorted(ref for ref, b in travel.bookings.items()
                  if carrier_problem(travel.flight(b.flight_id), world) is None)


def _flown_itineraries(world: Any) -> list[str]:
    """Itineraries whose every booking is a flown one (``_flown_bookings``)."""
    flown = set(_flown_bookings(world))
    return sorted(i for i, it in world.travel.itineraries.items() if set(it.items) <= flown)


def _rail_itineraries(world: Any) -> list[str]:
    """Flown itineraries whose flight leaves from a city with a station: a train filed
    on one takes its traveller to the flight (``derived._itinerary_station``)."""
    out = []
    for i in _flown_itineraries(world):
        try:
            derive("rail_station", "itinerary_id", i, world)
        except DerivationError:
            continue
        out.append(i)
    return out


# Params derived from another (param type, source type) -> how (``derived.py``).
DERIVATIONS = {k: how for k, (how, _) in _DERIVERS.items()}
_STEP_KEYS = {"id", "use", "args"}
_DATED = {"iso_date", "iso_datetime"}  # param types a `workday` flag applies to


class ScenarioError(Exception):
    """A scenario file has problems; ``problems`` lists every one."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class ParamSpec:
    """A literal the query states: its type and how its value is drawn."""

    name: str
    type: str
    choices: tuple[Any, ...] = ()
    value: Any = None
    range: tuple[float, float] | None = None
    differs_from: tuple[str, ...] = ()  # "$param" or "step.key" it must not equal
    derived_from: str = ""  # another param this one is computed from (DERIVATIONS)
    state: str = ""  # the record is drawn among those in this state (RECORD_STATES)
    workday: bool = False  # a date drawn on a weekday only: people meet in office hours

    def derive(self, source: Any, world: Any = None, source_type: str = "iso_datetime") -> Any:
        """This param's value from its source param's (the date of a date-time, the
        product of an order, the customer of an invoice: ``derived.py``)."""
        return derive(self.type, source_type, source, world)


@dataclass(frozen=True)
class ArgSpec:
    """One argument of a step: a parameter, an earlier step's field, or free text."""

    role: str  # the capability's canonical argument name
    kind: str  # "param" | "field" | "text"
    ref: str = ""  # param name, or "step.key"
    text: str = ""  # template with {param} / {step.key} placeholders
    mention: tuple[str, ...] = ()  # the text's asks: refs it must mention (tasks.asks)

    @property
    def step(self) -> str:
        return self.ref.split(".", 1)[0] if self.kind == "field" else ""

    @property
    def holes(self) -> tuple[str, ...]:
        """Every placeholder of a text's template: what the reference run fills in
        (and so reads), a superset of the asks that are graded."""
        return holes(self.text) if self.kind == "text" else ()

    @property
    def key(self) -> str:
        return self.ref.split(".", 1)[1] if self.kind == "field" else ""


@dataclass(frozen=True)
class StepSpec:
    id: str
    use: str  # a behaviour (``finance.quote``) or an alternative group id
    args: tuple[ArgSpec, ...]

    def upstream(self) -> list[str]:
        """Steps whose results this step reads, by argument or through its text."""
        out = {a.step for a in self.args if a.kind == "field"}
        for a in self.args:
            out |= {r.split(".", 1)[0] for r in a.holes if "." in r}
        return sorted(out)


@dataclass(frozen=True)
class Scenario:
    id: str
    domain: str
    goal: str
    params: tuple[ParamSpec, ...]
    steps: tuple[StepSpec, ...]
    phrasings: tuple[str, ...]
    levels: tuple[str, ...] = LEVELS
    file: str = ""
    # step output (or Action step id: tasks.action_cues) -> the words asking for it
    cues: tuple[tuple[str, tuple[str, ...]], ...] = ()
    premises: tuple[Premise, ...] = ()  # what the query takes for granted (premises.py)
    answer: tuple[str, ...] = ()  # step outputs the request asks to be told (tasks.asks)
    themes: tuple[str, ...] = ()  # themes its errand spans beyond what parts share (errands)
    # families whose every reading the grader accepts (tasks.conventions, readings.toml)
    readings: tuple[str, ...] = ()

    @property
    def param_by_name(self) -> dict[str, ParamSpec]:
        return {p.name: p for p in self.params}

    @property
    def step_by_id(self) -> dict[str, StepSpec]:
        return {s.id: s for s in self.steps}


# ---------------------------------------------------------------- parsing


def _placeholders(text: str) -> list[str]:
    return [m.strip() for m in _PLACEHOLDER.findall(text)]


def phrase_hole(hole: str) -> tuple[str, tuple[str, str] | None]:
    """A phrasing placeholder's param and, for ``{name:true word/false word}``, the
    words a boolean is said with (``{heating:on/off}``, ``{locked:locked/unlocked}``)."""
    name, sep, words = hole.partition(":")
    if not sep:
        return name.strip(), None
    yes, _, no = words.partition("/")
    return name.strip(), (yes.strip(), no.strip())


def _parse_arg(role: str, raw: Any, where: str, problems: list[str]) -> ArgSpec | None:
    if role in _SCENARIO_KEYS - {"id"}:
        problems.append(f"{where}: `{role}` landed inside a step's args: TOML puts a key under "
                        "the last [table] header, so write a scenario's id, goal, levels and "
                        "phrasings before its [scenario.params] and [[scenario.steps]]")
        return None
    if isinstance(raw, str):
        if raw.startswith("$") and _NAME.match(raw[1:]):
            return ArgSpec(role, "param", raw[1:])
        if _FIELD.match(raw):
            return ArgSpec(role, "field", raw)
        problems.append(f"{where}: {raw!r} is neither \"$param\" nor \"step.key\"; a constant "
                        "must be a param (with `value`) so the query can state it")
        return None
    if isinstance(raw, dict) and isinstance(raw.get("text"), str):
        extra = set(raw) - {"text", "asks"}
        if extra:
            problems.append(f"{where}: unknown keys {sorted(extra)} (allowed: text, asks)")
        return ArgSpec(role, "text", text=raw["text"], mention=parse_asks(raw, where, problems))
    problems.append(f"{where}: expected \"$param\", \"step.key\" or {{ text = \"...\" }}, "
                    f"got {raw!r}")
    return None


def _parse_param(name: str, raw: Any, where: str, problems: list[str]) -> ParamSpec | None:
    if not _NAME.match(name):
        problems.append(f"{where}: param names are lower_snake_case")
    if not isinstance(raw, dict):
        problems.append(f"{where}: expected a table with at least `type`")
        return None
    extra = set(raw) - _PARAM_KEYS
    if extra:
        problems.append(f"{where}: unknown keys {sorted(extra)} (allowed: "
                        f"{', '.join(sorted(_PARAM_KEYS))})")
    type_ = raw.get("type")
    try:
        t = values.get(type_) if isinstance(type_, str) else None
    except KeyError:
        t = None
    if t is None:
        problems.append(f"{where}.type: unknown semantic type {type_!r}")
        return None
    if not (t.literal or t.stated) and "value" not in raw and "choices" not in raw:
        problems.append(f"{where}.type: {type_} is not something a user states; "
                        "take it from an earlier step, or give `choices`/`value`")
    choices = raw.get("choices", [])
    if not isinstance(choices, list) or ("choices" in raw and not choices):
        problems.append(f"{where}.choices: must be a non-empty list")
        choices = []
    rng = raw.get("range")
    if rng is not None and not (isinstance(rng, list) and len(rng) == 2
                                and all(isinstance(x, int | float) for x in rng)
                                and rng[0] <= rng[1]):
        problems.append(f"{where}.range: must be [low, high] numbers with low <= high")
        rng = None
    if sum(k in raw for k in ("choices", "value", "range", "from")) > 1:
        problems.append(f"{where}: give at most one of choices, value, range, from")
    source = raw.get("from", "")
    if not isinstance(source, str) or ("from" in raw and not _NAME.match(source)):
        problems.append(f"{where}.from: the name of another param of this scenario")
        source = ""
    differs = raw.get("differs_from", [])
    if isinstance(differs, str):
        differs = [differs]
    if not isinstance(differs, list) or not all(isinstance(d, str) for d in differs):
        problems.append(f"{where}.differs_from: a list of \"$param\" or \"step.key\"")
        differs = []
    state = raw.get("state", "")
    if "state" in raw and state not in RECORD_STATES.get(type_, {}):
        known = sorted(RECORD_STATES.get(type_, {})) or "none"
        problems.append(f"{where}.state: {state!r} is not a state a {type_} is drawn in "
                        f"(states: {known})")
        state = ""
    if state and any(k in raw for k in ("choices", "value", "range", "from")):
        problems.append(f"{where}: state draws the record; give no choices, value, range, from")
    workday = raw.get("workday", False)
    if workday is not False and (workday is not True or type_ not in _DATED):
        problems.append(f"{where}.workday: true, for a date or date-time param only")
        workday = False
    return ParamSpec(name, type_, tuple(choices), raw.get("value"),
                     tuple(rng) if rng else None, tuple(differs), source, state, workday)


def _parse_step(raw: Any, where: str, problems: list[str]) -> StepSpec | None:
    if not isinstance(raw, dict):
        problems.append(f"{where}: expected a table")
        return None
    extra = set(raw) - _STEP_KEYS
    if extra:
        problems.append(f"{where}: unknown keys {sorted(extra)} (allowed: id, use, args)")
    sid, use, args = raw.get("id"), raw.get("use"), raw.get("args", {})
    if not isinstance(sid, str) or not _NAME.match(sid):
        problems.append(f"{where}.id: a lower_snake_case step id is required")
        sid = "?"
    where = f"{where.rsplit('.', 1)[0]}.{sid}"
    if not isinstance(use, str) or not use:
        problems.append(f"{where}.use: a capability (behaviour or group id) is required")
        use = ""
    if not isinstance(args, dict):
        problems.append(f"{where}.args: expected a table of canonical argument -> source")
        args = {}
    parsed = [_parse_arg(role, v, f"{where}.args.{role}", problems) for role, v in args.items()]
    return StepSpec(sid, use, tuple(a for a in parsed if a is not None))


def _parse_scenario(raw: Any, file_domain: str, where: str,
                    problems: list[str]) -> Scenario | None:
    if not isinstance(raw, dict):
        problems.append(f"{where}: expected a table")
        return None
    sid = raw.get("id")
    if not isinstance(sid, str) or not _ID.match(sid):
        problems.append(f"{where}.id: a lower-case, hyphenated id is required (got {sid!r})")
        sid = where
    where = f"{where.split(':', 1)[0]}: {sid}"
    extra = set(raw) - _SCENARIO_KEYS
    if extra:
        problems.append(f"{where}: unknown keys {sorted(extra)} (allowed: "
                        f"{', '.join(sorted(_SCENARIO_KEYS))})")
    goal = raw.get("goal")
    if not isinstance(goal, str) or len(goal.split()) < 4:
        problems.append(f"{where}.goal: state the person's goal in a sentence")
        goal = ""
    domain = raw.get("domain", file_domain)
    if domain not in DOMAINS:
        problems.append(f"{where}.domain: {domain!r} is not one of {', '.join(DOMAINS)}")
    levels = raw.get("levels", list(LEVELS))
    if not isinstance(levels, list) or not levels or any(lv not in LEVELS for lv in levels):
        problems.append(f"{where}.levels: a non-empty list drawn from {', '.join(LEVELS)}")
        levels = list(LEVELS)
    params_raw = raw.get("params", {})
    if not isinstance(params_raw, dict):
        problems.append(f"{where}.params: expected a table of name -> {{ type = ... }}")
        params_raw = {}
    params = [_parse_param(n, v, f"{where}.params.{n}", problems)
              for n, v in params_raw.items()]
    steps_raw = raw.get("steps", [])
    if not isinstance(steps_raw, list) or not steps_raw:
        problems.append(f"{where}.steps: at least one [[scenario.steps]] is required")
        steps_raw = []
    steps = [_parse_step(s, f"{where}.steps.{k}", problems) for k, s in enumerate(steps_raw)]
    phrasings = raw.get("phrasings", [])
    if (not isinstance(phrasings, list) or len(phrasings) < MIN_PHRASINGS
            or not all(isinstance(p, str) and p.strip() for p in phrasings)):
        problems.append(f"{where}.phrasings: at least {MIN_PHRASINGS} non-empty strings")
        phrasings = [p for p in phrasings if isinstance(p, str)] if isinstance(
            phrasings, list) else []
    premises = parse_premises(raw.get("premises"), f"{where}.premises", problems)
    return Scenario(sid, domain, goal, tuple(p for p in params if p is not None),
                    tuple(s for s in steps if s is not None), tuple(phrasings), tuple(levels),
                    cues=parse_cues(raw.get("cues"), where, problems), premises=premises,
                    answer=parse_answer(raw.get("answer"), where, problems),
                    themes=_parse_themes(raw.get("themes"), where, problems),
                    readings=_parse_readings(raw.get("readings", []), where, problems))


def _parse_themes(raw: Any, where: str, problems: list[str]) -> tuple[str, ...]:
    """A scenario's ``themes``: a list of theme names (tasks.errands)."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(t, str) and t for t in raw):
        problems.append(f'{where}.themes: expected a list of theme names ["trip", ...]')
        return ()
    return tuple(raw)


def _parse_readings(raw: Any, where: str, problems: list[str]) -> tuple[str, ...]:
    """A scenario's ``readings``: the families of readings.toml it leaves open because
    the grader accepts each of their readings (``tasks.conventions``)."""
    if not isinstance(raw, list) or not all(isinstance(r, str) and r for r in raw):
        problems.append(f"{where}.readings: a list of family names of data/cues/readings.toml")
        return ()
    return tuple(raw)


# ---------------------------------------------------------------- meaning checks


def _check_refs(sc: Scenario, where: str, problems: list[str]) -> None:
    params = sc.param_by_name
    seen: set[str] = set()
    used_params: set[str] = set()
    for step in sc.steps:
        w = f"{where}.steps.{step.id}"
        if step.id in seen:
            problems.append(f"{w}.id: duplicate step id")
        for a in step.args:
            refs = [a.ref] if a.kind != "text" else list(a.holes)
            for ref in refs:
                name = ref
                if "." in name:
                    up = name.split(".", 1)[0]
                    if up not in seen:
                        problems.append(f"{w}.args.{a.role}: {ref!r} names step {up!r}, "
                                        "which is not an earlier step")
                elif name in params:
                    used_params.add(name)
                else:
                    problems.append(f"{w}.args.{a.role}: unknown param {name!r}")
        seen.add(step.id)
    for p in sc.params:
        if p.name not in used_params:
            problems.append(f"{where}.params.{p.name}: never used by a step")
        if p.derived_from:
            _check_derived(p, params, f"{where}.params.{p.name}.from", problems)
        for d in p.differs_from:
            ok = (d.startswith("$") and d[1:] in params) or (
                _FIELD.match(d) and d.split(".", 1)[0] in seen)
            if not ok:
                problems.append(f"{where}.params.{p.name}.differs_from: {d!r} is not "
                                "\"$param\" or \"step.key\" of this scenario")
    _check_graph(sc, where, problems)


def _check_derived(p: ParamSpec, params: dict[str, ParamSpec], where: str,
                   problems: list[str]) -> None:
    src = params.get(p.derived_from)
    if src is None or src.derived_from:
        problems.append(f"{where}: {p.derived_from!r} is not a drawn param of this scenario")
    elif (p.type, src.type) not in DERIVATIONS:
        ok = ", ".join(f"{a} from {b}" for a, b in DERIVATIONS)
        problems.append(f"{where}: cannot derive {p.type} from {src.type} ({ok})")


def _check_graph(sc: Scenario, where: str, problems: list[str]) -> None:
    """One goal: every step must lead to the last one (nothing dangling)."""
    if not sc.steps:
        return
    readers: dict[str, set[str]] = {s.id: set() for s in sc.steps}
    for s in sc.steps:
        for u in s.upstream():
            readers.setdefault(u, set()).add(s.id)
    last = sc.steps[-1].id
    for s in sc.steps[:-1]:
        if not readers.get(s.id):
            problems.append(f"{where}.steps.{s.id}: nothing reads its result; every step "
                            f"must feed a later one (the last step is {last!r})")


def _check_phrasings(sc: Scenario, corpus: Corpus, where: str, problems: list[str]) -> None:
    params = sc.param_by_name
    stated = {a.ref for s in sc.steps for a in s.args if a.kind == "param"}
    # A template's params are stated too (the reference text names them); the asks
    # among them are proved by tasks.asks, which says which text asks for them.
    stated |= {m for s in sc.steps for a in s.args if a.kind == "text"
               for m in a.holes if "." not in m and m not in a.mention}
    tool_names = [t for t in corpus.tools if "_" in t]
    for k, text in enumerate(sc.phrasings):
        w = f"{where}.phrasings[{k}]"
        parsed = [phrase_hole(h) for h in _placeholders(text)]
        holes = {name for name, _ in parsed}
        for name, words in parsed:
            if words is None or name not in params:
                continue
            if params[name].type != "boolean" or not all(words):
                problems.append(f"{w}: {{{name}:...}} gives the words a boolean is said with "
                                "(`{name:on/off}`), and only a boolean param takes them")
        for h in sorted(holes - set(params)):
            problems.append(f"{w}: {{{h}}} is not a param (phrasings state params only; "
                            "what tools return is for the agent to find out)")
        for name in sorted(stated - holes):
            problems.append(f"{w}: does not state {{{name}}}, which a step needs")
        low = text.lower()
        for t in tool_names:
            if re.search(rf"\b{re.escape(t)}\b", low):
                problems.append(f"{w}: names the tool {t!r}")
        problems += [f"{w}: {p}" for p in phrasing_words(text)]


def _check_bindings(sc: Scenario, corpus: Corpus, where: str, problems: list[str]) -> None:
    caps = capabilities(corpus)
    params = sc.param_by_name
    steps = sc.step_by_id
    for step in sc.steps:
        w = f"{where}.steps.{step.id}"
        cap = caps.get(step.use)
        if cap is None:
            problems.append(f"{w}.use: unknown capability {step.use!r} (see `toolmaze "
                            "scenarios capabilities`)")
            continue
        roles = role_types(corpus, cap)
        for a in step.args:
            if a.role not in roles:
                problems.append(f"{w}.args.{a.role}: {step.use} has no argument {a.role!r} "
                                f"(it takes {', '.join(sorted(roles))})")
                continue
            types = roles[a.role]
            if a.kind == "param" and a.ref in params and params[a.ref].type not in types:
                problems.append(f"{w}.args.{a.role}: param {a.ref!r} is "
                                f"{params[a.ref].type}, the argument takes "
                                f"{' or '.join(sorted(types))}")
            if a.kind == "param" and a.ref in params:
                problems += _enum_problems(corpus, cap, a.role, params[a.ref],
                                           f"{where}.params.{a.ref}")
            if a.kind == "text" and "text" not in types:
                problems.append(f"{w}.args.{a.role}: free text only fits a text argument "
                                f"(this one takes {' or '.join(sorted(types))})")
            if a.kind == "field" and a.step in steps:
                up = caps.get(steps[a.step].use)
                if up is not None:
                    keys = key_types(corpus, up)
                    if a.key not in keys:
                        problems.append(f"{w}.args.{a.role}: {steps[a.step].use} returns no "
                                        f"{a.key!r} (keys: {', '.join(sorted(keys))})")
                    elif not types & set(keys[a.key]):
                        problems.append(f"{w}.args.{a.role}: {a.ref} is "
                                        f"{'/'.join(keys[a.key])}, the argument takes "
                                        f"{' or '.join(sorted(types))}")
        for a in step.args:
            for m in a.holes:
                if "." in m and m.split(".", 1)[0] in steps:
                    up = caps.get(steps[m.split(".", 1)[0]].use)
                    if up is not None and m.split(".", 1)[1] not in key_types(corpus, up):
                        problems.append(f"{w}.args.{a.role}: mentions {m!r}, which "
                                        f"{up.name} does not return")
    if sc.steps:
        last = caps.get(sc.steps[-1].use)
        if last is not None and not all(corpus[side[-1]].category == "Action"
                                        for side in last.sides):
            problems.append(f"{where}.steps.{sc.steps[-1].id}: the last step must be an "
                            "Action (send, book, pay, post, set ...)")


# Value types a final answer cannot be checked for in the agent's own words.
UNANSWERABLE = {
    "boolean": "a yes or a no is said in too many ways: ask for the fact behind it",
    "text": "a text would have to be quoted: ask for the value it renders",
}


def _check_answer(sc: Scenario, corpus: Corpus, where: str, problems: list[str]) -> None:
    """Each answer ref names a step of the scenario and a key its capability returns
    (as a text's ``{step.key}`` is checked), so the grader never looks for a value no
    response carries."""
    caps = capabilities(corpus)
    steps = sc.step_by_id
    for ref in sc.answer:
        sid, key = ref.split(".", 1)
        if sid not in steps:
            problems.append(f"{where}.answer: {ref!r} names step {sid!r}, which is not a step "
                            f"of this scenario (steps: {', '.join(steps)})")
            continue
        cap = caps.get(steps[sid].use)
        if cap is None:
            continue
        keys = key_types(corpus, cap)
        if key not in keys:
            problems.append(f"{where}.answer: {ref!r}: {cap.name} returns no {key!r} "
                            f"(keys: {', '.join(sorted(keys))})")
        elif keys[key][0] in UNANSWERABLE:
            t = keys[key][0]
            problems.append(f"{where}.answer: {ref!r} is a {t}: a final answer cannot be "
                            f"graded on it in any words ({UNANSWERABLE[t]})")


def _enum_problems(corpus: Corpus, cap, role: str, p: ParamSpec, where: str) -> list[str]:
    """Values a param can take that a tool's closed set refuses (a 422 at run time)."""
    enums = {v for t in sorted(cap.tools) for q in corpus[t].params
             if q.canonical == role and q.enum for v in q.enum}
    if not enums:
        return []
    drawn = list(p.choices) or ([p.value] if p.value is not None else [])
    if not drawn:
        return [f"{where}: {role} takes one of {sorted(enums)}; give `choices` or `value`"]
    return [f"{where}: {v!r} is not accepted for {role} (one of {sorted(enums)})"
            for v in drawn if v not in enums]


def _premise_keys(corpus: Corpus, cap: Any) -> set[str]:
    """Keys a premise may read of a step: what its final tools hand on, and what any
    call of a composite side returns (a flight's arrival from the search before the
    booking; ``premises.draw_lookup`` reads the last call that gives the key)."""
    return set(key_types(corpus, cap)) | {f.canonical for side in cap.sides for t in side
                                           for f in corpus[t].returns}


# Capabilities that place an order, and those that price a delivery to a city: an
# order a scenario prices for a city (shipping there, that city's tax) ships there.
ORDER_USES = ("shop.place_order", "shop.checkout", "shop.order_by_sku")
PRICED_AT = ("shop.shipping_rate", "shop.tax")


def _check_ship_to(sc: Scenario, where: str, problems: list[str]) -> None:
    """An order whose shipping or tax the scenario works out for a city is sent there
    (``ship_to_city``): toolmaze-v4's orders had no ship-to, so "delivery to London"
    (c4-0031), a gift to a friend abroad or a purchase for a trip went to the buyer's
    own city, beside a shipping quote and tax for another."""
    cities = {(a.kind, a.ref) for st in sc.steps if st.use in PRICED_AT
              for a in st.args if a.role == "city"}
    for st in sc.steps:
        if st.use not in ORDER_USES or not cities:
            continue
        ship = next(((a.kind, a.ref) for a in st.args if a.role == "ship_to_city"), None)
        if ship not in cities:
            problems.append(f"{where}.steps.{st.id}: the order goes to no city, or another "
                            f"than the one its shipping or tax is worked out for "
                            f"({', '.join(sorted(r for _, r in cities))}): bind "
                            "ship_to_city to it")


def check_scenario(sc: Scenario, corpus: Corpus) -> list[str]:
    """Problems with one parsed scenario against the corpus (empty: fine)."""
    where = f"{sc.file}: {sc.id}"
    problems: list[str] = []
    _check_refs(sc, where, problems)
    _check_phrasings(sc, corpus, where, problems)
    _check_bindings(sc, corpus, where, problems)
    _check_answer(sc, corpus, where, problems)
    _check_ship_to(sc, where, problems)
    problems += asks_problems(sc) + question_problems(sc) + account_currency_problems(sc)
    problems += scope_problems(sc, corpus)
    problems += action_problems(sc, corpus)
    problems += empty_action_problems(sc, corpus)
    problems += unasked_optional_problems(sc, corpus)
    problems += placement_problems(sc, corpus)
    problems += errand_problems(sc, corpus) + role_problems(sc)
    problems += convention_problems(sc, corpus) + idle_steps(sc, corpus)
    problems += aggregate_problems(sc) + ship_to_problems(sc)
    problems += check_then_act_problems(sc) + budget_fit_problems(sc)
    problems += share_request_problems(sc, corpus) + site_reading_problems(sc)
    problems += judgement_problems(sc) + rebill_problems(sc, corpus) + name_stop_problems(sc)
    problems += ungraded_figure_problems(sc) + room_party_problems(sc)
    problems += asked_id_problems(sc) + scoped_problems(sc)
    problems += dividend_problems(sc) + tariff_problems(sc) + count_problems(sc)
    caps = capabilities(corpus)
    keys = {s.id: (_premise_keys(corpus, caps[s.use]) if s.use in caps else None)
            for s in sc.steps}
    problems += check_premises(sc.premises, {p.name: p.type for p in sc.params}, keys,
                               f"{where}.premises")
    return problems


# ---------------------------------------------------------------- files


def parse_file(path: Path | str, text: str | None = None) -> tuple[list[Scenario], list[str]]:
    """Scenarios of one TOML file and every problem found while parsing it."""
    path = Path(path)
    name = path.name
    try:
        data = tomllib.loads(text if text is not None else path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        return [], [f"{name}: cannot read ({exc})"]
    except tomllib.TOMLDecodeError as exc:
        return [], [f"{name}: not valid TOML ({exc})"]
    problems: list[str] = []
    extra = set(data) - {"domain", "scenario"}
    if extra:
        problems.append(f"{name}: unknown top-level keys {sorted(extra)} "
                        "(allowed: domain, scenario)")
    domain = data.get("domain", "")
    if domain not in DOMAINS:
        problems.append(f"{name}: domain = {domain!r} must be one of {', '.join(DOMAINS)}")
    raw = data.get("scenario", [])
    if not isinstance(raw, list) or not raw:
        problems.append(f"{name}: no [[scenario]] tables")
        raw = []
    out = []
    for k, r in enumerate(raw):
        sc = _parse_scenario(r, domain, f"{name}: scenario[{k}]", problems)
        if sc is not None:
            out.append(Scenario(**{**sc.__dict__, "file": name}))
    return out, problems


def check_files(paths: Iterable[Path | str], corpus: Corpus | None = None,
                ) -> tuple[list[Scenario], list[str]]:
    """Parse and check files; ids must be unique across all of them."""
    corpus = corpus or load_corpus()
    scenarios: list[Scenario] = []
    problems: list[str] = []
    for p in paths:
        got, found = parse_file(p)
        problems += found
        for sc in got:
            problems += check_scenario(sc, corpus)
        scenarios += got
    seen: dict[str, str] = {}
    for sc in scenarios:
        if sc.id in seen:
            problems.append(f"{sc.file}: {sc.id}: id also used in {seen[sc.id]}")
        seen.setdefault(sc.id, sc.file)
    problems += [f"{a}: the same steps, bound the same way, as {b}: one request written "
                 "twice (merge their phrasings into one scenario)"
                 for a, b in same_scenarios(scenarios)]
    return scenarios, problems + _translator_problems(scenarios, corpus)


def _translator_problems(scenarios: list[Scenario], corpus: Corpus) -> list[str]:
    """The translators' promises (``tasks.translators``): what a scenario routes
    through them comes back in the language asked and can be graded there."""
    from toolmaze_gym.tasks import translators  # it reads scenarios: import late

    return [*translators.library_problems(scenarios), *translators.routed_problems(scenarios),
            *translators.template_problems(scenarios), *translators.doc_problems(corpus)]


def library_files() -> list[Path]:
    base = resources.files("toolmaze_gym") / "data" / "scenarios"
    if not base.is_dir():
        return []
    return sorted(Path(str(p)) for p in base.iterdir() if p.name.endswith(".toml"))


@cache
def load_library() -> tuple[Scenario, ...]:
    """Every shipped scenario, checked; raises ScenarioError listing all problems if any.
    What builds tasks from the library asks this."""
    scenarios, problems = check_files(library_files())
    if problems:
        raise ScenarioError(problems)
    return tuple(scenarios)


@cache
def read_library() -> tuple[Scenario, ...]:
    """Every shipped scenario as parsed, unchecked: what reads a built task's scenario
    (the grader's asks) needs its words, not the library's checks again. Checking
    the whole library (``check_files``: every phrasing, every translator's promise)
    took 3.4 s of every process that graded an episode, 30 % of ``toolmaze grade``
    on 2,000 records; the builder, ``toolmaze scenarios check`` and the tests check it.
    A file that does not parse still raises ScenarioError."""
    scenarios: list[Scenario] = []
    problems: list[str] = []
    for path in library_files():
        got, found = parse_file(path)
        scenarios += got
        problems += found
    if problems:
        raise ScenarioError(problems)
    return tuple(scenarios)
