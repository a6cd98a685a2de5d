"""World editions: which version of the world a task's tools answer from.

A shipped suite was built, and its episodes were played, on the world as it stood
then: players typed the values its responses showed (a forecast's high, an order's
status, a translator's tagged text). When the world is made more believable
(issue 28's v5 review: weather near the month's normal, template texts translated,
...), an older suite's episodes must still replay on the answers they were played
on, so each response-changing change names the edition it arrived in (``CHANGES``)
and the world and behaviours ask ``has(edition, change)`` instead of testing
numbers. Which edition a task plays on is decided once per task
(``toolmaze_gym.tasks.suites.edition_of``); the world itself only carries it.

Edition 1 is the world as of commit c4e8fd6 (toolmaze-v1 to v4 were built and played
on it); edition 2 is the world toolmaze-v5 is built on; edition 3 the world of
toolmaze-v6 (the v5 blind review's oddities, issue 28); edition 4 the world of
toolmaze-v7 (the v6 blind review's oddities); edition 5 the world of toolmaze-v8
(the v7 blind review's oddities, issue 28); edition 6 the world of toolmaze-v9
(the v8 blind review's and play-test's findings); edition 7 the world of toolmaze-v10
(the v9 blind review's and play-test's findings); edition 8 the world of toolmaze-v11
(the v10 blind review's and play-tests' findings); edition 9 the world of toolmaze-v12
(the v11 blind review's and play-test's findings); edition 10 the world of toolmaze-v14
(the v13 blind review's findings).
"""

from __future__ import annotations

LATEST = 10
EDITIONS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)

# Each response-changing change of the world, and the first edition that has it.
CHANGES: dict[str, int] = {
    # A day's high within 3 C of the month's normal, no rain in a dry month, no warm
    # fog, no cold thunderstorm (geo.Geo._weather; commit 0144f99).
    "weather_normals": 2,
    # A news story's count within its template's range (news.json; commit ec147f7).
    "news_count_ranges": 2,
    # A REIT always pays a dividend (markets.json ``payers``; commit 960bb73).
    "dividend_payers": 2,
    # A translator fills a template's own translation (phrasebook_templates.json;
    # commit e37e57c) instead of tagging the text "[it] ...".
    "template_translations": 2,
    # An order whose parcel left the warehouse reports the parcel's state (0b93f81).
    "order_status_follows_parcel": 2,
    # Order tools take a ship-to city and tell it (``ship_to_city``/``ship_to``; 5ce9052).
    "ship_to_city": 2,
    # log_expense tells the budget's currency (``budget_currency``; 1140f95).
    "budget_currency": 2,
    # A company description says "an internet content company", not "a internet"
    # (finance.company_profile; toolmaze-v5 c1-0091).
    "article_before_vowel": 3,
    # A summary does not end a sentence at an abbreviation: "Meta Platforms Inc. is
    # ..." is one sentence (text.summarize; toolmaze-v5 c1-0091 summarised it to
    # "Meta Platforms Inc.").
    "summary_abbreviations": 3,
    # A translator translates the texts other tools generate (a weather report, a
    # price message, a news story, a booking confirmation) from their templates'
    # translations (phrasebook_templates.json ``generated``) instead of tagging them
    # "[pt] Rain, 24.1 °C" (toolmaze-v5 c1-0000, c3-0096).
    "generated_text_translations": 3,
    # A product name does not say a word twice: no "Granite Smart Smart Plug" or
    # "Tidewater Travel Travel Mug" (commerce.Commerce._build_catalogue; toolmaze-v5
    # printed 44 such names).
    "no_doubled_words": 3,
    # A translation fits a preposition to the name after it: Italian "ad Amsterdam",
    # French "d'Oslo" (world.euphony; a template filled with a city read "a Amsterdam").
    "preposition_euphony": 3,
    # No clear sky in a city's wet season: Mumbai in August is cloudy or rainy
    # (data/world/wet_months.json; toolmaze-v6 c2-0058: "clear" in the monsoon).
    "wet_season": 4,
    # A translation says the dates and units a filled text carries as its language
    # does: "lunes 31 de agosto", "23.7 °C", not "Monday 31 August", "23.7 C"
    # (world.localise; toolmaze-v6 c4-0068, c2-0058).
    "localised_dates_units": 4,
    # recommend_eco_setpoint never heats above 19 °C and sets back lower, not higher,
    # when it is milder outside: 17 °C between 16 and 26 °C, not "auto" at 21 °C
    # (toolmaze-v6 c4-0025: 21 °C at 16.8 °C outside, 19 °C in colder weather), and a
    # heating thermostat is held at 20-22 °C, so an eco setting lowers it (world.devices;
    # c4-0005 "set back" a thermostat held at 18.5 °C to 19 °C).
    "eco_setback": 4,
    # A room reads what the weather outside makes it: below the eco heating set point
    # on a cold day, above the eco cooling one on a hot day (world.devices; toolmaze-v7
    # c4-0013: "heat" a room at 22.3 °C to 19 °C on a 9 °C night; c3-0075: a Delhi
    # bedroom at 21.4 °C in a 33.9 °C hot spell, "cooled" to 27 °C).
    "rooms_follow_weather": 5,
    # A translator translates the comments a request quotes and a template carries
    # ("{opinion} Delivered on {date}."): phrasebook.json entries marked with this
    # change (toolmaze-v7 c1-0081: "Does the job, though the manual is thin. Livré le
    # vendredi 14 août." came back half English, untagged).
    "request_comment_translations": 5,
    # A translation says a time on a date clock first, as the prepositions before it
    # need: "a las 11:45 UTC del viernes 21 de agosto", not "a las viernes 21 de
    # agosto, 11:45 UTC" (world.localise; toolmaze-v7 c4-0042).
    "clock_first_datetimes": 5,
    # A generated text's city or country hole holds one of the world's places, or the
    # template does not match: a text that only ends like a news story ("In my own
    # words, the gist: Hong Kong parliament passes budget ...") is no story and comes
    # back tagged, where edition 5 looked up "de@of" of no place and answered 500
    # (toolmaze-v8 c3-0072, the own_summary variant; world.phrasebook).
    "place_holes_hold_places": 6,
    # A loan tool's instalment is the annuity formula's value rounded half-up to the
    # cent, as its doc says, not rounded up (finance.loan; toolmaze-v8 c2-0078:
    # 20000 at 5.2 % over 48 months is 462.4000289, told as 462.41).
    "loan_payment_half_up": 6,
    # A train between two cities runs from the terminus that serves the other city
    # (data/world/travel.json ``rail_termini``): London to Manchester from London
    # Euston, a new station, not St Pancras (toolmaze-v8 c4-0067: an Avanti West Coast
    # train "London St Pancras to Manchester Piccadilly"; world.travel).
    "rail_termini": 6,
    # A translated template says the room in the language asked: "Im Büro sind es
    # jetzt 17.9 °C", not "Im Raum office ..." (data/world/room_words.json, the
    # templates' ``_room_names`` versions; toolmaze-v8 c3-0009; world.phrasebook).
    "room_names": 6,
    # An order charges the shipping the shipping-rate tools quote for its units and
    # destination (each line quoted as they quote it), not a flat 4.99 under 50 and 0
    # over (world.commerce.Commerce.order_shipping; toolmaze-v8 c4-0072's buy_now
    # charged 4.99 against a 6.25 quote, c4-0001's submit_order 0.0 against 21.09).
    "shipping_as_quoted": 6,
    # Seattle's combined sales tax is 10.35 % since April 2025, not 10.25 %
    # (data/world/commerce.json ``tax_city_changes``; toolmaze-v8 c4-0072, c3-0057).
    "seattle_sales_tax_2025": 6,
    # A real company that pays no dividend in 2026 pays none (markets.json
    # ``non_payers``): Intel suspended its dividend from Q4 2024 (toolmaze-v9 c3-0037's
    # INTC paid 0.50 a share; world.markets).
    "known_non_payers": 7,
    # The income-tax tools' tax holds the employee's social contributions, so take-home
    # pay is believable (markets.json ``employee_contributions``; toolmaze-v9 c1-0066: a
    # French net pay of 91.7 % of gross; world.markets).
    "employee_contributions": 7,
    # A fiscal quarter a user names (the value drawn for a request) is the latest every
    # company has reported, not one of the last eight (values.domains.finance;
    # toolmaze-v9 c4-0010 asked the "2024-Q2 EPS" in August 2026).
    "latest_quarter_asked": 7,
    # A train between two linked cities takes as long as the real service does and is
    # run by the brand that runs the route (data/world/travel.json ``rail_services``);
    # a run over 10 hours is a night train leaving in the evening; an unlinked pair is a
    # journey with changes at a conventional speed (toolmaze-v9 c1-0020: Lyon Part-Dieu
    # to Milano Centrale in 2 h 17 min, really about 4 h 50 min; c2-0054: a Frecciarossa
    # "FR9727" Milan-Zurich, a EuroCity route; world.travel).
    "rail_services": 7,
    # A train id names its stations by station codes, not airport codes
    # (``rail_station_codes``; toolmaze-v9 c1-0020: "TGV4225-LYSMIL" named Lyon
    # Part-Dieu by Lyon airport's code LYS; world.travel).
    "rail_station_codes": 7,
    # A night's hotel price follows the city's hotel tier and the month's season
    # (data/world/travel.json ``hotel_city_tier``, ``hotel_seasons``), not the cost of
    # living all year (toolmaze-v9 c4-0051: 54 EUR a night in Lisbon in August;
    # world.travel).
    "hotel_city_rates": 7,
    # A flight's carrier serves both its airports (data/world/travel.json
    # ``carrier_not_at``; toolmaze-v9 c1-0009: a KLM flight from Tokyo Haneda, where
    # KLM flies from Narita; c4-0051: a Ryanair flight from Lyon; world.travel).
    "carriers_serve_airports": 7,
    # A person's phone is a mobile of the country they live in (data/world/
    # calling_codes.json, numbering.json; world.people): toolmaze-v9 c2-0010 texted a
    # Tokyo attendee on +33, c2-0051 a Sydney companion on +33, c2-0001 a customer on +34.
    "local_phones": 7,
    # A climate story fits its city's season (data/world/news.json ``season``): no
    # flood-defence story in a dry month, no heat record in a cool one (world.news;
    # toolmaze-v9 c4-0080: "Flood defences completed in Madrid" on a dry August heat day).
    "seasonal_headlines": 7,
    # A parcel is delivered on a day carriers deliver: one due on a Sunday comes on the
    # Monday, and the shipping quote's transit days say so (world.commerce.delivery_days;
    # toolmaze-v9 c2-0088: "arrives in Vancouver Sunday 23 August").
    "no_sunday_delivery": 7,
    # Los Angeles' combined sales tax is 9.75 % since April 2025 (Measure A), not 9.5 %
    # (data/world/commerce.json ``tax_city_changes``; toolmaze-v10 review c3-0049: a
    # reviewer working from the real rate got 210.60 for the world's 209.52).
    "la_sales_tax_2025": 8,
    # A translator translates the first sentence of a column draft a request quotes,
    # which a summary of it keeps: phrasebook.json entries marked with this change
    # (toolmaze-v10 play-test c1-0062: the reference SMS "in Portuguese" was the draft's
    # English first sentence and "(40 palavras)").
    "draft_summary_translations": 8,
    # A thermostat is on cool all through a month whose normal high is warm, not on heat
    # whenever the morning is below 24 C (data/world/devices.json
    # ``thermostat_cool_season_normal_high_c``; toolmaze-v11 c4-0067: an eco cooling
    # point set on a Milan thermostat in heat mode in August; world.devices).
    "summer_cooling": 9,
    # A night's low is near the city's normal low for the month (data/world/
    # climate_lows.json), not 4-11 C under the day's high: toolmaze-v13 c4-0074 told a
    # Seattle low of 21.2 C on 31 August (normal about 13 C), c2-0080 Madrid 28.6 C
    # (normal 19 C), and San Francisco 16.5 C, Barcelona 26.1 C (world.geo).
    "normal_lows": 10,
    # A hotel's district is one its city has: no "Harbour" in an inland city
    # (data/world/travel.json ``hotel_area_only_in``; toolmaze-v13 c2-0080: "Motel One
    # Madrid Harbour"; world.travel).
    "hotel_areas_fit_city": 10,
    # A low-cost carrier flies only routes that touch a country it has bases in
    # (data/world/travel.json ``low_cost_bases``): toolmaze-v13's review met Vueling on
    # Rome-Milan, Zurich-Oslo, Zurich-Lisbon, Vienna-Munich and Paris-Oslo (world.travel).
    "low_cost_bases": 10,
    # A battery-powered sensor is a model that runs on a battery (data/world/devices.json
    # ``battery_models``): toolmaze-v13 c1-0002 reviewed the battery of an Awair Element,
    # which is USB-powered (world.devices).
    "battery_sensor_models": 10,
    # A league title is clinched when leagues end, not in July to September
    # (data/world/news.json ``season`` "league_end"; toolmaze-v13 c4-0010: "Amsterdam FC
    # clinch title with two games to spare" in mid-August; world.news).
    "league_seasons": 10,
}

# Tool parameters and response fields (canonical names) that arrived with a change:
# on an earlier edition a call naming the parameter is refused as unknown and the
# field is not in the response, as the tools answered then.
FIELDS: dict[str, str] = {
    "ship_to_city": "ship_to_city",
    "ship_to": "ship_to_city",
    "budget_currency": "budget_currency",
}


class EditionError(ValueError):
    """An edition or a change name the world does not know."""


def checked(edition: object) -> int:
    """``edition`` as a known edition number; a clear error for anything else."""
    if isinstance(edition, bool) or not isinstance(edition, int) or edition not in EDITIONS:
        raise EditionError(f"unknown world edition {edition!r}; choose from "
                           f"{', '.join(map(str, EDITIONS))}")
    return edition


def has(edition: int, change: str) -> bool:
    """Whether the world of ``edition`` has ``change`` (a key of ``CHANGES``)."""
    try:
        return edition >= CHANGES[change]
    except KeyError:
        raise EditionError(f"no world change named {change!r}; known: "
                           f"{', '.join(CHANGES)}") from None


def field_shown(edition: int, canonical: str) -> bool:
    """Whether a tool parameter or response field (canonical name) exists in
    ``edition``; fields no change names exist in every edition."""
    change = FIELDS.get(canonical)
    return change is None or has(edition, change)
