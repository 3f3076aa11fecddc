"""The numbers the chapter's prose quotes on Tables 5-7 (Yale faces), from the store and the
claims: :func:`_yale_facts` (glued by :func:`fsbook.experiments.projection.facts.facts`).
"""

from fsbook.claims import FAILS, HOLDS
from fsbook.experiments.projection.claims import equal_errors
from fsbook.experiments.projection.paper import (
    PAPER,
    YALE_K,
)
from fsbook.experiments.projection.words import (
    LABEL,
    agreement_words,
    counts,
    level_range,
    part_words,
    where,
)
from fsbook.report import (
    spaced,
)


def _yale_facts(res, v, agree, parts):
    tables, cl, C = res.tables, v.claims, v.by_claim
    yale = {t: tables[t] for t in YALE_K if t in tables}
    kpca_paper = [abs(PAPER[t]["mean"]["SVM-KPCA"] - PAPER[t]["mean"]["SVM-Kernel"]) <= PAPER[t]["se"]["SVM-Kernel"]
                  for t in YALE_K]
    eq = {n: equal_errors(res, f"Proj-{n}", f"SVM-{n}") for n in ("GDA", "OLap")}
    n_face = eq["GDA"][1]
    face_fits = [fit for p, r in zip(res.params, res.results) if p["part"] == "yale" for fit in r.values()]
    out = {"pp_paper_kpca": "within one standard error in all three tables" if all(kpca_paper) else
           f"within one standard error in {sum(kpca_paper)} of its three tables",
           "pp_yale_stored": f"The store holds {part_words(parts, 'yale')}",
           "pp_equal_svmr": (f"have exactly the test errors of SVM-GDA and SVM-OLap in every one of the "
                             f"{spaced(n_face)} stored face tasks") if all(e == n_face for e, _ in eq.values()) else
           (f"have exactly the test errors of SVM-GDA and SVM-OLap in {spaced(eq['GDA'][0])} and "
            f"{spaced(eq['OLap'][0])} of the {spaced(n_face)} stored face tasks"),
           "pp_tie_store_fits": spaced(len(face_fits)),
           "pp_tie_store_chance": spaced(sum(fit["error"] >= 0.5 for fit in face_fits))}
    if not yale:
        return {**out, **dict.fromkeys(("pp_yale_headline", "pp_kpca_text", "pp_olap_gda", "pp_yale_levels",
                                        "pp_yale_agree"), "not stored"), "pp_kpca_kernel": "are not stored"}
    gains = cl[cl["gain"] & cl["id"].isin(list(yale))]
    out["pp_yale_headline"] = f"Of the {len(gains)} projection gains of Tables 5–7, {counts(gains)}"
    same_k, _ = equal_errors(res, "SVM-KPCA", "SVM-Kernel")
    out["pp_kpca_kernel"] = f"have the same test error in {spaced(same_k)} of the {spaced(n_face)} stored face tasks"
    kp, kk = "Proj-KPCA below SVM-KPCA", "Proj-KPCA below SVM-Kernel"
    text = (f"{kp} {v.by_verdict([(LABEL[t], t, kp) for t in yale])}. "
            f"{kk} {v.by_verdict([(LABEL[t], t, kk) for t in yale])}")
    text += "".join(f". {where(t)[0].upper()}{where(t)[1:]}, against SVM-KPCA, it {v.described(t, kp)}"
                    for t in yale if C.loc[(t, kp), "verdict"] in (HOLDS, FAILS))
    out["pp_kpca_text"] = text
    out["pp_olap_gda"] = v.by_verdict([(LABEL[t], t, v.pair_claim(t, "SVM-OLap", "SVM-GDA")) for t in yale])
    out["pp_yale_levels"] = level_range(list(yale), PAPER, yale, "errors")
    out["pp_yale_agree"] = agreement_words(agree, yale)
    return out
