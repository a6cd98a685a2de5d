"""General corpus: glue processors compose, providers agree, actions leave a record."""

from __future__ import annotations

from datetime import timedelta

from toolmaze_gym.corpus import EpisodeState


def call(sim, name, state=None, **args):
    resp = sim.call(name, args, state or EpisodeState())
    assert resp.ok, (name, args, resp.body)
    return resp.body


def test_forecast_accepts_every_sampled_date(sim, world):
    for days in (0, 14, 60):
        day = (world.now + timedelta(days=days)).strftime("%Y-%m-%d")
        by_city = call(sim, "get_forecast_by_city", city="Oslo", date=day)
        geo = call(sim, "geocode_city", city="Oslo")
        by_coords = call(sim, "get_forecast_by_coords", lat=geo["lat"], lon=geo["lon"], date=day)
        assert by_city["high_c"] == by_coords["high_c"] >= by_city["low_c"]


def test_current_weather_providers_agree_in_both_units(sim):
    a = call(sim, "get_current_weather", city="Madrid")
    b = call(sim, "weatherapi_current", q="madrid")
    assert a["temperature_c"] == b["current.temp_c"] and a["condition"] == b["current.condition"]
    f = call(sim, "temperature_converter", celsius=a["temperature_c"])["fahrenheit"]
    assert b["current.temp_f"] == f
    assert call(sim, "fahrenheit_to_celsius", fahrenheit=f)["celsius"] == a["temperature_c"]


def test_convert_and_shift_commute(sim):
    start = "2026-05-04T14:00:00Z"
    a = call(sim, "convert_datetime", datetime=start, to_timezone="Asia/Kolkata")["converted"]
    assert a == "2026-05-04T19:30:00+05:30"
    a = call(sim, "shift_datetime", datetime=a, minutes=90)["datetime"]
    b = call(sim, "shift_datetime", datetime=start, minutes=90)["datetime"]
    b = call(sim, "timezone_convert", time=b, target_tz="Asia/Kolkata")["conversion.result"]
    assert a == b == "2026-05-04T21:00:00+05:30"


def test_city_timezone_lookups_agree(sim):
    a = call(sim, "get_city_timezone", city="Sydney")
    b = call(sim, "worldtime_lookup", location="Sydney")
    assert (a["timezone"], a["utc_offset_hours"]) == (b["zone.timezone"], b["zone.utc_offset"]) \
        == ("Australia/Sydney", 10.0)


def test_news_providers_report_one_fresh_story(sim, world):
    a = call(sim, "search_news", topic="sports", city="Berlin")
    b = call(sim, "newsapi_everything", q="sports", city="Berlin")
    c = call(sim, "gnews_search", category="sports", city="Berlin")
    assert a["headline"] == b["article.title"] == c["title"]
    assert a["published_at"] == b["article.publishedAt"] == c["published_at"] < world.now_iso


def test_translate_summarise_chain(sim):
    story = call(sim, "search_news", topic="science")
    summary = call(sim, "summarize_article", text=story["description"])
    assert len(summary["summary"]) <= len(story["description"])
    de = call(sim, "translate_text", text=summary["summary"], target_language="de")
    # a news summary comes back in German since world edition 3 (news_texts.json)
    assert not de["translated_text"].startswith("[de]") and de["source_language"] == "en"
    assert de["translated_text"] != summary["summary"]
    for name, args, key in (("text_translator", {"to": "de"}, "translation"),
                            ("translate_v3", {"target_language_code": "de"},
                             "translation.translated_text")):
        field = "text" if name == "text_translator" else "contents"
        out = call(sim, name, **args, **{field: summary["summary"]})
        assert out[key] == de["translated_text"]
    # news is translated out of English only (news_texts.json): a German story neither
    # comes back to English nor is detected as German, which no scenario asks (issue 28
    # work list); the round trip is tested on the phrasebook's sentences


def test_formatters_and_calculators(sim):
    msg = call(sim, "format_price_message", amount=1234.5, currency="eur")["message"]
    assert msg == "Price: 1,234.50 EUR (Euro)"
    assert call(sim, "price_formatter", value=1234.5, currency_code="EUR")[
        "data.formatted"] == msg
    assert call(sim, "percentage_of", amount=250, percent=15)["result"] == 37.5
    assert call(sim, "calculate_line_total", unit_price=19.99, qty=3)["line.line_total"] == 59.97
    report = call(sim, "format_weather_report", temperature_c=14.2, condition="light rain")
    assert report["report"] == "Light rain, 14.2 °C (57.6 °F)."


def test_short_links_are_idempotent_across_providers(sim):
    state = EpisodeState()
    url = "https://docs.example.com/d/123"
    a = call(sim, "create_short_link", state, long_url=url)
    b = call(sim, "bitly_shorten", state, long_url=url)
    assert a["short_url"] == b["link"] and state.data["links"] == {a["short_url"]: url}
    assert len(state.effects) == 1


def test_webhook_and_push_leave_a_record(sim, world):
    state = EpisodeState()
    email = world.people.emails[0]
    w1 = call(sim, "post_webhook", state, url="https://hooks.example.com/a", payload="hi")
    w2 = call(sim, "post_webhook", state, url="https://hooks.example.com/a", payload="hi")
    assert w1["delivery_id"] != w2["delivery_id"]
    push = call(sim, "send_push_notification", state, recipient=email, message="hello")
    assert state.data["push"][0]["notification_id"] == push["notification_id"]
    assert [e["tool"] for e in state.effects] == ["post_webhook", "post_webhook",
                                                  "send_push_notification"]


def test_temperature_converters_take_cooking_temperatures(sim, corpus, world):
    from toolmaze_gym.corpus.invariants import violations

    for name, arg in (("temperature_converter", "celsius"), ("celsius_to_fahrenheit", "value_c"),
                      ("unitconv_temperature", "input_c")):
        r = sim.call(name, {arg: 220}, EpisodeState())
        assert r.ok and 428.0 in r.body.values(), (name, r.body)
        assert violations(corpus[name], {arg: 220}, r.body, world) == []
        assert sim.call(name, {arg: 301}, EpisodeState()).status == 422
    # a thermostat is no oven: its set point keeps the plausible air range
    th = world.devices.ids_of("thermostat")[0]
    bad = sim.call("set_thermostat_setpoint", {"thermostat_id": th, "temperature_c": 220},
                   EpisodeState())
    assert bad.status == 422


def test_a_kelvin_slip_in_a_weather_reading_stays_detectable(sim, corpus, world):
    from toolmaze_gym.corpus.invariants import violations

    body = sim.call("get_current_weather", {"city": "Oslo"}, EpisodeState()).body
    slipped = {**body, "temperature_c": round(body["temperature_c"] + 273.15, 1)}
    found = violations(corpus["get_current_weather"], {"city": "Oslo"}, slipped, world)
    assert [w.field for w in found] == ["temperature_c"]
