"""papi_report.tables: the MPI report and the region files as tidy pandas DataFrames.

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
  mpi_call_summary(rep) call, calls, time_s, mean_call_s, pct_mpi, pct_wall, cov (of the
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
                        MPI_Pcontrol(2/-2, "name") regions (mpi_s, mpi_calls: the rank's
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
Named metrics per rank and region, the roofline: papi_report.metric_tables.
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
                           inclusive totals summed over ranks and threads
  region_tree_literal(files)  the tree in Hatchet's literal format (a list of
                           {"frame": {"name", "type"}, "metrics": {...}, "children": [...]})
                           for hatchet.GraphFrame.from_literal: each measurement inclusive
                           ("<name> (inc)") and exclusive ("<name>", inclusive minus the
                           children's, negative where the children's counts exceed the
                           parent's); region_count as it is (instances, not additive)
"""
import glob
import json
import math
import os
import re
import shlex
import sys

try:
    import pandas as pd
except ImportError as e:  # the CLI says which package installs it
    raise ImportError("papi_report needs pandas (Debian: apt-get install python3-pandas): %s" % e)

#: Calls reported apart from "time in MPI" (they are setup and teardown, not communication).
APART = ("MPI_Init", "MPI_Init_thread", "MPI_Finalize")
#: Measurements every region entry has besides its events.
BUILTIN = ("cycles", "real_time_nsec")


class ReportError(Exception):
    """A file that is missing or not in the expected format (the message says which)."""


class MalformedInput(ReportError):
    """A file that parses but is not in the expected format (papi_report exits with 2)."""


def _load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise ReportError("cannot read %s: %s" % (path, e.strerror))
    except (ValueError, RecursionError) as e:
        raise MalformedInput("%s is not JSON: %s" % (path, e))


# What each value must be for the tables (and the figures drawn from them) to hold it.
_KINDS = {
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
    "number >= 0": lambda v: _KINDS["number"](v) and v >= 0,
    "true or false": lambda v: isinstance(v, bool),
    "integer >= 0": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    "string": lambda v: isinstance(v, str),
    "string or null": lambda v: v is None or isinstance(v, str),
    "object": lambda v: isinstance(v, dict),
    "list": lambda v: isinstance(v, list),
}


def _shown(v):
    """A value as the file has it, cut short: -7, 1.9, Infinity, "3", {...}."""
    if isinstance(v, (dict, list)):
        return "an object" if isinstance(v, dict) else "a list"
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:37] + "..."


class _Checker:
    """Checks one file's values; the first that is wrong raises MalformedInput naming the
    file and where the value is."""

    def __init__(self, path):
        self.path = path

    def bad(self, where, what):
        raise MalformedInput("%s: %s %s" % (self.path, where, what))

    def need(self, obj, key, kind, where, optional=False):
        if key not in obj:
            if optional:
                return None
            self.bad(where, "has no '%s'" % key)
        if not _KINDS[kind](obj[key]):
            self.bad("%s.%s" % (where, key) if where else key, "is %s, not %s%s"
                     % (_shown(obj[key]), "an " if kind[0] in "aeiou" else "a ", kind))
        return obj[key]

    def rank(self, obj, key, where, nranks):
        r = self.need(obj, key, "integer >= 0", where)
        if r >= nranks:
            self.bad("%s.%s" % (where, key), "is %d, not a rank of the %d" % (r, nranks))
        return r


_SITE_NUMBERS = ("line", "ranks", "calls", "time_s", "bytes_sent", "bytes_recv", "min_call_s",
                 "max_call_s", "max_call_rank", "rank_min_s", "rank_min", "rank_max_s", "rank_max")


def _check_mpi(path, rep):
    c = _Checker(path)
    ranks = rep["ranks"]
    nranks = c.need(rep, "nranks", "integer >= 0", "", optional=True)
    nranks = len(ranks) if nranks is None else nranks
    if not len(ranks) <= nranks <= 1 << 20:  # a rank x rank matrix is drawn
        c.bad("nranks", "is %d for %d ranks listed" % (nranks, len(ranks)))
    seen = set()
    for i, r in enumerate(ranks):
        w = "ranks[%d]" % i
        if not isinstance(r, dict):
            c.bad(w, "is not an object")
        n = c.rank(r, "rank", w, nranks)
        if n in seen:
            c.bad(w + ".rank", "%d is listed twice" % n)
        seen.add(n)
        c.need(r, "threads", "integer >= 0", w, optional=True)
        c.need(r, "finished", "true or false", w, optional=True)  # not "false", a string
        wall = c.need(r, "wall_s", "number >= 0", w, optional=True)
        mpi = c.need(r, "mpi_s", "number >= 0", w, optional=True)
        # Time in MPI is the wall-clock time any thread spent in it: never above the wall
        # time (the per-thread sum, mpi_thread_sum_s, may be: several threads at once).
        if wall is not None and mpi is not None and mpi > wall * (1 + 1e-9) + 1e-6:
            c.bad(w + ".mpi_s", "is %g s, more than the rank's wall time (wall_s %g s)" % (mpi, wall))
        c.need(r, "mpi_thread_sum_s", "number >= 0", w, optional=True)
        c.need(r, "partners_dropped", "integer >= 0", w, optional=True)
        for name, call in (c.need(r, "calls", "object", w, optional=True) or {}).items():
            cw = "%s.calls['%s']" % (w, name)
            if not isinstance(call, dict):
                c.bad(cw, "is not an object")
            c.need(call, "calls", "integer >= 0", cw)
            c.need(call, "time_s", "number >= 0", cw, optional=True)
            for k in ("bytes_sent", "bytes_recv"):
                c.need(call, k, "integer >= 0", cw, optional=True)
        for name in (c.need(r, "counters", "object", w, optional=True) or {}):
            c.need(r["counters"], name, "number", w + ".counters")
        for name, buckets in (c.need(r, "sizes", "object", w, optional=True) or {}).items():
            c.need(r["sizes"], name, "list", w + ".sizes")
            for j, b in enumerate(buckets):
                bw = "%s.sizes['%s'][%d]" % (w, name, j)
                if not isinstance(b, dict):
                    c.bad(bw, "is not an object")
                if not 0 <= c.need(b, "bucket", "integer >= 0", bw) <= 64:
                    c.bad(bw + ".bucket", "is not a power-of-two bucket (0..64)")
                c.need(b, "calls", "integer >= 0", bw)
                c.need(b, "time_s", "number >= 0", bw)
        for name, g in (c.need(r, "regions", "object", w, optional=True) or {}).items():
            gw = "%s.regions['%s']" % (w, name)
            if not isinstance(g, dict):
                c.bad(gw, "is not an object")
            for k in ("entries", "mpi_calls", "calls_unlisted"):
                c.need(g, k, "integer >= 0", gw, optional=True)
            for k in ("wall_s", "mpi_s"):
                c.need(g, k, "number >= 0", gw, optional=True)
            for k in (c.need(g, "counters", "object", gw, optional=True) or {}):
                c.need(g["counters"], k, "number", gw + ".counters")
            for call, v in (c.need(g, "calls", "object", gw, optional=True) or {}).items():
                vw = "%s.calls['%s']" % (gw, call)
                if not isinstance(v, dict):
                    c.bad(vw, "is not an object")
                c.need(v, "calls", "integer >= 0", vw)
                c.need(v, "time_s", "number >= 0", vw, optional=True)
        for j, p in enumerate(c.need(r, "partners", "list", w, optional=True) or []):
            pw = "%s.partners[%d]" % (w, j)
            if not isinstance(p, dict):
                c.bad(pw, "is not an object")
            c.rank(p, "rank", pw, nranks)
            for k in ("sends", "bytes_sent"):
                c.need(p, k, "integer >= 0", pw, optional=True)
            c.need(p, "time_s", "number >= 0", pw, optional=True)
    sites = rep.get("callsites", [])
    top = sites.get("top", []) if isinstance(sites, dict) else sites
    if not isinstance(top, list):
        c.bad("callsites", "is neither a list nor an object with a 'top' list")
    for j, site in enumerate(top):
        sw = "callsites.top[%d]" % j
        if not isinstance(site, dict):
            c.bad(sw, "is not an object")
        c.need(site, "call", "string", sw)
        for k in ("function", "file", "object", "offset"):
            c.need(site, k, "string or null", sw)
        for k in _SITE_NUMBERS:
            c.need(site, k, "number", sw)
    from .series import check_mpi_series
    check_mpi_series(path, rep)


def _check_regions(path, data):
    c = _Checker(path)
    c.need(data, "event_definitions", "object", "")
    if "rank" in data and data["rank"] is not None:
        c.need(data, "rank", "integer >= 0", "")
    for thread, t in c.need(data, "threads", "object", "").items():
        tw = "threads['%s']" % thread
        if not isinstance(t, dict):
            c.bad(tw, "is not an object")
        for rid, r in (c.need(t, "regions", "object", tw, optional=True) or {}).items():
            w = "%s.regions['%s']" % (tw, rid)
            if not rid.isdigit():
                c.bad(w, "has an id that is not a number")
            if not isinstance(r, dict):
                c.bad(w, "is not an object")
            c.need(r, "name", "string", w)
            parent = r.get("parent_region_id", -1)
            if not (isinstance(parent, int) and not isinstance(parent, bool) or
                    isinstance(parent, str) and parent.lstrip("-").isdigit()):
                c.bad(w + ".parent_region_id", "is not a region id")
            for m in BUILTIN + ("region_count",):  # times and counts of instances
                if not isinstance(r.get(m), dict):  # (else its reads, checked below)
                    c.need(r, m, "number >= 0", w, optional=True)
            for m, v in r.items():
                if m in ("name", "parent_region_id") or _KINDS["number"](v):
                    continue
                if not isinstance(v, dict):
                    c.bad("%s['%s']" % (w, m), "is neither a number nor an object of reads")
                c.need(v, "region_value", "number", "%s['%s']" % (w, m))
                for k, x in v.items():
                    if k != "region_value" and not (k.startswith("read_") and k[5:].isdigit()):
                        c.bad("%s['%s']" % (w, m), "has '%s', not region_value or read_N" % k)
                    c.need(v, k, "number", "%s['%s']" % (w, m))
    run = c.need(data, "run", "object", "", optional=True)
    for key, _col in RUN_FIELDS if run is not None else ():
        c.need(run, key, "string", "run", optional=True)
    for tid, at in (c.need(data, "all_threads", "object", "", optional=True) or {}).items():
        aw = "all_threads['%s']" % tid
        if not isinstance(at, dict):
            c.bad(aw, "is not an object")
        for part in ("instances", "regions"):
            for key, v in (c.need(at, part, "object", aw, optional=True) or {}).items():
                vw = "%s.%s['%s']" % (aw, part, key)
                if not isinstance(v, dict):
                    c.bad(vw, "is not an object")
                for ev in v:
                    c.need(v, ev, "number", vw)
    from .series import check_region_series
    check_region_series(path, data)


# ---------------------------------------------------------------- MPI report

def load_mpi(path):
    """The MPI report: a papi_mpi_report.json file, or the directory that holds it."""
    if os.path.isdir(path):
        path = os.path.join(path, "papi_mpi_report.json")
    rep = _load_json(path)
    if not isinstance(rep, dict) or not isinstance(rep.get("ranks"), list):
        raise MalformedInput("%s is not an MPI report of the papi MPI wrapper (no 'ranks' list)" % path)
    _check_mpi(path, rep)
    metric_tables.check_mpi_metrics(path, rep)
    return rep


def _call_time(row, names):
    return sum(row.get("calls", {}).get(n, {}).get("time_s", 0.0) for n in names)


def mpi_ranks(rep):
    rows = []
    for r in rep["ranks"]:
        wall, mpi = float(r.get("wall_s", 0.0)), float(r.get("mpi_s", 0.0))
        rows.append({"rank": int(r["rank"]), "finished": bool(r.get("finished", True)),
                     "threads": int(r.get("threads", 1)), "wall_s": wall, "mpi_s": mpi,
                     "compute_s": wall - mpi, "mpi_pct": 100.0 * mpi / wall if wall > 0 else 0.0,
                     "init_s": _call_time(r, APART[:2]), "finalize_s": _call_time(r, APART[2:]),
                     "partners_dropped": int(r.get("partners_dropped", 0))})
    cols = ["rank", "finished", "threads", "wall_s", "mpi_s", "compute_s", "mpi_pct", "init_s",
            "finalize_s", "partners_dropped"]
    return pd.DataFrame(rows, columns=cols).sort_values("rank").reset_index(drop=True)


def mpi_calls(rep):
    rows = []
    for r in rep["ranks"]:
        for call, c in r.get("calls", {}).items():
            if c.get("calls", 0):
                rows.append({"rank": int(r["rank"]), "call": call, "calls": int(c["calls"]),
                             "time_s": float(c.get("time_s", 0.0)),
                             "bytes_sent": int(c.get("bytes_sent", 0)),
                             "bytes_recv": int(c.get("bytes_recv", 0))})
    return pd.DataFrame(rows, columns=["rank", "call", "calls", "time_s", "bytes_sent", "bytes_recv"])


def mpi_call_summary(rep):
    """Per call over all ranks: the banner's table (mpiP's App%/MPI%/COV)."""
    calls, ranks = mpi_calls(rep), mpi_ranks(rep)
    cols = ["call", "calls", "time_s", "mean_call_s", "pct_mpi", "pct_wall", "cov", "min_s",
            "min_rank", "max_s", "max_rank", "bytes_sent", "bytes_recv", "apart"]
    if calls.empty:
        return pd.DataFrame(columns=cols)
    # Every rank counts, with 0 for a rank that never made the call.
    wide = calls.pivot_table(index="rank", columns="call", values="time_s", aggfunc="sum")
    wide = wide.reindex(ranks["rank"]).fillna(0.0)
    total_mpi, total_wall = ranks["mpi_s"].sum(), ranks["wall_s"].sum()
    g = calls.groupby("call").agg(calls=("calls", "sum"), time_s=("time_s", "sum"),
                                  bytes_sent=("bytes_sent", "sum"), bytes_recv=("bytes_recv", "sum"))
    out = []
    for call, row in g.iterrows():
        per_rank = wide[call]
        mean = per_rank.mean()
        apart = call in APART
        out.append({"call": call, "calls": int(row.calls), "time_s": row.time_s,
                    "mean_call_s": row.time_s / row.calls if row.calls else 0.0,
                    "pct_mpi": (float("nan") if apart or total_mpi <= 0
                                else 100.0 * row.time_s / total_mpi),
                    "pct_wall": 100.0 * row.time_s / total_wall if total_wall > 0 else 0.0,
                    "cov": float(per_rank.std(ddof=0) / mean) if mean > 0 else 0.0,
                    "min_s": float(per_rank.min()), "min_rank": int(per_rank.idxmin()),
                    "max_s": float(per_rank.max()), "max_rank": int(per_rank.idxmax()),
                    "bytes_sent": int(row.bytes_sent), "bytes_recv": int(row.bytes_recv),
                    "apart": apart})
    df = pd.DataFrame(out, columns=cols)
    return df.sort_values(["apart", "time_s"], ascending=[True, False]).reset_index(drop=True)


def mpi_counters(rep):
    rows = [{"rank": int(r["rank"]), "counter": k, "value": v}
            for r in rep["ranks"] for k, v in r.get("counters", {}).items()]
    return pd.DataFrame(rows, columns=["rank", "counter", "value"])


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
    rows = []
    for r in rep["ranks"]:
        for call, buckets in r.get("sizes", {}).items():
            for b in buckets:
                lo, hi = bucket_range(int(b["bucket"]))
                rows.append({"rank": int(r["rank"]), "call": call, "bucket": int(b["bucket"]),
                             "min_bytes": lo, "max_bytes": hi, "calls": int(b["calls"]),
                             "time_s": float(b["time_s"])})
    return pd.DataFrame(rows, columns=["rank", "call", "bucket", "min_bytes", "max_bytes",
                                       "calls", "time_s"])


def mpi_matrix(rep):
    rows = []
    for r in rep["ranks"]:
        dropped = int(r.get("partners_dropped", 0))
        for p in r.get("partners", []):
            rows.append({"src": int(r["rank"]), "dst": int(p["rank"]),
                         "messages": int(p.get("sends", 0)), "bytes": int(p.get("bytes_sent", 0)),
                         "time_s": float(p.get("time_s", 0.0)), "src_partners_dropped": dropped})
    return pd.DataFrame(rows, columns=["src", "dst", "messages", "bytes", "time_s",
                                       "src_partners_dropped"])


def mpi_run(rep):
    """The run's header, one row: the program's command line, when rank 0 entered
    MPI_Init (UTC), the ranks (and how many finished), the hosts, the wall time (the
    longest rank's). Reports of older wrapper libraries have no command, start or hosts:
    those cells are empty."""
    ranks = rep["ranks"]
    hosts = list(dict.fromkeys(str(r["host"]) for r in ranks if r.get("host")))
    walls = [float(r.get("wall_s", 0.0)) for r in ranks]
    cmd = rep.get("command")
    row = {"command": " ".join(shlex.quote(str(a)) for a in cmd) if isinstance(cmd, list) and cmd else "",
           "start_utc": str(rep.get("start_utc") or ""),
           "nranks": int(rep.get("nranks", len(ranks))),
           "finished_ranks": sum(1 for r in ranks if r.get("finished", True) is True),
           "hosts": len(hosts), "host_names": ", ".join(hosts[:16]) + (", ..." if len(hosts) > 16 else ""),
           "wall_s": max(walls) if walls else 0.0,
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
    """MPI_Pcontrol(2, "name") / (-2, "name") regions, a row per rank and region: entries,
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


# ---------------------------------------------------------------- region files

def region_files(source):
    """The region files: a papi_hl_output directory, its parent, or rank_*.json paths."""
    paths = []
    for s in ([source] if isinstance(source, str) else list(source)):
        if os.path.isdir(os.path.join(s, "papi_hl_output")):
            s = os.path.join(s, "papi_hl_output")
        paths += sorted(glob.glob(os.path.join(s, "rank_*.json"))) if os.path.isdir(s) else [s]
    if not paths:
        raise ReportError("no region files (rank_*.json) in %s" % source)
    return paths


def _run_of(data):
    """The file's run id (its "run" header), None for a file written before headers."""
    run = data.get("run")
    rid = run.get("id") if isinstance(run, dict) else None
    return rid if isinstance(rid, str) and rid else None


def _one_run(loaded, run, say):
    """The files of one run: runs are never mixed (two runs' rank files are not ranks of
    one job). With --run ID that run's; else the newest (latest "start", then latest file
    change), said in one line naming the others. Files without a header join the one run
    there is, when there is only one. [(path, data)] -> [(path, data)]."""
    runs = {}
    for path, data in loaded:
        runs.setdefault(_run_of(data), []).append((path, data))
    if run is not None:
        if run not in runs:
            raise ReportError("no run %s among the region files; their runs: %s" % (
                run, ", ".join(str(r) for r in runs)))
        return runs[run]
    if len([r for r in runs if r is not None]) <= 1:
        return loaded  # one run; files without a header (older writers) cannot be told apart

    def newest(rid):
        files = runs[rid]
        start = max((d.get("run") or {}).get("start") or "" for _, d in files)
        return (rid is not None, start, max(os.path.getmtime(p) for p, _ in files))
    order = sorted(runs, key=newest, reverse=True)
    say("papi_report: the region files hold %d runs (%s): reporting the newest, %s; "
        "--run ID reports another" % (len(runs), ", ".join(
            "%s: %d file%s" % (r if r else "no run header", len(runs[r]),
                               "" if len(runs[r]) == 1 else "s") for r in order), order[0]))
    return runs[order[0]]


def load_regions(source, run=None, say=None):
    """[(rank, data)] of every region file of one run (run: its id, else the newest; say
    reports the choice, on stderr by default); the rank is the file's, else its name's
    number."""
    loaded = []
    for path in region_files(source):
        data = _load_json(path)
        if not isinstance(data, dict) or "threads" not in data or "event_definitions" not in data:
            raise MalformedInput("%s is not a region file in PAPI 7's format (needs "
                                 "'event_definitions' and 'threads')" % path)
        _check_regions(path, data)
        metric_tables.check_region_metrics(path, data)
        loaded.append((path, data))
    out = []
    for path, data in _one_run(loaded, run, say or (lambda m: print(m, file=sys.stderr))):
        rank = data.get("rank")
        if rank is None:
            stem = os.path.basename(path).split("_", 1)[-1].rsplit(".", 1)[0]
            rank = int(stem) if stem.isdigit() else len(out)
        out.append((int(rank), data))
    return out


def _regions_arg(files):
    """load_regions' result as it is; a directory or paths loaded."""
    if isinstance(files, list) and files and isinstance(files[0], tuple):
        return files
    return load_regions(files)


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


#: The members of a region or papi_run file's run header ("run": the same for every rank
#: of one job) and their columns in region_run.
RUN_FIELDS = (("id", "run_id"), ("command", "command"), ("start", "start_utc"), ("host", "host"),
              ("cpu", "cpu"), ("version", "papi_compat_version"))


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
    rows = []
    for rank, data in _regions_arg(files):
        for thread, t in data["threads"].items():
            for rid, r in t.get("regions", {}).items():
                for m in _metrics(data):
                    v = r.get(m)
                    if isinstance(v, dict):
                        reads = sorted((int(k[5:]), x) for k, x in v.items() if k.startswith("read_"))
                        rows += [{"rank": rank, "thread": str(thread), "id": int(rid),
                                  "name": r["name"], "metric": m, "read": k, "value": int(x)}
                                 for k, x in reads]
    return pd.DataFrame(rows, columns=["rank", "thread", "id", "name", "metric", "read", "value"])


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


def region_tree(files, tot=None):
    tot = region_totals(files) if tot is None else tot
    metrics = [c for c in tot.columns if c not in ("rank", "thread", "name", "path", "region_count")]
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
    return df.sort_values("path").reset_index(drop=True)[cols]


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

MPI_TABLES = {"mpi_run": mpi_run, "mpi_ranks": mpi_ranks, "mpi_calls": mpi_calls,
              "mpi_call_summary": mpi_call_summary, "mpi_counters": mpi_counters,
              "mpi_callsites": mpi_callsites, "mpi_sizes": mpi_sizes,
              "mpi_call_sizes": mpi_call_sizes, "mpi_matrix": mpi_matrix,
              "mpi_regions": mpi_regions, "mpi_region_summary": mpi_region_summary,
              "mpi_region_calls": mpi_region_calls,
              "mpi_region_call_summary": mpi_region_call_summary}


def _mpi_time_series(rep):
    from .series import mpi_time_series
    return mpi_time_series(rep)


MPI_TABLES["mpi_time_series"] = _mpi_time_series
from .waits import WAIT_TABLES  # noqa: E402 (wait states and POP: waits.py)
MPI_TABLES.update(WAIT_TABLES)


def _mpi_metric_series(rep):
    from .series_metrics import mpi_metric_series
    return mpi_metric_series(rep)


MPI_TABLES["mpi_metric_series"] = _mpi_metric_series


def _time_series(files):
    from .series import time_series
    return time_series(files)


def _metric_series(files):
    from .series_metrics import metric_series
    return metric_series(files)


def _region_spans(files):
    from .series import region_spans
    return region_spans(files)


REGION_TABLES = {"region_run": region_run, "region_instances": region_instances,
                 "region_reads": region_reads,
                 "region_totals": region_totals, "region_tree": region_tree,
                 "time_series": _time_series, "region_spans": _region_spans,
                 "metric_series": _metric_series}


def tables(mpi=None, regions=None, peaks=None):
    """{name: DataFrame} of every table the inputs give (the CSV files papi_report writes).
    mpi: a report file or directory (or a loaded report); regions: a papi_hl_output
    directory or rank files (or load_regions' result); peaks: the machine's peaks for the
    roofline ({"flops_per_s": x, "bytes_per_s": y}, before any a report gives)."""
    out, docs = {}, []
    if mpi is not None:
        rep = load_mpi(mpi) if isinstance(mpi, str) else mpi
        out.update({k: f(rep) for k, f in MPI_TABLES.items()})
        out.update({k: f(rep) for k, f in metric_tables.MPI_METRIC_TABLES.items()})
        docs.append((mpi if isinstance(mpi, str) else "the MPI report", rep))
    if regions is not None:
        files = _regions_arg(regions)
        # Each instance's path once: the totals and the tree are sums of the instances.
        inst = region_instances(files)
        tot = region_totals(files, inst)
        made = {"region_instances": inst, "region_totals": tot, "region_tree": region_tree(files, tot)}
        out.update({k: made[k] if k in made else f(files) for k, f in REGION_TABLES.items()})
        out.update({k: f(files) for k, f in metric_tables.REGION_METRIC_TABLES.items()})
        docs += [("the region file of rank %d" % r, d) for r, d in files]
    from . import energy
    out["region_energy"], out["rank_energy"] = energy.region_energy(out), energy.rank_energy(out)
    out["roofline"] = metric_tables.roofline(out)
    out["roofline_peaks"] = metric_tables.roofline_peaks(docs, peaks)
    return out


from . import metric_tables  # noqa: E402 (it uses this module's checker)
