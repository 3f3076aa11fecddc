"""Statistics of the benchmark chapter: Friedman against its closed form, Nemenyi against the
studentized range, the critical difference against Demšar's (2006) table, Kuncheva's index on
hand-checked cases."""
import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from fsbook.stats import (
    average_ranks,
    critical_difference,
    friedman,
    kuncheva_index,
    kuncheva_stability,
    nemenyi,
    rank_matrix,
)


def _scores(n=6, k=4, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(rng.normal(size=(n, k)) + np.arange(k), index=[f"d{i}" for i in range(n)],
                        columns=[f"m{j}" for j in range(k)])


def test_ranks_with_ties_hand_checked():
    s = pd.DataFrame({"a": [0.9, 0.8], "b": [0.9, 0.7], "c": [0.5, 0.8]})
    r = rank_matrix(s)
    assert r.to_numpy().tolist() == [[1.5, 1.5, 3.0], [1.5, 3.0, 1.5]]
    assert average_ranks(s).to_dict() == {"a": 1.5, "b": 2.25, "c": 2.25}
    # printed digits decide nothing: 0.81 and 0.8 are not a tie, a last-bit difference is
    s2 = pd.DataFrame({"a": [0.81], "b": [0.80]})
    assert average_ranks(s2).to_dict() == {"a": 1.0, "b": 2.0}
    s3 = pd.DataFrame({"a": [60.5499999], "b": [60.51], "c": [60.5499999 * (1 + 1e-15)]})
    assert rank_matrix(s3).to_numpy().tolist() == [[1.5, 3.0, 1.5]]
    assert rank_matrix(s3, higher_is_better=False).to_numpy().tolist() == [[2.5, 1.0, 2.5]]
    assert average_ranks(s2, higher_is_better=False).to_dict() == {"b": 1.0, "a": 2.0}


def test_friedman_matches_closed_form_from_ranks():
    s = _scores()
    n, k = s.shape
    R = rank_matrix(s).mean().to_numpy()  # no ties in continuous scores
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(R ** 2) - k * (k + 1) ** 2 / 4)
    stat, p = friedman(s)
    assert stat == pytest.approx(chi2, rel=1e-12)
    assert p == pytest.approx(sps.chi2.sf(chi2, k - 1), rel=1e-12)


def test_nemenyi_matches_studentized_range():
    s = _scores(n=8, k=5, seed=1)
    n, k = s.shape
    R = rank_matrix(s).mean()
    p = nemenyi(s)
    assert np.allclose(p.to_numpy(), p.to_numpy().T) and np.allclose(np.diag(p), 1.0)
    q = abs(R["m0"] - R["m4"]) / np.sqrt(k * (k + 1) / (6 * n)) * np.sqrt(2)
    assert p.loc["m0", "m4"] == pytest.approx(sps.studentized_range.sf(q, k, np.inf), rel=1e-6)


@pytest.mark.parametrize("k,q", [(2, 1.960), (3, 2.343), (4, 2.569), (5, 2.728), (10, 3.164)])
def test_critical_difference_matches_demsar_table(k, q):
    # Demšar (2006), Table 5(a): q_0.05 of the Nemenyi test
    assert critical_difference(k, 1) == pytest.approx(q * np.sqrt(k * (k + 1) / 6), abs=2e-3 * np.sqrt(k * (k + 1) / 6))


def test_kuncheva_hand_checked():
    assert kuncheva_index([0, 1, 2], [2, 1, 0], 10) == pytest.approx(1.0)
    assert kuncheva_index([0, 1], [2, 3], 10) == pytest.approx((0 * 10 - 4) / (2 * 8))
    assert kuncheva_index([0, 1], [0, 2], 4) == pytest.approx(0.0)  # r = k²/n: chance level
    assert kuncheva_index([0, 1], [2, 3], 4) == pytest.approx(-1.0)
    assert kuncheva_stability([[0, 1], [0, 1], [2, 3]], 4) == pytest.approx((1 - 1 - 1) / 3)


def test_bad_input():
    with pytest.raises(ValueError, match="equal size"):
        kuncheva_index([0, 1], [0], 5)
    with pytest.raises(ValueError, match="undefined"):
        kuncheva_index([0, 1], [0, 1], 2)
    with pytest.raises(ValueError, match="indices"):
        kuncheva_index([0, 7], [0, 1], 5)
    with pytest.raises(ValueError, match="at least two"):
        kuncheva_stability([[0, 1]], 5)
    s = _scores()
    with pytest.raises(ValueError, match="at least 3 methods"):
        friedman(s[["m0", "m1"]])
    with pytest.raises(ValueError, match="NaN"):
        friedman(s.where(s > -10, np.nan).assign(m0=np.nan))
    with pytest.raises(TypeError, match="DataFrame"):
        average_ranks(s.to_numpy())
    with pytest.raises(ValueError, match="alpha"):
        critical_difference(3, 4, alpha=1.5)


def test_holm_vs_control_by_hand():
    """Demšar's (2006) comparison with a control: z = (R_i - R_c)/sqrt(k(k+1)/(6N)), two-sided normal
    p, Holm's step-down over the k - 1 comparisons, computed here by hand on ranks known in advance."""
    from fsbook.stats import holm_vs_control

    # 5 data sets, 4 methods; ranks per data set (1 = best) set by the scores
    ranks = np.array([[4, 1, 2, 3], [4, 2, 1, 3], [3, 1, 2, 4], [4, 1, 3, 2], [4, 2, 1, 3]], dtype=float)
    s = pd.DataFrame(10.0 - ranks, columns=["ctl", "x", "y", "w"])
    out = holm_vs_control(s, "ctl")
    assert out.index.tolist() == ["x", "y", "w"]
    r = {"ctl": 19 / 5, "x": 7 / 5, "y": 9 / 5, "w": 15 / 5}
    se = np.sqrt(4 * 5 / (6 * 5))
    z = {m: (r[m] - r["ctl"]) / se for m in ("x", "y", "w")}
    p = {m: 2 * (1 - sps.norm.cdf(abs(z[m]))) for m in z}
    # Holm by hand: p_x < p_y < p_w, multipliers 3, 2, 1, running maximum
    holm = {"x": 3 * p["x"]}
    holm["y"] = max(holm["x"], 2 * p["y"])
    holm["w"] = min(1.0, max(holm["y"], p["w"]))
    for m in ("x", "y", "w"):
        assert out.loc[m, "rank"] == pytest.approx(r[m])
        assert out.loc[m, "z"] == pytest.approx(z[m])
        assert out.loc[m, "p"] == pytest.approx(p[m])
        assert out.loc[m, "p_holm"] == pytest.approx(holm[m])
    assert (out["z"] < 0).all()                      # every method ranks better than the control
    # lower-is-better scores reverse the ranks; an unknown control is refused
    flipped = holm_vs_control(-s, "ctl", higher_is_better=False)
    assert np.allclose(flipped.to_numpy(), out.to_numpy())
    with pytest.raises(ValueError, match="control"):
        holm_vs_control(s, "nope")
