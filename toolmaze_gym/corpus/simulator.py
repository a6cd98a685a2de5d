"""The tool simulator: validate arguments, run the behaviour, shape the response.

``call`` never raises for anything an agent can send: bad arguments come back as
the 400/422 bodies a real API returns, naming the field, and a behaviour that
raises anyway (a simulator bug) is logged and answered with a 500 body naming the
tool, as a crashed handler would be.

Text that is not valid Unicode is refused, not repaired: a parameter name or value
holding a lone surrogate (JSON's ``"\\ud800"`` escape with no partner, which no UTF-8
encoder can write) gets a 422 naming the parameter, as a strict JSON API does, so
nothing the simulator echoes (ids hashed from a title, error messages, records) ever
holds one, and an agent's text is never silently changed.

Responses of pure calls are memoised for speed, keyed on a type-exact form of the
arguments (``true``, ``1`` and ``1.0`` are three keys), so what one episode sent
never changes what another gets. Only answers (status below 400) are kept: an
error is recomputed every time, so no refusal, whatever decided it, can outlive the
call that earned it (a memoised 422 for ``qty: true`` once answered another
episode's correct ``qty: 1``), and a 500 is logged on every occurrence.
The memo is bounded by what the project controls: a call whose string arguments
exceed ``MEMO_ARG_CHARS`` (agent free text) is never kept, and the memo is emptied
when its estimated size passes ``MEMO_CHARS`` characters or it holds ``MEMO_LIMIT``
entries.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import fastjsonschema

from toolmaze_gym import values
from toolmaze_gym.corpus import adapters, behaviours
from toolmaze_gym.corpus.behaviours import CallContext, ToolError
from toolmaze_gym.corpus.catalog import Corpus, edition_corpus, load_corpus
from toolmaze_gym.corpus.spec import ToolSpec, wire_form
from toolmaze_gym.corpus.state import EpisodeState, ForkedState
from toolmaze_gym.values import CheckContext
from toolmaze_gym.world import World, get_world

log = logging.getLogger(__name__)
MEMO_LIMIT = 200_000  # entries
MEMO_ARG_CHARS = 256  # calls with more argument text than this are not memoised
MEMO_CHARS = 32 << 20  # estimated characters held (keys and responses) before clearing
_MEMO_ENTRY_CHARS = 256  # per-entry overhead in the estimate (tuple, frozenset, Response)
# ``json.dumps(obj, ensure_ascii=False)`` builds an encoder per call; one, built once,
# writes the same text (a tenth of a memo-missing call went to that construction).
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
_REASONS = {400: "Bad Request", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
            410: "Gone", 422: "Unprocessable Entity", 429: "Too Many Requests",
            500: "Internal Server Error", 501: "Not Implemented", 503: "Service Unavailable",
            504: "Gateway Timeout"}


@dataclass(frozen=True)
class Response:
    """A status and a body; treat the body as read-only (responses are shared).

    The body is flat (one key per documented field); ``to_json`` is the wire form,
    where dotted field names nest.
    """

    status: int
    body: dict[str, Any]

    @property
    def ok(self) -> bool:
        return self.status < 400

    @cached_property
    def _json(self) -> str:
        return _ENCODE(wire_form(self.body))

    def to_json(self) -> str:
        return self._json


class _Tracked:
    """Episode state as a behaviour sees it, noting whether the call used it."""

    __slots__ = ("_state", "touched")

    def __init__(self, state: EpisodeState | ForkedState) -> None:
        self._state = state
        self.touched = False

    def __getattr__(self, name: str) -> Any:
        self.touched = True
        return getattr(self._state, name)


def _memo_key(name: str, arguments: Mapping[str, Any]) -> tuple[tuple, int] | None:
    """The memo key of a call and its argument text's length, or None when the call
    is not memoised (more text than ``MEMO_ARG_CHARS``, or a value of a type that has
    no exact form).

    The key is type-exact: ``True``, ``1`` and ``1.0`` compare (and hash) equal in
    Python but are different JSON, which the schema may accept for one and refuse for
    another, so keying on the raw values let one episode's ``true`` decide another's
    ``1`` — a grade that depended on what ran before in the process.
    """
    chars = sum(len(k) + (len(v) if isinstance(v, str) else 8)
                for k, v in arguments.items() if isinstance(k, str))
    if chars > MEMO_ARG_CHARS:
        return None
    try:
        return (name, _exact_arguments(arguments)), chars
    except TypeError:  # a non-string key or a nested value: not memoised
        return None


_PLAIN = frozenset({str, int, bool, type(None)})  # exact once their type is in the key


def _exact_arguments(arguments: Mapping[Any, Any]) -> frozenset:
    """A hashable form of a flat arguments object that tells apart what ``==`` does
    not: bool, int and float (``True``/``1``/``1.0``), ``0.0`` and ``-0.0``.

    Only string keys and scalar values have one; anything else raises TypeError and
    the call is not memoised. Every parameter is a scalar, so a nested value only
    ever earns a 422, and walking an agent's deep structure to key it would cost more
    (and could recurse without bound) than validating it again.
    """
    out = []
    for k, v in arguments.items():
        t = type(v)
        if type(k) is not str or (t not in _PLAIN and t is not float):
            raise TypeError("not a flat JSON object of scalars")
        out.append((k, t, repr(v) if t is float else v))
    return frozenset(out)


def _lone_surrogate(arguments: Mapping[Any, Any]) -> str | None:
    """The first parameter whose name or string value holds a lone surrogate,
    ASCII-escaped for the error body; None when all its text is valid. Only the top
    level is read: every parameter is a scalar, so a nested value is refused by the
    schema, whose message never echoes it."""
    for key, value in arguments.items():
        for text in (key, value):
            if isinstance(text, str) and not text.isascii() and not _encodes(text):
                return _escaped(key)
    return None


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _escaped(key: Any) -> str:
    return str(key).encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")


def error_response(status: int, code: str, message: str, field: str = "",
                   **extra: Any) -> Response:
    err: dict[str, Any] = {"code": status, "status": _REASONS.get(status, "Error"),
                           "type": code, "message": message}
    if field:
        err["field"] = field
    err.update(extra)
    return Response(status, {"error": err})


def crashed_response(name: str, exc: Exception,
                     logger: logging.Logger = log) -> Response:
    """The 500 a real API sends when its handler fails, for a behaviour that raised.

    Every value a schema accepts should get an answer or a 4xx naming the parameter;
    a behaviour that raises anyway is a simulator bug, and letting the exception out
    of ``call`` would take down a whole batch of envs, a vector env's worker or a
    server's session. So it is logged with its traceback (where a test or an operator
    sees it) and the agent gets the body a crashed handler returns. Never memoised:
    each occurrence is logged, and a fixed behaviour is not hidden by a stale entry.
    """
    logger.error("tool %s raised %s: %s", name, type(exc).__name__, exc, exc_info=exc)
    return error_response(500, "internal_error",
                          f"{name}: the server hit an internal error handling this request")


class _Compiled:
    """Per-tool validation and shaping, prepared once."""

    def __init__(self, spec: ToolSpec) -> None:
        self.spec = spec
        self.validate = fastjsonschema.compile(spec.parameters_schema())
        self.behaviour = behaviours.get(spec.behaviour)
        self.literal_checks = [(p.name, values.get(p.type)) for p in spec.params
                               if values.get(p.type).literal and values.get(p.type).input_check
                               and not p.enum and not p.limits.ranged]
        self.names = frozenset(p.name for p in spec.params)
        # Behaviours name fields canonically; the error body names the caller's parameter.
        self.param_of = {p.canonical: p.name for p in spec.params}
        self.inbound = [(p.name, p.canonical, adapters.ADAPTERS[p.adapt] if p.adapt else None)
                        for p in spec.params]
        self.outbound = [(f.name, f.canonical, adapters.ADAPTERS[f.adapt] if f.adapt else None)
                         for f in spec.returns]
        self.defaults = {p.name: p.default for p in spec.params
                         if not p.required and p.default is not None}


def _schema_error(exc: fastjsonschema.JsonSchemaValueException, spec: ToolSpec) -> Response:
    path = exc.name.removeprefix("data").lstrip(".")
    if exc.rule == "required":
        missing = next((p.name for p in spec.params if p.required
                        and f"{p.name}" in exc.message), path)
        return error_response(400, "missing_parameter",
                              f"missing required parameter '{missing}'", missing)
    if not path:
        return error_response(400, "invalid_request", "arguments must be a JSON object")
    return error_response(422, "invalid_parameter",
                          f"parameter '{path}' {exc.message.removeprefix(exc.name).strip()}",
                          path)


class Simulator:
    def __init__(self, corpus: Corpus | None = None, world: World | None = None) -> None:
        self.corpus = corpus or load_corpus()
        self.world = world or get_world(0)
        self._compiled: dict[str, _Compiled] = {}
        # This simulator's siblings over the same corpus and seed at other world
        # editions (``at_edition``), each built once, so their memos live on.
        self._editions: dict[int, Simulator] = {self.world.edition: self}
        # Responses of calls that never read or wrote episode state: a pure function
        # of (tool, arguments) over an immutable world, so they are computed once.
        self._memo: dict[tuple, Response] = {}
        self.memo_chars = 0  # the memo's estimated size (see MEMO_CHARS)

    def at_edition(self, edition: int) -> Simulator:
        """This simulator when its world is of ``edition``, else its sibling of the same
        seed whose world is, over the corpus as that edition documents it
        (``edition_corpus``), built once and kept: what a task is played, graded and
        shown on is its suite's edition (``toolmaze_gym.tasks.suites.edition_of``)."""
        sim = self._editions.get(edition)
        if sim is None:
            sim = Simulator(edition_corpus(self.corpus, edition),
                            get_world(self.world.seed, edition))
            sim._editions = self._editions
            self._editions[edition] = sim
        return sim

    def _prepared(self, spec: ToolSpec) -> _Compiled:
        c = self._compiled.get(spec.name)
        if c is None:
            c = self._compiled[spec.name] = _Compiled(spec)
        return c

    def call(self, name: str, arguments: Any, state: EpisodeState | ForkedState) -> Response:
        memo = _memo_key(name, arguments) if isinstance(arguments, Mapping) else None
        if memo is not None:
            hit = self._memo.get(memo[0])
            if hit is not None:
                return hit
        tracked = _Tracked(state)
        try:
            resp = self._call(name, arguments, tracked)
        except Exception as exc:  # the last line of defence, see crashed_response
            return crashed_response(name, exc)
        if memo is not None and resp.ok and not tracked.touched:
            self._remember(memo[0], memo[1], resp)
        return resp

    def _remember(self, key: tuple, chars: int, resp: Response) -> None:
        """Keep a pure call's response, emptying the memo first when it is full."""
        cost = chars + 2 * len(resp.to_json()) + _MEMO_ENTRY_CHARS
        if self.memo_chars + cost > MEMO_CHARS or len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()
            self.memo_chars = 0
        self._memo[key] = resp
        self.memo_chars += cost

    def _call(self, name: str, arguments: Any, state: Any) -> Response:
        spec = self.corpus.tools.get(name)
        if spec is None:
            return error_response(404, "unknown_tool", f"no tool named {name!r}", "name")
        c = self._prepared(spec)
        if not isinstance(arguments, Mapping):
            return error_response(400, "invalid_request", "arguments must be a JSON object")
        bad = _lone_surrogate(arguments)
        if bad is not None:
            return error_response(422, "invalid_parameter", f"parameter '{bad}' is not valid "
                                  "Unicode: it holds a lone surrogate (an unpaired \\uD800-"
                                  "\\uDFFF escape); send UTF-8 text", bad)
        if not c.names.issuperset(arguments):
            extra = sorted(set(arguments) - c.names)
            return error_response(400, "unknown_parameter",
                                  f"{name} has no parameter '{extra[0]}'", str(extra[0]))
        try:
            c.validate(arguments)
        except fastjsonschema.JsonSchemaValueException as exc:
            return _schema_error(exc, spec)
        args = {**c.defaults, **arguments} if c.defaults else arguments
        if c.literal_checks:
            ctx = CheckContext(self.world, args)
            for pname, t in c.literal_checks:
                if pname in args:
                    msg = t.violation(args[pname], ctx)
                    if msg:
                        return error_response(422, "invalid_parameter", msg, pname)
        try:
            canonical = {arg: (adapt(args[pname]) if adapt else args[pname])
                         for pname, arg, adapt in c.inbound if pname in args}
            result = c.behaviour(CallContext(self.world, state, name), **canonical)
        except ToolError as exc:
            field = exc.field if exc.field in c.names else c.param_of.get(exc.field, exc.field)
            return error_response(exc.status, exc.code, exc.message, field)
        body = {fname: (adapt(result[key]) if adapt else result[key])
                for fname, key, adapt in c.outbound}
        return Response(200, body)
