"""People: names, e-mail addresses, phone numbers and employers."""

from __future__ import annotations

from dataclasses import dataclass

from toolmaze_gym import hashing
from toolmaze_gym.world.base import Facts, load_data
from toolmaze_gym.world.phones import is_mobile, local_mobile


@dataclass(frozen=True)
class Person:
    name: str
    email: str
    phone: str
    company: str
    city: str
    title: str


_TITLES = ("Engineer", "Product Manager", "Analyst", "Designer", "Account Executive",
           "Director", "Consultant", "Data Scientist", "Operations Lead", "Recruiter")


_COUNTRY_CODES = ("1", "33", "49", "44", "34", "39", "81", "61")


class People(Facts):
    """A directory of ~120 people that every messaging and contact tool reads."""

    SIZE = 120

    def __init__(self, world) -> None:
        super().__init__(world)
        data = load_data("people.json")
        cities = world.geo.city_names
        seen: set[str] = set()
        self.people: list[Person] = []
        i = 0
        while len(self.people) < self.SIZE:
            first = hashing.choice(data["first"], *self.key("first", i))
            last = hashing.choice(data["last"], *self.key("last", i))
            i += 1
            name = f"{first} {last}"
            if name in seen:
                continue
            seen.add(name)
            dom = hashing.choice(data["domains"], *self.key("dom", name))
            city = hashing.choice(cities, *self.key("city", name))
            self.people.append(Person(
                name=name, email=f"{first}.{last}@{dom}".lower(),
                phone=self._phone(name, city),
                company=dom.split(".")[0].replace("-", " ").title(), city=city,
                title=hashing.choice(_TITLES, *self.key("title", name))))
        self._by_name = {p.name.lower(): p for p in self.people}
        self._by_email = {p.email: p for p in self.people}
        self._by_phone = {p.phone: p for p in self.people}
        self.names = [p.name for p in self.people]
        self.emails = [p.email for p in self.people]
        self.phones = [p.phone for p in self.people]
        # The directory's numbers that can take a text message (v3's directory also
        # holds landlines and malformed numbers: it stays as it is for v3 episodes).
        self.mobiles = [n for n in self.phones if is_mobile(n)]

    def _phone(self, name: str, city: str) -> str:
        """The person's phone: from world edition 7 a mobile of the country they live in
        (``local_phones``; toolmaze-v9 c2-0010's Tokyo attendee, c2-0051's Sydney
        companion had +33 numbers), before it a number of any of eight calling codes."""
        if self.world.has("local_phones"):
            return local_mobile(self.world.geo.city(city).country_code, *self.key("ph", name))
        cc = hashing.choice(_COUNTRY_CODES, *self.key("cc", name))
        return f"+{cc}" + str(hashing.randint(10**8, 10**9 - 1, *self.key("ph", name)))

    def by_name(self, name: str) -> Person | None:
        return self._by_name.get(" ".join(name.split()).lower())

    def by_phone(self, phone: str) -> Person | None:
        return self._by_phone.get(phone.strip())

    def by_email(self, email: str) -> Person | None:
        return self._by_email.get(email.strip().lower())

    def sample_email(self, key: str) -> str:
        return hashing.choice(self.emails, "email", key)

    def sample_phone(self, key: str) -> str:
        return hashing.choice(self.phones, "phone", key)

    def sample_mobile(self, key: str) -> str:
        """A directory number that is a mobile (any number if the directory has none)."""
        return hashing.choice(self.mobiles or self.phones, "mobile", key)
