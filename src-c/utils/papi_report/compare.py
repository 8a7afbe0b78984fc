"""papi_report.compare: two runs side by side, with a verdict per row that takes the noise
into account.

A side is one run or several repeated runs of the same program: region directories
(papi_hl_output), papi_run directories, MPI reports, or a run's directory holding them.
Each row is one quantity of one thing: a region's real time, cycles, each event and each
named metric (scope "region", by the region's path); the job's wall, MPI and compute time,
counters and metrics and each MPI call's time (scope "job" and "mpi call", from the MPI
report); and each rank's values (scope "rank").

The numbers of a row on one side are its units: per run, per rank and per thread (a
region on 4 threads of 2 ranks has 8 units a run). A side's value is the mean over its
units. The ratio is B/A of those means. The noise of a side is the spread of its values
as a coefficient of variation (standard deviation over mean): of the per-run means when a
side has several runs, else of the units of its one run (thread and rank spread), 0 for a
single unit. A row is "same" when |ratio - 1| is at most the larger of the tolerance
(default 10%) and twice the combined noise, sqrt(cv_A^2 + cv_B^2); otherwise "slower" or
"faster" for a time (more time is slower), "higher" or "lower" for a count or a metric.
A quantity present on one side only is "only in A" or "only in B", never 0.
Profiled runs (papi_run --sample) add a row per function and event (scope "function"):
profile_compare.py says how, with its sampling noise."""
import base64
import html
import io
import math
import os
import re

import pandas as pd

from . import energy, pop_compare, profile_compare
from .catalog import tables
from .check import MalformedInput
from .inputs import classify as classify_path
from .load import load_mpi, load_regions

DEFAULT_TOLERANCE = 0.10
TIME_QUANTITIES = {"real_time_nsec", "cycles", "wall_s", "mpi_s", "compute_s", "time_s",
                   "perf::TASK-CLOCK", "perf::CPU-CLOCK", "PAPI_TOT_CYC"}
COLUMNS = ["scope", "entity", "quantity", "unit", "a", "b", "ratio", "noise_a", "noise_b",
           "units_a", "units_b", "runs_a", "runs_b", "threshold", "verdict", "energy_a_j",
           "energy_b_j"]  # energy_*: the entity's CPU energy on each side (energy.py), J


def _side_units(paths, classify):
    """[(run index, scope, entity, quantity, unit, value)] of every unit of every run."""
    out = []
    for run, path in enumerate(paths):
        kinds = classify(path)
        if not kinds and profile_compare.has_profiles(path):
            continue  # papi_run --sample's profiles alone: compared by function only
        if not kinds:
            raise MalformedInput("%s is neither an MPI report nor region files" % path)
        for kind, p in kinds:
            if kind == "mpi":
                out += _mpi_units(run, load_mpi(p))
            else:
                out += _region_units(run, load_regions([p]))
    return out


def _region_units(run, files):
    t = tables(regions=files)
    out = []
    tot = t.get("region_totals")
    if tot is not None and len(tot):
        fixed = {"rank", "thread", "name", "path", "region_count"}
        for col in [c for c in tot.columns if c not in fixed]:
            unit = "s" if col.startswith("real_time_nsec") else ""
            for _, r in tot.iterrows():
                v = r[col]
                if pd.isna(v):
                    continue
                v = float(v) / 1e9 if col.startswith("real_time_nsec") else float(v)
                out.append((run, "region", r["path"], col, unit, v))
    met = t.get("region_metrics")
    if met is not None and len(met):
        paths = {}
        if tot is not None and len(tot):
            paths = {(r["rank"], r["thread"], r["name"]): r["path"] for _, r in tot.iterrows()}
        for _, r in met.iterrows():
            if pd.isna(r["value"]):
                continue
            path = paths.get((r["rank"], r["thread"], r["region"]), r["region"])
            out.append((run, "region", path, r["metric"], r["unit"] or "", float(r["value"])))
    return out


def _mpi_units(run, rep):
    t = tables(mpi=rep)
    out = []
    ranks = t["mpi_ranks"]
    for col, unit in (("wall_s", "s"), ("mpi_s", "s"), ("compute_s", "s")):
        for _, r in ranks.iterrows():
            if pd.notna(r[col]):
                out.append((run, "job", "", col, unit, float(r[col])))
                out.append((run, "rank", str(int(r["rank"])), col, unit, float(r[col])))
    for _, r in t["mpi_counters"].iterrows():
        if pd.notna(r["value"]):
            out.append((run, "job", "", r["counter"], "", float(r["value"])))
            out.append((run, "rank", str(int(r["rank"])), r["counter"], "", float(r["value"])))
    for _, r in t["mpi_rank_metrics"].iterrows():
        if pd.notna(r["value"]):
            out.append((run, "job", "", r["metric"], r["unit"] or "", float(r["value"])))
            out.append((run, "rank", str(int(r["rank"])), r["metric"], r["unit"] or "", float(r["value"])))
    for _, r in t["mpi_calls"].iterrows():
        if pd.notna(r["time_s"]):
            out.append((run, "mpi call", r["call"], "time_s", "s", float(r["time_s"])))
    return out


def _cv(values):
    n = len(values)
    if n < 2:
        return 0.0
    m = sum(values) / n
    if m == 0:
        return 0.0
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return math.sqrt(var) / abs(m)


def _summarise(units, runs):
    """{(scope, entity, quantity): (unit, mean, cv, number of units)}."""
    groups = {}
    for run, scope, entity, q, unit, v in units:
        groups.setdefault((scope, entity, q), (unit, {}))[1].setdefault(run, []).append(v)
    out = {}
    for key, (unit, per_run) in groups.items():
        values = [v for vs in per_run.values() for v in vs]
        mean = sum(values) / len(values)
        if runs > 1:  # the spread of repeated runs
            cv = _cv([sum(vs) / len(vs) for vs in per_run.values()])
        else:  # thread and rank spread
            cv = _cv(values)
        out[key] = (unit, mean, cv, len(values))
    return out


def verdict(quantity, a, b, noise_a, noise_b, tolerance):
    """(ratio, threshold, verdict) of one row (a, b: the sides' means; None if absent)."""
    if a is None:
        return math.nan, math.nan, "only in B"
    if b is None:
        return math.nan, math.nan, "only in A"
    threshold = max(tolerance, 2 * math.sqrt(noise_a ** 2 + noise_b ** 2))
    if a == 0:
        return (math.nan if b == 0 else math.inf), threshold, "same" if b == 0 else (
            "slower" if quantity in TIME_QUANTITIES else "higher")
    ratio = b / a
    if abs(ratio - 1) <= threshold:
        return ratio, threshold, "same"
    if quantity in TIME_QUANTITIES:
        return ratio, threshold, "slower" if ratio > 1 else "faster"
    return ratio, threshold, "higher" if ratio > 1 else "lower"


def compare(a_paths, b_paths, tolerance=DEFAULT_TOLERANCE, classify=None):
    """A DataFrame of COLUMNS: every row either side has. a_paths, b_paths: a path or a
    list of paths of repeated runs (region or papi_run directories, MPI reports, run
    directories). classify: papi_report's path classifier (what a path holds)."""
    classify = classify or classify_path
    a_paths = [a_paths] if isinstance(a_paths, str) else list(a_paths)
    b_paths = [b_paths] if isinstance(b_paths, str) else list(b_paths)
    if not 0 <= tolerance < 10:
        raise ValueError("tolerance %g: expected a fraction such as 0.1" % tolerance)
    sa = _summarise(_side_units(a_paths, classify), len(a_paths))
    sb = _summarise(_side_units(b_paths, classify), len(b_paths))
    ea, eb = energy.entity_energy(sa), energy.entity_energy(sb)
    rows = []
    for key in sorted(set(sa) | set(sb), key=lambda k: (("job", "mpi call", "region", "rank").index(k[0]),
                                                           _natural(k[1]), k[2])):
        unit = (sa.get(key) or sb.get(key))[0]
        ua, ma, ca, na = sa.get(key, (unit, None, 0.0, 0))
        ub, mb, cb, nb = sb.get(key, (unit, None, 0.0, 0))
        ratio, thr, v = verdict(key[2], ma, mb, ca, cb, tolerance)
        rows.append(dict(zip(COLUMNS, [key[0], key[1], key[2], unit, ma, mb, ratio, ca, cb, na, nb,
                                       len(a_paths), len(b_paths), thr, v, ea.get(key[:2]),
                                       eb.get(key[:2])])))
    functions = profile_compare.table(a_paths, b_paths, tolerance, verdict)  # profiled runs
    rows += profile_compare.rows(functions, len(a_paths), len(b_paths))
    df = pd.DataFrame(rows, columns=COLUMNS)
    df.attrs["functions"] = functions
    # POP's computation scalability of the sides' MPI reports (pop_compare.py), for the outputs.
    df.attrs["pop_scalability"] = pop_compare.scalability(pop_compare.reports_of(a_paths, classify),
                                                          pop_compare.reports_of(b_paths, classify))
    return df


def _natural(s):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", s)]


FAIL_IF = re.compile(r"^\s*(?:(region|job|rank|mpi call):([^:]*):)?([^<>=]+?)\s*(<=|>=|<|>)\s*"
                     r"([0-9.eE+-]+)\s*$")


def parse_fail_if(text):
    """(scope or None, entity or None, quantity, op, number) of 'QUANTITY>1.05' or
    'SCOPE:ENTITY:QUANTITY>1.05' ('function:NAME>1.1': profile_compare's); ValueError when
    it is not one."""
    if profile_compare.is_condition(text):
        return ("function",) + profile_compare.parse_condition(text)
    m = FAIL_IF.match(text)
    if not m:
        raise ValueError("--fail-if %r: expected QUANTITY>NUMBER (or <, >=, <=; QUANTITY a "
                         "column of the comparison such as real_time_nsec, wall_s, an event, a "
                         "metric, or time for every time; SCOPE:ENTITY:QUANTITY for one row)" % text)
    scope, entity, q, op, num = m.groups()
    try:
        x = float(num)
    except ValueError:
        raise ValueError("--fail-if %r: %r is not a number" % (text, num))
    return scope, entity, q.strip(), op, x


def failed_conditions(df, conditions):
    """[(condition text, row)] of every row whose ratio meets a --fail-if condition."""
    ops = {">": lambda r, x: r > x, ">=": lambda r, x: r >= x, "<": lambda r, x: r < x,
           "<=": lambda r, x: r <= x}
    hits = []
    for text in conditions:
        scope, entity, q, op, x = parse_fail_if(text)
        if scope == "function":
            hits += profile_compare.failed(df, text, df.attrs["functions"].attrs.get("sampled"))
            continue
        for _, r in df[df["scope"] != "function"].iterrows():
            if scope and (r["scope"] != scope or r["entity"] != entity):
                continue
            if not (r["quantity"] == q or (q == "time" and r["quantity"] in TIME_QUANTITIES)):
                continue
            if isinstance(r["ratio"], float) and math.isnan(r["ratio"]):
                continue
            if ops[op](r["ratio"], x):
                hits.append((text, r))
    return hits


def _fmt(v, unit):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if unit == "s":
        for scale, u in ((1, "s"), (1e-3, "ms"), (1e-6, "us")):
            if abs(v) >= scale or scale == 1e-6:
                return "%.4g %s" % (v / scale, u)
    return "%.6g%s" % (v, (" " + unit) if unit else "")


def render_text(df, a_label, b_label, tolerance, scopes=("job", "mpi call", "region")):
    lines = ["papi_report --compare: A = %s, B = %s" % (a_label, b_label),
             "verdict: same when |B/A - 1| <= max(tolerance %g%%, 2 x the noise); noise = the "
             "spread (cv) of repeated runs, else of threads and ranks" % (100 * tolerance), ""]
    shown = df[df["scope"].isin(scopes)]
    if not len(shown):
        return "\n".join(lines + ["(nothing in common to compare)", ""]) + \
            profile_compare.render_text(df.attrs.get("functions"))
    w_ent = max(6, min(48, max(len(str(e)) for e in shown["entity"])))
    w_q = max(8, min(36, max(len(str(q)) for q in shown["quantity"])))
    head = "%-8s  %-*s  %-*s  %12s  %12s  %8s  %7s  %-10s  %s" % (
        "scope", w_ent, "entity", w_q, "quantity", "A", "B", "B/A", "noise", "verdict",
        "energy J (A / B)")
    lines += [head, "-" * len(head)]
    for _, r in shown.iterrows():
        noise = math.sqrt(r["noise_a"] ** 2 + r["noise_b"] ** 2)
        ratio = "-" if isinstance(r["ratio"], float) and math.isnan(r["ratio"]) else "%.3f" % r["ratio"]
        lines.append("%-8s  %-*s  %-*s  %12s  %12s  %8s  %6.1f%%  %-10s  %s" % (
            r["scope"], w_ent, str(r["entity"])[:w_ent], w_q, str(r["quantity"])[:w_q],
            _fmt(r["a"], r["unit"]), _fmt(r["b"], r["unit"]), ratio, 100 * noise, r["verdict"],
            energy.pair_text(r.get("energy_a_j"), r.get("energy_b_j"))))
    counts = shown["verdict"].value_counts()
    lines += ["", "rows: " + ", ".join("%d %s" % (n, v) for v, n in counts.items()), ""]
    return ("\n".join(lines) + "\n" + pop_compare.render_text(df.attrs.get("pop_scalability"))
            + profile_compare.render_text(df.attrs.get("functions")))


def write_outputs(df, out_dir, a_label, b_label, tolerance):
    """compare.csv, compare.txt and compare.html (the ratio chart) in out_dir; their paths."""
    os.makedirs(out_dir, exist_ok=True)
    written = []
    csv = os.path.join(out_dir, "compare.csv")
    df.to_csv(csv + ".tmp", index=False)
    os.replace(csv + ".tmp", csv)
    pop = df.attrs.get("pop_scalability")
    if pop is not None and len(pop):
        written.append(os.path.join(out_dir, "compare_pop_scalability.csv"))
        pop.to_csv(written[-1], index=False)
    text = render_text(df, a_label, b_label, tolerance)
    txt = os.path.join(out_dir, "compare.txt")
    with open(txt + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(txt + ".tmp", txt)
    figure = ""
    shown = df[df["scope"].isin(("job", "mpi call", "region")) & df["ratio"].apply(
        lambda r: isinstance(r, float) and math.isfinite(r) and r > 0)]
    if len(shown):
        from . import figures  # noqa: F401 (first: says which package installs matplotlib)
        import matplotlib.pyplot as plt
        # The rows that moved most first, at most 60 (the CSV has every row).
        shown = shown.assign(_d=shown["ratio"].apply(lambda r: abs(math.log(r)))).sort_values(
            "_d", ascending=False).head(60).iloc[::-1]
        colours = {"same": "#999999", "slower": "#c0392b", "higher": "#d35400",
                   "faster": "#27ae60", "lower": "#2980b9"}
        fig, ax = plt.subplots(figsize=(10, 1.2 + 0.28 * len(shown)))
        labels = ["%s %s: %s" % (r["scope"], r["entity"], r["quantity"]) if r["entity"] else
                  "%s: %s" % (r["scope"], r["quantity"]) for _, r in shown.iterrows()]
        ax.barh(range(len(shown)), [max(-10, min(10, math.log2(r))) for r in shown["ratio"]],
                color=[colours.get(v, "#555555") for v in shown["verdict"]])
        thr = math.log2(1 + tolerance)
        ax.axvspan(-thr, thr, color="#eeeeee", zorder=0, label="tolerance %g%%" % (100 * tolerance))
        ax.set_yticks(range(len(shown)))
        ax.set_yticklabels([lab if len(lab) <= 70 else lab[:33] + "..." + lab[-34:] for lab in labels],
                           fontsize=9)
        lim = min(10.0, max(1.2, max(abs(math.log2(r)) for r in shown["ratio"]) * 1.1))
        step = max(1, int(math.ceil(lim / 4)))  # at most 9 ticks: powers of two
        ticks = [k for k in range(-int(lim), int(lim) + 1) if k % step == 0]
        ax.set_xticks(ticks)
        ax.set_xticklabels(["%dx" % 2 ** k if k >= 0 else "1/%dx" % 2 ** -k for k in ticks])
        ax.set_xlim(-lim, lim)  # a ratio past 1024x is drawn to the edge (the table has it)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlabel("B / A (log scale; colour: verdict)")
        handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in colours.values()]
        ax.legend(handles, list(colours), loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=9)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
        plt.close(fig)
        figure = '<figure><figcaption>B / A per region, call and job quantity</figcaption>' \
                 '<img alt="ratio chart" src="data:image/png;base64,%s"></figure>' % \
                 base64.b64encode(buf.getvalue()).decode()
    rows = "".join("<tr>%s</tr>" % "".join("<td>%s</td>" % html.escape(str(c)) for c in (
        r["scope"], r["entity"], r["quantity"], _fmt(r["a"], r["unit"]), _fmt(r["b"], r["unit"]),
        "-" if isinstance(r["ratio"], float) and math.isnan(r["ratio"]) else "%.3f" % r["ratio"],
        r["verdict"])) for _, r in df.iterrows())
    page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>papi_report --compare</title>"
            "<style>body{font-family:sans-serif;margin:2em;max-width:1400px}table{border-collapse:"
            "collapse;font-size:small}td,th{border:1px solid #ccc;padding:2px 6px}</style></head><body>"
            "<h1>A = %s<br>B = %s</h1><p>%s</p>%s%s<table><tr><th>scope</th><th>entity</th><th>quantity"
            "</th><th>A</th><th>B</th><th>B/A</th><th>verdict</th></tr>%s</table></body></html>" % (
                html.escape(a_label), html.escape(b_label), html.escape(text.splitlines()[1]),
                figure, "" if pop is None or not len(pop) else "<h2>POP computation scalability "
                "(A the reference)</h2>" + pop.to_html(index=False, na_rep="-", border=0), rows))
    page_path = os.path.join(out_dir, "compare.html")
    with open(page_path + ".tmp", "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(page_path + ".tmp", page_path)
    return [page_path, txt, csv] + written + profile_compare.write_csv(df.attrs.get("functions"), out_dir)
