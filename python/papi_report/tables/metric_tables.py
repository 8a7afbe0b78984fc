"""papi_report.tables.metric_tables: the named metrics (papi_metrics(3)) of the MPI report and of
the region files as tidy pandas DataFrames, and the roofline's points and peaks.

MPI (papi_mpi_report.json; PAPI_MPI_METRICS):
  mpi_rank_metrics(rep)    rank, metric, unit, value (the rank's value from its summed
                           counts over its wall time; NaN where it has none), note (why
                           not, the row's named_metrics_note), shared_by (ranks sharing
                           the socket's figure, 1 when the rank's own)
  mpi_metric_summary(rep)  metric, unit, ranks_with_value, min, min_rank, mean, max,
                           max_rank (over the ranks that have a value), job (from all
                           ranks' summed counts), job_from (that rule in words)
Regions (papi_hl_output/rank_*.json, its "metrics" member; PAPI_METRICS):
  region_metrics(files)    rank, thread, region, metric, unit, value: per region of each
                           thread, from its counts summed over its instances
  region_instance_metrics(files)  rank, thread, id, region, metric, value
  region_all_thread_metrics(files)  rank, thread (the one that ran the region), region,
                           metric, unit, value: from every thread's counts during the
                           region (all-thread totals) over that thread's wall time
  region_metrics_skipped(files)  rank, metric, reason: PAPI_METRICS entries the library
                           could not compute (the file's skipped_events, "metric: ...")
Roofline (arithmetic intensity = FLOPs / bytes against FLOP/s):
  roofline(t)              kind ("rank" or "region"), label, rank, thread, region,
                           flops_per_s (DP_FLOPS + SP_FLOPS, those present), bytes_per_s
                           (MEM_BW), intensity (flops_per_s / bytes_per_s: the FLOPs over
                           the bytes, both counted over the same time), flops_from
  roofline_peaks(...)      what ("flops_per_s" or "bytes_per_s"), value, source (where the
                           figure comes from: a report's "peaks" member or an option)
A metric is never averaged over ranks or threads here: each value is the library's,
computed from summed counts; these tables only lay them out."""
import math

import pandas as pd

from ..load import registry
from ..load.check import BYTES_METRIC, FLOP_METRICS, PEAK_KEYS, MalformedInput  # noqa: F401 (theirs)


def _num(v):
    return float("nan") if v is None else float(v)


def mpi_rank_metrics(rep):
    units = {k: d["unit"] for k, d in rep.get("named_metrics", {}).items()}
    rows = []  # the rows read one at a time (rank_rows.py), sorted by rank here
    for r in rep["ranks"]:
        shared = r.get("named_metrics_shared_by", {})
        for name, v in r.get("named_metrics", {}).items():
            rows.append({"rank": r["rank"], "metric": name, "unit": units.get(name, ""),
                         "value": _num(v),
                         "note": "" if v is not None else r.get("named_metrics_note", ""),
                         "shared_by": int(shared.get(name, 1))})
    df = pd.DataFrame(rows, columns=["rank", "metric", "unit", "value", "note", "shared_by"])
    return df.sort_values("rank", kind="stable").reset_index(drop=True)


SUMMARY_COLUMNS = ["metric", "unit", "ranks_with_value", "min", "min_rank", "mean", "max",
                   "max_rank", "job", "job_from"]


def mpi_metric_summary(rep):
    rows = []
    for name, d in rep.get("named_metrics", {}).items():
        s = rep.get("metrics", {}).get(name, {})
        rows.append({"metric": name, "unit": d["unit"],
                     "ranks_with_value": d.get("ranks_with_value", 0),
                     "min": _num(s.get("min")), "min_rank": s.get("min_rank"),
                     "mean": _num(s.get("mean")), "max": _num(s.get("max")),
                     "max_rank": s.get("max_rank"), "job": _num(d.get("job")),
                     "job_from": d.get("job_from", "")})
    df = pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
    for k in ("min_rank", "max_rank"):
        df[k] = df[k].astype("Int64")
    return df


def _metric_sections(files):
    """(rank, thread id, definitions, thread's metrics) of every region file's threads."""
    for rank, data in files:
        m = data.get("metrics") or {}
        for tid, t in m.get("threads", {}).items():
            yield rank, int(tid), m.get("definitions", {}), t


def _region_rows(files, regions_of):
    """rank, thread, region, metric, unit, value of the regions regions_of(thread's metrics)
    gives."""
    rows = []
    for rank, tid, defs, t in _metric_sections(files):
        for region, v in regions_of(t).items():
            for name in defs:
                if name in v:
                    rows.append({"rank": rank, "thread": tid, "region": region, "metric": name,
                                 "unit": defs[name]["unit"], "value": _num(v[name])})
    return pd.DataFrame(rows, columns=["rank", "thread", "region", "metric", "unit", "value"])


def region_metrics(files):
    return _region_rows(files, lambda t: t.get("regions", {}))


def region_all_thread_metrics(files):
    return _region_rows(files, lambda t: (t.get("all_threads") or {}).get("regions", {}))


def region_instance_metrics(files):
    rows = []
    for rank, tid, defs, t in _metric_sections(files):
        for iid, v in t.get("instances", {}).items():
            for name in defs:
                if name in v:
                    rows.append({"rank": rank, "thread": tid, "id": int(iid),
                                 "region": v.get("name", ""), "metric": name,
                                 "value": _num(v[name])})
    return pd.DataFrame(rows, columns=["rank", "thread", "id", "region", "metric", "value"])


def region_metrics_skipped(files):
    rows = []
    for rank, data in files:
        for e in data.get("skipped_events") or []:
            if isinstance(e, dict) and str(e.get("reason", "")).startswith("metric: "):
                rows.append({"rank": rank, "metric": str(e.get("name", "")),
                             "reason": e["reason"][len("metric: "):]})
    return pd.DataFrame(rows, columns=["rank", "metric", "reason"])


ROOFLINE_COLUMNS = ["kind", "label", "rank", "thread", "region", "flops_per_s", "bytes_per_s",
                    "intensity", "flops_from"]


def _roofline_rows(df, keys, kind, label):
    """One point per group of keys that has MEM_BW > 0 and FLOP metrics, each with a value
    and their sum > 0 (a log-log chart has no place for 0)."""
    rows = []
    for key, g in df.groupby(keys if len(keys) > 1 else keys[0], sort=True):
        v = dict(zip(g["metric"], g["value"]))
        flops = [m for m in FLOP_METRICS if m in v]
        bw = v.get(BYTES_METRIC, float("nan"))
        f = sum(v[m] for m in flops)  # NaN when one is null: a partial sum is no FLOP rate
        if not flops or math.isnan(f) or f <= 0 or math.isnan(bw) or bw <= 0:
            continue
        k = dict(zip(keys, key if isinstance(key, tuple) else (key,)))
        rows.append({"kind": kind, "label": label(k), "rank": k.get("rank"),
                     "thread": k.get("thread"), "region": k.get("region"),
                     "flops_per_s": f, "bytes_per_s": bw, "intensity": f / bw,
                     "flops_from": " + ".join(flops)})
    return rows


def roofline(t):
    rows = []
    r = t.get("mpi_rank_metrics")
    if r is not None and not r.empty:
        rows += _roofline_rows(r, ["rank"], "rank", lambda k: "rank %d" % k["rank"])
    g = t.get("region_metrics")
    if g is not None and not g.empty:
        rows += _roofline_rows(g, ["rank", "thread", "region"], "region",
                               lambda k: "%s (rank %d, thread %d)" % (k["region"], k["rank"], k["thread"]))
    df = pd.DataFrame(rows, columns=ROOFLINE_COLUMNS)
    for k in ("rank", "thread"):
        df[k] = df[k].astype("Int64")
    return df


def roofline_peaks(docs, options=None):
    """The machine's peaks: options ({key: value} from --peak-flops/--peak-bw) first, then
    the first document (MPI report, region file) with a "peaks" member; each row says
    which. docs: [(source name, loaded JSON)]."""
    rows = {}
    for k, v in (options or {}).items():
        if v is not None:
            if not (math.isfinite(v) and v > 0):
                raise MalformedInput("the peak %s is %r: it must be a finite number > 0" % (k, v))
            rows[k] = {"what": k, "value": float(v), "source": "option --%s"
                       % ("peak-flops" if k == "flops_per_s" else "peak-bw")}
    for name, doc in docs:
        for k, v in (doc.get("peaks") or {}).items():
            if k in PEAK_KEYS and k not in rows:
                rows[k] = {"what": k, "value": float(v), "source": "%s (peaks.%s)" % (name, k)}
    return pd.DataFrame([rows[k] for k in PEAK_KEYS if k in rows],
                        columns=["what", "value", "source"])


for _f in (mpi_rank_metrics, mpi_metric_summary):
    registry.table("mpi")(_f)
for _f in (region_metrics, region_instance_metrics, region_all_thread_metrics, region_metrics_skipped):
    registry.table("regions")(_f)
registry.table("derived", "roofline")(lambda t, docs, peaks: roofline(t))
registry.table("derived", "roofline_peaks")(lambda t, docs, peaks: roofline_peaks(docs, peaks))
