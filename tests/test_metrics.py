"""Grades → tables: the paper's Eq. 1–4, its composite, CIs, pass^k, the gaps."""

from __future__ import annotations

import pytest

from toolmaze_gym.metrics import (
    FAULT_MODES,
    MODES,
    bootstrap_ci,
    bootstrap_table,
    cell_metrics,
    composite,
    composite_from_rows,
    format_table,
    pass_hat_k,
    pass_hat_k_records,
    table,
)

# The paper's Table 2: TSR (NP, P1–P4), PRR (P1–P4), RC (P1–P4) and the Avg. column.
TABLE2 = {
    "MiniMax-M2.7 (w/o hint)": ([56.50, 36.50, 22.75, 9.50, 7.25], [48.61, 24.16, 11.38, 9.22],
                                [56.59, 72.65, 83.14, 86.66], 25.03),
    "MiniMax-M2.7 (w/ hint)": ([55.50, 44.25, 25.25, 9.25, 9.00], [57.66, 27.75, 9.86, 12.05],
                               [50.40, 70.71, 85.43, 85.34], 27.50),
    "Qwen3.5-35B-A3B (w/o hint)": ([41.50, 40.50, 16.50, 6.25, 4.50],
                                   [75.09, 22.88, 10.87, 9.06],
                                   [32.66, 60.49, 65.61, 67.96], 31.55),
    "GLM-5.1 (w/ hint)": ([74.75, 66.25, 37.00, 14.75, 17.00], [75.22, 38.72, 15.65, 18.35],
                          [32.32, 62.48, 81.98, 81.24], 38.14),
    "Deepseek-V4-Pro (w/ hint)": ([68.00, 71.25, 46.75, 25.50, 19.75],
                                  [90.41, 47.91, 29.00, 21.99],
                                  [27.15, 55.51, 71.53, 79.04], 45.09),
    "Claude-Sonnet-4-6 (w/o hint)": ([77.00, 49.00, 27.00, 5.75, 6.00],
                                     [59.68, 27.68, 5.08, 7.08],
                                     [48.95, 71.56, 90.88, 91.75], 27.35),
    "GPT-5.5 (w/ hint)": ([71.50, 58.75, 37.50, 46.75, 31.25], [84.74, 43.56, 65.00, 20.55],
                          [37.31, 58.88, 48.48, 66.23], 49.96),
    "Gemini-3.1-Pro-Preview (w/ hint)": ([68.75, 65.25, 42.50, 43.25, 34.00],
                                         [90.21, 53.09, 54.98, 29.36],
                                         [29.73, 52.59, 49.38, 63.53], 52.95),
}


@pytest.mark.parametrize("model", TABLE2)
def test_composite_reproduces_table2_avg(model):
    tsr, prr, rc, avg = TABLE2[model]
    assert round(composite_from_rows(tsr, prr, rc), 2) == avg


def test_composite_from_rows_agrees_with_composite_of_a_table():
    tsr, prr, rc, avg = TABLE2["Gemini-3.1-Pro-Preview (w/ hint)"]
    per_mode = {m: {"TSR": t / 100, "PRR": None, "RC": None} for m, t in zip(MODES, tsr,
                                                                          strict=True)}
    for m, p, r in zip(FAULT_MODES, prr, rc, strict=True):
        per_mode[m].update(PRR=p / 100, RC=r / 100)
    assert round(100 * composite(per_mode), 2) == avg


def test_composite_from_rows_rejects_short_rows():
    with pytest.raises(ValueError, match="NP,P1-P4"):
        composite_from_rows([50, 50, 50, 50], [1, 2, 3, 4], [1, 2, 3, 4])


def _g(success, exposed, recovered=None, c_rec=0.0):
    return {"success": success, "exposed": exposed, "recovered": recovered, "c_rec": c_rec}


def test_cell_metrics_follow_eq_1_to_4():
    grades = [_g(True, True, True, 0.0),      # recovered optimally
              _g(True, True, True, 0.5),      # recovered with waste
              _g(False, True, False, 1.0),    # exposed, failed
              _g(True, False, None, 0.0)]     # never met the fault
    m = cell_metrics(grades)
    assert m["n"] == 4 and m["exposed"] == 3
    assert m["TSR"] == pytest.approx(3 / 4)
    assert m["PRR"] == pytest.approx(2 / 3)  # over exposed trajectories only
    assert m["RC"] == pytest.approx((0 + 0.5 + 1) / 4)  # over all trajectories
    assert cell_metrics([_g(True, False)])["PRR"] is None
    assert cell_metrics([])["TSR"] is None


def test_prr_counts_recovery_independently_of_success():
    """A recovered trajectory that failed the task (collateral damage, a cut) still
    counts for PRR; a successful one that did not recover does not."""
    m = cell_metrics([_g(False, True, True, 1.0), _g(True, True, False, 0.0),
                      _g(False, True, False, 1.0)])
    assert m["TSR"] == pytest.approx(1 / 3)
    assert m["PRR"] == pytest.approx(1 / 3)


def test_composite_without_exposure_is_undefined_not_a_tsr_mean():
    """One formula always: where PRR is undefined in every fault mode, so is the
    composite (None, printed n/a)."""
    per_mode = {m: {"TSR": 0.8, "PRR": None, "RC": 0.0 if m != "P0" else None}
                for m in MODES}
    assert composite(per_mode) is None
    assert composite({"P0": {"TSR": 1.0, "PRR": None, "RC": None}}) is None
    tbl = table(_records({("C1", "P0"): [_g(True, False)] * 3,
                          ("C1", "P1"): [_g(True, False)] * 3}))  # the fault never met
    assert tbl["per_mode"]["P1"]["PRR"] is None and tbl["composite"] is None
    assert "composite Avg: n/a" in format_table(tbl)


def _records(spec):
    """spec: {(level, mode): [grade, ...]} -> records."""
    return [{"task_id": f"{lv}-{k}", "level": lv, "mode": m, "grade": g}
            for (lv, m), grades in spec.items() for k, g in enumerate(grades)]


def test_table_macro_averages_and_gaps():
    spec = {}
    for lv, good in (("C1", 1.0), ("C2", 0.5)):
        spec[(lv, "P0")] = [_g(True, False)] * 2
        for m in FAULT_MODES:
            ok = int(2 * good) if m in ("P1", "P2") else 0
            spec[(lv, m)] = ([_g(True, True, True, 0.0)] * ok
                             + [_g(False, True, False, 1.0)] * (2 - ok))
    tbl = table(_records(spec))
    assert tbl["cells"]["C2/P1"] == {"n": 2, "exposed": 2, "TSR": 0.5, "PRR": 0.5, "RC": 0.5}
    assert tbl["per_mode"]["P1"] == {"TSR": 0.75, "PRR": 0.75, "RC": 0.25}
    assert tbl["per_mode"]["P3"] == {"TSR": 0.0, "PRR": 0.0, "RC": 1.0}
    assert tbl["per_level"]["C1"] == {"TSR": 0.6, "PRR": 0.5, "RC": 0.5}
    assert tbl["gaps"] == {"PRR(P1)-PRR(P3)": 0.75, "PRR(P2)-PRR(P4)": 0.75}
    tsr = (1 + 0.75 + 0.75 + 0 + 0) / 5
    assert tbl["composite"] == pytest.approx((tsr + 0.375 + (1 - 0.625)) / 3)
    text = format_table(tbl)
    assert "C2" in text and "75.00" in text and "PRR(P1)-PRR(P3): 75.00" in text


def test_bootstrap_ci_contains_the_estimate_and_is_seeded():
    grades = [_g(k % 3 != 0, k % 2 == 0, k % 4 == 0, (k % 5) / 5) for k in range(60)]
    point = cell_metrics(grades)
    for metric in ("TSR", "PRR", "RC"):
        lo, hi = bootstrap_ci(grades, metric, n=500, seed=7)
        assert lo <= point[metric] <= hi and lo < hi
        assert bootstrap_ci(grades, metric, n=500, seed=7) == (lo, hi)
    # Another seed resamples differently (the interval of a discrete statistic may
    # still coincide for one metric, not for all).
    assert any(bootstrap_ci(grades, m, n=500, seed=8) != bootstrap_ci(grades, m, n=500, seed=7)
               for m in ("TSR", "PRR", "RC"))
    assert bootstrap_ci([_g(True, False)] * 5, "TSR") == (1.0, 1.0)
    assert bootstrap_ci([_g(True, False)] * 5, "PRR") is None
    with pytest.raises(ValueError):
        bootstrap_ci(grades, "XYZ")


def test_bootstrap_table_brackets_the_composite():
    spec = {}
    for lv in ("C1", "C2"):
        spec[(lv, "P0")] = [_g(k % 4 != 0, False) for k in range(40)]
        for m in FAULT_MODES:
            spec[(lv, m)] = [_g(k % 3 == 0, True, k % 2 == 0, 0.0 if k % 3 == 0 else 1.0)
                             for k in range(40)]
    records = _records(spec)
    tbl, ci = table(records), bootstrap_table(records, n=400, seed=1)
    lo, hi = ci["composite"]
    assert lo <= tbl["composite"] <= hi
    for m in MODES:
        for x in ("TSR", "PRR", "RC"):
            if tbl["per_mode"][m][x] is None:
                assert ci["per_mode"][m][x] is None
            else:
                lo, hi = ci["per_mode"][m][x]
                assert lo - 1e-12 <= tbl["per_mode"][m][x] <= hi + 1e-12, (m, x)
    assert bootstrap_table(records, n=400, seed=1) == ci


def test_pass_hat_k():
    runs = {"a": [True, True, False], "b": [True, True, True], "c": [False, False, False]}
    assert pass_hat_k(runs, 1) == pytest.approx((2 / 3 + 1 + 0) / 3)
    assert pass_hat_k(runs, 2) == pytest.approx((1 / 3 + 1 + 0) / 3)  # C(2,2)/C(3,2)
    assert pass_hat_k(runs, 3) == pytest.approx((0 + 1 + 0) / 3)
    assert pass_hat_k(runs, 4) is None  # no task has 4 runs
    records = [{"task_id": t, "mode": "P1", "grade": {"success": s}}
               for t, xs in runs.items() for s in xs]
    assert pass_hat_k_records(records, 2) == pass_hat_k(runs, 2)


def test_rc_without_exposure_is_undefined_not_the_best_score():
    """A cell where no trajectory met a fault has no recovery cost (None, printed n/a):
    an RC of 0 would read as the best score of a model that was never tested."""
    assert cell_metrics([_g(True, False), _g(False, False)])["RC"] is None
    tbl = table(_records({("C1", "P1"): [_g(True, False)] * 2,
                          ("C2", "P1"): [_g(False, True, False, 1.0)] * 2}))
    assert tbl["cells"]["C1/P1"]["RC"] is None
    assert tbl["per_mode"]["P1"]["RC"] == 1.0  # the exposed level alone
    ci = bootstrap_table(_records({("C1", "P1"): [_g(True, False)] * 4}), n=50)
    assert ci["per_mode"]["P1"]["RC"] is None
    assert bootstrap_ci([_g(True, False)] * 4, "RC") is None


def test_bootstrap_table_brackets_the_per_level_values():
    spec = {(lv, m): [_g(k % 3 == 0, k % 2 == 0, k % 4 == 0, (k % 5) / 5) for k in range(30)]
            for lv in ("C1", "C3") for m in MODES}
    records = _records(spec)
    tbl, ci = table(records), bootstrap_table(records, n=300, seed=2)
    assert set(ci["per_level"]) == {"C1", "C3"}
    for lv in ("C1", "C3"):
        for x in ("TSR", "PRR", "RC"):
            lo, hi = ci["per_level"][lv][x]
            assert lo - 1e-12 <= tbl["per_level"][lv][x] <= hi + 1e-12, (lv, x)


def test_paired_bootstrap_intervals_of_b_minus_a():
    """Equal runs differ by exactly 0 everywhere; where B recovers what A did not, the
    interval of the change is positive; pairs resample together (seeded)."""
    from toolmaze_gym.metrics import paired_bootstrap, table_delta

    a = _records({("C1", "P0"): [_g(k % 2 == 0, False) for k in range(20)],
                  ("C1", "P1"): [_g(False, True, False, 1.0) for _ in range(20)]})
    b = _records({("C1", "P0"): [_g(k % 2 == 0, False) for k in range(20)],
                  ("C1", "P1"): [_g(k % 4 != 0, True, k % 4 != 0, 0.0) for k in range(20)]})
    same = paired_bootstrap(list(zip(a, a, strict=True)), n=200, seed=3)
    assert same["per_mode"]["P0"]["TSR"] == (0.0, 0.0)  # unpaired resampling would not be 0
    assert same["composite"] == (0.0, 0.0)
    ci = paired_bootstrap(list(zip(a, b, strict=True)), n=200, seed=3)
    assert ci["cells"]["C1/P1"]["TSR"][0] > 0 and ci["cells"]["C1/P1"]["RC"][1] < 0
    assert ci["per_mode"]["P0"]["TSR"] == (0.0, 0.0)
    assert ci["per_mode"]["P0"]["PRR"] is None  # nothing exposed in NP
    assert paired_bootstrap(list(zip(a, b, strict=True)), n=200, seed=3) == ci
    delta = table_delta(table(a), table(b))
    assert delta["per_mode"]["P1"]["TSR"] == pytest.approx(0.75)
    assert delta["cells"]["C1/P0"]["RC"] is None
