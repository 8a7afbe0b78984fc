"""papi_report.tables.series: the time series of region files and of the MPI report, as tables
and two figures.

Three producers write "series": papi_run --interval into rank_*.json (one series per
process: "samples", each with time_nsec and each event's count over the interval), the
region API with PAPI_INTERVAL ("threads": thread id -> samples of the same form, one per
thread that existed at the first region, with the threads it created) and the MPI wrapper
with PAPI_INTERVAL into each rank's row of papi_mpi_report.json ("samples": the rank's
counters summed over its threads). The tables time_series (region files) and
mpi_time_series (the MPI report) have one row per rank, thread, sample and event: its time
in seconds, the count over the interval, the rate (count per second) and the producer;
time_series also the sample's OpenMP figures where papi_run's OMPT tool gave them
(OMP_COLUMNS: useful, serial and wait time, the four efficiencies; empty otherwise).
The region API's series also has "region_spans" (thread -> each ended region instance's
name, begin_nsec and end_nsec in the series' time): the table region_spans. The figures: a
heat map of the rate per rank (rows) over time (one per event: from the MPI report's
series when there is one, whole ranks, else the region files' summed over each rank's
threads), lines of the rate per rank and thread, and lines per region: the rate of the
whole process (its threads summed) at each sample whose interval's midpoint lies inside
one of the region's instances on any thread (series_regions), each line broken (a NaN)
between two stretches where the region ran."""
import pandas as pd

from ..load import registry
from ..load.load import _regions_arg

COLUMNS = ["rank", "thread", "sample", "time_s", "interval_s", "event", "count", "rate", "source"]
# papi_run --interval's OpenMP figures of each sample (its "openmp": the OMPT tool's
# running sums' differences), repeated on each of the sample's event rows.
OMP_COLUMNS = ["omp_useful_s", "omp_serial_s", "omp_wait_s", "omp_serialization",
               "omp_load_balance", "omp_scheduling", "omp_parallel"]
_OMP_TIMES = ("useful_ns", "serial_ns", "wait_ns")
_OMP_FACTORS = ("serialization", "load_balance", "scheduling", "parallel")
MPI_THREAD = "all threads"  # an MPI row's series: the rank's threads summed


def timed_samples(samples):
    """(index, sample, end time in s, interval in s) of each sample of a series."""
    prev = 0
    for k, s in enumerate(samples):
        if not isinstance(s, dict) or not isinstance(s.get("time_nsec"), (int, float)):
            continue  # not a sample of any producer: left out, never a crash
        t = s["time_nsec"] * 1e-9
        yield k, s, t, t - prev
        prev = t


def _number(x, scale=1.0):
    return x * scale if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def omp_values(sample):
    """The OMP_COLUMNS of a sample: its openmp member's times in s and efficiencies, or
    Nones without one (no OMPT tool, another producer)."""
    o = sample.get("openmp")
    if not isinstance(o, dict):
        return (None,) * len(OMP_COLUMNS)
    return (tuple(_number(o.get(k), 1e-9) for k in _OMP_TIMES) +
            tuple(_number(o.get(k)) for k in _OMP_FACTORS))


def _rows(rank, thread, samples, events, source, omp=False):
    for k, s, t, dt in timed_samples(samples):
        dt = max(dt, 1e-12)
        extra = omp_values(s) if omp else ()
        for ev in events:
            if isinstance(s.get(ev), (int, float)):
                yield (rank, str(thread), k, t, dt, ev, s[ev], s[ev] / dt, source) + extra


def region_series(files):
    """(rank, file's data, its "series") of every region file that has a series."""
    for rank, data in _regions_arg(files):
        if isinstance(data.get("series"), dict):
            yield rank, data, data["series"]


def time_series(files):
    """One row per rank, thread, sample and event of every region file's series."""
    out = []
    for rank, data, series in region_series(files):
        events = list(data.get("event_definitions", {}))
        if isinstance(series.get("samples"), list):  # papi_run: the whole process
            out += _rows(rank, data.get("pid", "process"), series["samples"], events, "papi_run",
                         omp=True)
        for thread, samples in (series.get("threads") or {}).items():
            if isinstance(samples, list):
                out += _rows(rank, thread, samples, events, "regions", omp=True)
    return pd.DataFrame(out, columns=COLUMNS + OMP_COLUMNS)


SPAN_COLUMNS = ["rank", "thread", "id", "name", "begin_s", "end_s"]


def region_spans(files):
    """One row per ended region instance of the region API's series: its span in s."""
    out = []
    for rank, data in _regions_arg(files):
        series = data.get("series")
        spans = series.get("region_spans") if isinstance(series, dict) else None
        for thread, items in (spans if isinstance(spans, dict) else {}).items():
            for x in items if isinstance(items, list) else []:
                if isinstance(x, dict) and all(isinstance(x.get(k), (int, float))
                                               for k in ("id", "begin_nsec", "end_nsec")):
                    out.append((rank, str(thread), int(x["id"]), str(x.get("name", "")),
                                x["begin_nsec"] * 1e-9, x["end_nsec"] * 1e-9))
    return pd.DataFrame(out, columns=SPAN_COLUMNS)


def region_lines(t, ev):
    """{(rank, region): DataFrame(sample, time_s, count, rate)}: the process's samples of ev
    (its threads summed) whose interval's midpoint lies in an instance of the region."""
    s, spans = t.get("time_series"), t.get("region_spans")
    if s is None or s.empty or spans is None or spans.empty:
        return {}
    s = s[(s["event"] == ev) & (s["source"] == "regions")]
    proc = s.groupby(["rank", "sample"], as_index=False).agg(
        time_s=("time_s", "max"), interval_s=("interval_s", "max"), count=("count", "sum"))
    proc["rate"] = proc["count"] / proc["interval_s"]
    return {k: proc[inside][["sample", "time_s", "count", "rate"]]
            for k, inside in in_regions(proc, spans).items()}


def in_regions(p, spans):
    """{(rank, region): mask of p's samples whose interval's midpoint lies in one of the
    region's instances on that rank}, for the regions that have any."""
    mid = p["time_s"] - p["interval_s"] / 2
    out = {}
    for (rank, name), sp in spans.groupby(["rank", "name"]):
        inside = pd.Series(False, index=p.index)
        for b, e in zip(sp["begin_s"], sp["end_s"]):
            inside |= (p["rank"] == rank) & (mid >= b) & (mid <= e)
        if inside.any():
            out[(rank, name)] = inside
    return out


def mpi_time_series(rep):
    """One row per rank, sample and event of the MPI report's series (PAPI_INTERVAL)."""
    out = []
    events = [e for e in rep.get("events") or [] if isinstance(e, str)]
    for r in rep.get("ranks") or []:
        series = r.get("series") if isinstance(r, dict) else None
        if isinstance(series, dict) and isinstance(series.get("samples"), list):
            out += _rows(r.get("rank"), MPI_THREAD, series["samples"], events, "mpi")
    return pd.DataFrame(out, columns=COLUMNS)


def _series_table(t):
    parts = [x for x in (t.get("time_series"), t.get("mpi_time_series"))
             if x is not None and not x.empty]
    if not parts:
        return None, ("no time series in the region files (papi_run --interval, or "
                      "PAPI_INTERVAL with the region API) nor in the MPI report "
                      "(PAPI_INTERVAL with the MPI wrapper)")
    return pd.concat(parts, ignore_index=True), None


def heat_grid(s, ev):
    """The heat map's data for event ev: (rates, ranks, bin width in s). rates[i][j] is
    rank ranks[i]'s count in time bin j over the bin's width; the MPI report's series
    when there is one (whole ranks), else the region files' (each rank's threads summed)."""
    if (s["source"] == "mpi").any():
        s = s[s["source"] == "mpi"]
    e = s[s["event"] == ev]
    bins = int(min(60, max(1, e["sample"].max() + 1)))
    e = e.assign(bin=pd.cut(e["time_s"], bins=bins, labels=False))
    grid = e.pivot_table(index="rank", columns="bin", values="count", aggfunc="sum",
                         fill_value=0).reindex(columns=range(bins), fill_value=0)
    width = e["time_s"].max() / bins if bins and e["time_s"].max() > 0 else 1
    return grid.values / width, list(grid.index), width


registry.table("mpi")(mpi_time_series)
registry.table("regions")(time_series)
registry.table("regions")(region_spans)
