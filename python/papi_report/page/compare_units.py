"""papi_report.page.compare_units: the numbers --compare judges (compare.py), one tidy
DataFrame per side, built column-wise (two 10,000-rank MPI reports in seconds, not
minutes: bench/README.md).

A unit is one value of one quantity of one thing in one run: a region's real time,
cycles, each event and named metric per rank and thread (scope "region", by the
region's path); the job's and each rank's wall, MPI and compute time, counters and
metrics; each MPI call's time per rank (scope "mpi call"); each GPU kernel's time and
launches per rank (scope "kernel"), and each kernel's GPU counters (papi_run
--gpu-counters: each metric's sum and the launches per process, scope "kernel"); each OpenMP parallel
region's wall and lost thread time and efficiencies per process, by the region's name and
site ("NAME [SITE]" where it has one: regions of one name told apart, never averaged),
and each process's OpenMP efficiencies (scope "openmp", entity PROCESSES: the OMPT tool's
files, papi_run's files' "openmp" member). summarise() gives a side's mean, spread and
CPU share per (scope, entity, quantity)."""

import numpy as np
import pandas as pd

from ..tables import catalog, openmp
from . import profile_compare
from ..load import registry
from ..load.check import MalformedInput
from ..load.load import load_gpu_runs, load_mpi, load_regions

UNIT_COLUMNS = ["run", "scope", "entity", "quantity", "unit", "value"]
KEY = ["scope", "entity", "quantity"]
#: Quantities of the wall clock: they take the machine's load (time the thread waited
#: for a core), which one run cannot tell from the program's own time.
WALL_QUANTITIES = {"real_time_nsec", "cycles", "wall_s", "mpi_s", "compute_s", "time_s",
                   "serial_s", "lost_s"}
#: Quantities of the thread's own CPU time (counted only while it runs on a core).
CPU_QUANTITIES = {"perf::TASK-CLOCK", "perf::CPU-CLOCK", "PAPI_TOT_CYC"}
TIME_QUANTITIES = WALL_QUANTITIES | CPU_QUANTITIES
#: The CPU clocks in nanoseconds, and the wall time (seconds) of each scope they divide:
#: regions only, whose clocks are each thread's over the region. A rank's wall time holds
#: its MPI waits, which an MPI may spend off the CPU: the program's time, not load.
CPU_CLOCKS = ("perf::TASK-CLOCK", "perf::CPU-CLOCK")
WALL_OF = {"region": "real_time_nsec"}
#: The OpenMP quantities compared: per parallel region (openmp_regions) and per process
#: (openmp_processes, entity PROCESSES), with their units.
OPENMP_REGION = (("wall_s", "s"), ("lost_s", "s"), ("load_balance", ""), ("scheduling", ""),
                 ("parallel_efficiency", ""))
OPENMP_PROCESS = (("wall_s", "s"), ("serial_s", "s"), ("serialization", ""), ("load_balance", ""),
                  ("scheduling", ""), ("parallel_efficiency", ""))
PROCESSES = "(processes)"
#: An OpenMP construct's quantities (openmp_constructs, entity "KIND CONSTRUCT"): its
#: threads' time inside and waits, and its encounters.
OPENMP_CONSTRUCT = (("construct_time_s", "time_s", "s"), ("construct_wait_s", "wait_s", "s"),
                    ("construct_entries", "entries", ""))
#: The MPI report's OpenMP line (wait_states.openmp) as job quantities: column, quantity.
HYBRID_JOB = (("serialization", "openmp_serialization"), ("load_balance", "openmp_load_balance"),
              ("scheduling", "openmp_scheduling"), ("parallel_efficiency", "openmp_parallel_efficiency"),
              ("hybrid_parallel_efficiency", "hybrid_parallel_efficiency"))


def _frame(run, scope, entity, quantity, unit, value):
    """A units DataFrame from columns (scalars broadcast), NaN values dropped."""
    df = pd.DataFrame({"run": run, "scope": scope, "entity": entity, "quantity": quantity,
                       "unit": unit, "value": pd.to_numeric(value, errors="coerce")})
    return df[df["value"].notna()][UNIT_COLUMNS]


def _empty():
    return pd.DataFrame({c: pd.Series(dtype="float64" if c == "value" else "object")
                         for c in UNIT_COLUMNS})


def openmp_units(run, t):
    """Scope "openmp": each parallel region's quantities per process (a unit each), by its
    name and site (tables.openmp.region_key); each process's under PROCESSES; each
    construct's (OPENMP_CONSTRUCT) by its kind and place. Empty without OpenMP tables."""
    parts = []
    for name, entity, quantities in (("openmp_regions", None, OPENMP_REGION),
                                     ("openmp_processes", PROCESSES, OPENMP_PROCESS)):
        df = t.get(name)
        if df is None or not len(df):
            continue
        ent = openmp.region_key(df).values if entity is None else entity
        for q, unit in quantities:
            parts.append(_frame(run, "openmp", ent, q, unit, df[q].astype("float64").values))
    df = t.get("openmp_constructs")
    if df is not None and len(df):
        ent = (df["kind"].astype(str) + " " + df["construct"].astype(str)).values
        for q, column, unit in OPENMP_CONSTRUCT:
            parts.append(_frame(run, "openmp", ent, q, unit, df[column].astype("float64").values))
    return parts


def region_units(run, files):
    t = catalog.tables(regions=files)
    parts = openmp_units(run, t)  # papi_run's files carry their OpenMP tables
    tot = t.get("region_totals")
    if tot is not None and len(tot):
        fixed = {"rank", "thread", "name", "path", "region_count"}
        for col in [c for c in tot.columns if c not in fixed]:
            v = pd.to_numeric(tot[col], errors="coerce").astype("float64")
            wall = col.startswith("real_time_nsec")
            parts.append(_frame(run, "region", tot["path"].astype(str), col, "s" if wall else "",
                                v / 1e9 if wall else v))
    met = t.get("region_metrics")
    if met is not None and len(met):
        met = met[met["value"].notna()]
        path = met["region"]
        if tot is not None and len(tot):
            # Keys as text on both sides: one table may hold a thread as a number, one as text.
            paths = tot[["rank", "thread", "name", "path"]].astype({"rank": str, "thread": str, "name": str})
            paths = paths.drop_duplicates(["rank", "thread", "name"])
            joined = met.astype({"rank": str, "thread": str, "region": str}).merge(
                paths, how="left", left_on=["rank", "thread", "region"], right_on=["rank", "thread", "name"])
            path = joined["path"].fillna(joined["region"])
            met = joined
        parts.append(_frame(run, "region", path.astype(str).values, met["metric"].values,
                            met["unit"].fillna("").values, met["value"].values))
    parts.append(gpu_units(run, t.get("region_gpu_kernel_ranks")))
    return pd.concat(parts, ignore_index=True)


def gpu_units(run, df):
    """Scope "kernel": each GPU kernel's time and launches per rank (tables/gpu.py's
    *_gpu_kernel_ranks), the entity the kernel's name, "NAME @ REGION" inside a region.
    GPU time is the device's: the tolerance of counts, not of the host's times."""
    if df is None or not len(df):
        return _empty()
    region = df["scope"].str.startswith("region ")
    ent = df["kernel"].where(~region, df["kernel"] + " @ " + df["scope"].str[7:]).values
    return pd.concat([_frame(run, "kernel", ent, "kernel_s", "s", df["total_s"].values),
                      _frame(run, "kernel", ent, "launches", "", df["launches"].values)],
                     ignore_index=True)


def kernel_counter_units(run, procs):
    """Scope "kernel": papi_run --gpu-counters' rows (tables/gpu.py's gpu_kernel_counters),
    per process each kernel's sum of each metric (the quantity the metric's name) and its
    launches: the GPU's own counts, judged as counts are."""
    df = registry.TABLES["gpu_kernel_counters"][1](procs)
    if not len(df):
        return _empty()
    launches = df.drop_duplicates(["pid", "device", "kernel"])
    return pd.concat([_frame(run, "kernel", df["kernel"].values, df["metric"].values, "",
                             df["sum"].values),
                      _frame(run, "kernel", launches["kernel"].values, "launches", "",
                             launches["launches"].values)], ignore_index=True)


def mpi_units(run, rep):
    catalog.load("tables")
    # Only the tables compared: the whole catalogue of a 10,000-rank report costs minutes.
    ranks, counters, metrics, calls = (registry.TABLES[n][1](rep) for n in (
        "mpi_ranks", "mpi_counters", "mpi_rank_metrics", "mpi_calls"))
    parts = []
    rank_names = ranks["rank"].astype(int).astype(str)
    for col in ("wall_s", "mpi_s", "compute_s"):
        parts.append(_frame(run, "job", "", col, "s", ranks[col].values))
        parts.append(_frame(run, "rank", rank_names.values, col, "s", ranks[col].values))
    if len(counters):
        parts.append(_frame(run, "job", "", counters["counter"].values, "", counters["value"].values))
        parts.append(_frame(run, "rank", counters["rank"].astype(int).astype(str).values,
                            counters["counter"].values, "", counters["value"].values))
    if len(metrics):
        unit = metrics["unit"].fillna("").values
        parts.append(_frame(run, "job", "", metrics["metric"].values, unit, metrics["value"].values))
        parts.append(_frame(run, "rank", metrics["rank"].astype(int).astype(str).values,
                            metrics["metric"].values, unit, metrics["value"].values))
    if len(calls):
        parts.append(_frame(run, "mpi call", calls["call"].values, "time_s", "s", calls["time_s"].values))
    parts.append(gpu_units(run, registry.TABLES["mpi_gpu_kernel_ranks"][1](rep)))
    hybrid = registry.TABLES["openmp_hybrid"][1](rep)  # the job's OpenMP line, where it has one
    for col, q in HYBRID_JOB:
        parts.append(_frame(run, "job", "", q, "", hybrid[col].astype("float64").values))
    return pd.concat(parts, ignore_index=True)


def side_units(paths, classify):
    """(units DataFrame of every run of a side, [the side's loaded MPI reports])."""
    parts, reports = [], []
    for run, path in enumerate(paths):
        kinds = classify(path)
        if not kinds and profile_compare.has_profiles(path):
            continue  # papi_run --sample's profiles alone: compared by function only
        if not kinds:
            raise MalformedInput("%s is neither an MPI report, region files nor the OMPT tool's "
                                 "files" % path)
        # papi_run -o D of a program with regions (PAPI_OUTPUT_DIRECTORY=D): classify gives
        # the whole program (region "papi_run") beside the program's own regions.
        for kind, p in kinds:
            if kind == "mpi":
                reports.append(load_mpi(p))
                parts.append(mpi_units(run, reports[-1]))
            elif kind == "openmp":
                parts += openmp_units(run, catalog.tables(openmp=[p])) or [_empty()]
            else:
                files = load_regions([p])
                parts.append(region_units(run, files))
                catalog.load("tables")
                parts.append(kernel_counter_units(run, load_gpu_runs(p, files)))
    return (pd.concat(parts, ignore_index=True) if parts else _empty()), reports


def summarise(units, runs):
    """A DataFrame indexed by (scope, entity, quantity): unit, mean (over every unit), cv
    (the spread as a coefficient of variation: of the per-run means when the side has
    several runs, else of its units, i.e. threads and ranks; 0 for one value or a mean
    of 0), n (units) and offcpu (the share of the entity's wall time its threads were
    off a CPU: 1 - CPU clock / wall time, where both were measured; NaN elsewhere)."""
    if not len(units):
        return pd.DataFrame(columns=["unit", "mean", "cv", "n", "offcpu"],
                            index=pd.MultiIndex.from_tuples([], names=KEY))
    g = units.groupby(KEY, sort=False)["value"]
    out = pd.DataFrame({"unit": units.groupby(KEY, sort=False)["unit"].first(),
                        "mean": g.mean(), "n": g.size()})
    if runs > 1:  # the spread of repeated runs
        per_run = units.groupby(KEY + ["run"], sort=False)["value"].mean().groupby(level=KEY, sort=False)
        sd, m = per_run.std(ddof=1), per_run.mean()
    else:  # thread and rank spread
        sd, m = g.std(ddof=1), out["mean"]
    cv = (sd / m.abs()).reindex(out.index)
    out["cv"] = cv.where(np.isfinite(cv), 0.0).fillna(0.0)
    out["offcpu"] = _offcpu(out)
    return out


def _offcpu(summary):
    """Per row: its entity's off-CPU share, for the rows of wall-clock quantities."""
    mean = summary["mean"]
    q = summary.index.get_level_values("quantity")
    scope = summary.index.get_level_values("scope")
    share = pd.Series(np.nan, index=summary.index)
    ent = summary.index.droplevel("quantity")
    for clock in CPU_CLOCKS:
        cpu = mean[q == clock].droplevel("quantity")
        for sc, wall_q in WALL_OF.items():
            wall = mean[(q == wall_q) & (scope == sc)].droplevel("quantity")
            both = wall.index.intersection(cpu.index)
            if not len(both):
                continue
            got = (1 - (cpu[both] / 1e9) / wall[both]).clip(0, 1)  # CPU clocks count ns
            fill = ent.isin(both) & np.isin(q, list(WALL_QUANTITIES)) & share.isna().values
            share[fill] = got.reindex(ent[fill]).values
    return share
