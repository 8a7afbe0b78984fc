"""papi_report.figures.series_metric_figures: the series' metrics drawn (series_metrics.py's
tables): a heat map per metric, a row per rank and a cell per sample, and per region
lines of the process's value."""
import math

from matplotlib.colors import Normalize

from . import figures
from ..load import registry
from .series_figures import draw_region_lines
from ..tables.series_metrics import heat_rows, region_metric_lines, whole_ranks


def series_metric_heat(t):
    """Each metric per rank over time: a row per rank, a cell per sample."""
    s, mpi = whole_ranks(t)
    if s is None or s.empty:  # no metric asked for in a series
        return figures.NotGiven("no metric in a time series (PAPI_INTERVAL with PAPI_METRICS or "
                                "PAPI_MPI_METRICS, papi_run --interval with -m)",
                                figures.MORE_METRIC_SERIES)
    metrics = list(dict.fromkeys(s["metric"]))
    fig, ax = figures._fig(9, 2.6 * len(metrics), nrows=len(metrics))
    for a, name in zip(ax[:, 0], metrics):
        rows = heat_rows(s, name)
        ranks = sorted(rows, key=str)[: figures.MAX_ROWS]
        vals = [v for r in ranks for v in rows[r][1] if math.isfinite(v)]
        norm = Normalize(min(vals, default=0), max(vals, default=1))
        mesh = None
        for i, r in enumerate(ranks):
            edges, values = rows[r]
            mesh = a.pcolormesh(edges, [i - 0.5, i + 0.5], [values], norm=norm, shading="flat")
        a.set_ylim(len(ranks) - 0.5, -0.5)
        a.set_xlabel("time since %s (s)" % ("MPI_Init" if mpi else "the start"))
        a.set_ylabel("rank")
        a.set_title("%s per interval, per rank%s%s" % (
            name, " (MPI report)" if mpi else "", "" if len(rows) <= figures.MAX_ROWS
            else " (the first %d of %d ranks)" % (figures.MAX_ROWS, len(rows))))
        step = max(1, len(ranks) // 16)
        a.set_yticks(range(0, len(ranks), step))
        a.set_yticklabels([str(r) for r in ranks[::step]])
        if mesh is not None:
            figures.colorbar(fig, mesh, a, label=name)
    fig.tight_layout()
    return fig


def series_metric_regions(t):
    """Each metric over time per region (the process's value), a line per region and rank."""
    s = t.get("metric_series")
    if s is None or t.get("region_spans") is None:
        return figures.NotGiven("no region file input given", figures.MORE_REGIONS)
    if s.empty or t["region_spans"].empty:
        why = ("no metric in a region API time series (PAPI_INTERVAL with PAPI_METRICS: "
               "each sample's metrics and each region's instances)")
        if s.empty or figures.papi_run_only(t):  # no metric series, or no region API
            return figures.NotGiven(why, figures.MORE_METRIC_SERIES)
        return why
    metrics = list(dict.fromkeys(s[s["source"] == "regions"]["metric"]))
    if not metrics:
        return "no metric in a region API time series (PAPI_INTERVAL with PAPI_METRICS)"
    fig, ax = figures._fig(9, 2.6 * len(metrics), nrows=len(metrics))
    nranks = t["region_spans"]["rank"].nunique()
    for a, name in zip(ax[:, 0], metrics):
        lines = sorted(region_metric_lines(t, name).items(), key=lambda kv: (str(kv[0][0]), kv[0][1]))
        draw_region_lines(a, lines, "value", nranks, name, 1.0,
                          figures.region_colours(t))
        a.set_title("%s per interval, per region (the process)%s" % (
            name, "" if len(lines) <= figures.MAX_ROWS else " (the first %d of %d)"
            % (figures.MAX_ROWS, len(lines))))
    fig.tight_layout()
    return fig


registry.figure("series-metric-heat", "Time series: metrics per rank over time (PAPI_INTERVAL with "
                "PAPI_METRICS or PAPI_MPI_METRICS, papi_run -m)", "Time series")(series_metric_heat)
registry.figure("series-metric-regions", "Time series: metrics per region (PAPI_INTERVAL with "
                "PAPI_METRICS and the region API)", "Time series")(series_metric_regions)
