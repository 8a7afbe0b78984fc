"""papi_report.page.openmp_compare: --compare by OpenMP parallel region (issue 58): the
rows of scope "openmp" (compare_units.openmp_units: a parallel region by its name and its
site, "NAME [SITE]" where it has one, a construct by "KIND CONSTRUCT" (its own section), the
processes' run as "(processes)"), one line per region with A, B and B - A of its wall time,
lost thread time and efficiencies (load balance, scheduling, parallel; the serialization
for the processes), and the verdict of its wall time as compare.py judged it (its other
rows' verdicts beside). Written as compare_openmp.csv and a section of compare.txt."""
import math

import pandas as pd

#: The quantities shown, in order (compare_units.OPENMP_REGION and OPENMP_PROCESS).
QUANTITIES = ("wall_s", "lost_s", "serial_s", "serialization", "load_balance", "scheduling",
              "parallel_efficiency")
COLUMNS = ["entity"] + ["%s_%s" % (q, side) for q in QUANTITIES for side in ("a", "b", "delta")] + \
    ["wall_ratio", "wall_verdict", "moved"]


def _nan(v):
    return v is None or (isinstance(v, float) and math.isnan(v))


#: A construct's quantities (compare_units.OPENMP_CONSTRUCT).
CONSTRUCT_QUANTITIES = ("construct_time_s", "construct_wait_s", "construct_entries")


def table(df):
    """One row per parallel region (and the processes' run first) of the comparison df."""
    rows = df[(df["scope"] == "openmp") & ~df["quantity"].isin(CONSTRUCT_QUANTITIES)]
    out = []
    for entity, g in rows.groupby("entity", sort=False):
        by = {r["quantity"]: r for r in g.to_dict("records")}
        row = {"entity": entity}
        for q in QUANTITIES:
            r = by.get(q)
            a, b = (math.nan, math.nan) if r is None else (r["a"], r["b"])
            row.update({q + "_a": a, q + "_b": b, q + "_delta": b - a})
        wall = by.get("wall_s")
        row["wall_ratio"] = math.nan if wall is None else wall["ratio"]
        row["wall_verdict"] = "" if wall is None else wall["verdict"]
        row["moved"] = ", ".join("%s %s" % (q, by[q]["verdict"]) for q in QUANTITIES
                                 if q != "wall_s" and q in by and by[q]["verdict"] != "same")
        out.append(row)
    t = pd.DataFrame(out, columns=COLUMNS)
    first = t["entity"] == "(processes)"
    return pd.concat([t[first], t[~first]], ignore_index=True)


def constructs(df):
    """One row per OpenMP construct ("KIND CONSTRUCT") of the comparison df: A, B and the
    verdict of its time inside and its waits, its entries A and B."""
    rows = df[(df["scope"] == "openmp") & df["quantity"].isin(CONSTRUCT_QUANTITIES)]
    out = []
    for entity, g in rows.groupby("entity", sort=False):
        by = {r["quantity"]: r for r in g.to_dict("records")}
        row = {"entity": entity}
        for q in CONSTRUCT_QUANTITIES:
            r = by.get(q)
            row[q + "_a"] = math.nan if r is None else r["a"]
            row[q + "_b"] = math.nan if r is None else r["b"]
            row[q + "_verdict"] = "" if r is None else r["verdict"]
        out.append(row)
    return pd.DataFrame(out, columns=["entity"] + ["%s_%s" % (q, k) for q in CONSTRUCT_QUANTITIES
                                                   for k in ("a", "b", "verdict")])


def render_constructs(t):
    """compare.txt's section of OpenMP constructs; empty without them."""
    if t is None or not len(t):
        return ""
    w = max(12, min(64, max(len(str(e)) for e in t["entity"])))
    lines = ["OpenMP by construct (its threads' time inside and waits in ms, A->B, verdicts; "
             "entries A->B):",
             "  %-*s  %-24s  %-24s  %s" % (w, "construct", "time A->B (verdict)", "wait A->B (verdict)",
                                          "entries")]
    for r in t.to_dict("records"):
        cells = []
        for q in ("construct_time_s", "construct_wait_s"):
            cells.append("%s->%s %s" % (_ms(r[q + "_a"]), _ms(r[q + "_b"]), r[q + "_verdict"]))
        ent = "%s->%s" % tuple("-" if _nan(r["construct_entries_" + k]) else "%d" % r["construct_entries_" + k]
                               for k in ("a", "b"))
        lines.append("  %-*s  %-24s  %-24s  %s" % (w, str(r["entity"])[:w], cells[0], cells[1], ent))
    return "\n".join(lines) + "\n\n"


def _ms(v):
    return "-" if _nan(v) else "%.1f" % (v * 1e3)


def _eff(t, q):
    a, b, d = t[q + "_a"], t[q + "_b"], t[q + "_delta"]
    if _nan(a) and _nan(b):
        return "-"
    return "%s->%s (%s)" % ("-" if _nan(a) else "%.3f" % a, "-" if _nan(b) else "%.3f" % b,
                            "-" if _nan(d) else "%+.3f" % d)


def render_text(t):
    """compare.txt's OpenMP section; empty without OpenMP rows."""
    if t is None or not len(t):
        return ""
    w = max(12, min(56, max(len(str(e)) for e in t["entity"])))
    head = "  %-*s  %9s  %9s  %9s  %7s  %-8s  %-22s  %-22s  %-22s  %s" % (
        w, "parallel region", "wall A ms", "wall B ms", "delta ms", "B/A", "verdict",
        "load balance A->B", "scheduling A->B", "parallel A->B", "other rows moved")
    ser = [_eff(r, "serialization") for r in t.to_dict("records") if r["entity"] == "(processes)"]
    lines = ["OpenMP by parallel region (wall time in ms, B - A; efficiencies A->B (B - A); "
             "(processes): the run's, its serialization %s):" % (ser[0] if ser else "-"), head]
    for r in t.to_dict("records"):
        ratio = "-" if _nan(r["wall_ratio"]) else "%.3f" % r["wall_ratio"]
        lines.append("  %-*s  %9s  %9s  %9s  %7s  %-8s  %-22s  %-22s  %-22s  %s" % (
            w, str(r["entity"])[:w], _ms(r["wall_s_a"]), _ms(r["wall_s_b"]), _ms(r["wall_s_delta"]),
            ratio, r["wall_verdict"], _eff(r, "load_balance"), _eff(r, "scheduling"),
            _eff(r, "parallel_efficiency"), r["moved"]))
    return "\n".join(lines) + "\n\n"
