"""papi_report.tables.views: what the page (html.py) and the text report (text.py) show of the
tables: the run's header and each table as it is read (the CSV files hold them whole).
Needs pandas only."""
import math

import pandas as pd

from ..load import device_events, registry
from .tables import ALL_THREADS, REGION_SUMMARY_COLUMNS
from ..load.units import readable

# The tables shown (every table is in its CSV file): (name, heading, rows), registered
# below with their shapes; metric_views and later modules add theirs.
_TABLES = [("mpi_call_summary", "MPI calls (all ranks)", 40),
          ("mpi_callsites", "Call sites (all ranks; min..max over the ranks calling from each)", 50),
          ("mpi_call_sizes", "Calls x message size (calls, and seconds over all ranks)", 40),
          ("mpi_region_summary", "MPI_Pcontrol regions (per rank: min (rank), mean, max (rank) "
           "over the ranks that entered each)", 40),
          ("mpi_region_call_summary", "MPI calls inside each MPI_Pcontrol region (per rank: "
           "min, mean, max over the ranks that entered it)", 80),
          ("mpi_ranks", "Ranks", 64),
          ("region_tree", "Region tree (inclusive, summed over ranks and threads; an event's own "
           "count is the thread's that ran the region, its all-thread count every thread's of "
           "the process during it; a GPU's event once, in J, W or GB: the same for every thread)", 40)]
SITE_COLUMNS = ["call", "function", "file", "line", "ranks", "calls", "time_s", "rank_min_s",
                "rank_min", "rank_max_s", "rank_max", "bytes_sent", "bytes_recv"]


NOT_RECORDED = "(not recorded)"


def _mpi_header(r):
    return [("Command", "command", r["command"] or NOT_RECORDED),
            ("Started (UTC)", "started", r["start_utc"] or NOT_RECORDED),
            ("Ranks", "ranks", "%d (%d finished)" % (r["nranks"], r["finished_ranks"])),
            ("Hosts", "hosts", "%d: %s" % (r["hosts"], r["host_names"]) if r["hosts"]
             else NOT_RECORDED),
            ("Wall time", "wall", "%.6g s (the longest rank)" % r["wall_s"]),
            ("papi-compat", "papi-compat", r["papi_compat_version"] or NOT_RECORDED),
            ("Run id", "run-id", r.get("run_id") or NOT_RECORDED)]


def _distinct(values, most=8):
    """The different non-empty values, in order: "a", or "2: a; b", "(not recorded)"."""
    v = list(dict.fromkeys(x for x in values if x))
    if not v:
        return NOT_RECORDED
    shown = "; ".join(v[:most]) + ("; ..." if len(v) > most else "")
    return shown if len(v) == 1 else "%d: %s" % (len(v), shown)


def _region_header(run, with_mpi):
    """The region and papi_run files' header ("run" member), or the line saying it is
    absent. With an MPI report, only what it lacks (the CPU) and the files missing it."""
    rec = run[run["recorded"]]
    missing = list(run.loc[~run["recorded"], "rank"])
    if rec.empty:
        return [("Run header", "run-absent", "absent: the region files have no \"run\" member "
                 "(written by PAPI 7 or an older papi-compat): command, start, host and CPU "
                 "are not known")]
    out = []
    if not with_mpi:
        starts = sorted(x for x in rec["start_utc"] if x)
        hosts = list(dict.fromkeys(x for x in rec["host"] if x))
        out += [("Command", "command", _distinct(rec["command"])),
                ("Started (UTC)", "started", starts[0] if starts else NOT_RECORDED),
                ("Ranks", "ranks", "%d (%d region file%s)" % (run["rank"].nunique(), len(run),
                                                              "" if len(run) == 1 else "s")),
                ("Hosts", "hosts", "%d: %s" % (len(hosts), ", ".join(hosts[:16]) +
                                               (", ..." if len(hosts) > 16 else ""))
                 if hosts else NOT_RECORDED)]
    out.append(("CPU", "cpu", _distinct(rec["cpu"])))
    if not with_mpi:
        out += [("papi-compat", "papi-compat", _distinct(rec["papi_compat_version"])),
                ("Run id", "run-id", _distinct(rec["run_id"]))]
    if missing:
        out.append(("Run header", "run-absent", "absent from the region files of rank%s %s"
                    % ("" if len(missing) == 1 else "s", ", ".join(str(m) for m in missing[:16]))
                    + (", ..." if len(missing) > 16 else "")))
    return out


def run_header(tables):
    """[(label, field, value)] of the run's header: from the MPI report (command, start,
    ranks, hosts, wall time, release, run id) and the region or papi_run files' "run"
    member (their command, start, hosts, CPU, release, run id; with an MPI report, the
    CPU); [] without either. A value an older library did not record reads "(not
    recorded)"; region files without a header say it is absent."""
    out = []
    mpi = tables.get("mpi_run")
    if mpi is not None and not mpi.empty:
        out += _mpi_header(mpi.iloc[0])
    run = tables.get("region_run")
    if run is not None and not run.empty:
        out += _region_header(run, bool(out))
    return out


def _num(v, fmt="%.6g"):
    """A number as the page prints it; empty when missing (not recorded)."""
    if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA:
        return ""
    return fmt % v


def _with_rank(v, rank, fmt="%.6g"):
    s = _num(v, fmt)
    return s if not s or rank is None or rank is pd.NA else "%s (%d)" % (s, rank)


def _region_summary_view(df):
    """One row per region: sums, then each per-rank spread as min (rank), mean, max (rank)."""
    counters = [c for c in df.columns if c not in REGION_SUMMARY_COLUMNS]
    rows = []
    for r in df.to_dict("records"):
        row = {"region": r["region"], "ranks": r["ranks"], "entries": r["entries"],
               "wall s": _num(r["wall_s"]), "wall min (rank)": _with_rank(r["min_s"], r["min_rank"]),
               "wall mean": _num(r["mean_s"]), "wall max (rank)": _with_rank(r["max_s"], r["max_rank"]),
               "MPI s": _num(r["mpi_s"]),
               "MPI min (rank)": _with_rank(r["mpi_min_s"], r["mpi_min_rank"]),
               "MPI mean": _num(r["mpi_mean_s"]),
               "MPI max (rank)": _with_rank(r["mpi_max_s"], r["mpi_max_rank"]),
               "MPI %": _num(r["mpi_pct"], "%.1f"), "MPI calls": _num(r["mpi_calls"], "%d"),
               "calls min (rank)": _with_rank(r["calls_min"], r["calls_min_rank"], "%d"),
               "calls mean": _num(r["calls_mean"], "%.4g"),
               "calls max (rank)": _with_rank(r["calls_max"], r["calls_max_rank"], "%d")}
        row.update({c: r[c] for c in counters})
        rows.append(row)
    return pd.DataFrame(rows)


def own_and_all(df):
    """An event's own and all-thread columns, labelled so: "<event> (own)" beside
    "<event> (all threads)" (events without all-thread values keep their name)."""
    alls = [c for c in df.columns if c.endswith(ALL_THREADS)]
    df = df.assign(**{c: df[c].astype(object).where(df[c].notna(), "") for c in alls})
    return df.rename(columns={c[: -len(ALL_THREADS)]: c[: -len(ALL_THREADS)] + " (own)" for c in alls})


def device_units(df):
    """Device-level events (shown once: region_tree has no all-thread column for them) in
    the units a reader reads, their name saying it: "<event> (J)" of nvml's mJ, W of its
    mW, GB of its bytes."""
    defs = df.attrs.get("event_definitions") or {}
    out = {}
    for c in df.columns:
        if not device_events.is_device(c, defs):
            continue
        unit, factor = readable(device_events.native_unit(c, defs))
        if unit:
            out[c] = ("%s (%s)" % (c, unit), factor)
    if not out:
        return df
    df = df.assign(**{c: df[c].astype(float) * f for c, (_n, f) in out.items()})
    return df.rename(columns={c: n for c, (n, _f) in out.items()})


def _sites(df, tables):
    return df[[c for c in SITE_COLUMNS if c in df.columns]]


def _sizes_grid(df, tables):
    cell = df.assign(cell=["%d (%.3g s)" % (c, t) for c, t in zip(df["calls"], df["time_s"])])
    sizes = list(dict.fromkeys(cell.sort_values("bucket")["size"]))
    grid = cell.pivot_table(index="call", columns="size", values="cell", aggfunc="first")
    grid = grid.reindex(index=list(dict.fromkeys(df["call"])), columns=sizes).fillna("")
    grid.columns.name = None
    return grid.reset_index().rename(columns={"call": "call \\ size"})


_SHAPES = {"mpi_callsites": _sites, "mpi_call_sizes": _sizes_grid,
           "mpi_region_summary": lambda df, tables: _region_summary_view(df),
           "region_tree": lambda df, tables: device_units(own_and_all(df))}
for _name, _heading, _rows in _TABLES:
    registry.view(_name, _heading, _rows, _SHAPES.get(_name))


def shown():
    """(name, heading, rows) of every table shown, in order (registry.VIEWS)."""
    return [(name, heading, rows) for name, heading, rows, _shape in registry.VIEWS]


def table_view(name, tables):
    """What the page and the text show of a table: its registered shape (the call sites'
    useful columns, the message sizes as a call x size grid of "calls (seconds)", the
    regions' spreads ...), or the table as it is."""
    df = tables.get(name)
    if df is None or df.empty:
        return df
    shape = next((s for n, _h, _r, s in registry.VIEWS if n == name), None)
    return shape(df, tables) if shape else df
