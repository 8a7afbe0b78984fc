"""papi_report.tables.tables: the MPI report and the region files as tidy pandas DataFrames.

Every figure and CSV of papi_report is drawn from these tables, and nothing else: a
table equals the JSON it came from (the tests check it). One row per observation, one
column per variable ("long form"), so a user's own groupby/pivot works on them.

MPI (papi_mpi_report.json of the MPI wrapper library):
  mpi_run(rep)          one row: command, start_utc, nranks, finished_ranks, hosts,
                        host_names, wall_s (the longest rank's), papi_compat_version,
                        run_id
  mpi_ranks(rep)        rank, finished, threads, wall_s, mpi_s, compute_s (wall - MPI),
                        mpi_pct, init_s, finalize_s, partners_dropped (partner records
                        the rank's full partner table could not keep: its matrix row
                        is then incomplete)
  mpi_calls(rep)        rank, call, calls, time_s, bytes_sent, bytes_recv (every call of
                        every rank with at least one call)
  mpi_call_summary(rep) call, calls, time_s, mean_call_s, pct_mpi, pct_wall (both empty
                        for the calls apart, outside the wall interval), cov (of the
                        per-rank times), min_s, min_rank, max_s, max_rank; sorted by time,
                        MPI_Init/MPI_Finalize apart (column "apart")
  mpi_counters(rep)     rank, counter, value
  mpi_callsites(rep)    the report's call sites, one row each
  mpi_sizes(rep)        rank, call, bucket, min_bytes, max_bytes, calls, time_s (the
                        power-of-two message-size histogram: bucket 0 is 0 bytes, bucket k
                        holds sizes 2^(k-1) .. 2^k - 1)
  mpi_call_sizes(rep)   call, bucket, size, min_bytes, max_bytes, calls, time_s, ranks:
                        call x message size summed over the ranks
  mpi_regions(rep)      rank, region, entries, wall_s, mpi_s, mpi_pct, mpi_calls,
                        calls_unlisted and one column per counter: the
                        MPI_Pcontrol(1/-1, "name") regions (mpi_s, mpi_calls: the rank's
                        time in MPI and MPI calls while the region was open)
  mpi_region_calls(rep) rank, region, call, calls, time_s: the MPI calls inside them
  mpi_region_summary(rep)  region, ranks, entries; wall_s, mpi_s and mpi_calls summed
                        and per rank min/mean/max with the ranks (min_s, min_rank, mean_s,
                        max_s, max_rank; mpi_min_s ... mpi_max_rank; calls_min ...
                        calls_max_rank), mpi_pct, counter sums (over the ranks that
                        entered it)
  mpi_region_call_summary(rep)  region, call, ranks, calls, time_s, calls_min,
                        calls_mean, calls_max (per rank, over the ranks in the region)
  mpi_matrix(rep)       src, dst, messages, bytes, time_s (what src sent to dst, and the
                        time src spent in point-to-point calls with dst),
                        src_partners_dropped (nonzero: src dropped that many partner
                        records, so its row of the matrix is incomplete)
Named metrics per rank and region, the roofline: papi_report.tables.metric_tables.
Regions (papi_hl_output/rank_*.json, PAPI 7's format, one entry per instance):
  region_run(files)        rank, recorded (the file has the run header "run"), run_id,
                           command, start_utc, host, cpu, papi_compat_version (empty
                           where not recorded): the region API's and papi_run's header
  region_instances(files)  rank, thread, id, name, parent_id, path, and one column per
                           measurement (cycles, real_time_nsec, each event); for an event
                           with all-thread totals ("all_threads" of the file: every thread
                           of the process during the instance), "<event> (all threads)"
                           right after its own column (empty where the instance has none;
                           region_totals and region_tree sum them too)
  region_reads(files)      rank, thread, id, name, metric, read (1..N), value
  region_totals(files)     rank, thread, name, path, region_count and the inclusive
                           totals per measurement
  region_tree(files)       path, name, parent_path, depth, region_count and the
                           inclusive totals summed over ranks and threads; a device-level
                           event (a GPU's: device_events.py) once, with no all-thread
                           column: the most of a rank's threads and of a host's ranks
                           (they read the same device over the same time), summed over
                           the hosts
  region_tree_literal(files)  the tree in Hatchet's literal format (a list of
                           {"frame": {"name", "type"}, "metrics": {...}, "children": [...]})
                           for hatchet.GraphFrame.from_literal: each measurement inclusive
                           ("<name> (inc)") and exclusive ("<name>", inclusive minus the
                           children's, negative where the children's counts exceed the
                           parent's); region_count as it is (instances, not additive)
"""
import array
import math
import re
import shlex
import sys

try:
    import numpy as np
    import pandas as pd
except ImportError as e:  # the CLI says which package installs it
    raise ImportError("papi_report needs pandas (Debian: apt-get install python3-pandas): %s" % e)

from ..load import device_events, registry  # noqa: E402
from ..load.check import BUILTIN, RUN_FIELDS  # noqa: E402
from ..load.load import _regions_arg  # noqa: E402

#: Calls reported apart from "time in MPI" (they are setup and teardown, not communication).
APART = ("MPI_Init", "MPI_Init_thread", "MPI_Finalize")



def _column(v):
    """A column's store, chosen by its first value: machine integers and doubles in a
    typed array (8 bytes a value, where a list holds a pointer to a 24-32 byte object),
    anything else in a list."""
    if type(v) is int:
        return array.array("q")
    if type(v) is float:
        return array.array("d")
    return []


def _values(col):
    """A column's values for pandas: a typed array's as numpy's view of it (no copy)."""
    if isinstance(col, array.array):
        return np.frombuffer(col, dtype=np.int64 if col.typecode == "q" else np.float64)
    return col


def frame(names, rows):
    """The DataFrame of rows (tuples in the order of names), gathered column by column: a
    row costs its values, not a dict of them or an object per number (the report's rows
    are read one at a time, load/rank_rows.py; a 10^5-rank report's calls are 400,000
    rows). A column whose values stop fitting its typed array (an integer past 64 bits,
    a float among integers) becomes a list from there on, as pandas takes mixed values."""
    cols = [None] * len(names)
    for row in rows:
        for i, v in enumerate(row):
            col = cols[i]
            if col is None:
                col = cols[i] = _column(v)
            if type(v) is str:
                v = sys.intern(v)  # a call's name once, not per row
            try:
                col.append(v)
            except (TypeError, OverflowError):
                col = cols[i] = col.tolist()
                col.append(v)
    return pd.DataFrame({n: _values(c) if c is not None else [] for n, c in zip(names, cols)},
                        columns=names)


def _call_time(row, names):
    return sum(row.get("calls", {}).get(n, {}).get("time_s", 0.0) for n in names)


def mpi_ranks(rep):
    def rows():
        for r in rep["ranks"]:
            wall, mpi = float(r.get("wall_s", 0.0)), float(r.get("mpi_s", 0.0))
            yield (int(r["rank"]), bool(r.get("finished", True)), int(r.get("threads", 1)), wall,
                   mpi, wall - mpi, 100.0 * mpi / wall if wall > 0 else 0.0,
                   _call_time(r, APART[:2]), _call_time(r, APART[2:]),
                   int(r.get("partners_dropped", 0)))
    cols = ["rank", "finished", "threads", "wall_s", "mpi_s", "compute_s", "mpi_pct", "init_s",
            "finalize_s", "partners_dropped"]
    return frame(cols, rows()).sort_values("rank").reset_index(drop=True)


def mpi_calls(rep):
    def rows():
        for r in rep["ranks"]:
            for call, c in r.get("calls", {}).items():
                if c.get("calls", 0):
                    yield (int(r["rank"]), call, int(c["calls"]), float(c.get("time_s", 0.0)),
                           int(c.get("bytes_sent", 0)), int(c.get("bytes_recv", 0)))
    return frame(["rank", "call", "calls", "time_s", "bytes_sent", "bytes_recv"], rows())


def mpi_call_summary(rep):
    """Per call over all ranks: the banner's table (mpiP's App%/MPI%/COV)."""
    calls, ranks = mpi_calls(rep), mpi_ranks(rep)
    cols = ["call", "calls", "time_s", "mean_call_s", "pct_mpi", "pct_wall", "cov", "min_s",
            "min_rank", "max_s", "max_rank", "bytes_sent", "bytes_recv", "apart"]
    if calls.empty:
        return pd.DataFrame(columns=cols)
    # Every rank counts, with 0 for a rank that never made the call: one call's column of
    # the ranks at a time (a pivot of every call x rank at once was papi_report's peak
    # at 10^5 ranks).
    by_call = calls.groupby(["call", "rank"])["time_s"].sum()
    rank_index = pd.Index(ranks["rank"])
    total_mpi, total_wall = ranks["mpi_s"].sum(), ranks["wall_s"].sum()
    g = calls.groupby("call").agg(calls=("calls", "sum"), time_s=("time_s", "sum"),
                                  bytes_sent=("bytes_sent", "sum"), bytes_recv=("bytes_recv", "sum"))
    out = []
    for call, row in g.iterrows():
        per_rank = by_call.xs(call, level="call").reindex(rank_index).fillna(0.0)
        mean = per_rank.mean()
        apart = call in APART
        out.append({"call": call, "calls": int(row.calls), "time_s": row.time_s,
                    "mean_call_s": row.time_s / row.calls if row.calls else 0.0,
                    "pct_mpi": (float("nan") if apart or total_mpi <= 0
                                else 100.0 * row.time_s / total_mpi),
                    # wall_s runs from MPI_Init's end to MPI_Finalize: the calls apart
                    # lie outside it, so no share of it (MPI_Init read 798% of wall)
                    "pct_wall": (float("nan") if apart or total_wall <= 0
                                 else 100.0 * row.time_s / total_wall),
                    "cov": float(per_rank.std(ddof=0) / mean) if mean > 0 else 0.0,
                    "min_s": float(per_rank.min()), "min_rank": int(per_rank.idxmin()),
                    "max_s": float(per_rank.max()), "max_rank": int(per_rank.idxmax()),
                    "bytes_sent": int(row.bytes_sent), "bytes_recv": int(row.bytes_recv),
                    "apart": apart})
    df = pd.DataFrame(out, columns=cols)
    return df.sort_values(["apart", "time_s"], ascending=[True, False]).reset_index(drop=True)


def mpi_counters(rep):
    rows = ((int(r["rank"]), k, v) for r in rep["ranks"] for k, v in r.get("counters", {}).items())
    return frame(["rank", "counter", "value"], rows)


def mpi_callsites(rep):
    """The report's top call sites (merged over ranks): time over all ranks and its
    spread across the ranks that called from the site (rank_min_s..rank_max_s)."""
    cols = ["call", "function", "file", "line", "object", "offset", "ranks", "calls", "time_s",
            "bytes_sent", "bytes_recv", "min_call_s", "max_call_s", "max_call_rank",
            "rank_min_s", "rank_min", "rank_max_s", "rank_max"]
    sites = rep.get("callsites", {})
    df = pd.DataFrame(sites.get("top", []) if isinstance(sites, dict) else sites)
    return df.reindex(columns=[c for c in cols if c in df.columns] or cols)


def bucket_range(k):
    """The sizes power-of-two bucket k holds: 0 -> 0 bytes, k -> 2^(k-1) .. 2^k - 1."""
    return (0, 0) if k == 0 else (1 << (k - 1), (1 << k) - 1)


def mpi_sizes(rep):
    def rows():
        for r in rep["ranks"]:
            for call, buckets in r.get("sizes", {}).items():
                for b in buckets:
                    lo, hi = bucket_range(int(b["bucket"]))
                    yield (int(r["rank"]), call, int(b["bucket"]), lo, hi, int(b["calls"]),
                           float(b["time_s"]))
    return frame(["rank", "call", "bucket", "min_bytes", "max_bytes", "calls", "time_s"], rows())


def mpi_matrix(rep):
    def rows():
        for r in rep["ranks"]:
            dropped = int(r.get("partners_dropped", 0))
            for p in r.get("partners", []):
                yield (int(r["rank"]), int(p["rank"]), int(p.get("sends", 0)),
                       int(p.get("bytes_sent", 0)), float(p.get("time_s", 0.0)), dropped)
    return frame(["src", "dst", "messages", "bytes", "time_s", "src_partners_dropped"], rows())


def mpi_run(rep):
    """The run's header, one row: the program's command line, when rank 0 entered
    MPI_Init (UTC), the ranks (and how many finished), the hosts, the wall time (the
    longest rank's). Reports of older wrapper libraries have no command, start or hosts:
    those cells are empty."""
    hosts, wall, finished = {}, None, 0  # one pass over the rows (read one at a time)
    for r in rep["ranks"]:
        if r.get("host"):
            hosts.setdefault(str(r["host"]), None)
        w = float(r.get("wall_s", 0.0))
        wall = w if wall is None or w > wall else wall
        finished += r.get("finished", True) is True
    hosts = list(hosts)
    cmd = rep.get("command")
    row = {"command": " ".join(shlex.quote(str(a)) for a in cmd) if isinstance(cmd, list) and cmd else "",
           "start_utc": str(rep.get("start_utc") or ""),
           "nranks": int(rep.get("nranks", len(rep["ranks"]))),
           "finished_ranks": finished,
           "hosts": len(hosts), "host_names": ", ".join(hosts[:16]) + (", ..." if len(hosts) > 16 else ""),
           "wall_s": wall if wall is not None else 0.0,
           "papi_compat_version": str(rep.get("papi_compat_version") or ""),
           "run_id": str(rep.get("run_id") or "")}
    return pd.DataFrame([row], columns=list(row))


def mpi_call_sizes(rep):
    """Call x message size over all ranks (IPM's and mpiP's message-size table): per call
    and power-of-two size bucket, the calls, the time and the ranks that made them."""
    s = mpi_sizes(rep)
    cols = ["call", "bucket", "size", "min_bytes", "max_bytes", "calls", "time_s", "ranks"]
    if s.empty:
        return pd.DataFrame(columns=cols)
    g = s.groupby(["call", "bucket"]).agg(min_bytes=("min_bytes", "first"), max_bytes=("max_bytes", "first"),
                                          calls=("calls", "sum"), time_s=("time_s", "sum"),
                                          ranks=("rank", "nunique")).reset_index()
    g["size"] = [size_label(b) for b in g["bucket"]]
    order = g.groupby("call")["time_s"].sum().sort_values(ascending=False)
    g["_o"] = g["call"].map({c: i for i, c in enumerate(order.index)})
    return g.sort_values(["_o", "bucket"]).reset_index(drop=True)[cols]


def binary_units(v):
    """A byte count in binary units: 512 B, 1 KiB, 1.5 MiB."""
    for name, f in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(v) >= f:
            return "%.4g %s" % (v / f, name)
    return "%.4g B" % v


def size_label(k):
    """A bucket's sizes, half-open, in binary units: "0 B", "[8 B, 16 B)", "[64 KiB, 128 KiB)"."""
    lo, hi = bucket_range(int(k))
    return "0 B" if k == 0 else "[%s, %s)" % (binary_units(lo), binary_units(hi + 1))


REGION_COLUMNS = ["rank", "region", "entries", "wall_s", "mpi_s", "mpi_pct", "mpi_calls",
                  "calls_unlisted"]


def _opt(v, kind=float):
    """A value older wrapper libraries did not write: None (an empty cell) when absent."""
    return None if v is None else kind(v)


def mpi_regions(rep):
    """MPI_Pcontrol(1, "name") / (-1, "name") regions, a row per rank and region: entries,
    wall time, the rank's time in MPI and its MPI calls while the region was open
    (MPI_Pcontrol not counted; empty in reports of older wrapper libraries), the calls
    not listed per call (calls_unlisted: past the 16 distinct calls a region lists), and
    the counters inside."""
    rows, counters = [], list(rep.get("events", []))
    for r in rep["ranks"]:
        for name, g in (r.get("regions") or {}).items():
            wall, mpi = float(g.get("wall_s", 0.0)), _opt(g.get("mpi_s"))
            row = {"rank": int(r["rank"]), "region": str(name), "entries": int(g.get("entries", 0)),
                   "wall_s": wall, "mpi_s": mpi,
                   "mpi_pct": None if mpi is None else (100.0 * mpi / wall if wall > 0 else 0.0),
                   "mpi_calls": _opt(g.get("mpi_calls"), int),
                   "calls_unlisted": _opt(g.get("calls_unlisted"), int)}
            for k, v in (g.get("counters") or {}).items():
                row[k] = v
                if k not in counters:
                    counters.append(k)
            rows.append(row)
    df = pd.DataFrame(rows, columns=REGION_COLUMNS + counters)
    for k in ("mpi_s", "mpi_pct"):
        df[k] = df[k].astype(float)
    for k in ("mpi_calls", "calls_unlisted"):
        df[k] = df[k].astype("Int64")  # whole numbers, empty where not recorded
    return df


def mpi_region_calls(rep):
    """The MPI calls made inside each MPI_Pcontrol region: rank, region, call, calls,
    time_s (a row per rank, region and call; the calls of a region past its 16 listed
    ones are only in mpi_regions' calls_unlisted)."""
    rows = []
    for r in rep["ranks"]:
        for name, g in (r.get("regions") or {}).items():
            for call, v in (g.get("calls") or {}).items():
                rows.append({"rank": int(r["rank"]), "region": str(name), "call": str(call),
                             "calls": int(v["calls"]), "time_s": float(v.get("time_s", 0.0))})
    return pd.DataFrame(rows, columns=["rank", "region", "call", "calls", "time_s"])


def _spread(values, prefix, suffix=""):
    """{prefix}min{suffix}, {prefix}min_rank, mean, max, max_rank of a per-rank Series
    (index: ranks); empty when every value is missing."""
    v = values.dropna()
    if v.empty:
        return {prefix + "min" + suffix: None, prefix + "min_rank": None,
                prefix + "mean" + suffix: None, prefix + "max" + suffix: None,
                prefix + "max_rank": None}
    v = v.astype(float)
    return {prefix + "min" + suffix: float(v.min()), prefix + "min_rank": int(v.idxmin()),
            prefix + "mean" + suffix: float(v.mean()), prefix + "max" + suffix: float(v.max()),
            prefix + "max_rank": int(v.idxmax())}


REGION_SUMMARY_COLUMNS = ["region", "ranks", "entries", "wall_s", "min_s", "min_rank", "mean_s",
                          "max_s", "max_rank", "mpi_s", "mpi_min_s", "mpi_min_rank", "mpi_mean_s",
                          "mpi_max_s", "mpi_max_rank", "mpi_pct", "mpi_calls", "calls_min",
                          "calls_min_rank", "calls_mean", "calls_max", "calls_max_rank"]


def mpi_region_summary(rep):
    """Per Pcontrol region over the ranks that entered it: ranks, entries; the wall time,
    the time in MPI and the MPI calls, each summed and per rank min/mean/max with the
    ranks holding min and max; mpi_pct (MPI time of the wall time, summed over ranks); and
    the counter sums. Sorted by wall time. The MPI columns are empty for reports of older
    wrapper libraries (no mpi_s or mpi_calls in their regions)."""
    r = mpi_regions(rep)
    extra = [c for c in r.columns if c not in REGION_COLUMNS]
    cols = REGION_SUMMARY_COLUMNS + extra
    if r.empty:
        return pd.DataFrame(columns=cols)
    out = []
    for name, g in r.groupby("region", sort=False):
        g = g.set_index("rank")
        w = g["wall_s"]
        row = {"region": name, "ranks": len(g), "entries": int(g["entries"].sum()),
               "wall_s": float(w.sum())}
        row.update(_spread(w, "", "_s"))
        mpi = g["mpi_s"]
        row["mpi_s"] = float(mpi.sum()) if mpi.notna().any() else None
        row.update(_spread(mpi, "mpi_", "_s"))
        row["mpi_pct"] = (100.0 * row["mpi_s"] / row["wall_s"] if row["wall_s"] > 0 else 0.0) \
            if row["mpi_s"] is not None else None
        calls = g["mpi_calls"].astype(float)
        row["mpi_calls"] = int(calls.sum()) if calls.notna().any() else None
        row.update(_spread(calls, "calls_"))
        for c in extra:
            row[c] = g[c].sum()
        out.append(row)
    df = pd.DataFrame(out, columns=cols)
    for k in ("min_rank", "max_rank", "mpi_min_rank", "mpi_max_rank", "mpi_calls", "calls_min_rank",
              "calls_max_rank"):
        df[k] = df[k].astype("Int64")
    for k in ("mpi_s", "mpi_min_s", "mpi_mean_s", "mpi_max_s", "mpi_pct", "calls_min", "calls_mean",
              "calls_max"):
        df[k] = df[k].astype(float)
    return df.sort_values("wall_s", ascending=False, kind="stable").reset_index(drop=True)


#: The call of mpi_region_call_summary's row for the calls a region did not list.
UNLISTED = "(calls not listed)"


def mpi_region_call_summary(rep):
    """Per Pcontrol region and MPI call inside it, over the ranks that entered the region:
    ranks (that made the call there), calls and time_s summed, calls per rank min/mean/max
    (a rank that entered the region without making the call counts 0). Regions in
    mpi_region_summary's order, calls by time; last, a row "(calls not listed)" for the
    calls past the 16 distinct calls a region lists (their time is not recorded apart)."""
    rc, regs = mpi_region_calls(rep), mpi_regions(rep)
    cols = ["region", "call", "ranks", "calls", "time_s", "calls_min", "calls_mean", "calls_max"]
    if rc.empty:
        return pd.DataFrame(columns=cols)
    entered = regs.groupby("region")["rank"].apply(list)
    order = list(mpi_region_summary(rep)["region"])
    out = []
    for (region, call), g in rc.groupby(["region", "call"], sort=False):
        per = g.groupby("rank")["calls"].sum().reindex(entered[region]).fillna(0)
        out.append({"region": region, "call": call, "ranks": int((per > 0).sum()),
                    "calls": int(g["calls"].sum()), "time_s": float(g["time_s"].sum()),
                    "calls_min": float(per.min()), "calls_mean": float(per.mean()),
                    "calls_max": float(per.max())})
    # The calls a region did not list per call (past its 16): one row, time not recorded.
    unlisted = regs.dropna(subset=["calls_unlisted"])
    for region, g in unlisted[unlisted["calls_unlisted"] > 0].groupby("region", sort=False):
        per = g.set_index("rank")["calls_unlisted"].astype(float).reindex(entered[region]).fillna(0)
        out.append({"region": region, "call": UNLISTED, "ranks": int((per > 0).sum()),
                    "calls": int(per.sum()), "time_s": None, "calls_min": float(per.min()),
                    "calls_mean": float(per.mean()), "calls_max": float(per.max())})
    df = pd.DataFrame(out, columns=cols)
    df["time_s"] = df["time_s"].astype(float)
    df["_o"] = df["region"].map({n: i for i, n in enumerate(order)})
    return df.sort_values(["_o", "time_s"], ascending=[True, False]).drop(columns="_o").reset_index(drop=True)


def mpi_recorded(rep):
    """Does the report carry the message sizes and partners (newer wrapper libraries)?"""
    return any("sizes" in r or "partners" in r for r in rep["ranks"])



def _metrics(data):
    return list(BUILTIN) + list(data["event_definitions"])


def _value(v):
    """A measurement as written: integers stay integers, anything else a float (never
    truncated: an event of type "instant" or a derived rate may be fractional)."""
    if isinstance(v, dict):
        v = v.get("region_value", 0)
    if isinstance(v, str):
        return int(v) if v.strip().lstrip("-").isdigit() else float(v)
    if isinstance(v, float):
        return int(v) if v.is_integer() and abs(v) < 2 ** 53 else v
    return int(v)


def path_part(name):
    """A region name as one part of a path: "/" joins the parts, so a "/" (or "\\") in a
    name is escaped with a backslash; "a/b" at the top is not "b" inside "a"."""
    return name.replace("\\", "\\\\").replace("/", "\\/")


def parent_path(path):
    """The path without its last part (escaped separators are not separators)."""
    i = len(path)
    while True:
        i = path.rfind("/", 0, i)
        if i < 0:
            return ""
        j = i  # the backslashes just before it, counted in place (no copy of the path)
        while j > 0 and path[j - 1] == "\\":
            j -= 1
        if (i - j) % 2 == 0:
            return path[:i]


def path_names(path):
    """The region names a path joins, outermost first (escaped separators unescaped)."""
    if not path:
        return []
    if "\\" not in path:
        return path.split("/")
    names, cur = [], []
    for tok in re.findall(r"\\.|/|[^\\/]+|\\", path):
        if tok == "/":
            names.append("".join(cur))
            cur = []
        else:
            cur.append(tok[1] if len(tok) == 2 and tok[0] == "\\" else tok)
    return names + ["".join(cur)]


def _instance_path(regs, rid, paths):
    """The path of region instance rid: its enclosing instances' names, outermost first,
    found without recursion (a tree may be thousands of levels deep) and each path
    computed once (paths: rid -> path). A parent that is missing or in a cycle ends it."""
    chain, seen, p = [], set(), rid
    while p in regs and p not in paths and p not in seen:
        seen.add(p)
        chain.append(p)
        p = str(regs[p].get("parent_region_id", -1))
    prefix = paths.get(p, "")
    for q in reversed(chain):
        prefix = path_part(regs[q]["name"]) if not prefix else prefix + "/" + path_part(regs[q]["name"])
        paths[q] = prefix
    return paths[rid]


#: The column of an event's all-thread value beside its own ("<event> (all threads)"): the
#: event counted on every thread of the process during the instance (the file's
#: "all_threads"); the event's own column holds the thread that ran the region alone.
ALL_THREADS = " (all threads)"


def _all_thread_instances(data, thread):
    """{instance id: {event: value}} of a thread's all-thread values ({} without any)."""
    at = (data.get("all_threads") or {}).get(str(thread)) or {}
    return at.get("instances") or {}


def _whole(df, cols):
    """Columns of whole numbers with gaps (no all-thread value) as integers, not floats."""
    for c in cols:
        v = df[c].dropna()
        if len(v) < len(df) and all(isinstance(x, (int, float)) and float(x).is_integer() and
                                    abs(x) < 2 ** 53 for x in v):
            df[c] = df[c].astype("Int64")
    return df


def region_instances(files):
    rows, metrics, all_cols = [], [], []
    for rank, data in _regions_arg(files):
        for m in _metrics(data):
            if m not in metrics:
                metrics.append(m)
        for thread, t in data["threads"].items():
            regs, paths = t.get("regions", {}), {}
            alls = _all_thread_instances(data, thread)
            for rid, r in regs.items():
                row = {"rank": rank, "thread": str(thread), "id": int(rid), "name": r["name"],
                       "parent_id": int(r.get("parent_region_id", -1))}
                row["path"] = _instance_path(regs, rid, paths)
                for m in _metrics(data):
                    if m in r:
                        row[m] = _value(r[m])
                for ev, v in (alls.get(rid) or {}).items():
                    row[ev + ALL_THREADS] = _value(v)
                    if ev + ALL_THREADS not in all_cols:
                        all_cols.append(ev + ALL_THREADS)
                rows.append(row)
    # Each event's all-thread column right after its own.
    cols = []
    for m in metrics:
        cols += [m, m + ALL_THREADS] if m + ALL_THREADS in all_cols else [m]
    cols += [c for c in all_cols if c not in cols]
    df = pd.DataFrame(rows, columns=["rank", "thread", "id", "name", "parent_id", "path"] + cols)
    return _whole(df, all_cols)




def region_run(files):
    """One row per region file: rank, recorded (whether the file has the run header
    "run"), run_id, command, start_utc, host, cpu, papi_compat_version (empty where not
    recorded)."""
    rows = []
    for rank, data in _regions_arg(files):
        run = data.get("run")
        row = {"rank": rank, "recorded": isinstance(run, dict)}
        for key, col in RUN_FIELDS:
            row[col] = str(run.get(key) or "") if isinstance(run, dict) else ""
        rows.append(row)
    cols = ["rank", "recorded"] + [c for _k, c in RUN_FIELDS]
    return pd.DataFrame(rows, columns=cols).sort_values("rank", kind="stable").reset_index(drop=True)


def region_reads(files):
    rows, files = [], _regions_arg(files)
    for rank, data in files:
        for thread, t in data["threads"].items():
            for rid, r in t.get("regions", {}).items():
                for m in _metrics(data):
                    v = r.get(m)
                    if isinstance(v, dict):
                        reads = sorted((int(k[5:]), x) for k, x in v.items() if k.startswith("read_"))
                        rows += [{"rank": rank, "thread": str(thread), "id": int(rid),
                                  "name": r["name"], "metric": m, "read": k, "value": int(x)}
                                 for k, x in reads]
    df = pd.DataFrame(rows, columns=["rank", "thread", "id", "name", "metric", "read", "value"])
    # papi_run's files only: a whole-program record, no region API (the page lists the
    # reads as more input, not as a figure that could not be drawn)
    df.attrs["papi_run_only"] = bool(files) and all(d.get("tool") == "papi_run" for _r, d in files)
    return df


def region_totals(files, inst=None):
    """Per rank, thread and region path: completed instances and inclusive totals (inst:
    region_instances(files) when already made)."""
    inst = region_instances(files) if inst is None else inst
    metrics = [c for c in inst.columns if c not in ("rank", "thread", "id", "name", "parent_id", "path")]
    if inst.empty:
        return pd.DataFrame(columns=["rank", "thread", "name", "path", "region_count"] + metrics)
    g = inst.groupby(["rank", "thread", "path"], sort=False)
    df = g[metrics].sum(min_count=1)
    # An all-thread total only where every instance has its all-thread value.
    alls = [m for m in metrics if m.endswith(ALL_THREADS)]
    if alls:
        partial = g[alls].count().lt(g.size(), axis=0)
        df[alls] = df[alls].mask(partial)
    df.insert(0, "region_count", g.size())
    df.insert(0, "name", g["name"].first())
    return _whole(df.reset_index()[["rank", "thread", "name", "path", "region_count"] + metrics], alls)


def _definitions(files):
    """Every file's event_definitions in one dict (a device event's marker and units)."""
    out = {}
    for _rank, data in files:
        for k, v in (data.get("event_definitions") or {}).items():
            out.setdefault(k, v)
    return out


def _device_once(tot, files, devices):
    """{device event: {path: value}}: the device's count once per host (the most of the
    threads' own and all-thread values, then of the host's ranks), summed over hosts."""
    host = {rank: ((data.get("run") or {}).get("host") or "rank %s" % rank) for rank, data in files}
    t = pd.DataFrame({"path": tot["path"], "host": tot["rank"].map(host)})
    for m in devices:
        both = [c for c in (m, m + ALL_THREADS) if c in tot.columns]
        t[m] = tot[both].astype(float).max(axis=1)
    per_host = t.groupby(["path", "host"], sort=False)[devices].max()
    return per_host.groupby(level=0, sort=False).sum(min_count=1).to_dict()


def region_tree(files, tot=None):
    files = _regions_arg(files)
    tot = region_totals(files) if tot is None else tot
    defs = _definitions(files)
    devices = [c for c in tot.columns if c not in ("rank", "thread", "name", "path", "region_count")
               and not c.endswith(ALL_THREADS) and device_events.is_device(c, defs)]
    metrics = [c for c in tot.columns if c not in ("rank", "thread", "name", "path", "region_count")
               and not (c.endswith(ALL_THREADS) and c[: -len(ALL_THREADS)] in devices)]
    cols = ["path", "name", "parent_path", "depth", "region_count"] + metrics
    if tot.empty:
        return pd.DataFrame(columns=cols)
    g = tot.groupby("path", sort=False)
    df = g.agg(**{"name": ("name", "first"), "region_count": ("region_count", "sum")},
               **{m: (m, "sum") for m in metrics if not m.endswith(ALL_THREADS)})
    # All-thread totals over the threads and ranks that have them (empty: none has).
    alls = [m for m in metrics if m.endswith(ALL_THREADS)]
    if alls:
        df = df.join(g[alls].sum(min_count=1))
    df = _whole(df.reset_index(), alls)
    df["parent_path"] = df["path"].map(parent_path)
    depth = {}
    for p in sorted(df["path"], key=len):  # a parent's path is shorter than its children's
        q = parent_path(p)
        depth[p] = depth.get(q, -1) + 1 if q else 0
    df["depth"] = df["path"].map(depth)
    once = _device_once(tot, files, devices) if devices else {}
    for m in devices:
        df[m] = df["path"].map(once[m])
        if df[m].dropna().map(float.is_integer).all():
            df[m] = df[m].astype("Int64")  # counts stay whole numbers
    df = df.sort_values("path").reset_index(drop=True)[cols]
    df.attrs["event_definitions"] = {k: v for k, v in defs.items() if k in devices}
    return df


def region_tree_literal(files, tree=None):
    """The region tree as Hatchet's literal format (GraphFrame.from_literal): inclusive
    measurements as "<name> (inc)", exclusive ones (inclusive minus the children's) as
    "<name>", summed over ranks and threads (tree: region_tree(files) when already made)."""
    tree = region_tree(files) if tree is None else tree
    metrics = [c for c in tree.columns if c not in ("path", "name", "parent_path", "depth")]
    nodes = {}
    for _, row in tree.iterrows():
        m = {}
        for k in metrics:
            v = row[k]
            m[k + " (inc)"] = None if v is pd.NA or (isinstance(v, float) and math.isnan(v)) \
                else v.item() if hasattr(v, "item") else v
        nodes[row["path"]] = {"frame": {"name": row["name"], "type": "region"}, "metrics": m,
                              "children": [], "_parent": row["parent_path"]}
    roots = []
    for path, n in nodes.items():
        parent = nodes.get(n.pop("_parent"))
        (parent["children"] if parent else roots).append(n)
    for n in nodes.values():
        for k in list(n["metrics"]):
            name = k[:-len(" (inc)")]
            inc = n["metrics"][k]
            if name == "region_count":  # instances of this node: not inclusive of the children's
                del n["metrics"][k]
                n["metrics"][name] = inc
                continue
            kids = [c["metrics"].get(k) for c in n["children"]]
            n["metrics"][name] = None if inc is None else \
                inc - sum(x for x in kids if x is not None)
    return roots


# ---------------------------------------------------------------- all of them


for _f in (mpi_run, mpi_ranks, mpi_calls, mpi_call_summary, mpi_counters, mpi_callsites, mpi_sizes,
           mpi_call_sizes, mpi_matrix, mpi_regions, mpi_region_summary, mpi_region_calls,
           mpi_region_call_summary):
    registry.table("mpi")(_f)
for _f in (region_run, region_instances, region_reads, region_totals, region_tree):
    registry.table("regions")(_f)
