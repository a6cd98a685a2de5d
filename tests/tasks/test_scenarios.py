"""The scenario library format: clean files load, every mistake is reported where it is."""

from __future__ import annotations

import pytest

from toolmaze_gym.cli.scenarios import main as scenarios_main
from toolmaze_gym.tasks.scenarios import (
    ScenarioError,
    check_files,
    library_files,
    load_library,
    parse_file,
    read_library,
)

GOOD = '''
domain = "Financial"

[[scenario]]
id = "fin-test-quote-mail"
goal = "Know what a share costs in my currency and get it by mail."
phrasings = [
  "What does one {symbol} share cost in {cur}? Mail it to {me}.",
  "Please price a {symbol} share in {cur} and send the figure to {me}.",
]
cues = { "convert.converted_amount" = ["cost", "price"] }
[scenario.params]
symbol = { type = "stock_symbol" }
cur = { type = "currency_code", choices = ["EUR", "GBP"], differs_from = ["quote.currency"] }
me = { type = "email" }
[[scenario.steps]]
id = "quote"
use = "finance.quote"
args = { symbol = "$symbol" }
[[scenario.steps]]
id = "convert"
use = "finance.convert"
args = { amount = "quote.price", base = "quote.currency", quote = "$cur" }
[[scenario.steps]]
id = "mail"
use = "office.mail.send"
[scenario.steps.args]
to = "$me"
subject = { text = "{symbol} price", asks = [] }
body = { text = "{symbol}: {convert.converted_amount} {cur}", asks = ["convert.converted_amount", "cur"] }
'''  # noqa: E501 (a scenario line as authors write it)


def _write(tmp_path, text, name="financial.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def _problems(tmp_path, text):
    return check_files([_write(tmp_path, text)])[1]


def test_a_clean_file_loads_with_its_bindings(tmp_path):
    scenarios, problems = check_files([_write(tmp_path, GOOD)])
    assert problems == []
    (sc,) = scenarios
    assert [s.id for s in sc.steps] == ["quote", "convert", "mail"]
    amount = next(a for a in sc.steps[1].args if a.role == "amount")
    assert (amount.kind, amount.step, amount.key) == ("field", "quote", "price")
    body = next(a for a in sc.steps[2].args if a.role == "body")
    assert body.kind == "text" and body.mention == ("convert.converted_amount", "cur")
    assert body.holes == ("symbol", "convert.converted_amount", "cur")
    assert sc.steps[2].upstream() == ["convert"]


@pytest.mark.parametrize(("old", "new", "where", "what"), [
    ('use = "finance.quote"', 'use = "finance.quotes"', "steps.quote.use",
     "unknown capability"),
    ('args = { symbol = "$symbol" }', 'args = { ticker = "$symbol" }', "args.ticker",
     "has no argument 'ticker'"),
    ('amount = "quote.price"', 'amount = "quote.volume"', "args.amount", "trade_volume"),
    ('amount = "quote.price"', 'amount = "quote.prize"', "args.amount", "returns no 'prize'"),
    ('amount = "quote.price"', 'amount = "mail.price"', "args.amount", "not an earlier step"),
    ('args = { symbol = "$symbol" }', 'args = { symbol = "AAPL" }', "args.symbol",
     "a constant must be a param"),
    ('quote = "$cur"', 'quote = "$currency"', "args.quote", "unknown param 'currency'"),
    ("Mail it to {me}.", "Mail it to me.", "phrasings[0]", "does not state {me}"),
    ("Mail it to {me}.", "Mail it to {me} with send_email.", "phrasings[0]",
     "names the tool 'send_email'"),
    ("Mail it to {me}.", "Mail {convert.converted_amount} to {me}.", "phrasings[0]",
     "is not a param"),
    ('type = "stock_symbol"', 'type = "stock_ticker"', "params.symbol.type",
     "unknown semantic type"),
    ('id = "mail"\nuse = "office.mail.send"', 'id = "mail"\nuse = "finance.fx_rate"',
     "steps.mail", "must be an Action"),
    (', asks = ["convert.converted_amount", "cur"] }', " }", "args.body",
     "must declare `asks`"),
    ('"convert.converted_amount", "cur"]', '"convert.converted_amount", "cur", "quote.price"]',
     "args.body.asks", "['quote.price'] do not appear in the text"),
])
def test_each_mistake_is_reported_with_file_scenario_and_field(tmp_path, old, new, where,
                                                               what):
    assert old in GOOD
    problems = _problems(tmp_path, GOOD.replace(old, new, 1))
    hit = [p for p in problems if where in p and what in p]
    assert hit, problems
    assert hit[0].startswith("financial.toml: fin-test-quote-mail")


def test_every_problem_of_a_file_is_reported_at_once(tmp_path):
    text = GOOD.replace('use = "finance.quote"', 'use = "nope"').replace(
        "Mail it to {me}.", "Mail it.")
    problems = _problems(tmp_path, text)
    assert any("unknown capability" in p for p in problems)
    assert any("does not state {me}" in p for p in problems)


def test_a_step_nothing_reads_is_reported(tmp_path):
    text = GOOD.replace('body = { text = "{symbol}: {convert.converted_amount} {cur}", asks = '
                        '["convert.converted_amount", "cur"] }',
                        'body = { text = "{symbol} in {cur}", asks = ["cur"] }').replace(
                        "cues = { \"convert.converted_amount\" = [\"cost\", \"price\"] }\n", "")
    problems = _problems(tmp_path, text)
    assert any("steps.convert" in p and "nothing reads its result" in p for p in problems)


def test_phrasings_written_after_the_tables_get_a_pointed_message(tmp_path):
    moved = GOOD.replace('phrasings = [\n  "What does one {symbol} share cost in {cur}? Mail it '
                         'to {me}.",\n  "Please price a {symbol} share in {cur} and send the '
                         'figure to {me}.",\n]\n', "")
    moved += 'phrasings = ["a {symbol} {cur} {me}", "b {symbol} {cur} {me}"]\n'
    problems = _problems(tmp_path, moved)
    assert any("landed inside a step's args" in p for p in problems), problems


def test_bad_toml_and_duplicate_ids_across_files(tmp_path):
    assert "not valid TOML" in parse_file(_write(tmp_path, "domain = [", "x.toml"))[1][0]
    a = _write(tmp_path, GOOD, "a.toml")
    b = _write(tmp_path, GOOD, "b.toml")
    problems = check_files([a, b])[1]
    assert any(p.startswith("b.toml: fin-test-quote-mail: id also used in a.toml")
               for p in problems)


def test_check_command_exit_codes(tmp_path, capsys):
    good = _write(tmp_path, GOOD, "good.toml")
    bad = _write(tmp_path, GOOD.replace('"finance.quote"', '"nope"'), "bad.toml")
    assert scenarios_main(["check", "--no-trial", str(good)]) == 0
    assert scenarios_main(["check", "--no-trial", str(bad)]) == 1
    assert "bad.toml: fin-test-quote-mail.steps.quote.use" in capsys.readouterr().out
    assert scenarios_main(["check", str(tmp_path / "missing.toml")]) == 2


def test_the_trial_says_which_levels_a_scenario_builds_at(tmp_path, capsys):
    # Two steps are too short for any level: clean, but not usable.
    short = GOOD.replace('[[scenario.steps]]\nid = "convert"\nuse = "finance.convert"\n'
                         'args = { amount = "quote.price", base = "quote.currency", '
                         'quote = "$cur" }\n', "")
    short = short.replace("{convert.converted_amount} {cur}", "{quote.price} (I use {cur})")
    short = short.replace('"convert.converted_amount", "cur"]', '"quote.price"]').replace(
        '"convert.converted_amount" = [', '"quote.price" = [')
    assert short != GOOD
    assert scenarios_main(["check", "--tries", "2", str(_write(tmp_path, short))]) == 1
    out = capsys.readouterr().out
    assert "fin-test-quote-mail: C1 no (s* has 2 calls (C1: 5-7))" in out
    shipped = next(p for p in library_files() if p.name == "financial.toml")
    assert scenarios_main(["check", "--tries", "2", str(shipped)]) == 0
    assert "fin-invest-price-dip-alert: C1 ok" in capsys.readouterr().out


def test_the_shipped_library_is_clean():
    assert library_files(), "no scenario files shipped"
    scenarios = load_library()
    assert len({s.id for s in scenarios}) == len(scenarios)


def test_load_library_raises_with_every_problem(monkeypatch, tmp_path):
    import toolmaze_gym.tasks.scenarios as mod

    bad = _write(tmp_path, GOOD.replace('"finance.quote"', '"nope"'))
    monkeypatch.setattr(mod, "library_files", lambda: [bad])
    mod.load_library.cache_clear()
    try:
        with pytest.raises(ScenarioError) as err:
            mod.load_library()
        assert any("unknown capability" in p for p in err.value.problems)
    finally:
        mod.load_library.cache_clear()


def test_the_grader_reads_the_library_as_the_builder_loads_it():
    """The grader reads scenarios unchecked (read_library): the same scenarios."""
    assert read_library() == load_library()


def test_read_library_takes_a_checkable_mistake_but_not_a_broken_file(monkeypatch, tmp_path):
    """Unchecked means not checked again, not unread: an unknown capability is the
    checks' business, a file that does not parse still raises."""
    import toolmaze_gym.tasks.scenarios as mod

    unknown = _write(tmp_path, GOOD.replace('"finance.quote"', '"nope"'))
    broken = tmp_path / "broken.toml"
    broken.write_text("domain = \"Financial\"\n[[scenario]\n", encoding="utf-8")
    try:
        monkeypatch.setattr(mod, "library_files", lambda: [unknown])
        mod.read_library.cache_clear()
        assert [s.id for s in mod.read_library()] == ["fin-test-quote-mail"]
        monkeypatch.setattr(mod, "library_files", lambda: [broken])
        mod.read_library.cache_clear()
        with pytest.raises(ScenarioError) as err:
            mod.read_library()
        assert any("not valid TOML" in p for p in err.value.problems)
    finally:
        mod.read_library.cache_clear()


def test_a_choice_a_tool_refuses_is_reported(tmp_path):
    text = '''
domain = "Office"
[[scenario]]
id = "off-test-ticket"
goal = "Open a ticket about a broken printer for the office team."
phrasings = ["Open a {priority} ticket: {what}.", "Please file a {priority} ticket saying {what}."]
[scenario.params]
priority = { type = "ticket_priority", choices = ["normal", "medium"] }
what = { type = "text", choices = ["The printer is jammed"] }
[[scenario.steps]]
id = "ticket"
use = "office.ticket.create"
[scenario.steps.args]
priority = "$priority"
summary = "$what"
description = { text = "{what}" }
'''
    problems = _problems(tmp_path, text)
    assert any("params.priority: 'medium' is not accepted for priority" in p for p in problems), \
        problems
    assert not any("'normal' is not accepted" in p for p in problems)


def test_an_order_priced_for_a_city_ships_there():
    """toolmaze-v4 c4-0031: "delivery to London", shipping and tax worked out for London,
    and an order with no ship-to. The library's orders are sent where they are priced;
    the v4 form of the scenario (no ship_to_city) is named, and so is one sent elsewhere."""
    from pathlib import Path

    from toolmaze_gym.corpus.catalog import load_corpus
    from toolmaze_gym.tasks.scenarios import check_scenario, library_files, parse_file

    path = next(p for p in library_files() if p.name == "c4_long.toml")
    text = Path(path).read_text(encoding="utf-8")
    wired = 'discount_pct = "$pct", ship_to_city = "$city" }'
    assert wired in text
    corpus = load_corpus()

    def problems(src: str) -> list[str]:
        got, _ = parse_file(path, src)
        sc = next(s for s in got if s.id == "sh-member-price-foreign-shop-log")
        return [p for p in check_scenario(sc, corpus) if "bind ship_to_city" in p]

    assert problems(text) == []
    assert len(problems(text.replace(wired, 'discount_pct = "$pct" }'))) == 1
    elsewhere = 'discount_pct = "$pct", ship_to_city = "$prev" }'
    assert len(problems(text.replace(wired, elsewhere))) == 1
