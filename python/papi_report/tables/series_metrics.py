"""papi_report.tables.series_metrics: the metrics of the time series, as tables (figures:
series_metric_figures.py).

Every producer of a series writes, when metrics were asked for (PAPI_METRICS for the
region API, PAPI_MPI_METRICS for the MPI wrapper, papi_run -m), each sample's metrics:
"metrics": {name: value or null}, the metric of that interval's own counts over the
interval's time, evaluated by the library as the run's metrics are. Nothing here
recomputes a metric: a metric of a coarser interval is not an average of the samples'
values (a ratio's mean is not the ratio of the sums), so the figures draw each sample on
its own interval. The region API also writes "process_metrics" (each sample's metrics of
its threads' counts summed); papi_run's samples are the whole process already.

Tables: metric_series (region files; thread "process" for a whole process's values) and
mpi_metric_series (the MPI report, a rank's threads summed), one row per rank, thread,
sample and metric: time_s (the interval's end), interval_s, value (NaN: no value), source.
Figures (series_metric_figures.py): a heat map per metric, one row per rank, each cell one sample's value over its
interval (series_metric_heat), and per region lines of the process's value at the samples
whose interval's midpoint lies in one of the region's instances (series_metric_regions)."""
import math

import pandas as pd

from ..load import registry
from .series import MPI_THREAD, in_regions, region_series, timed_samples

COLUMNS = ["rank", "thread", "sample", "time_s", "interval_s", "metric", "value", "source"]
PROCESS = "process"  # a whole process's value (papi_run, the region API's process_metrics)


def _value(v):
    return float(v) if isinstance(v, (int, float)) and math.isfinite(v) else float("nan")


def _rows(rank, thread, samples, source):
    for k, s, t, dt in timed_samples(samples):
        m = s.get("metrics")
        for name, v in (m.items() if isinstance(m, dict) else []):
            yield (rank, str(thread), k, t, dt, str(name), _value(v), source)


def metric_series(files):
    """One row per rank, thread, sample and metric of the region files' series."""
    out = []
    for rank, _data, series in region_series(files):
        if isinstance(series.get("samples"), list):  # papi_run: the whole process
            out += _rows(rank, PROCESS, series["samples"], "papi_run")
        if isinstance(series.get("process_metrics"), list):
            out += _rows(rank, PROCESS, series["process_metrics"], "regions")
        for thread, samples in (series.get("threads") or {}).items():
            if isinstance(samples, list):
                out += _rows(rank, thread, samples, "regions")
    return pd.DataFrame(out, columns=COLUMNS)


def mpi_metric_series(rep):
    """One row per rank, sample and metric of the MPI report's series."""
    out = []
    for r in rep.get("ranks") or []:
        series = r.get("series") if isinstance(r, dict) else None
        if isinstance(series, dict) and isinstance(series.get("samples"), list):
            out += _rows(r.get("rank"), MPI_THREAD, series["samples"], "mpi")
    return pd.DataFrame(out, columns=COLUMNS)


def whole_ranks(t):
    """The rows of whole ranks: the MPI report's when it has any, else the processes'."""
    m = t.get("mpi_metric_series")
    if m is not None and not m.empty:
        return m, True
    r = t.get("metric_series")
    if r is not None and not r.empty:
        return r[r["thread"] == PROCESS], False
    return None, False


def heat_rows(s, metric):
    """{rank: (edges, values)}: rank's samples of metric, edges[j]..edges[j+1] the
    interval of values[j] (seconds)."""
    out = {}
    for rank, g in s[s["metric"] == metric].groupby("rank"):
        g = g.sort_values("sample")
        edges = [float(g["time_s"].iloc[0] - g["interval_s"].iloc[0])] + list(g["time_s"])
        out[rank] = (edges, list(g["value"]))
    return out


def region_metric_lines(t, metric):
    """{(rank, region): DataFrame(sample, time_s, value)}: the process's value of metric at the
    samples whose interval's midpoint lies in an instance of the region."""
    s, spans = t.get("metric_series"), t.get("region_spans")
    if s is None or s.empty or spans is None or spans.empty:
        return {}
    p = s[(s["metric"] == metric) & (s["thread"] == PROCESS) & (s["source"] == "regions")]
    return {k: p[inside][["sample", "time_s", "value"]] for k, inside in in_regions(p, spans).items()}


registry.table("mpi")(mpi_metric_series)
registry.table("regions")(metric_series)
