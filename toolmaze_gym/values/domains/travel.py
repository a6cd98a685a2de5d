"""Travel types: airports, offer and booking identifiers, stay lengths, emissions.

Offer identifiers (flights, fares, trains, hotels, rental cars) encode the facts
they name, as GDS offer keys do, so any well-formed one resolves; their samplers
therefore draw real offers from the world. Booking references and trip ids are
what travellers quote, so they are literals drawn from trips booked before the
episode; holds and new reservations come from Action tools.
"""

from __future__ import annotations

import re

from toolmaze_gym import hashing
from toolmaze_gym.values.catalog import enum_type, id_type, number_type, pattern_type

_FLIGHT = r"[A-Z0-9]{2}[0-9]{4}-[A-Z]{6}-[0-9]{8}"

# ---------------------------------------------------------------- literals

enum_type("airport_code", lambda w: w.travel.airport_codes,
          "IATA airport code, e.g. 'CDG'", pattern="^[A-Za-z]{3}$")
enum_type("rail_station", lambda w: w.travel.station_names,
          "main-line station of the European rail network, e.g. 'Paris Gare de Lyon'")
number_type("night_count", 1, 365, "number of nights of a stay, at least 1", integer=True,
            sample_lo=1, sample_hi=14, literal=True)
number_type("day_count", 1, 365, "a whole number of days, at least 1", integer=True,
            sample_lo=1, sample_hi=14, literal=True)

# ---------------------------------------------------------------- offers (resolve from the id)

pattern_type("flight_id", rf"^{_FLIGHT}$",
             "flight offer key: carrier+number, origin+destination airports, departure date, "
             "e.g. 'AF0123-CDGJFK-20260412'",
             lambda world, key: world.travel.sample_flight_id(key), normalise=str.upper)
pattern_type("fare_quote_id", rf"^FQ-{_FLIGHT}$",
             "priced fare quote for one flight, e.g. 'FQ-AF0123-CDGJFK-20260412'",
             lambda world, key: "FQ-" + world.travel.sample_flight_id(key), normalise=str.upper)
pattern_type("train_id", r"^[A-Z]{2,3}[0-9]{4}-[A-Z]{6}-[0-9]{8}$",
             "train service key: operator+number, origin+destination station codes, date, "
             "e.g. 'TGV6203-PARLYS-20260412'",
             lambda world, key: world.travel.sample_train_id(key), normalise=str.upper)
pattern_type("hotel_id", r"^HTL-[A-Z]{3}-[0-9]{3}$",
             "hotel property id: city code and property number, e.g. 'HTL-PAR-104'",
             lambda world, key: world.travel.sample_hotel_id(key), normalise=str.upper)
pattern_type("car_offer_id", r"^CAR-[A-Z]{3}-[0-9]{8}-[0-9]{2}-[A-Z]{4}-[A-Z]{2}$",
             "rental car offer key: pick-up airport, date, days, ACRISS class, supplier, "
             "e.g. 'CAR-CDG-20260412-05-ECMR-HZ'",
             lambda world, key: world.travel.sample_car_offer_id(key), normalise=str.upper)

# ---------------------------------------------------------------- bookings (episode state)

id_type("flight_hold_id", "HLD", 8, "seat hold id, e.g. HLD-7Q2X9ZLM")
pattern_type("flight_booking_ref", r"^[A-Z0-9]{6}$",
             "airline booking reference (PNR / record locator), six characters, e.g. 'Q7XK2M'",
             lambda world, key: world.travel.sample_booking_ref(key), literal=True,
             normalise=lambda v: str(v).strip().upper())
pattern_type("seat_number", r"^[0-9]{1,2}[A-K]$", "aircraft seat, row and letter, e.g. '23C'",
             lambda world, key: f"{hashing.randint(3, 40, 'row', key)}"
                                f"{hashing.choice('ABCDEF', 'seat', key)}",
             normalise=lambda v: re.sub(r"\s", "", str(v)).upper())
id_type("boarding_pass_id", "BP", 10, "boarding pass id, e.g. BP-7Q2X9ZLM4K")
id_type("hotel_reservation_id", "HR", 8, "hotel reservation id, e.g. HR-7Q2X9ZLM")
id_type("rail_ticket_id", "RTK", 8, "rail e-ticket id, e.g. RTK-7Q2X9ZLM")
id_type("car_reservation_id", "CR", 8, "rental car confirmation id, e.g. CR-7Q2X9ZLM")
pattern_type("itinerary_id", r"^ITN-[A-Z0-9]{8}$", "trip itinerary id, e.g. 'ITN-7Q2X9ZLM'",
             lambda world, key: world.travel.sample_itinerary_id(key), literal=True,
             normalise=lambda v: str(v).strip().upper())
id_type("itinerary_share_id", "SHR", 8, "itinerary share id, e.g. SHR-7Q2X9ZLM")
id_type("travel_expense_id", "TEX", 8, "trip expense entry id, e.g. TEX-7Q2X9ZLM")

enum_type("booking_status", lambda w: ("held", "confirmed", "ticketed", "issued", "cancelled",
                                       "checked_in", "added", "shared", "recorded", "active"),
          "state of a travel booking or trip record", literal=False)
enum_type("flight_status", lambda w: ("scheduled", "delayed", "boarding", "en route", "landed",
                                      "cancelled"),
          "operational state of a flight", literal=False)

# ---------------------------------------------------------------- measures

number_type("co2_kg", 0, 1e7, "carbon dioxide equivalent in kilograms, never negative",
            sample_lo=20, sample_hi=3000)
number_type("emission_factor", 0, 2, "kg CO2e per passenger-kilometre, between 0 and 2",
            sample_lo=0.05, sample_hi=0.25)
number_type("result_count", 0, 10000, "number of results a search found, never negative",
            integer=True, sample_lo=1, sample_hi=40)
