"""Mentions read as people write: each value type, rendered in each format a person
uses and placed in each context a text gives it, is found; near-misses are not.

Hypothesis draws the values; ``derandomize=True`` makes every run draw the same ones,
so the suite stays deterministic and fast (a few dozen examples a property).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from toolmaze_gym.mentions import mentions

FAST = settings(max_examples=40, derandomize=True, deadline=None)

# ---------------------------------------------------------------- contexts

# What may stand right before and right after a value: spaces, punctuation and the
# cell separators of a row (a comma, a semicolon, a pipe, a tab).
BEFORE = ("", " ", ",", ";", "|", ":", "(", "[", "/", "=", "\t", "\n", "«", "\"", "total: ")
AFTER = ("", " ", ")", "%", ",", ";", ".", "|", "]", "\t", "!", "?", "»", "\"", ". Thanks")
# Where in a sentence: at its start, in its middle, at its end.
LEADS = ("", "The total is", "Summary")
TAILS = ("", " for the whole trip", " — see the sheet")

# Prose contexts: no comma glued to the value (a glued comma makes a row of cells,
# where "57,01" may be the cells 57 and 01; near-misses are checked in prose).
PROSE_BEFORE = tuple(b for b in BEFORE if b != ",")
PROSE_AFTER = tuple(a for a in AFTER if a != ",")


@st.composite
def placed(draw, rendered: str, before=BEFORE, after=AFTER) -> str:
    """``rendered`` inside a sentence, with punctuation either side."""
    lead, pre = draw(st.sampled_from(LEADS)), draw(st.sampled_from(before))
    post, tail = draw(st.sampled_from(after)), draw(st.sampled_from(TAILS))
    if lead and not pre.strip():
        pre = " "  # a word never touches a number: "Summary1234" is a code
    return f"{lead}{pre}{rendered}{post}{tail}"


def in_context(draw, rendered: str, *, prose: bool = False) -> str:
    before, after = (PROSE_BEFORE, PROSE_AFTER) if prose else (BEFORE, AFTER)
    return draw(placed(rendered, before, after))


# ---------------------------------------------------------------- numbers

SPACES = (" ", "\u00a0", "\u202f")


def number_forms(x: float, decimals: int = 2) -> list[str]:
    """``x`` as people write it: plain, grouped either convention, spaced, Swiss."""
    us = f"{x:,.{decimals}f}"
    forms = [f"{x:.{decimals}f}", us, us.translate(str.maketrans(",.", ".,")),
             us.replace(",", "'")]
    forms += [us.replace(",", s).replace(".", ",") for s in SPACES]
    if decimals and f"{x:.{decimals}f}".endswith("0"):  # "1234.5" for 1234.50
        forms.append(f"{x:.{decimals}f}".rstrip("0").rstrip("."))
    return forms


MONEY = ("{}", "€{}", "{} EUR", "USD {}", "{} €", "$ {}", "{}\u00a0€", "£{} GBP")
cents = st.integers(min_value=1, max_value=99_999_999)


@FAST
@given(cents, st.data())
def test_an_amount_is_found_in_every_format_and_context(c, data):
    amount = c / 100
    form = data.draw(st.sampled_from(number_forms(amount)))
    text = in_context(data.draw, data.draw(st.sampled_from(MONEY)).format(form))
    assert mentions(text, "money_amount", amount), text


@FAST
@given(cents, st.sampled_from((-1, 1)), st.data())
def test_an_amount_a_cent_off_is_not_found(c, step, data):
    amount, other = c / 100, (c + step) / 100
    form = data.draw(st.sampled_from(number_forms(other)))
    text = in_context(data.draw, data.draw(st.sampled_from(MONEY)).format(form), prose=True)
    assert not mentions(text, "money_amount", amount), text


@FAST
@given(cents, st.integers(min_value=1, max_value=9), st.data())
def test_a_longer_number_sharing_the_digits_is_not_found(c, digit, data):
    """100.66 is not in 1100.66 (nor in 9100.66)."""
    amount = c / 100
    text = in_context(data.draw, f"{digit}{amount:.2f} EUR", prose=True)
    assert not mentions(text, "money_amount", amount), text


@FAST
@given(st.integers(min_value=1, max_value=999), cents, st.data())
def test_a_row_of_cells_is_read_cell_by_cell(count, c, data):
    """append_row's cells are comma-separated: "DOT (Polkadot),14,100.66,EUR"."""
    amount = c / 100
    sep = data.draw(st.sampled_from((",", ";", "|", "\t", ", ")))
    row = sep.join(["DOT (Polkadot)", str(count), f"{amount:.2f}", "EUR"])
    assert mentions(row, "money_amount", amount), row
    assert mentions(row, "quantity", count), row


@FAST
@given(st.integers(min_value=0, max_value=10**6), st.data())
def test_an_integer_is_found_exactly(n, data):
    form = data.draw(st.sampled_from(number_forms(n, decimals=0)))
    text = in_context(data.draw, form + data.draw(st.sampled_from(("", " rooms", " items"))))
    assert mentions(text, "quantity", n), text


@FAST
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from((-1, 1)), st.data())
def test_another_integer_is_not_found(n, step, data):
    form = data.draw(st.sampled_from(number_forms(n + step, decimals=0)))
    text = in_context(data.draw, form, prose=True)
    assert not mentions(text, "quantity", n), text


@FAST
@given(st.integers(min_value=-9999, max_value=9999).filter(bool), st.data())
def test_a_signed_number_keeps_its_sign(tenths, data):
    """A temperature: "-3.5", "−3.5" (unicode minus) say -3.5; "3.5" does not."""
    t = tenths / 10
    minus = data.draw(st.sampled_from(("-", "\u2212")))
    written = f"{abs(t):.1f}" if t > 0 else minus + f"{abs(t):.1f}"
    text = in_context(data.draw, written + " °C")
    assert mentions(text, "temperature_c", t), text
    assert not mentions(text, "temperature_c", -t), text


@FAST
@given(st.integers(min_value=1, max_value=10000), st.data())
def test_a_percentage_in_any_form(c, data):
    pct = c / 100
    form = data.draw(st.sampled_from(number_forms(pct)))
    unit = data.draw(st.sampled_from(("%", " %", " percent", "\u202f%")))
    text = in_context(data.draw, form + unit)
    assert mentions(text, "percentage", pct), text


# ---------------------------------------------------------------- signed changes

FALLS = ("-{} %", "\u2212{}%", "{} % less", "down {} %", "a {} % drop", "fell {}%",
         "{}% lower", "decreased by {} %", "{} % cheaper", "a drop of {} %", "-{}%")
RISES = ("+{} %", "up {} %", "{} % more", "{}% higher", "rose {}%", "a {} % gain",
         "a {} % increase", "a {} % rise", "an increase of {} %", "+{}%")
MONEY_FALLS = ("-€{}", "\u2212{} EUR", "{} EUR less", "down €{}", "a loss of {} EUR",
               "lost USD {}", "{} € cheaper", "-{} USD")
MONEY_RISES = ("+€{}", "+{} EUR", "{} EUR more", "up €{}", "a gain of {} EUR",
               "gained USD {}", "{} € higher")
magnitudes = st.integers(min_value=1, max_value=10000)  # hundredths of a percent


def change_forms(x: float) -> list[str]:
    return [f"{x:.2f}", f"{x:.2f}".replace(".", ",")]


@FAST
@given(magnitudes, st.sampled_from(("percent_change", "money_delta")), st.data())
def test_a_fall_is_found_by_its_sign_or_its_word(c, type_name, data):
    m = c / 100
    forms = FALLS if type_name == "percent_change" else MONEY_FALLS
    written = data.draw(st.sampled_from(forms)).format(data.draw(st.sampled_from(change_forms(m))))
    text = in_context(data.draw, written, prose=True)
    assert mentions(text, type_name, -m), text
    assert not mentions(text, type_name, m), text  # the wrong direction


@FAST
@given(magnitudes, st.sampled_from(("percent_change", "money_delta")), st.data())
def test_a_rise_is_found_by_its_sign_or_its_word(c, type_name, data):
    m = c / 100
    forms = RISES if type_name == "percent_change" else MONEY_RISES
    written = data.draw(st.sampled_from(forms)).format(data.draw(st.sampled_from(change_forms(m))))
    text = in_context(data.draw, written, prose=True)
    assert mentions(text, type_name, m), text
    assert not mentions(text, type_name, -m), text


@FAST
@given(magnitudes, st.data())
def test_a_bare_change_says_either_sign(c, data):
    """No sign, no direction word: the sentence gives the direction, so both pass."""
    m = c / 100
    text = in_context(data.draw, f"{m:.2f} %", prose=True)
    assert mentions(text, "percent_change", m) and mentions(text, "percent_change", -m), text


@FAST
@given(magnitudes, st.sampled_from((-1, 1)), st.data())
def test_a_change_a_hundredth_off_is_not_found(c, step, data):
    m, other = c / 100, (c + step) / 100
    written = data.draw(st.sampled_from(FALLS)).format(f"{other:.2f}")
    assert not mentions(in_context(data.draw, written, prose=True), "percent_change", -m)


# ---------------------------------------------------------------- dates and times

days = st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 28))


def date_forms(d: date) -> list[str]:
    mon = d.strftime("%B")
    return [d.isoformat(), d.strftime("%Y/%m/%d"), f"{d.day} {mon[:3]} {d.year}",
            f"{mon} {d.day}, {d.year}", f"the {d.day}th of {mon} {d.year}",
            f"{d.day}. {mon} {d.year}", f"{d.strftime('%a')} {d.day} {mon} {d.year}"]


@FAST
@given(days, st.data())
def test_a_date_is_found_as_written(d, data):
    text = in_context(data.draw, data.draw(st.sampled_from(date_forms(d))))
    assert mentions(text, "iso_date", d.isoformat()), text


@FAST
@given(days, st.sampled_from((-1, 1, 365)), st.data())
def test_another_day_is_not_found(d, shift, data):
    other = d + timedelta(days=shift)
    text = in_context(data.draw, data.draw(st.sampled_from(date_forms(other))))
    assert not mentions(text, "iso_date", d.isoformat()), text


instants = st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2098, 12, 1)).map(
    lambda t: t.replace(second=0, microsecond=0, tzinfo=UTC))


def datetime_forms(t: datetime) -> list[str]:
    plus2 = t + timedelta(hours=2)
    return [t.strftime("%Y-%m-%dT%H:%M:%SZ"), t.strftime("%Y-%m-%d %H:%M UTC"),
            t.strftime("%d %b %Y, %H:%M UTC"), plus2.strftime("%Y-%m-%dT%H:%M+02:00"),
            t.strftime("%B %d, %Y at %H:%M UTC")]


@FAST
@given(instants, st.data())
def test_a_datetime_is_found_to_the_minute(t, data):
    text = in_context(data.draw, data.draw(st.sampled_from(datetime_forms(t))))
    assert mentions(text, "iso_datetime", t.strftime("%Y-%m-%dT%H:%M:%SZ")), text


@FAST
@given(instants, st.sampled_from((-1, 1, 60)), st.data())
def test_another_minute_is_not_found(t, shift, data):
    other = t + timedelta(minutes=shift)
    text = in_context(data.draw, data.draw(st.sampled_from(datetime_forms(other))))
    assert not mentions(text, "iso_datetime", t.strftime("%Y-%m-%dT%H:%M:%SZ")), text


# ---------------------------------------------------------------- names, codes, ids

FIRST = ("Ana", "Freya", "Jin", "Lucia", "Hugo", "Elena", "Mateo", "Noor")
LAST = ("Sato", "Okafor", "Varga", "Dubois", "Fischer", "Souza", "Kowalski")
CITIES = ("Seoul", "Milan", "Lyon", "Denver", "Porto", "Osaka", "St. Louis")
NAME_BEFORE = ("", " ", "(", "[", "\"", "«", ",", ";", ":", "\n", "Dear ", "to ", "#", "@")
NAME_AFTER = ("", " ", ")", "]", "\"", "»", ",", ";", ":", ".", "!", "'s", "\u2019s", "?")
CASES = (str, str.upper, str.lower, str.title)


@st.composite
def named_in(draw, written: str) -> str:
    pre, post = draw(st.sampled_from(NAME_BEFORE)), draw(st.sampled_from(NAME_AFTER))
    lead = draw(st.sampled_from(("", "Hi", "Booked for")))
    return f"{lead}{' ' if lead else ''}{pre}{written}{post} today"


@FAST
@given(st.sampled_from(FIRST), st.sampled_from(LAST), st.sampled_from(CASES), st.data())
def test_a_person_is_found_in_any_case(first, last, case, data):
    name = f"{first} {last}"
    text = data.draw(named_in(case(name)))
    assert mentions(text, "person_name", name), text


@FAST
@given(st.sampled_from(FIRST), st.sampled_from(LAST), st.sampled_from(("bel", "na", "s")),
       st.data())
def test_a_longer_name_holding_the_name_is_not_it(first, last, more, data):
    """"Anabel Sato" is not Ana Sato; "Freya" alone is not Freya Sato."""
    name = f"{first} {last}"
    assert not mentions(data.draw(named_in(f"{first}{more} {last}")), "person_name", name)
    assert not mentions(data.draw(named_in(f"{first} {last}{more}")), "person_name", name)
    assert not mentions(data.draw(named_in(first)), "person_name", name)


@FAST
@given(st.sampled_from(CITIES), st.sampled_from(CITIES), st.sampled_from(("-", "/", "\u2013",
                                                                           " \u2014 ")),
       st.data())
def test_joined_cities_are_each_found(a, b, joiner, data):
    text = data.draw(named_in(f"{a}{joiner}{b}"))
    assert mentions(text, "city_name", a) and mentions(text, "city_name", b), text


@FAST
@given(st.sampled_from(("EUR", "USD", "GBP", "JPY", "CHF")), st.sampled_from(CASES),
       st.data())
def test_a_code_is_found_in_any_case_but_not_inside_a_word(code, case, data):
    assert mentions(data.draw(named_in(case(code))), "currency_code", code)
    assert not mentions(data.draw(named_in(case(code) + "O")), "currency_code", code)


ids = st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ23456789", min_size=8, max_size=10).filter(
    lambda s: any(c.isalpha() for c in s)).map(lambda s: "MSG-" + s)


@FAST
@given(ids, st.data())
def test_an_id_is_found_as_written_and_only_so(msg_id, data):
    assert mentions(data.draw(named_in(msg_id)), "email_message_id", msg_id)
    assert not mentions(data.draw(named_in(msg_id.lower())), "email_message_id", msg_id)
    assert not mentions(data.draw(named_in(msg_id + "7")), "email_message_id", msg_id)


# ---------------------------------------------------------------- free text

WORDS = ("quarterly", "bookkeeping", "lunch", "order", "closes", "noon", "travel", "budget",
         "review", "meeting", "invoice", "audit", "report", "draft")
ARTICLES = ("the", "a", "an", "The", "la", "le", "der", "die", "il", "o", "el", "un")
phrases = st.lists(st.sampled_from(WORDS), min_size=1, max_size=5, unique=True)


@FAST
@given(phrases, st.sampled_from(ARTICLES), st.sampled_from(CASES), st.data())
def test_a_phrase_is_found_without_its_article_in_any_case(words, article, case, data):
    """"Quarterly bookkeeping" for "the quarterly bookkeeping" (tmz-v3-c2-0075)."""
    value = f"{article} {' '.join(words)}"
    written = case(" ".join(words))
    spacing = data.draw(st.sampled_from((" ", "  ", "\n")))
    text = data.draw(named_in(written.replace(" ", spacing)))
    assert mentions(text, "text", value), text
    assert mentions(data.draw(named_in(case(value))), "text", value)  # with it, too


@FAST
@given(phrases, st.sampled_from(WORDS), st.sampled_from(ARTICLES), st.data())
def test_a_phrase_with_another_noun_is_not_found(words, other, article, data):
    if other in words:
        return
    value = f"{article} {' '.join(words)}"
    changed = " ".join([*words[:-1], other])
    assert not mentions(data.draw(named_in(changed)), "text", value)
    assert not mentions(data.draw(named_in(" ".join(words) + "s")), "text", value)
