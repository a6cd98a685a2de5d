"""A sum a cent or more off the expected one passes only as the agent's own rounding
(grading version 16, the toolmaze-v6 play-test's money slips): a figure a response
printed is copied to the cent, and an own sum is off by no more than the values it
was worked from explain. Replayed on the played v6 episodes, one figure changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.test_played import _replay, played_text, replay_changed, replay_variant
from toolmaze_gym.grading.own_rounding import (
    own_rounding,
    printed_places,
    rounding_slack,
    roundings,
)
from toolmaze_gym.grading.resolution import _written_short

V6 = Path(__file__).parent.parent / "data" / "played" / "v6"
DIVIDEND = "tmz-v6-c2-0092-P4"  # 306 NOVG shares' dividend in GBP, gross and net (1,205.21)
SWEATER = "tmz-v6-c4-0065-P4"  # asks for the replacement's price in PLN, tax included
EXPENSE = "tmz-v6-c3-0071-P2"  # a train fare of 80.32 EUR logged as 925.75 SEK


def _variant(tmp_path: Path, source: Path, changes: dict[str, str]) -> Path:
    text = played_text(source)
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    out = tmp_path / source.name
    out.write_text(text, encoding="utf-8")
    return out


def _success(tmp_path: Path, episode: str, source: Path, changes: dict[str, str]) -> bool:
    """The variant's grade, its records' ids re-keyed (``test_played.replay_variant``)."""
    text = played_text(source)
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    return replay_variant(source, text, episode, tmp_path)[0]["success"]


def test_the_slack_is_a_cent_plus_a_cent_carried_from_what_the_agent_worked_out():
    assert rounding_slack(925.75, []) == pytest.approx(0.01)
    # a cent of a half in GBP converted at 13.09: 1070.74 SEK may be 0.14 off
    assert rounding_slack(1070.74, [81.77]) == pytest.approx(0.01 * (1 + 1070.74 / 81.77))
    assert rounding_slack(1070.74, [1070.74]) == pytest.approx(0.01)  # not itself
    assert own_rounding(1070.67, 1070.74, shown=False, unprinted=[81.77])
    assert not own_rounding(1070.67, 1070.74, shown=True, unprinted=[81.77])
    assert not own_rounding(925.57, 925.75, shown=False, unprinted=[])
    assert own_rounding(925.76, 925.75, shown=False, unprinted=[])


@pytest.mark.parametrize(("net", "success"), [
    ("1,205.21", True),
    ("1,205.22", True),   # a cent: the agent's own 75 % of its own gross, rounded
    ("1,205.31", False),  # ten pence: no rounding of 2,025.72 USD or 1,606.95 GBP explains it
])
def test_an_own_sum_is_off_only_by_what_its_rounding_explains(tmp_path, net, success):
    played = V6 / f"{DIVIDEND}.actions"
    assert _success(tmp_path, DIVIDEND, played, {"1,205.21": net}) is success


@pytest.mark.parametrize(("net", "success"), [
    ("1,205.21", True),
    ("1,205.22", False),  # percentage_of printed 1205.21: a copy is exact
])
def test_a_sum_a_tool_printed_is_told_to_the_cent(tmp_path, net, success):
    probe = V6 / "probes" / f"{DIVIDEND}.tools.actions"
    assert _success(tmp_path, DIVIDEND, probe, {"1,205.21": net}) is success


@pytest.mark.parametrize(("printed", "told", "success"), [
    (False, "667.40", True),   # converted by the agent: the other rounding order (v15)
    (True, "667.41", True),
    (True, "667.40", False),   # apply_fx_rate printed 667.41: a grosz off is untold
])
def test_a_sum_a_tool_printed_is_told_to_the_cent_in_the_final_answer(
        tmp_path, printed, told, success):
    played = V6 / f"{SWEATER}.actions"
    lines = played.read_text(encoding="utf-8").splitlines()
    if printed:  # the taxed price converted by the tool before the answer
        lines.insert(-1, 'apply_fx_rate {"amount": 170.96, "rate": 3.903889}')
    path = _variant(tmp_path, played, {})
    path.write_text("\n".join(lines).replace("667.41 PLN", f"{told} PLN") + "\n",
                    encoding="utf-8")
    g, _ = _replay(path, SWEATER)
    assert g["success"] is success
    assert bool(g["unanswered"]) is not success


@pytest.mark.parametrize(("amount", "success"), [
    ("925.75", True),
    ("925.76", True),   # a cent: the last rounding is the agent's
    ("925.57", False),  # 80.32 EUR and the rate were printed: only a cent is rounding
])
def test_a_logged_amount_worked_from_printed_values_is_off_by_a_cent_at_most(
        tmp_path, amount, success):
    played = V6 / f"{EXPENSE}.actions"
    changes = {'"amount": 925.75': f'"amount": {amount}'}
    assert _success(tmp_path, EXPENSE, played, changes) is success


def test_one_rounding_of_an_exact_value_is_down_up_or_half_up_at_the_printed_places():
    # 983.68 / 5 = 196.736: only 196.73 and 196.74 round it to the cent (version 19)
    assert roundings(196.736, 2) == {196.73, 196.74}
    assert roundings(0.1 * 3, 2) == {0.3}  # float noise moves no ceiling
    assert printed_places(196.75) == 2 and printed_places(196.7) == 1
    assert own_rounding(196.73, 196.74, shown=False, unprinted=[], exact=196.736)
    assert not own_rounding(196.75, 196.74, shown=False, unprinted=[], exact=196.736)
    # rounded on the way (an unprinted value carried): the carry still bounds it
    assert own_rounding(1070.67, 1070.74, shown=False, unprinted=[81.77], exact=1070.7449)


V8 = Path(__file__).parent.parent / "data" / "played" / "v8"
SHARE = "tmz-v8-c1-0092-P1"  # a 983.68 DKK car split five ways, mailed and answered


@pytest.mark.parametrize(("share", "success"), [
    ("196.74", True),   # half up, the tool's own
    ("196.73", True),   # rounded down: 196.736 to the cent either way is the agent's
    ("196.75", False),  # a cent off 196.74 but no rounding of 196.736 (v8 play-test p3)
    ("196.72", False),
])
def test_an_own_share_is_a_rounding_of_the_exact_quotient(tmp_path, share, success):
    played = V8 / f"{SHARE}.actions"
    assert _success(tmp_path, SHARE, played, {"196.74": share}) is success


# Grading version 21, v21 play-test c2-0024 P4 `percentage_tool_own_round`: 33.55 x 90 %
# = 30.195, which percentage_of printed as 30.19; an alert set at 30.2 rounds the exact
# value at the agent's own precision and copies no printed figure wrong.
ROUND_PROBE = (Path(__file__).parent.parent / "data" / "played" / "v9-g21" / "probes"
               / "tmz-v9-c2-0024-P4.percentage_tool_own_round.actions")
ROUND_EPISODE = "tmz-v9-c2-0024-P4"


def test_a_coarser_rounding_of_a_printed_figure_is_the_agents_own():
    assert own_rounding(30.2, 30.19, shown=True, unprinted=[], exact=30.195)
    # At the printed precision a printed figure is copied to the cent.
    assert not own_rounding(30.18, 30.19, shown=True, unprinted=[], exact=30.195)
    assert not own_rounding(196.73, 196.74, shown=True, unprinted=[], exact=196.736)
    # "30.20" claims the cent (a text that writes it so).
    assert not own_rounding(30.2, 30.19, shown=True, unprinted=[], exact=30.195,
                            coarser=False)
    # No exact value known: nothing to round.
    assert not own_rounding(30.2, 30.19, shown=True, unprinted=[])
    # Finer than printed is no rounding of the printed figure.
    assert not own_rounding(30.196, 30.19, shown=True, unprinted=[], exact=30.195)


def test_written_short_reads_the_decimals_as_written():
    assert _written_short("an alert at 30.2 USD.", 30.2)
    assert not _written_short("an alert at 30.20 USD.", 30.2)
    assert not _written_short("an alert at 130.2 USD.", 30.2)


@pytest.mark.parametrize(("level", "ok"), [("30.2", True), ("30.21", False),
                                          ("30.3", False), ("30.1", False)])
def test_an_alert_rounded_to_one_decimal_passes(level, ok, tmp_path):
    grade = replay_changed(ROUND_PROBE, ROUND_EPISODE, '"price_level": 30.2}',
                           f'"price_level": {level}}}', tmp_path)
    assert grade["success"] is ok, grade
