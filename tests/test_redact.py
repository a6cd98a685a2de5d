"""Secrets never reach a file or a terminal: known secret values (the configured key,
keys in the environment) wherever they appear, credentials in URLs, and common token
shapes are replaced, and what is not a secret is left alone."""

from __future__ import annotations

import json
import logging

import pytest

from toolmaze_gym.redact import REDACTED, RedactingFilter, Redactor, redact

KEY = "my-local-server-key-42"


def test_a_known_secret_is_redacted_wherever_it_appears():
    r = Redactor([KEY])
    text = f'Error code: 401 - {{"error": "invalid key {KEY}", "hint": "x{KEY}y"}}'
    assert KEY not in r(text) and r(text).count(REDACTED) == 2


def test_a_known_secret_is_redacted_in_its_json_escaped_form_and_json_stays_valid():
    key = "pa\\ss/w\"rd-12345"
    r = Redactor([key])
    line = json.dumps({"detail": f"rejected {key}", "list": [key, {"k": key}]})
    assert json.loads(r(line)) == {"detail": f"rejected {REDACTED}",
                                   "list": [REDACTED, {"k": REDACTED}]}


def test_short_values_are_not_taken_for_secrets():
    # local servers are often given a dummy key such as "none" or "EMPTY"
    assert Redactor(["none", "EMPTY"])("none of the EMPTY slots") == "none of the EMPTY slots"


def test_keys_in_the_environment_are_redacted(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "abcdefghij0123456789")
    monkeypatch.setenv("HF_TOKEN", "qwertyuiopasdfgh1234")
    monkeypatch.setenv("MY_SERVER_KEY_VAR", "zyxwvutsrq98765")  # named by --api-key-env
    monkeypatch.setenv("HOME_DIRECTORY", "/home/someone/abc")  # not a secret's name
    r = Redactor.from_environment(["MY_SERVER_KEY_VAR"])
    text = "abcdefghij0123456789 qwertyuiopasdfgh1234 zyxwvutsrq98765 /home/someone/abc"
    assert r(text) == f"{REDACTED} {REDACTED} {REDACTED} /home/someone/abc"


@pytest.mark.parametrize("url, safe", [
    ("http://bob:hunter2@host:8000/v1", "http://[REDACTED]@host:8000/v1"),
    ("https://ghp_token1234@example.com/v1", "https://[REDACTED]@example.com/v1"),
    ("http://host/v1?api_key=abc123&model=x", "http://host/v1?api_key=[REDACTED]&model=x"),
    ("http://host/v1?model=x&access_token=abc.def", "http://host/v1?model=x&access_token="
                                                    "[REDACTED]"),
    ("http://host/v1?KEY=abc#frag", "http://host/v1?KEY=[REDACTED]#frag"),
    ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"),
])
def test_credentials_in_urls_are_redacted(url, safe):
    assert redact(f"base_url {url} failed") == f"base_url {safe} failed"


@pytest.mark.parametrize("token", [
    "sk-proj-AbCdEfGh1234567890IjKlMn",
    "sk-ant-api03-abcdefghijklmnop_qrstu",
    "hf_AbCdEfGhIjKlMnOpQrStUvWx",
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "AKIAIOSFODNN7EXAMPLE",
])
def test_common_token_shapes_are_redacted(token):
    assert redact(f"Incorrect API key provided: {token}.") == \
        f"Incorrect API key provided: {REDACTED}."


def test_bearer_and_authorization_headers_are_redacted():
    assert redact("Authorization: Bearer eyJhbGciOiJIUzI1.eyJzdWIi.SflKxw9") == \
        f"Authorization: Bearer {REDACTED}"
    assert redact("Authorization: Basic dXNlcjpwYXNzd29yZA==") == \
        f"Authorization: Basic {REDACTED}"


@pytest.mark.parametrize("text", [
    "Basic reasoning about the task", "Bearer bonds are paper", "task-one and sk-8",
    "https://example.com/docs?page=2&lang=en", "mask-shaped risk-averse desk-lamp",
    "the key=value pairs", "hf_small", "email bob@example.com",
])
def test_what_is_not_a_secret_is_left_alone(text):
    assert redact(text) == text


def test_the_logging_filter_redacts_messages_and_arguments(caplog):
    log = logging.getLogger("toolmaze_gym.test_redact")
    log.addFilter(RedactingFilter(Redactor([KEY])))
    with caplog.at_level(logging.WARNING, logger="toolmaze_gym.test_redact"):
        log.warning("endpoint said %s", f"bad key {KEY}")
        log.warning(f"raw {KEY}")
    assert KEY not in caplog.text and caplog.text.count(REDACTED) == 2
