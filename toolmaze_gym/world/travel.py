"""Travel facts: airports, flights, hotels, trains, rental cars, visas and per-diem rates.

Every offer is a pure function of its key (route and day, city, hotel) so that any
well-formed identifier resolves to the same facts in every tool that reads it: a
flight id names its carrier, route and day, and the rest is hashed from that.
Prices are quoted in the local currency of the city where the trip starts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cached_property

from toolmaze_gym import hashing
from toolmaze_gym.world.base import Facts, load_data
from toolmaze_gym.world.geo import City, round_money

BOOKING_WINDOW_DAYS = 330
FLIGHT_ID_RE = re.compile(r"^([A-Z0-9]{2})([0-9]{4})-([A-Z]{3})([A-Z]{3})-([0-9]{8})$")
TRAIN_ID_RE = re.compile(r"^([A-Z]{2,3})([0-9]{4})-([A-Z]{3})([A-Z]{3})-([0-9]{8})$")
HOTEL_ID_RE = re.compile(r"^HTL-([A-Z]{3})-([0-9]{3})$")
CAR_OFFER_RE = re.compile(r"^CAR-([A-Z]{3})-([0-9]{8})-([0-9]{2})-([A-Z]{4})-([A-Z]{2})$")
HOTELS_PER_CITY = 14
EXISTING_BOOKINGS = 60
EXISTING_ITINERARIES = 40
ID_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
TRIP_PURPOSES = ("Sales kickoff", "Client visit", "Team offsite", "Conference trip",
                 "Partner workshop", "Board meeting", "Site visit", "Customer summit")
HIGH_SPEED = frozenset({"FR", "DE", "ES", "IT", "JP", "CN"})
NIGHT_TRAIN_MIN = 600  # a run longer than this is a night train (edition 7)
MEMO_LIMIT = 100_000  # entries per look-up memo; cleared when full (agents can send any id)


def _remember(memo: dict, key: object, value: object) -> None:
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value


@dataclass(frozen=True)
class Place:
    """A city as the travel trade sees it: city code, main airport, cost level."""

    city: City
    city_code: str
    airport_code: str
    airport_name: str
    cost_index: float


@dataclass(frozen=True)
class Station:
    """A main-line station of the connected European rail network."""

    name: str
    place: Place
    code: str


@dataclass(frozen=True)
class Flight:
    flight_id: str
    carrier_code: str
    carrier: str
    origin: Place
    destination: Place
    day: str
    departure: datetime  # UTC
    duration_min: int
    distance_km: float
    fare: float  # total price including taxes, origin currency
    tax_share: float
    currency: str
    seats: int

    @property
    def arrival(self) -> datetime:
        return self.departure + timedelta(minutes=self.duration_min)


@dataclass(frozen=True)
class Hotel:
    hotel_id: str
    name: str
    place: Place
    stars: int
    guest_rating: float
    base_usd: float
    rooms: int  # rooms the hotel releases to the channel per night


@dataclass(frozen=True)
class Train:
    train_id: str
    operator: str
    origin: Station
    destination: Station
    day: str
    departure: datetime  # UTC
    duration_min: int
    distance_km: float
    fare: float
    currency: str


@dataclass(frozen=True)
class CarOffer:
    offer_id: str
    place: Place
    day: str
    days: int
    supplier: str
    car_class: str
    acriss: str
    daily_rate: float
    currency: str

    @property
    def total(self) -> float:
        return round(self.daily_rate * self.days, 2)


@dataclass(frozen=True)
class TripBooking:
    """A flight someone in the directory booked before the episode began."""

    booking_ref: str
    flight_id: str
    passenger: str
    booked_at: str


@dataclass(frozen=True)
class Itinerary:
    itinerary_id: str
    title: str
    owner: str
    items: tuple[str, ...]  # booking references
    created_at: str


@dataclass(frozen=True)
class VisaRule:
    visa_type: str
    required: bool
    max_stay_days: int


def iso_utc(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M:00Z")


class Travel(Facts):
    def __init__(self, world) -> None:
        super().__init__(world)
        data = load_data("travel.json")
        self.data = data
        geo = world.geo
        self.places = [Place(geo.city(r[0]), r[1], r[2], r[3], r[4]) for r in data["cities"]]
        self._by_city = {p.city.name.lower(): p for p in self.places}
        self._by_airport = {p.airport_code: p for p in self.places}
        self._by_city_code = {p.city_code: p for p in self.places}
        self.airport_codes = [p.airport_code for p in self.places]
        # A station's own code in train ids (edition 7); the data's codes stay the
        # network's city keys (rail_links, rail_services).
        self._codes: dict[str, str] = (data["rail_station_codes"]
                                       if world.has("rail_station_codes") else {})
        self.stations = [Station(n, self._by_city[c.lower()], self._codes.get(n, code))
                         for n, c, code in data["rail_stations"]]
        # Each city's key as rail_stations lists it: the rail links name these.
        self._home_code = {c.lower(): code for _, c, code in data["rail_stations"]}
        self._termini: dict[tuple[str, str], Station] = {}
        if world.has("rail_termini"):
            self.stations += self._add_termini(data.get("rail_termini", {}))
        self._station_by_name = {s.name.lower(): s for s in self.stations}
        self._station_by_code = {s.code: s for s in self.stations}
        self.station_names = [s.name for s in self.stations]
        self._flights: dict[tuple[str, str, str], list[Flight]] = {}
        self._trains: dict[tuple[str, str, str], list[Train]] = {}
        self._rail_links: frozenset[frozenset[str]] | None = None
        self._hotels: dict[str, list[Hotel]] = {}
        self._valid_days: dict[str, bool] = {}
        self._by_flight_id: dict[str, Flight | None] = {}
        self._by_hotel_id: dict[str, Hotel | None] = {}
        self._by_train_id: dict[str, Train | None] = {}
        self._cheapest: dict[tuple, Flight] = {}
        self._ranked_hotels: dict[tuple[str, str], tuple[Hotel, ...]] = {}
        # Scratch memo for pure facts the behaviours derive (parsed days, response
        # fragments); keys are tuples led by a tag; values must be treated as read-only.
        self.memo: dict[tuple, object] = {}

    # -- places -------------------------------------------------------------

    def place(self, city: str) -> Place | None:
        return self._by_city.get(" ".join(city.split()).lower())

    def airport(self, code: str) -> Place | None:
        return self._by_airport.get(code.strip().upper())

    def local_currency(self, place: Place) -> str:
        return place.city.currency

    def from_usd(self, usd: float, currency: str) -> float:
        """A USD figure in ``currency``, to the currency's smallest unit (whole yen)."""
        return round_money(usd / self.world.geo.usd_value(currency), currency)

    def distance(self, a: Place, b: Place) -> float:
        return self.world.geo.distance_km(a.city, b.city)

    def _to_utc(self, place: Place, local: datetime) -> datetime:
        return self.world.geo.to_utc(place.city.timezone, local)

    def valid_day(self, day: str) -> bool:
        """Bookable: from today up to the airline booking window."""
        ok = self._valid_days.get(day)
        if ok is None:
            ok = self._valid_day(day)
            _remember(self._valid_days, day, ok)
        return ok

    def _valid_day(self, day: str) -> bool:
        d = date.fromisoformat(day)
        today = self.world.now.date()
        return today <= d <= today + timedelta(days=BOOKING_WINDOW_DAYS)

    def _sample_day(self, key: str) -> str:
        ahead = timedelta(days=hashing.randint(1, 60, "day", key))
        return (self.world.now.date() + ahead).isoformat()

    # -- flights ------------------------------------------------------------

    def _carriers(self, a: Place, b: Place) -> list[tuple[str, str]]:
        home = [(c, n) for c, n, countries in self.data["airlines"]
                if a.city.country_code in countries or b.city.country_code in countries]
        hubs = [(c, n) for c, n, _ in self.data["airlines"] if c in ("EK", "TK", "LH", "BA", "AF")]
        out = list(dict.fromkeys(home + hashing.sample(hubs, 2, *self.key("hub", a.airport_code,
                                                                          b.airport_code))))
        europe = {s.place.city_code for s in self.stations}
        if a.city_code in europe and b.city_code in europe and self.distance(a, b) < 2500:
            out += [tuple(x) for x in self.data["low_cost"] if self._based_on(x[0], a, b)]
        if self.world.has("carriers_serve_airports"):
            out = [c for c in out if self.serves(c[0], a) and self.serves(c[0], b)]
        return out

    def _based_on(self, carrier: str, a: Place, b: Place) -> bool:
        """Whether a low-cost ``carrier`` flies a route between ``a`` and ``b``: from world
        edition 10 (``low_cost_bases``) one end is in a country it has bases in (Vueling
        flies from Spain, not Zurich to Oslo)."""
        bases = self.data["low_cost_bases"].get(carrier) if self.world.has("low_cost_bases") \
            else None
        return bases is None or a.city.country_code in bases or b.city.country_code in bases

    def serves(self, carrier: str, place: Place) -> bool:
        """Whether ``carrier`` flies from and to ``place``'s airport (``carrier_not_at``;
        world edition 7): KLM flies to Tokyo Narita, not Haneda."""
        return place.airport_code not in self.data["carrier_not_at"].get(carrier, ())

    def flights(self, a: Place, b: Place, day: str) -> list[Flight]:
        """Every departure on the route that day, in departure order."""
        k = (a.airport_code, b.airport_code, day)
        if k not in self._flights:
            self._flights[k] = self._build_flights(a, b, day)
        return self._flights[k]

    def _build_flights(self, a: Place, b: Place, day: str) -> list[Flight]:
        km = self.distance(a, b)
        carriers = self._carriers(a, b)
        route = (a.airport_code, b.airport_code)
        n = hashing.randint(2, 4 if km > 6000 else 6, *self.key("nflights", *route, day))
        days_out = (date.fromisoformat(day) - self.world.now.date()).days
        out: dict[str, Flight] = {}
        for i in range(n):
            code, name = hashing.choice(carriers, *self.key("carrier", *route, i))
            number = hashing.randint(10, 9899, *self.key("fno", code, *route, i))
            fid = f"{code}{number:04d}-{a.airport_code}{b.airport_code}-{day.replace('-', '')}"
            minute = hashing.randint(6 * 4, 22 * 4, *self.key("dep", fid)) * 15
            local = datetime.fromisoformat(day) + timedelta(minutes=minute)
            jitter = hashing.uniform(0.97, 1.06, *self.key("dur", fid))
            duration = round(km / 820 * 60 * jitter) + 35  # cruise plus taxi and climb
            usd = (55 + 0.11 * km) * hashing.uniform(0.75, 1.9, *self.key("fare", fid, day))
            if code in {c for c, _ in self.data["low_cost"]}:
                usd *= 0.6
            if days_out < 7:
                usd *= 1.4
            out[fid] = Flight(
                flight_id=fid, carrier_code=code, carrier=name, origin=a, destination=b, day=day,
                departure=self._to_utc(a, local), duration_min=duration, distance_km=km,
                fare=self.from_usd(usd, a.city.currency),
                tax_share=round(hashing.uniform(0.12, 0.26, *self.key("tax", fid)), 3),
                currency=a.city.currency, seats=hashing.randint(2, 9, *self.key("seats", fid)))
        return sorted(out.values(), key=lambda f: (f.departure, f.flight_id))

    def cheapest_flight(self, a: Place, b: Place, day: str) -> Flight:
        k = (a.airport_code, b.airport_code, day)
        f = self._cheapest.get(k)
        if f is None:
            f = self._cheapest[k] = min(self.flights(a, b, day),
                                        key=lambda f: (f.fare, f.departure))
        return f

    def flight(self, flight_id: str) -> Flight | None:
        try:
            return self._by_flight_id[flight_id]
        except KeyError:
            f = self._flight(flight_id)
            _remember(self._by_flight_id, flight_id, f)
            return f

    def _flight(self, flight_id: str) -> Flight | None:
        m = FLIGHT_ID_RE.fullmatch(flight_id.strip().upper())
        if not m:
            return None
        a, b = self.airport(m.group(3)), self.airport(m.group(4))
        day = self._day_from_compact(m.group(5))
        if a is None or b is None or a == b or day is None or not self.valid_day(day):
            return None
        return next((f for f in self.flights(a, b, day) if f.flight_id == flight_id.upper()), None)

    @staticmethod
    def _day_from_compact(s: str) -> str | None:
        try:
            return date(int(s[:4]), int(s[4:6]), int(s[6:])).isoformat()
        except ValueError:
            return None

    def sample_flight_id(self, key: str) -> str:
        a, b = hashing.sample(self.places, 2, *self.key("sample-route", key))
        fl = self.flights(a, b, self._sample_day(key))
        return hashing.choice(fl, "flight", key).flight_id

    def flight_delay(self, f: Flight) -> int:
        """Delays are only forecast for flights leaving within a day."""
        if f.departure - self.world.now > timedelta(hours=24):
            return 0
        if hashing.unit(*self.key("delay?", f.flight_id)) < 0.7:
            return 0
        return hashing.randint(10, 95, *self.key("delay", f.flight_id))

    def flight_status(self, f: Flight) -> str:
        now, dep = self.world.now, f.departure + timedelta(minutes=self.flight_delay(f))
        if now < dep - timedelta(minutes=45):
            return "delayed" if self.flight_delay(f) else "scheduled"
        if now < dep:
            return "boarding"
        return "en route" if now < f.arrival else "landed"

    # -- hotels -------------------------------------------------------------

    @cached_property
    def _rates(self) -> dict[tuple[str, str], float]:
        return {}

    def hotels(self, place: Place) -> list[Hotel]:
        code = place.city_code
        if code not in self._hotels:
            self._hotels[code] = self._build_hotels(place)
        return self._hotels[code]

    def _build_hotels(self, place: Place) -> list[Hotel]:
        combos = [(b, a) for b in self.data["hotel_brands"] for a in self._areas(place)]
        picks = hashing.sample(combos, HOTELS_PER_CITY, *self.key("hotels", place.city_code))
        out = []
        for i, ((brand, stars), area) in enumerate(picks):
            hid = f"HTL-{place.city_code}-{101 + i}"
            k = self.key("hotel", hid)
            out.append(Hotel(
                hotel_id=hid, name=f"{brand} {place.city.name} {area}", place=place, stars=stars,
                guest_rating=round(min(5.0, hashing.uniform(2.9, 4.2, *k, "r") + 0.15 * stars), 1),
                base_usd=(self.data["star_rate_usd"][str(stars)]
                          * hashing.uniform(0.85, 1.2, *k, "b")),
                rooms=hashing.randint(2, 5, *k, "rooms")))
        return out

    def _areas(self, place: Place) -> list[str]:
        """The districts a hotel of the city may be in: from world edition 10
        (``hotel_areas_fit_city``) only those the city has (no harbour inland)."""
        areas = self.data["hotel_areas"]
        if not self.world.has("hotel_areas_fit_city"):
            return areas
        only = self.data["hotel_area_only_in"]
        return [a for a in areas if a not in only or place.city.name in only[a]]

    def hotels_by_rate(self, place: Place, check_in: str) -> tuple[Hotel, ...]:
        """The city's hotels, cheapest nightly rate for the arrival night first."""
        k = (place.city_code, check_in)
        ranked = self._ranked_hotels.get(k)
        if ranked is None:
            ranked = tuple(sorted(self.hotels(place),
                                  key=lambda h: (self.nightly_rate(h, check_in), h.hotel_id)))
            _remember(self._ranked_hotels, k, ranked)
        return ranked

    def hotel(self, hotel_id: str) -> Hotel | None:
        try:
            return self._by_hotel_id[hotel_id]
        except KeyError:
            h = self._hotel(hotel_id)
            _remember(self._by_hotel_id, hotel_id, h)
            return h

    def _hotel(self, hotel_id: str) -> Hotel | None:
        m = HOTEL_ID_RE.fullmatch(hotel_id.strip().upper())
        place = self._by_city_code.get(m.group(1)) if m else None
        if place is None:
            return None
        return next((h for h in self.hotels(place) if h.hotel_id == hotel_id.strip().upper()), None)

    def nightly_rate(self, hotel: Hotel, check_in: str) -> float:
        """The stay's nightly rate: set by the arrival night (a flat rate plan)."""
        key = (hotel.hotel_id, check_in)
        rate = self._rates.get(key)
        if rate is None:
            rate = self._rates[key] = self._nightly_rate(hotel, check_in)
        return rate

    def _nightly_rate(self, hotel: Hotel, check_in: str) -> float:
        d = date.fromisoformat(check_in)
        weekend = 1.12 if d.weekday() >= 4 else 1.0
        usd = (hotel.base_usd * self.hotel_market(hotel.place, d.month) * weekend
               * hashing.uniform(0.88, 1.15, *self.key("rate", hotel.hotel_id, check_in)))
        return self.from_usd(usd, hotel.place.city.currency)

    def hotel_season(self, place: Place, month: int) -> str:
        """``peak``, ``shoulder`` or ``off``: the city's hotel season in ``month``."""
        pattern = self.data["hotel_city_season"].get(place.city.name, "north")
        months = self.data["hotel_seasons"][pattern]
        return next((s for s in ("peak", "off") if month in months[s]), "shoulder")

    def hotel_market(self, place: Place, month: int) -> float:
        """How dear a city's hotels are in ``month``, times the star rate: from world
        edition 7 its hotel tier and season (``hotel_city_tier``; toolmaze-v9
        c4-0051: 54 EUR a night in Lisbon in August), before it the city's cost of
        living the whole year."""
        if not self.world.has("hotel_city_rates"):
            return place.cost_index
        tier = self.data["hotel_tiers"][self.data["hotel_city_tier"][place.city.name]]
        return tier * self.data["hotel_season_factor"][self.hotel_season(place, month)]

    def sample_hotel_id(self, key: str) -> str:
        place = hashing.choice(self.places, "hotel-city", key)
        return hashing.choice(self.hotels(place), "hotel", key).hotel_id

    # -- trains -------------------------------------------------------------

    def _add_termini(self, termini: dict[str, dict[str, dict]]) -> list[Station]:
        """The termini of ``rail_termini`` that serve a city of the network, as new
        stations (London Euston for Manchester), and which terminus of a city serves
        which other city (``terminus``)."""
        served = set(self._home_code)
        names = {s.name: s for s in self.stations}
        new: list[Station] = []
        for city, stations in termini.items():
            for name, row in stations.items():
                if not served & {c.lower() for c in row["serves"]}:
                    continue
                station = names.get(name)
                if station is None:
                    station = Station(name, self._by_city[city.lower()],
                                      self._codes.get(name, row["code"]))
                    names[name] = station
                    new.append(station)
                for other in row["serves"]:
                    self._termini[(city.lower(), other.lower())] = station
        return new

    def terminus(self, station: Station, other: Station) -> Station:
        """The station of ``station``'s city that trains to ``other``'s city leave
        from (world edition 6): London Euston for Manchester whichever London station
        was asked; ``station`` itself where its city has one main-line station."""
        key = (station.place.city.name.lower(), other.place.city.name.lower())
        return self._termini.get(key, station)

    def station(self, name: str) -> Station | None:
        return self._station_by_name.get(" ".join(name.split()).lower())

    def rail_linked(self, a: Station, b: Station) -> bool:
        """Whether a direct or through train runs between two stations in the real
        network (``rail_links`` of data/world/travel.json, either way): no train runs
        from Lisbon to Copenhagen without changes."""
        links = self._rail_links
        if links is None:
            links = self._rail_links = frozenset(
                frozenset(pair) for pair in self.data.get("rail_links", ()))
        if self.terminus(a, b) != a or self.terminus(b, a) != b:
            return False  # no train to Manchester leaves London St Pancras (edition 6)
        return self._link(a, b) in links

    def _link(self, a: Station, b: Station) -> frozenset[str]:
        """The network's key of the two stations' cities (``rail_links``)."""
        return frozenset((self._home_code[a.place.city.name.lower()],
                          self._home_code[b.place.city.name.lower()]))

    @cached_property
    def _services(self) -> dict[frozenset[str], tuple[int, str]]:
        """Each linked city pair's real run in minutes and its brand (edition 7)."""
        return {frozenset((a, b)): (minutes, brand)
                for a, b, minutes, brand in self.data["rail_services"]}

    def service(self, a: Station, b: Station) -> tuple[int, str, str, bool] | None:
        """The real service between two linked stations as ``(minutes, operator,
        id prefix, mostly on high-speed lines)`` from world edition 7; None for a
        pair the network does not link, or on an earlier edition."""
        if not self.world.has("rail_services") or not self.rail_linked(a, b):
            return None
        link = self._link(a, b)
        minutes, brand = self._services[link]
        operator, prefix = self.data["rail_brands"][brand]
        fast = link in {frozenset(p) for p in self.data["rail_high_speed"]}
        return minutes, operator, prefix, fast

    def _operator(self, a: Station, b: Station) -> tuple[str, str]:
        ops = self.data["rail_operators"]
        ca, cb = a.place.city.country_code, b.place.city.country_code
        if (ca == "GB") != (cb == "GB"):
            return "Eurostar", "EST"
        name, code = ops[ca]
        return name, code

    def trains(self, a: Station, b: Station, day: str) -> list[Train]:
        """Every direct or through service between two stations on a day, by departure:
        from the termini that serve the two cities (``terminus``; edition 6)."""
        a, b = self.terminus(a, b), self.terminus(b, a)
        k = (a.code, b.code, day)
        if k not in self._trains:
            self._trains[k] = self._build_trains(a, b, day)
        return self._trains[k]

    def _timetable(self, a: Station, b: Station) -> tuple[str, str, int, int, tuple[int, int]]:
        """``(operator, id prefix, base minutes, most extra minutes, departure window
        in quarter hours)`` of the trains between two stations: edition 7 runs a linked
        pair as its real service does (``rail_services``; a night train over 10 hours
        leaves from 18:00) and any other pair as a journey with changes at a
        conventional speed (``rail_fallback``); earlier editions at one speed over
        the crow-fly distance."""
        km = self.distance(a.place, b.place)
        operator, code = self._operator(a, b)
        if not self.world.has("rail_services"):
            fast = {a.place.city.country_code, b.place.city.country_code} <= HIGH_SPEED
            return operator, code, round(km * 1.15 / (210 if fast else 120) * 60) + 15, 25, \
                (6 * 4, 21 * 4)
        real = self.service(a, b)
        if real is None:
            fb = self.data["rail_fallback"]
            base = round(km * fb["detour"] / fb["kmh"] * 60) + fb["change_min"]
            return operator, code, base, max(10, base // 10), (6 * 4, 21 * 4)
        minutes, operator, code, _ = real
        window = (18 * 4, 22 * 4) if minutes > NIGHT_TRAIN_MIN else (6 * 4, 21 * 4)
        return operator, code, minutes, max(5, minutes // 12), window

    def _build_trains(self, a: Station, b: Station, day: str) -> list[Train]:
        km = self.distance(a.place, b.place)
        operator, code, base, extra, (first, last) = self._timetable(a, b)
        out: dict[str, Train] = {}
        most = 2 if first >= 18 * 4 else 9  # a night train runs once or twice
        for i in range(hashing.randint(min(4, most - 1), most,
                                       *self.key("ntrains", a.code, b.code, day))):
            number = hashing.randint(100, 9899, *self.key("tno", code, a.code, b.code, i))
            tid = f"{code}{number:04d}-{a.code}{b.code}-{day.replace('-', '')}"
            minute = hashing.randint(first, last, *self.key("tdep", tid)) * 15
            usd = (12 + 0.14 * km) * hashing.uniform(0.7, 1.6, *self.key("tfare", tid))
            cur = a.place.city.currency
            out[tid] = Train(
                train_id=tid, operator=operator, origin=a, destination=b, day=day,
                departure=self._to_utc(a.place, datetime.fromisoformat(day)
                                       + timedelta(minutes=minute)),
                duration_min=base + hashing.randint(0, extra, *self.key("tdur", tid)),
                distance_km=km, fare=self.from_usd(usd, cur), currency=cur)
        return sorted(out.values(), key=lambda t: (t.departure, t.train_id))

    def cheapest_train(self, a: Station, b: Station, day: str) -> Train:
        return min(self.trains(a, b, day), key=lambda t: (t.fare, t.departure))

    def train(self, train_id: str) -> Train | None:
        try:
            return self._by_train_id[train_id]
        except KeyError:
            t = self._train(train_id)
            _remember(self._by_train_id, train_id, t)
            return t

    def _train(self, train_id: str) -> Train | None:
        m = TRAIN_ID_RE.fullmatch(train_id.strip().upper())
        if not m:
            return None
        a, b = self._station_by_code.get(m.group(3)), self._station_by_code.get(m.group(4))
        day = self._day_from_compact(m.group(5))
        if a is None or b is None or a == b or day is None or not self.valid_day(day):
            return None
        return next((t for t in self.trains(a, b, day) if t.train_id == train_id.upper()), None)

    @cached_property
    def linked_pairs(self) -> tuple[tuple[Station, Station], ...]:
        """Every ordered pair of stations a direct or through train links."""
        return tuple((a, b) for a in self.stations for b in self.stations
                     if a != b and self.rail_linked(a, b))

    def sample_train_id(self, key: str) -> str:
        """A train of a linked pair (edition 7: a train the network runs), else of
        any two stations."""
        if self.world.has("rail_services"):
            a, b = hashing.choice(self.linked_pairs, *self.key("sample-rail", key))
        else:
            a, b = hashing.sample(self.stations, 2, *self.key("sample-rail", key))
        return hashing.choice(self.trains(a, b, self._sample_day(key)), "train", key).train_id

    # -- rental cars --------------------------------------------------------

    def car_offers(self, place: Place, day: str, days: int) -> list[CarOffer]:
        out = []
        for sup, sup_name, factor in self.data["car_suppliers"]:
            for acriss, desc, usd in self.data["car_classes"]:
                oid = f"CAR-{place.airport_code}-{day.replace('-', '')}-{days:02d}-{acriss}-{sup}"
                rate = usd * factor * place.cost_index * hashing.uniform(
                    0.85, 1.2, *self.key("car", place.airport_code, day, acriss, sup))
                out.append(CarOffer(oid, place, day, days, sup_name, desc, acriss,
                                    self.from_usd(rate, place.city.currency), place.city.currency))
        return out

    def cheapest_car(self, place: Place, day: str, days: int) -> CarOffer:
        return min(self.car_offers(place, day, days), key=lambda o: (o.daily_rate, o.offer_id))

    def car_offer(self, offer_id: str) -> CarOffer | None:
        m = CAR_OFFER_RE.fullmatch(offer_id.strip().upper())
        place = self.airport(m.group(1)) if m else None
        day = self._day_from_compact(m.group(2)) if m else None
        if place is None or day is None or not self.valid_day(day):
            return None
        if not 1 <= int(m.group(3)) <= 90:
            return None
        return next((o for o in self.car_offers(place, day, int(m.group(3)))
                     if o.offer_id == offer_id.strip().upper()), None)

    def sample_car_offer_id(self, key: str) -> str:
        place = hashing.choice(self.places, "car-city", key)
        offers = self.car_offers(place, self._sample_day(key), hashing.randint(1, 14, "cd", key))
        return hashing.choice(offers, "car", key).offer_id

    # -- trips booked before the episode ------------------------------------

    @cached_property
    def bookings(self) -> dict[str, TripBooking]:
        """Upcoming flights of people in the directory, by booking reference."""
        people = self.world.people.people
        out: dict[str, TripBooking] = {}
        for i in range(EXISTING_BOOKINGS):
            k = self.key("booking", i)
            who = hashing.choice(people, *k, "who")
            home = self.place(who.city)
            dest = hashing.choice([p for p in self.places if p != home], *k, "dest")
            day = (self.world.now.date() + timedelta(days=hashing.randint(3, 60, *k, "day")))
            flight = hashing.choice(self.flights(home, dest, day.isoformat()), *k, "flight")
            pnr = hashing.token(ID_ALPHABET, 6, *k, "pnr")
            booked = self.world.now - timedelta(days=hashing.randint(1, 30, *k, "booked"))
            out[pnr] = TripBooking(pnr, flight.flight_id, who.name, iso_utc(booked))
        return out

    @cached_property
    def itineraries(self) -> dict[str, Itinerary]:
        """Trips that hold the existing bookings, one booking each."""
        out: dict[str, Itinerary] = {}
        for i, b in enumerate(list(self.bookings.values())[:EXISTING_ITINERARIES]):
            k = self.key("itinerary", i)
            f = self.flight(b.flight_id)
            iid = "ITN-" + hashing.token(ID_ALPHABET, 8, *k, "id")
            title = f"{hashing.choice(TRIP_PURPOSES, *k, 'why')} {f.destination.city.name}"
            out[iid] = Itinerary(iid, title, b.passenger, (b.booking_ref,), b.booked_at)
        return out

    def sample_booking_ref(self, key: str) -> str:
        return hashing.choice(list(self.bookings), "booking", key)

    def sample_itinerary_id(self, key: str) -> str:
        return hashing.choice(list(self.itineraries), "itinerary", key)

    # -- visas and allowances ----------------------------------------------

    def visa_rule(self, passport: str, destination: str) -> VisaRule:
        v = self.data["visa"]
        p, d = passport.upper(), destination.upper()
        if p == d:
            return VisaRule("citizen, no visa", False, 365)
        if p in v["schengen"] and d in v["schengen"]:
            return VisaRule("visa-free", False, 365)
        policy = v["policies"].get("schengen" if d in v["schengen"] else d, {})
        tier = next((t for t, members in v["tiers"].items() if p in members), "limited")
        vtype, days = policy.get(p) or policy.get(tier) or ("consular visa", 30)
        return VisaRule(vtype, v["required"][vtype], days)

    def per_diem(self, place: Place) -> float:
        """Daily meals-and-incidentals allowance in the local currency."""
        return self.from_usd(40 + 65 * place.cost_index, place.city.currency)
