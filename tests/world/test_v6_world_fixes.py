

def test_wet_seasons_name_cities_of_the_world_and_no_dry_month():
    from toolmaze_gym.world.base import load_data

    wet = {k: set(v) for k, v in load_data("wet_months.json").items() if not k.startswith("_")}
    dry = {k: set(v) for k, v in load_data("dry_months.json").items() if not k.startswith("_")}
    cities = {row[0] for row in load_data("cities.json")}
    assert set(wet) <= cities
    assert all(not wet[c] & dry.get(c, set()) for c in wet), "a month both wet and dry"
