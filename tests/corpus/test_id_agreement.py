"""Generated ids agree with each other: a short link and its code, a record and its URL,
the same record seen through two tools."""

from __future__ import annotations

import pytest

from tests.corpus.test_unknown_ids import record_id_type
from toolmaze_gym.corpus import EpisodeState, load_corpus
from toolmaze_gym.corpus.sampling import valid_arguments

CORPUS = load_corpus()
# The hosted checkout page is one page per payer, amount and purpose, whichever way
# the customer is billed (an invoice, a money request or a payment link), so its URL
# names the bill, not the request or link id that led to it.
SHARED_PAGES = {"request_payment", "create_payment_link", "send_invoice"}


def _made_ids(spec):
    return [f for f in spec.returns if record_id_type(f.type) and not f.echo]


def _urls(spec):
    """URL fields the call produced (not the echo of a URL it was given)."""
    return [f for f in spec.returns if f.type == "url" and not f.echo]


def _url_pairs() -> list[str]:
    return sorted(n for n, t in CORPUS.tools.items()
                  if _made_ids(t) and _urls(t)
                  and n not in SHARED_PAGES)


def test_the_url_pairs_include_the_short_links_and_the_drive():
    assert set(_url_pairs()) >= {"create_short_link", "bitly_shorten", "create_document",
                                 "create_spreadsheet", "create_ticket", "upload_and_share",
                                 "create_calendar_event"}
    assert "post_webhook" not in _url_pairs()  # its url is the target it posted to


@pytest.mark.parametrize("tool", _url_pairs())
def test_a_url_returned_with_a_new_record_names_that_record(sim, tool):
    """The code in the URL is the record's id (or the id's token, lower-cased)."""
    spec = CORPUS[tool]
    state = EpisodeState()
    args = valid_arguments(sim, spec, state, "url")
    body = sim.call(tool, args, state).body
    assert "error" not in body, body
    # The first id a call returns is the record it made (a ticket, not its assignee).
    rid = body[_made_ids(spec)[0].name]
    token = rid.split("-", 1)[1]
    for f in _urls(spec):
        url = body[f.name]
        assert rid in url or rid.lower() in url or url.endswith("/" + token.lower()), \
            (tool, rid, url)


@pytest.mark.parametrize("tool", ["create_short_link", "bitly_shorten"])
def test_a_short_links_code_is_its_id(sim, tool):
    url_field = {"create_short_link": ("short_url", "link_id"), "bitly_shorten": ("link", "id")}
    for long_url in ("https://example.com/report", "https://docs.example.com/d/42?x=1"):
        body = sim.call(tool, {"long_url": long_url}, EpisodeState()).body
        short, lid = (body[k] for k in url_field[tool])
        assert short == "https://tmz.link/" + lid.removeprefix("LNK-").lower(), body
    a = sim.call("create_short_link", {"long_url": "https://example.com/x"}, EpisodeState())
    b = sim.call("bitly_shorten", {"long_url": "https://example.com/x"}, EpisodeState())
    assert (a.body["short_url"], a.body["link_id"]) == (b.body["link"], b.body["id"])


def _pairs() -> list[tuple[str, str, str]]:
    """(action, field, reader): an Action makes a record; another tool takes its id."""
    out = []
    for a in sorted(CORPUS.tools.values(), key=lambda t: t.name):
        if a.category != "Action":
            continue
        for f in _made_ids(a):
            for r in sorted(CORPUS.tools.values(), key=lambda t: t.name):
                if r.name != a.name and any(p.type == f.type and p.required for p in r.params):
                    out.append((a.name, f.name, r.name))
    return out


@pytest.mark.parametrize(("action", "field", "reader"), _pairs())
def test_a_record_reads_back_with_the_ids_it_was_made_with(sim, action, field, reader):
    """Every id both responses report for one record (its order's tracking number, its
    booking's flight) is the same in both."""
    state = EpisodeState()
    made = sim.call(action, valid_arguments(sim, CORPUS[action], state, "pair"), state)
    assert made.ok, made.body
    spec_a, spec_r = CORPUS[action], CORPUS[reader]
    rid_type = spec_a.output(field).type
    args = valid_arguments(sim, spec_r, state.copy(), "pair") or {}
    pname = next(p.name for p in spec_r.params if p.type == rid_type and p.required)
    read = sim.call(reader, {**args, pname: made.body[field]}, state.copy())
    if not read.ok:
        assert read.status != 404, (reader, read.body)  # 409 etc.: a state rule, not an id
        return
    mine = {f.canonical: made.body[f.name] for f in spec_a.returns
            if record_id_type(f.type) and f.name in made.body}
    # What the reader restates of its own request, or makes anew (a reply, a second
    # ticket on the same train), is not the record read back.
    new = {_made_ids(spec_r)[0].name} if spec_r.category == "Action" and _made_ids(spec_r) \
        else set()
    for f in spec_r.returns:
        if f.echo or f.name in new:
            continue
        if record_id_type(f.type) and f.canonical in mine and f.name in read.body:
            assert read.body[f.name] == mine[f.canonical], (action, reader, f.name)
