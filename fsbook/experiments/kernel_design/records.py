"""What the chapter quotes from the benchmark records of ``benchmarks/kernel_design_sdp.py`` (the
LP against the SDP) and ``benchmarks/kernel_design.py`` (the weak-kernel regimes, column
generation on ARCENE): the tables it shows and the sentences its prose glues.

Each ``*_facts`` function maps glue keys to formatted text, as
:func:`fsbook.experiments.kernel_design.facts.facts` does for the store.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.claims import min_achievable_p
from fsbook.experiments.kernel_design.claims import REGIME_HYPOTHESES, sdp_cost_claims
from fsbook.experiments.kernel_design.paper import PAPER_NAMES
from fsbook.report import describe_claim, format_p, format_significant, format_value, join_words, spaced


# ----------------------------------------------------------------------------- LP against SDP
def sdp_table(rows):
    """The LP against the SDP on every data set: CPU seconds, the SDP/LP ratio, the fraction of
    test triples each solution respects, and whether the LP's optimum is α = 0."""
    return pd.DataFrame([{
        "data set": PAPER_NAMES[r["dataset"]], "kernels": f"{r['variant']} ({r['kernels']})",
        "LP, cutting planes (s)": r["lp_cutting_plane"]["cpu_seconds"],
        "LP, direct HiGHS (s)": r["lp_full"]["cpu_seconds"],
        "SDP, Clarabel (s)": r["sdp_clarabel"]["cpu_seconds"],
        "SDP / cutting planes": format_value(r["cpu_ratio_sdp_clarabel_over_lp"], 1),
        "accuracy, LP (cutting planes)": format_value(r["lp_cutting_plane"]["test_accuracy"], 3),
        "accuracy, SDP": format_value(r["sdp_clarabel"]["test_accuracy"], 3),
        "LP α = 0": r["lp_cutting_plane"]["zero_mixture"]} for r in rows])


def _of_variant(rows, variant):
    return [r for r in rows if r["variant"] == variant]


def accuracy_gap(rows, variant):
    """The largest difference between the fractions of test triples the SDP's and the
    cutting-plane LP's kernels respect, over the data sets of one kernel family.

    Examples
    --------
    >>> rows = [{"variant": "full", "sdp_clarabel": {"test_accuracy": a},
    ...          "lp_cutting_plane": {"test_accuracy": b}} for a, b in [(0.9, 0.88), (0.7, 0.75)]]
    >>> round(accuracy_gap(rows, "full"), 3)
    0.05
    """
    return max(abs(r["sdp_clarabel"]["test_accuracy"] - r["lp_cutting_plane"]["test_accuracy"])
               for r in _of_variant(rows, variant))


def _median_ratio(rows, variant):
    return format_value(float(np.median(
        [r["cpu_ratio_sdp_clarabel_over_lp"] for r in _of_variant(rows, variant)])), 0)


def _problem_name(entry):
    """``"balance_scale (weak, clarabel)"`` → ``"Balance Scale (weak kernels)"``."""
    dataset, rest = entry.split(" (", 1)
    return f"{PAPER_NAMES[dataset]} ({rest.split(',')[0]} kernels)"


def _exponent(growth, key):
    g = growth[key]
    return f"{format_value(g['exponent'], 2)} ± {format_value(g['se'], 2)} ({g['n']} sizes)"


def _weak_zero_sentence(rows):
    weak = _of_variant(rows, "weak")
    lp_zero = [r for r in weak if r["lp_cutting_plane"]["zero_mixture"]]
    sdp_acc = [r["sdp_clarabel"]["test_accuracy"] for r in lp_zero]
    return (f"the cutting-plane LP returns α = 0 on {len(lp_zero)} of the {len(weak)} data sets, and "
            f"the SDP a kernel that respects {format_value(min(sdp_acc), 3)} to "
            f"{format_value(max(sdp_acc), 3)} of the test triples there") if lp_zero else None


def _direct_noise_sentence(rows):
    noisy = [r for r in _of_variant(rows, "weak")  # same objective, not the cutting planes' zero kernel
             if r["lp_full"]["objective"] == r["lp_cutting_plane"]["objective"]
             and r["lp_full"]["test_accuracy"] != r["lp_cutting_plane"]["test_accuracy"]]
    if not noisy:
        return "the direct HiGHS solve returns α = 0 there too"
    acc = [r["lp_full"]["test_accuracy"] for r in noisy]
    size = max(max(abs(r["lp_full"]["min_eig_S"]), abs(r["lp_full"]["max_dominance_violation"]))
               for r in noisy)
    return (f"the direct HiGHS solve stops at the same objective on "
            f"{join_words(PAPER_NAMES[r['dataset']] for r in noisy)}, but not exactly at α = 0: its "
            f"learnt kernel is at most of order {size:.0e} on S (smallest eigenvalue and dominance "
            f"violation in the record), the zero mixture up to rounding, and the "
            f"{format_value(min(acc), 3)} to {format_value(max(acc), 3)} of the test triples it "
            f"respects are rounding noise")


def _replaces_sentence(rows):
    """Whether the LP replaces the SDP: with full kernels only, or with both families."""
    weak_zero = _weak_zero_sentence(rows)
    if weak_zero:
        return (f"only with full kernels. There the SDP's kernels respect the same held-out triples to "
                f"within {format_value(accuracy_gap(rows, 'full'), 3)} on every data set of the "
                f"benchmark (Section 3). With weak kernels {weak_zero}: the LP's dominance loses what "
                "the SDP learns")
    return ("with full and weak kernels alike, the SDP's kernels respecting the same held-out triples "
            f"to within {format_value(max(accuracy_gap(rows, 'full'), accuracy_gap(rows, 'weak')), 3)}")


def sdp_facts(record, scaling):
    """Glue key → text for the LP against the SDP: the record ``record`` (section ``"datasets"``
    of ``kernel_design_sdp``, as :func:`fsbook.benchmark_records.read_benchmark` returns it) and
    the values of its section ``"scaling"``; the claims are :func:`sdp_cost_claims`'s."""
    v = record["values"]
    rows = v["rows"]
    table = sdp_cost_claims(rows)
    cp_full = table.set_index(["a", "variant"]).loc[("LP, cutting planes", "full")]
    n_sets = int(cp_full["n"])
    sizes = [r["points_S"] for r in scaling["rows"]]
    growth = scaling["growth_exponents"]
    return {
        "kd_sdp_setting": v["setting"].replace("gamma", "γ"),
        "kd_sdp_record": f"{record['machine']['cpu']}, {record['machine']['cores']} cores, "
                         f"{record['date']}, commit {record['commit']}",
        "kd_sdp_ratio_full": _median_ratio(rows, "full"),
        "kd_sdp_ratio_weak": _median_ratio(rows, "weak"),
        "kd_sdp_acc_full": format_value(accuracy_gap(rows, "full"), 3),
        "kd_sdp_weak_zero": _weak_zero_sentence(rows) or "",
        "kd_sdp_direct_noise": _direct_noise_sentence(rows),
        "kd_sdp_at_most": "on every problem" if v["summary"]["clarabel"]["all_at_most_lp"] else
                          "not on every problem (see the record)",
        "kd_sdp_inaccurate": join_words(_problem_name(e) for e in v["summary"]["sdp_inaccurate"]),
        "kd_sdp_scaling": f"{scaling['setting'].replace('gamma', 'γ')}; |S| from {min(sizes)} "
                          f"to {max(sizes)}",
        "kd_sdp_exp_cp": _exponent(growth, "lp_cutting_plane"),
        "kd_sdp_exp_full": _exponent(growth, "lp_full"),
        "kd_sdp_exp_sdp": _exponent(growth, "sdp_clarabel"),
        "kd_sdp_min_p": f"{n_sets} data sets, the exact test's smallest p-value is "
                        f"{format_value(2 / 2 ** n_sets, 4)} (all {n_sets} in one direction), before Holm",
        "kd_sdp_verdict": cp_full["verdict"],
        "kd_sdp_detail": describe_claim(cp_full, units="decades"),
        "kd_sdp_all": join_words(f"{r['verdict']} for {r['a'].removeprefix('LP, ')} "
                                 f"({r['variant']} kernels, {format_p(r['p_adj'])})"
                                 for _, r in table.iterrows()),
        "kd_replaces": _replaces_sentence(rows),
    }


# ----------------------------------------------------------------------------- weak-kernel regimes
def regime_claim_rows(rows, datasets):
    """The rows of :func:`~fsbook.experiments.kernel_design.claims.regime_claims`, each claim
    prefixed by its data set's name (the pooled rows by the names of ``datasets``).

    Examples
    --------
    >>> rows = pd.DataFrame({"dataset": ["iris", ""], "claim": ["fewer", "α ≠ 0"]})
    >>> regime_claim_rows(rows, ["iris", "wine"])["claim"].tolist()
    ['Iris: fewer', 'Iris and Wine, fits pooled: α ≠ 0']
    """
    rows = rows.copy()
    pooled = join_words(PAPER_NAMES[d] for d in dict.fromkeys(datasets))
    rows["claim"] = [f"{PAPER_NAMES[d]}: {c}" if d else f"{pooled}, fits pooled: {c}"
                     for d, c in zip(rows["dataset"], rows["claim"])]
    return rows


def _fits_nonzero(reg, regimes):
    g = reg[reg["regime"].isin(regimes)]
    return int((~g["alpha_zero"]).sum()), len(g)


def _n_fewer(reg, regimes):
    g = reg[reg["regime"].isin(regimes)]
    return int((g["n_selected"] < g["D"]).sum()), len(g)


def _kept_phrase(reg, regime):
    g = reg[reg["regime"] == regime]
    fewer = int((g["n_selected"] < g["D"]).sum())
    means = join_words(f"{PAPER_NAMES[d]} {format_value(x['n_selected'].mean(), 1)} of {int(x['D'].iloc[0])}"
                       for d, x in g.groupby("dataset", sort=False))
    return f"fewer than D features in {fewer} of its {len(g)} fits ({means} on average)"


def _against_best_phrase(per, regime):
    rows = per[per["claim"] == f"{REGIME_HYPOTHESES[regime]}: above the best single kernel"]
    by = {v: [PAPER_NAMES[d] for d in rows[rows["verdict"] == v]["dataset"]]
          for v in ("holds", "fails", "not separable")}
    parts = [f"{word} {join_words(by[v])}" for v, word in (("holds", "separably ahead on"),
                                                           ("fails", "behind on"),
                                                           ("not separable", "not separable on")) if by[v]]
    return "against the best single kernel it is " + join_words(parts)


def _regime_conclusion(reg, nz_S, n_S, nz_t, n_t, same_lp):
    few_t, n_tt = _n_fewer(reg, ["dominance per triple", "raw, dominance per triple"])
    few_nn, n_nn = _n_fewer(reg, ["α ≥ 0 (ours)"])
    return (("Raw features (a) and other widths (b) do not explain the zero kernel: with dominance on "
             "all of S it is zero in every fit. " if nz_S == 0 else
             f"With dominance on all of S the kernel is non-zero in {nz_S} of {n_S} fits. ")
            + ("The set on which dominance is asked explains it (c): asked of each triple's own points, "
               f"formulation (7) learns a non-zero kernel in {nz_t} of {n_t} fits"
               if nz_t == n_t else f"Dominance per triple (c) gives a non-zero kernel in {nz_t} of {n_t} fits")
            + (". Even there it removes no feature: every fit keeps all D"
               if few_t == 0 else f". It keeps fewer than D features in only {few_t} of those {n_tt} fits")
            + f". Only α ≥ 0 (d), our departure, reduces the features as Figure 2 does ({few_nn} of "
            f"{n_nn} fits). "
            + ("Raw features do explain the paper's remark on the linear and degree-2 kernels, which are "
               "identical on them" if same_lp else
               "Raw features do not make the linear and degree-2 kernels identical"))


def _regime_psd_sentence(reg):
    tri = reg[reg["regime"].isin(["dominance per triple", "raw, dominance per triple"])]
    neg = int((tri["min_eig_S"] < -1e-6).sum())
    if not neg:
        return f"it has no negative eigenvalue beyond rounding on all of S in any of its {len(tri)} fits"
    return (f"on all of S its smallest eigenvalue over its largest diagonal entry is as low as "
            f"{format_value(float(tri['min_eig_S'].min()), 3)}, below −10⁻⁶ in {neg} of its {len(tri)} "
            "fits, so dominance per triple gives up the positive semidefiniteness on S that the paper's "
            "dominance is there for")


def _linpoly_sentence(raw, std):
    return (f"On raw features the linear and degree-2 kernels respect exactly the same fraction of test "
            f"triples on {int((raw['linear'] == raw['poly2']).sum())} of {len(raw)} splits "
            f"({'no' if not raw['negative_features'].any() else 'some'} raw feature is negative); on "
            f"standardised features on {int((std['linear'] == std['poly2']).sum())} of {len(std)}, "
            f"where the degree-2 kernel is behind by "
            f"{format_value(float((std['linear'] - std['poly2']).mean()), 3)} on average")


def regime_facts(record, table):
    """Glue key → text for the weak-kernel regimes: the record ``record`` (section ``"regimes"``
    of ``kernel_design``) and the claims ``table`` that
    :func:`~fsbook.experiments.kernel_design.claims.regime_claims` decides on its rows."""
    reg = pd.DataFrame(record["values"]["rows"])
    over = table[table["dataset"] == ""].set_index("claim")    # "α ≠ 0 more often than ours", pooled
    per = table[table["dataset"] != ""]
    n_split = int(reg["split"].nunique())
    H = REGIME_HYPOTHESES
    on_S = ["raw features", "narrow widths", "wide widths"]
    nz_S, n_S = _fits_nonzero(reg, ["ours"] + on_S)
    tri = ["dominance per triple", "raw, dominance per triple"]
    nz_t, n_t = _fits_nonzero(reg, tri)
    raw = reg[reg["scale"] == "raw"].drop_duplicates(["dataset", "split"])
    std = reg[reg["scale"] == "standardised"].drop_duplicates(["dataset", "split"])
    nn = "α ≥ 0 (ours)"
    return {
        "kd_reg_basis": f"{join_words(PAPER_NAMES[d] for d in dict.fromkeys(reg['dataset']))}, {n_split} "
                        f"random splits of the protocol, {spaced(int(reg['n_train'].iloc[0]))} training and "
                        f"{spaced(int(reg['n_test'].iloc[0]))} test triples",
        "kd_reg_cpu": format_value(float(record["values"]["cpu_seconds"]), 0),
        "kd_reg_fits": str(int(over["n"].iloc[0])),
        "kd_reg_n_split": {5: "five"}.get(n_split, str(n_split)),
        "kd_reg_min_p": format_value(min_achievable_p("sign", n_split), 4),
        "kd_reg_record": f"{record['machine']['cpu']}, {record['date']}, commit {record['commit']}",
        "kd_reg_zero": f"with dominance on all of S the LP learns a non-zero kernel in {nz_S} of its {n_S} "
                       "fits, with the features standardised or raw and at every width set; \"α ≠ 0 more "
                       "often than ours\" is " + join_words(
                           f"{over.loc[f'{H[h]}: α ≠ 0 more often than ours', 'verdict']} for {H[h]}"
                           for h in on_S),
        "kd_reg_triple": f"with dominance asked of each triple's own 3 × 3 submatrix only, the LP learns a "
                         f"non-zero kernel in {nz_t} of {n_t} fits, standardised or raw. With standardised "
                         f"features it keeps {_kept_phrase(reg, tri[0])}; {_against_best_phrase(per, tri[0])}. "
                         f"On raw features it keeps {_kept_phrase(reg, tri[1])}; "
                         f"{_against_best_phrase(per, tri[1])}",
        "kd_reg_nonneg": f"with α ≥ 0 in place of dominance (d) it keeps {_kept_phrase(reg, nn)}; "
                         f"{_against_best_phrase(per, nn)}",
        "kd_reg_linpoly": _linpoly_sentence(raw, std),
        "kd_reg_conclusion": _regime_conclusion(reg, nz_S, n_S, nz_t, n_t,
                                                bool((raw["linear"] == raw["poly2"]).all())),
        "kd_reg_psd": _regime_psd_sentence(reg),
    }


# ----------------------------------------------------------------------------- ARCENE
def _solver_cell(run, solver, key):
    return str(run[solver][key]) if solver in run else "—"


def arcene_table(runs):
    """Column generation against the direct HiGHS solve on ARCENE, one column per size (the
    values of section ``"arcene"`` of ``kernel_design``)."""
    return pd.DataFrame({f"{r['samples']} × {spaced(r['features'])}": {
        "direct HiGHS solve, CPU (s)": _solver_cell(r, "direct", "cpu_seconds"),
        "column generation, CPU (s)": _solver_cell(r, "colgen", "cpu_seconds"),
        "direct / column generation": format_value(r["cpu_ratio"], 1) if "cpu_ratio" in r else "—",
        "objectives, relative difference":
            format_significant(r["objective_rel_diff"], 1) if "direct" in r else "—",
        "same selected features": str(r["same_features"]) if "direct" in r else "—",
        "selected features (column generation)": str(r["colgen"]["selected"]),
        "non-zero kernels (column generation)": str(r["colgen"]["nonzero_kernels"]),
        "LP solves (column generation)": str(r["colgen"]["lp_solves"]),
        "peak memory, direct (GB)": _solver_cell(r, "direct", "peak_rss_gb"),
        "peak memory, column generation (GB)": _solver_cell(r, "colgen", "peak_rss_gb"),
    } for _, r in sorted(runs.items(), key=lambda kv: int(kv[0]))})


def _speed_words(run):
    """How much faster (or slower) column generation is than the direct solve, in CPU time."""
    ratio = run["cpu_ratio"]
    return (f"{ratio:.1f} times faster" if ratio >= 1 else
            f"{run['colgen']['cpu_seconds'] / run['direct']['cpu_seconds']:.1f} times slower")


def _support_words(run):
    """Whether both solvers select the same features."""
    return (f"the same {run['colgen']['selected']} selected features" if run["same_features"] else
            f"{run['direct']['selected']} and {run['colgen']['selected']} selected features, not the same")


def arcene_facts(runs):
    """Glue key → text for column generation on ARCENE: the smallest size and the largest (its
    peak memory, and the direct solve's speed and memory where it ran)."""
    small, large = runs[min(runs, key=int)], runs[max(runs, key=int)]
    both = "direct" in large and "cpu_ratio" in large
    return {
        "kd_samples": small["samples"],
        "kd_small_features": spaced(small["features"]),
        "kd_small_rel_diff": format_significant(small["objective_rel_diff"], 1),
        "kd_small_support": _support_words(small),
        "kd_small_speed": _speed_words(small),
        "kd_small_nonzero": small["colgen"]["nonzero_kernels"],
        "kd_small_lp_solves": small["colgen"]["lp_solves"],
        "kd_large_features": spaced(large["features"]),
        "kd_large_peak": large["colgen"]["peak_rss_gb"],
        "kd_large_direct": f"the direct solve needs {large['direct']['peak_rss_gb']} GB" if "direct" in large
                           else "the direct solve at this size is not in the record",
        "kd_large_speed": (f"It reaches the direct solve's optimum {_speed_words(large)} in CPU time "
                           f"(relative difference {format_significant(large['objective_rel_diff'], 1)}, "
                           f"{_support_words(large)})." if both else
                           "Its speed against the direct solve at this size is not in the record."),
    }
