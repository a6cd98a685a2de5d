"""Secrets out of everything a run writes or prints.

A key reaches text in ways no one plans: an endpoint echoes it in an error message
(which becomes a record's ``cut_detail``), a user puts it in ``--base-url``
(``http://user:pass@host``, ``?api_key=...``, then in run.json and every record), a
model repeats it. So redaction is applied to the finished text, at the few places
text leaves the process (the record and run.json writer, printed errors, log
records), not to chosen fields, and it looks for three things:

* the *known* secret values: the configured key (the variable named by
  ``--api-key-env``) and every environment variable whose name says it holds a
  secret (``OPENAI_API_KEY``, ``HF_TOKEN``, ``AWS_SECRET_ACCESS_KEY``, ...), wherever
  they appear as substrings, raw or JSON-escaped;
* credentials in URLs: the user-info part (``user:pass@``) and query parameters with a
  credential's name (``api_key``, ``token``, ``password``, ``sig``, ...);
* the secret-looking parts of the configured endpoint URL (``--base-url``, or
  ``OPENAI_BASE_URL``): its password, query values and path segments that look like
  keys (:func:`endpoint_secrets`), since some servers take the key in the path
  (``/ok/<key>/v1``). Those become known values too. Only the endpoint's own URL is
  searched this way: URLs in the world's data (``/c/p4k2m9q7t3x8z1``) are data;
* common token shapes: OpenAI/Anthropic ``sk-...``, Hugging Face ``hf_...``, GitHub
  ``ghp_...``, AWS ``AKIA...``, Slack ``xox?-...``, Google ``AIza...``, and the value
  of ``Bearer`` / ``Authorization:`` headers.

Every pattern stops at ``"`` and ``\\``, so redacting JSON text leaves valid JSON
with the same structure; values shorter than :data:`MIN_SECRET` are never taken for
secrets (local servers are often given a dummy key such as ``none`` or ``EMPTY``).
A regex pass is enough here: the inputs are our own records and messages, and a
secret scanner library (built to hunt unknown secrets in repositories) would add
heavy dependencies and false positives on the benchmark's data.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlsplit

REDACTED = "[REDACTED]"
MIN_SECRET = 8  # shorter configured values are dummies, not secrets
MIN_ENV_SECRET = 12  # found by name only: be surer that it is a real credential

# Environment variables whose names say they hold a secret.
_SECRET_NAME = re.compile(r"(?i)(API_?KEY|ACCESS_?KEY|SECRET|TOKEN|PASSWORD|PASSWD|"
                          r"CREDENTIALS?|PRIVATE_?KEY|_KEY$|^KEY$)")
_TOKEN_CHARS = r"A-Za-z0-9._~+/=-"
# A URL part looks like a key when it holds a run of letters and digits, mixed, at
# least this long (model names, versions and deployments are short dashed words:
# Meta-Llama-3-8B-Instruct, gpt-4o-mini-2024-07-18), or is a UUID.
MIN_URL_SECRET = 12
_ALNUM_RUN = re.compile(r"[A-Za-z0-9]+")
_UUID = re.compile(r"[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}")
_ENDPOINT_ENV = ("OPENAI_BASE_URL",)  # where a policy finds its URL when none is given


@dataclass(frozen=True)
class _Rule:
    """A pattern and its replacement; ``anchors``: strings one of which any match
    contains (lower-case ones are looked for in the lower-cased text), so the regex
    runs only on text that can match (most records contain none of them)."""

    pattern: re.Pattern[str]
    replacement: str
    anchors: tuple[str, ...]


_RULES: tuple[_Rule, ...] = (
    # user-info of a URL: scheme://user:pass@host -> scheme://[REDACTED]@host
    _Rule(re.compile(r"://[^/\s\"'\\@<>]+@"), f"://{REDACTED}@", ("://",)),
    # credential-named query parameters
    _Rule(re.compile(r"(?i)([?&;](?:api[_-]?key|apikey|key|token|access[_-]?token|auth|"
                     r"password|passwd|pwd|secret|client[_-]?secret|sig|signature|"
                     r"x-amz-signature|x-amz-credential|session[_-]?token)=)[^&#\s\"'\\<>]+"),
          rf"\1{REDACTED}", ("=",)),
    # Authorization header values, any scheme
    _Rule(re.compile(rf"(?i)(authorization\"?\s*[:=]\s*\"?(?:bearer|basic|token)?\s*)"
                     rf"[{_TOKEN_CHARS}]{{6,}}"), rf"\1{REDACTED}", ("authorization",)),
    # a Bearer token outside a header: needs a digit, so "Bearer bonds" stays
    _Rule(re.compile(rf"(\bBearer\s+)(?=[{_TOKEN_CHARS}]*\d)[{_TOKEN_CHARS}]{{8,}}"),
          rf"\1{REDACTED}", ("Bearer",)),
    # token shapes; each starts with its literal prefix (a fast search) and then looks
    # behind it: the prefix must not continue a word ("task-", "desk-" are no keys)
    _Rule(re.compile(r"sk-(?<![A-Za-z0-9_-]sk-)[A-Za-z0-9_-]{16,}"), REDACTED, ("sk-",)),
    _Rule(re.compile(r"hf_(?<![A-Za-z0-9_]hf_)[A-Za-z0-9]{20,}"), REDACTED, ("hf_",)),
    _Rule(re.compile(r"gh[pousr]_(?<![A-Za-z0-9_]gh[pousr]_)[A-Za-z0-9]{20,}"), REDACTED,
          ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")),
    _Rule(re.compile(r"github_pat_(?<![A-Za-z0-9_]github_pat_)[A-Za-z0-9_]{20,}"), REDACTED,
          ("github_pat_",)),
    _Rule(re.compile(r"A[KS]IA(?<![A-Za-z0-9]A[KS]IA)[0-9A-Z]{16}(?![A-Za-z0-9])"), REDACTED,
          ("AKIA", "ASIA")),
    _Rule(re.compile(r"xox[abprs]-(?<![A-Za-z0-9]xox[abprs]-)[A-Za-z0-9-]{10,}"), REDACTED,
          ("xox",)),
    _Rule(re.compile(r"AIza(?<![A-Za-z0-9]AIza)[0-9A-Za-z_-]{35}"), REDACTED, ("AIza",)),
)


def secret_env_names(environ: Mapping[str, str] | None = None) -> list[str]:
    """Names of the environment variables that look like they hold a secret."""
    env = os.environ if environ is None else environ
    return sorted(n for n in env if _SECRET_NAME.search(n))


def named_secrets(obj: object) -> list[str]:
    """Text values held, at any depth of a JSON value, under a key whose name says it
    is a secret (``api_key``, ``token``, ``password``, ...): a provider's credentials
    in ``--extra-body`` are sent, never written."""
    if isinstance(obj, list):
        return [v for item in obj for v in named_secrets(item)]
    if not isinstance(obj, dict):
        return []
    return [v for key, value in obj.items()
            for v in ([value] if isinstance(value, str)
                      and _SECRET_NAME.search(str(key).upper()) else named_secrets(value))]


def looks_secret(part: str) -> bool:
    """Whether one part of a URL (a path segment, a query value) looks like a key."""
    return bool(_UUID.fullmatch(part)) or any(
        len(run) >= MIN_URL_SECRET and not run.isdigit() and not run.isalpha()
        for run in _ALNUM_RUN.findall(part))


def endpoint_secrets(url: str) -> list[str]:
    """The parts of an endpoint URL that may be credentials: the password (or a user
    name given alone, a token as user), query values that look like keys or sit
    under a credential's name, and path segments that look like keys."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    found = []
    if parts.password:
        found.append(unquote(parts.password))
    elif parts.username:
        found.append(unquote(parts.username))
    found += [seg for seg in map(unquote, parts.path.split("/")) if looks_secret(seg)]
    for name, value in parse_qsl(parts.query, keep_blank_values=False):
        if looks_secret(value) or _SECRET_NAME.search(name.upper()) \
                or name.lower() in ("key", "auth", "sig", "signature", "pwd"):
            found.append(value)
    return list(dict.fromkeys(v for v in found if len(v.strip()) >= MIN_SECRET))


class Redactor:
    """Replaces secrets in text; see the module docstring. ``secrets`` are known values
    (each redacted raw and in its JSON-escaped form)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        forms = set()
        for value in secrets:
            if isinstance(value, str) and len(value.strip()) >= MIN_SECRET:
                forms.add(value)
                forms.add(json.dumps(value, ensure_ascii=False)[1:-1])
                forms.add(json.dumps(value)[1:-1])
        # longest first, so a secret that contains another is replaced whole
        self._known = re.compile("|".join(map(re.escape, sorted(forms, key=len, reverse=True))))\
            if forms else None

    @classmethod
    def from_environment(cls, env_names: Iterable[str] = (),
                         environ: Mapping[str, str] | None = None,
                         urls: Iterable[str | None] = (),
                         values: Iterable[str] = ()) -> Redactor:
        """A redactor for the values of ``env_names`` (e.g. the variable named by
        ``--api-key-env``), of every variable whose name says it holds a secret
        (but not a path, such as ``GOOGLE_APPLICATION_CREDENTIALS``: records name
        files, and the path is not the secret), for the secret-looking parts of
        the endpoint ``urls`` and of ``OPENAI_BASE_URL`` (:func:`endpoint_secrets`),
        and for known secret ``values`` (:func:`named_secrets` of an option)."""
        env = os.environ if environ is None else environ
        named = [env.get(n, "") for n in env_names if n]
        found = [v for n in secret_env_names(env)
                 if len(v := env[n]) >= MIN_ENV_SECRET and not os.path.exists(v)]
        in_urls = [v for url in [*urls, *(env.get(n) for n in _ENDPOINT_ENV)]
                   if isinstance(url, str) and url for v in endpoint_secrets(url)]
        return cls([*named, *found, *in_urls, *values])

    def __call__(self, text: str) -> str:
        if self._known is not None:
            text = self._known.sub(REDACTED, text)
        lower = text.lower()
        for rule in _RULES:
            if any(a in (lower if a.islower() else text) for a in rule.anchors):
                text = rule.pattern.sub(rule.replacement, text)
        return text


def redact(text: str, env_names: Iterable[str] = ()) -> str:
    """``text`` without the secrets of the current environment (see :class:`Redactor`)."""
    return Redactor.from_environment(env_names)(text)


class RedactingFilter(logging.Filter):
    """A logging filter that redacts each record's message (arguments merged in), so
    that no handler ever sees a secret."""

    def __init__(self, redactor: Redactor | None = None) -> None:
        super().__init__()
        self.redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        redactor = self.redactor or Redactor.from_environment()
        record.msg, record.args = redactor(record.getMessage()), None
        return True

