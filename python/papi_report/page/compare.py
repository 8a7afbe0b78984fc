"""papi_report.page.compare: two runs side by side, with a verdict per row that takes the noise
into account.

A side is one run or several repeated runs of the same program: region directories
(papi_hl_output), papi_run directories, MPI reports, or a run's directory holding them.
Each row is one quantity of one thing: a region's real time, cycles, each event and each
named metric (scope "region", by the region's path); the job's wall, MPI and compute time,
counters and metrics and each MPI call's time (scope "job" and "mpi call", from the MPI
report); and each rank's values (scope "rank"). compare_units.py gathers them.

The numbers of a row on one side are its units: per run, per rank and per thread (a
region on 4 threads of 2 ranks has 8 units a run). A side's value is the mean over its
units. The ratio is B/A of those means. The noise of a side is the spread of its values
as a coefficient of variation (standard deviation over mean): of the per-run means when a
side has several runs, else of the units of its one run (thread and rank spread), 0 for a
single unit. A row's band x is the larger of its tolerance and twice the combined noise,
sqrt(cv_A^2 + cv_B^2); the row is "same" when 1/(1+x) <= ratio <= 1+x (symmetric in
ratio: a 34x drop is outside the band whatever the noise, as a 34x rise is), otherwise
"slower" or "faster" for a time (more time is slower), "higher" or "lower" for a count
or a metric.

One run a side (either side): the run-to-run noise is not measured, and time is what
the machine's load moves. So:
- counts (events, metrics) are judged against the tolerance (default 10%): a count of
  work such as page faults is exact, whatever the load;
- times are judged against the wider time tolerance (default 25%, --time-tolerance):
  the CPU clock (perf::TASK-CLOCK ...) moves with caches and frequency shared with
  other programs, not with waiting; and an entity whose time moved by less than 1 ms
  (TIME_FLOOR_S: the most of its wall and CPU clocks' differences) is "same" in every
  time row: an interrupt, a cold cache or a migration costs a short region that much;
- a region's wall-clock time (real_time_nsec, cycles) where its CPU clock was counted
  (perf::TASK-CLOCK, perf::CPU-CLOCK: each thread's own) is judged on its load-free
  ratio: each side's wall time less the time its threads were off a CPU, off = 1 - CPU
  time / wall time, which one run cannot tell from the machine's load. That ratio,
  B/A x (1 - off_B) / (1 - off_A), is the CPU time's; the columns offcpu_a, offcpu_b and
  load_free_ratio show it. Time a region spends waiting (sleep, I/O) is taken as load
  by this: give repeated runs to judge it. (A rank's wall time is not: its MPI waits
  may be spent off the CPU and are the program's.)
With repeated runs on both sides the spread of the runs is the noise and the tolerance
is the same for every row.

A region's verdict (region_verdicts) is its time's: "slower" when its CPU-clock or its
wall-time row is slower (and none faster), "faster" likewise, else "same"; the rows
of counts that moved are named beside it.
A quantity present on one side only is "only in A" or "only in B", never 0.
GPU kernels (scope "kernel", the GPU activity layer's records in the MPI report's rank
rows and the region files' gpu_regions): per kernel name ("NAME @ REGION" inside a
region) its time (kernel_s, said slower or faster) and launches per rank, judged with
--tolerance as counts are: the device's time is not the host's load.
Profiled runs (papi_run --sample) add a row per function and event (scope "function"):
profile_compare.py says how, with its sampling noise."""
import math
import re

import numpy as np
import pandas as pd

from ..tables import catalog
# The tables' modules registered in registry.MODULES' order (the report's) before this
# module's imports name one of them out of turn.
catalog.load("tables")
from . import compare_page, openmp_compare, pop_compare, profile_compare  # noqa: E402
from ..tables import energy  # noqa: E402
from .compare_page import fmt as _fmt  # noqa: E402
from .compare_units import CPU_QUANTITIES, TIME_QUANTITIES, WALL_QUANTITIES, side_units, summarise  # noqa: E402
from ..load.inputs import classify as classify_path  # noqa: E402
from ..tables.tables import ALL_THREADS  # noqa: E402

DEFAULT_TOLERANCE = 0.10
DEFAULT_TIME_TOLERANCE = 0.25
#: One run a side: a time that moved by less than this is the same (an interrupt, a cold
#: cache or a migration inside a region costs tens to hundreds of microseconds).
TIME_FLOOR_S = 1e-3
COLUMNS = ["scope", "entity", "quantity", "unit", "a", "b", "ratio", "noise_a", "noise_b",
           "units_a", "units_b", "runs_a", "runs_b", "threshold", "verdict", "energy_a_j",
           "energy_b_j", "offcpu_a", "offcpu_b", "load_free_ratio"]  # energy_*: the entity's CPU
# energy on each side (energy.py), J; offcpu_*: the share of its wall time off a CPU and
# load_free_ratio: B/A of the wall times less that (one run a side, regions)
SCOPES = ("job", "mpi call", "region", "openmp", "kernel", "rank")
#: GPU time (a kernel's, scope "kernel"): said slower or faster, but judged as counts are
#: (--tolerance, no time floor): the device's time is not the host's load.
GPU_TIME_QUANTITIES = {"kernel_s"}


def verdict(quantity, a, b, noise_a, noise_b, tolerance):
    """(ratio, threshold, verdict) of one row (a, b: the sides' means; None if absent):
    profile_compare's rows (_verdicts judges compare's own, all at once)."""
    if a is None:
        return math.nan, math.nan, "only in B"
    if b is None:
        return math.nan, math.nan, "only in A"
    threshold = max(tolerance, 2 * math.sqrt(noise_a ** 2 + noise_b ** 2))
    timed = quantity in TIME_QUANTITIES or quantity in GPU_TIME_QUANTITIES
    up, down = ("slower", "faster") if timed else ("higher", "lower")
    if a == 0:
        return (math.nan if b == 0 else math.inf), threshold, "same" if b == 0 else up
    ratio = b / a
    if in_band(ratio, threshold):
        return ratio, threshold, "same"
    return ratio, threshold, up if ratio > 1 else down


def in_band(ratio, threshold):
    """Is ratio inside the band of "same", 1/(1+threshold) .. 1+threshold? (symmetric in
    ratio: 1 - threshold would reach 0 and below once the noise passes 50%)"""
    return 1 / (1 + threshold) <= ratio <= 1 + threshold


def _verdicts(df, tolerance, time_tolerance, single):
    """The verdict of every row at once (vectorised: 10,000 ranks give a million rows),
    by the module's rule."""
    a, b = df["a"].to_numpy(float), df["b"].to_numpy(float)
    q = df["quantity"]
    is_time = base_quantity(q).isin(TIME_QUANTITIES).to_numpy()
    tol = np.where(is_time & single, time_tolerance, tolerance)
    thr = np.maximum(tol, 2 * np.sqrt(df["noise_a"].to_numpy(float) ** 2 + df["noise_b"].to_numpy(float) ** 2))
    wall = q.isin(WALL_QUANTITIES).to_numpy() & single
    off_a = np.where(wall, np.nan_to_num(df["offcpu_a"].to_numpy(float)), 0.0)
    off_b = np.where(wall, np.nan_to_num(df["offcpu_b"].to_numpy(float)), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(a == 0, np.where(b == 0, np.nan, np.inf), b / a)
        # The load-free ratio: each side's wall time less its time off a CPU (the module's
        # text); where A was never on a CPU, only the range it allows.
        load_free = np.where(off_a < 1, ratio * (1 - off_b) / (1 - off_a), np.nan)
        low = np.where(np.isnan(load_free), ratio * (1 - off_b), load_free)
        high = np.where(np.isnan(load_free), np.inf, load_free)
    timed = is_time | q.isin(GPU_TIME_QUANTITIES).to_numpy()
    up = np.where(timed, "slower", "higher")
    down = np.where(timed, "faster", "lower")
    v = np.where(low > 1 + thr, up, np.where(high < 1 / (1 + thr), down, "same"))  # in_band
    if single:  # a time that moved by less than the floor is the same, whatever its ratio
        v = np.where(is_time & (_seconds_moved(df) < TIME_FLOOR_S), "same", v)
    v = np.where((a == 0) & (b == 0), "same", v)
    v = np.where(np.isnan(a), "only in B", np.where(np.isnan(b), "only in A", v))
    absent = np.isnan(a) | np.isnan(b)
    df["ratio"] = np.where(absent, np.nan, ratio)
    df["threshold"] = np.where(absent, np.nan, thr)
    df["verdict"] = v
    # A side's CPU share is shown only where it entered the verdict.
    used = wall & (np.isfinite(df["offcpu_a"].to_numpy(float)) | np.isfinite(df["offcpu_b"].to_numpy(float)))
    df["offcpu_a"] = np.where(used, df["offcpu_a"], np.nan)
    df["offcpu_b"] = np.where(used, df["offcpu_b"], np.nan)
    df["load_free_ratio"] = np.where(used & ~absent, load_free, np.nan)
    return df


def _seconds_moved(df):
    """Per row: how many seconds its entity's time moved between the sides, the most of
    its rows in seconds (wall and CPU clocks); NaN for an entity with none."""
    q = base_quantity(df["quantity"])
    scale = np.where(q.isin(("perf::TASK-CLOCK", "perf::CPU-CLOCK")), 1e-9,
                     np.where(df["unit"] == "s", 1.0, np.nan))
    moved = pd.Series((df["b"] - df["a"]).abs().to_numpy(float) * scale, index=df.index)
    per_entity = moved.groupby([df["scope"], df["entity"]]).transform("max")
    return per_entity.to_numpy(float)


def base_quantity(q):
    """A quantity's name without the all-thread suffix ("perf::TASK-CLOCK (all threads)"
    is a CPU time as perf::TASK-CLOCK is)."""
    return q.str.replace(ALL_THREADS, "", regex=False)


def _order(df):
    """Rows by scope (job, mpi call, region, rank), entity in natural order, quantity."""
    ents = {e: _natural(e) for e in df["entity"].unique()}
    rank = {e: i for i, e in enumerate(sorted(ents, key=ents.get))}
    key = pd.DataFrame({"s": df["scope"].map(SCOPES.index), "e": df["entity"].map(rank),
                        "q": df["quantity"]})
    return df.loc[key.sort_values(["s", "e", "q"], kind="stable").index].reset_index(drop=True)


def compare(a_paths, b_paths, tolerance=DEFAULT_TOLERANCE, classify=None,
            time_tolerance=DEFAULT_TIME_TOLERANCE):
    """A DataFrame of COLUMNS: every row either side has. a_paths, b_paths: a path or a
    list of paths of repeated runs (region or papi_run directories, MPI reports, run
    directories). classify: papi_report's path classifier (what a path holds).
    time_tolerance: the tolerance of times when a side has one run (see above)."""
    classify = classify or classify_path
    a_paths = [a_paths] if isinstance(a_paths, str) else list(a_paths)
    b_paths = [b_paths] if isinstance(b_paths, str) else list(b_paths)
    for name, t in (("tolerance", tolerance), ("time tolerance", time_tolerance)):
        if not 0 <= t < 10:
            raise ValueError("%s %g: expected a fraction such as 0.1" % (name, t))
    ua, reports_a = side_units(a_paths, classify)
    ub, reports_b = side_units(b_paths, classify)
    sa, sb = summarise(ua, len(a_paths)), summarise(ub, len(b_paths))
    ea, eb = energy.entity_energy(_as_dict(sa)), energy.entity_energy(_as_dict(sb))
    j = sa.join(sb, how="outer", lsuffix="_a", rsuffix="_b")
    df = pd.DataFrame({"unit": j["unit_a"].fillna(j["unit_b"]), "a": j["mean_a"].astype(float),
                       "b": j["mean_b"].astype(float), "noise_a": j["cv_a"].astype(float).fillna(0.0),
                       "noise_b": j["cv_b"].astype(float).fillna(0.0),
                       "units_a": j["n_a"].fillna(0).astype(int), "units_b": j["n_b"].fillna(0).astype(int),
                       "offcpu_a": j["offcpu_a"].astype(float), "offcpu_b": j["offcpu_b"].astype(float)},
                      index=j.index).reset_index()
    df["runs_a"], df["runs_b"] = len(a_paths), len(b_paths)
    single = len(a_paths) == 1 or len(b_paths) == 1
    df = _verdicts(df, tolerance, time_tolerance, single)
    ent = list(zip(df["scope"], df["entity"]))
    df["energy_a_j"] = [ea.get(k) for k in ent] if ea else None
    df["energy_b_j"] = [eb.get(k) for k in ent] if eb else None
    df = _order(df)[COLUMNS]
    functions = profile_compare.table(a_paths, b_paths, tolerance, verdict)  # profiled runs
    extra = profile_compare.rows(functions, len(a_paths), len(b_paths))
    if extra:
        df = pd.concat([df, pd.DataFrame(extra, columns=COLUMNS)], ignore_index=True)
    df.attrs["functions"] = functions
    df.attrs["tolerance"], df.attrs["time_tolerance"] = tolerance, time_tolerance
    df.attrs["single"] = single
    # POP's computation scalability of the sides' MPI reports (pop_compare.py), for the outputs.
    df.attrs["pop_scalability"] = pop_compare.scalability(reports_a, reports_b)
    df.attrs["openmp"] = openmp_compare.table(df)  # by parallel region, with B - A
    df.attrs["openmp_constructs"] = openmp_compare.constructs(df)
    return df


def _as_dict(summary):
    """A side's summary as energy.entity_energy reads it: {key: (unit, mean, cv, n)}."""
    keep = summary[summary.index.get_level_values("quantity").isin([energy.PREFIX + "TOTAL", "CPU_ENERGY"])]
    return {k: (r["unit"], r["mean"], r["cv"], r["n"]) for k, r in zip(keep.index, keep.to_dict("records"))}


def region_verdicts(df):
    """One row per region: its verdict (its time's), the time row that decided it with
    its ratio, and the counts that moved (see the module's text)."""
    cols = ["region", "verdict", "by", "ratio", "counts_moved"]
    reg = df[df["scope"] == "region"]
    out = []
    for name, rows in reg.groupby("entity", sort=False):
        times = pd.concat([rows[rows["quantity"].isin(CPU_QUANTITIES)],  # the CPU clock first
                           rows[rows["quantity"] == "real_time_nsec"]])
        moved = rows[rows["verdict"].isin(("higher", "lower"))]
        v, by = "same", times
        for want in ("slower", "faster"):
            hit = times[times["verdict"] == want]
            if len(hit) and not ((times["verdict"] == ("faster" if want == "slower" else "slower")).any()):
                v, by = want, hit
                break
        if not len(times):
            v = "no time"
        first = by.iloc[0] if len(by) else None
        out.append([name, v, "" if first is None else first["quantity"],
                    math.nan if first is None else first["ratio"],
                    ", ".join("%s x%.3g" % (r["quantity"], r["ratio"]) for _, r in moved.iterrows())])
    return pd.DataFrame(out, columns=cols)


def _natural(s):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", s)]


# An entity may hold colons inside brackets: a parallel region's "function (file:line)".
FAIL_IF = re.compile(r"^\s*(?:(region|job|rank|mpi call|openmp|kernel):((?:[^:(]|\([^)]*\))*):)?([^<>=]+?)\s*(<=|>=|<|>)\s*"
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
    """[(condition text, row)] of every row whose ratio (its load_free_ratio where it has
    one: the ratio its verdict judged) meets a --fail-if condition."""
    ops = {">": np.greater, ">=": np.greater_equal, "<": np.less, "<=": np.less_equal}
    hits = []
    rows = df[df["scope"] != "function"]
    for text in conditions:
        scope, entity, q, op, x = parse_fail_if(text)
        if scope == "function":
            hits += profile_compare.failed(df, text, df.attrs["functions"].attrs.get("sampled"))
            continue
        sel = rows["quantity"].isin(TIME_QUANTITIES) if q == "time" else rows["quantity"] == q
        if scope:
            sel &= (rows["scope"] == scope) & (rows["entity"] == entity)
        # The ratio the verdict judged: a region's load-free one where it had one.
        ratio = rows["load_free_ratio"].astype(float).fillna(rows["ratio"].astype(float))
        sel &= ratio.notna() & ops[op](ratio, x)
        hits += [(text, r) for _, r in rows[sel].iterrows()]
    return hits


def _pct(v):
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else "%.0f%%" % (100 * v)


def rule_text(df, tolerance):
    """The verdict's rule in one line, as it applied to these runs."""
    if df.attrs.get("single", True):
        return ("verdict: same when 1/(1+x) <= B/A <= 1+x, x = max(tolerance, 2 x the noise): tolerance "
                "%g%% for counts, %g%% for times (one run a side: the load's noise is not "
                "measured); a region's wall time on its load-free B/A, less the time its threads "
                "were off a CPU (off A/B); noise = the thread and rank spread (cv)" % (
                    100 * tolerance, 100 * df.attrs.get("time_tolerance", DEFAULT_TIME_TOLERANCE)))
    return ("verdict: same when 1/(1+x) <= B/A <= 1+x, x = max(tolerance %g%%, 2 x the noise); noise = the "
            "spread (cv) of the repeated runs' means" % (100 * tolerance))


def render_text(df, a_label, b_label, tolerance, scopes=("job", "mpi call", "region", "kernel")):
    lines = ["papi_report --compare: A = %s, B = %s" % (a_label, b_label), rule_text(df, tolerance), ""]
    shown = df[df["scope"].isin(scopes)]
    if not len(shown):
        omp = df.attrs.get("openmp")
        said = [] if omp is not None and len(omp) else ["(nothing in common to compare)"]
        return "\n".join(lines + said + [""]) + openmp_compare.render_text(omp) + \
            openmp_compare.render_constructs(df.attrs.get("openmp_constructs")) + \
            profile_compare.render_text(df.attrs.get("functions"))
    w_ent = max(6, min(48, max(len(str(e)) for e in shown["entity"])))
    w_q = max(8, min(36, max(len(str(q)) for q in shown["quantity"])))
    head = "%-8s  %-*s  %-*s  %12s  %12s  %8s  %7s  %-18s  %-10s  %s" % (
        "scope", w_ent, "entity", w_q, "quantity", "A", "B", "B/A", "noise", "off A/B, load-free", "verdict",
        "energy J (A / B)")
    lines += [head, "-" * len(head)]
    for r in shown.to_dict("records"):
        noise = math.sqrt(r["noise_a"] ** 2 + r["noise_b"] ** 2)
        ratio = "-" if isinstance(r["ratio"], float) and math.isnan(r["ratio"]) else "%.3f" % r["ratio"]
        off = "-" if math.isnan(r["load_free_ratio"]) else "%s/%s %.3f" % (
            _pct(r["offcpu_a"]), _pct(r["offcpu_b"]), r["load_free_ratio"])
        lines.append("%-8s  %-*s  %-*s  %12s  %12s  %8s  %6.1f%%  %-18s  %-10s  %s" % (
            r["scope"], w_ent, str(r["entity"])[:w_ent], w_q, str(r["quantity"])[:w_q],
            _fmt(r["a"], r["unit"]), _fmt(r["b"], r["unit"]), ratio, 100 * noise, off, r["verdict"],
            energy.pair_text(r.get("energy_a_j"), r.get("energy_b_j"))))
    counts = shown["verdict"].value_counts()
    lines += ["", "rows: " + ", ".join("%d %s" % (n, v) for v, n in counts.items()), ""]
    regions = region_verdicts(df)
    if len(regions):
        lines.append("regions (a region's verdict is its time's: CPU clock, else wall time):")
        w = max(6, min(48, max(len(str(n)) for n in regions["region"])))
        for r in regions.to_dict("records"):
            lines.append("  %-*s  %-8s  %s%s" % (
                w, r["region"], r["verdict"], "" if not r["by"] else "%s B/A %.3f" % (r["by"], r["ratio"]),
                "; counts moved: " + r["counts_moved"] if r["counts_moved"] else ""))
        lines.append("")
    return ("\n".join(lines) + "\n" + openmp_compare.render_text(df.attrs.get("openmp"))
            + openmp_compare.render_constructs(df.attrs.get("openmp_constructs"))
            + pop_compare.render_text(df.attrs.get("pop_scalability"))
            + profile_compare.render_text(df.attrs.get("functions")))


def write_outputs(df, out_dir, a_label, b_label, tolerance):
    """compare.csv, compare.txt, compare_regions.csv and compare.html (the ratio charts) in
    out_dir; their paths."""
    return compare_page.write_outputs(df, out_dir, a_label, b_label,
                                      render_text(df, a_label, b_label, tolerance),
                                      region_verdicts(df), tolerance)
