"""papi_report.series: the time series of region files and of the MPI report, as tables
and two figures.

Three producers write "series": papi_run --interval into rank_*.json (one series per
process: "samples", each with time_nsec and each event's count over the interval), the
region API with PAPI_INTERVAL ("threads": thread id -> samples of the same form, one per
thread that existed at the first region, with the threads it created) and the MPI wrapper
with PAPI_INTERVAL into each rank's row of papi_mpi_report.json ("samples": the rank's
counters summed over its threads). The tables time_series (region files) and
mpi_time_series (the MPI report) have one row per rank, thread, sample and event: its time
in seconds, the count over the interval, the rate (count per second) and the producer.
The region API's series also has "region_spans" (thread -> each ended region instance's
name, begin_nsec and end_nsec in the series' time): the table region_spans. The figures: a
heat map of the rate per rank (rows) over time (one per event: from the MPI report's
series when there is one, whole ranks, else the region files' summed over each rank's
threads), lines of the rate per rank and thread, and lines per region: the rate of the
whole process (its threads summed) at each sample whose interval's midpoint lies inside
one of the region's instances on any thread (series_regions), each line broken (a NaN)
between two stretches where the region ran."""
import pandas as pd

COLUMNS = ["rank", "thread", "sample", "time_s", "interval_s", "event", "count", "rate", "source"]
MPI_THREAD = "all threads"  # an MPI row's series: the rank's threads summed


def _check_samples(c, samples, where, events, instant=()):
    """A series' samples: time_nsec a finite number >= 0 that never goes back, each
    event's count a finite number (>= 0 unless the event is an instant reading), each
    metric a finite number or null. The first wrong value raises MalformedInput naming
    the file, the field and why."""
    if not isinstance(samples, list):
        c.bad(where, "is not a list of samples")
    prev = None
    for k, s in enumerate(samples):
        w = "%s[%d]" % (where, k)
        if not isinstance(s, dict):
            continue  # not a sample of any producer: left out (timed_samples)
        t = c.need(s, "time_nsec", "number >= 0", w, optional=True)
        if t is not None:
            if prev is not None and t < prev[1]:
                c.bad(w + ".time_nsec", "is %.17g ns, before the previous sample's %.17g ns "
                      "(%s[%d].time_nsec): time runs backwards" % (t, prev[1], where, prev[0]))
            prev = (k, t)
        for ev in events:
            if ev in s:
                c.need(s, ev, "number" if ev in instant else "number >= 0", "%s['%s']" % (w, ev))
        for name, v in (c.need(s, "metrics", "object", w, optional=True) or {}).items():
            if v is not None and not _finite(v):
                c.bad("%s.metrics['%s']" % (w, name), "is %r, neither a finite number nor null" % (v,))


def _finite(v):
    import math
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def check_region_series(path, data):
    """The series of a region file (papi_run --interval, PAPI_INTERVAL): MalformedInput
    naming the file and the field for a negative, infinite or backwards value."""
    from .tables import _Checker
    c = _Checker(path)
    series = c.need(data, "series", "object", "", optional=True)
    if series is None:
        return
    defs = data.get("event_definitions") or {}
    events = list(defs)
    instant = {e for e, d in defs.items() if isinstance(d, dict) and d.get("type") == "instant"}
    if series.get("interval_s") is not None and \
            (not _finite(series["interval_s"]) or series["interval_s"] <= 0):
        c.bad("series.interval_s", "is %r, not a number > 0" % (series["interval_s"],))
    if "samples" in series:
        _check_samples(c, series["samples"], "series.samples", events, instant)
    for tid, smp in (c.need(series, "threads", "object", "series", optional=True) or {}).items():
        _check_samples(c, smp, "series.threads['%s']" % tid, events, instant)
    if "process_metrics" in series:
        _check_samples(c, series["process_metrics"], "series.process_metrics", [], instant)
    for ev in (c.need(series, "totals", "object", "series", optional=True) or {}):
        c.need(series["totals"], ev, "number" if ev in instant else "number >= 0", "series.totals")
    for tid, items in (c.need(series, "region_spans", "object", "series", optional=True) or {}).items():
        for j, x in enumerate(items if isinstance(items, list) else []):
            w = "series.region_spans['%s'][%d]" % (tid, j)
            if not isinstance(x, dict):
                continue
            b = c.need(x, "begin_nsec", "number >= 0", w, optional=True)
            e = c.need(x, "end_nsec", "number >= 0", w, optional=True)
            if b is not None and e is not None and e < b:
                c.bad(w + ".end_nsec", "is %.17g ns, before its begin_nsec %.17g ns: time runs "
                      "backwards" % (e, b))


def check_mpi_series(path, rep):
    """The ranks' series of the MPI report (PAPI_INTERVAL): as check_region_series."""
    from .tables import _Checker
    c = _Checker(path)
    events = [e for e in rep.get("events") or [] if isinstance(e, str)]
    for i, r in enumerate(rep["ranks"]):
        series = c.need(r, "series", "object", "ranks[%d]" % i, optional=True)
        if series is None:
            continue
        w = "ranks[%d].series" % i
        if series.get("interval_s") is not None and \
                (not _finite(series["interval_s"]) or series["interval_s"] <= 0):
            c.bad(w + ".interval_s", "is %r, not a number > 0" % (series["interval_s"],))
        if "samples" in series:
            _check_samples(c, series["samples"], w + ".samples", events)


def timed_samples(samples):
    """(index, sample, end time in s, interval in s) of each sample of a series."""
    prev = 0
    for k, s in enumerate(samples):
        if not isinstance(s, dict) or not isinstance(s.get("time_nsec"), (int, float)):
            continue  # not a sample of any producer: left out, never a crash
        t = s["time_nsec"] * 1e-9
        yield k, s, t, t - prev
        prev = t


def _rows(rank, thread, samples, events, source):
    for k, s, t, dt in timed_samples(samples):
        dt = max(dt, 1e-12)
        for ev in events:
            if isinstance(s.get(ev), (int, float)):
                yield (rank, str(thread), k, t, dt, ev, s[ev], s[ev] / dt, source)


def region_series(files):
    """(rank, file's data, its "series") of every region file that has a series."""
    from .tables import _regions_arg
    for rank, data in _regions_arg(files):
        if isinstance(data.get("series"), dict):
            yield rank, data, data["series"]


def time_series(files):
    """One row per rank, thread, sample and event of every region file's series."""
    out = []
    for rank, data, series in region_series(files):
        events = list(data.get("event_definitions", {}))
        if isinstance(series.get("samples"), list):  # papi_run: the whole process
            out += _rows(rank, data.get("pid", "process"), series["samples"], events, "papi_run")
        for thread, samples in (series.get("threads") or {}).items():
            if isinstance(samples, list):
                out += _rows(rank, thread, samples, events, "regions")
    return pd.DataFrame(out, columns=COLUMNS)


SPAN_COLUMNS = ["rank", "thread", "id", "name", "begin_s", "end_s"]


def region_spans(files):
    """One row per ended region instance of the region API's series: its span in s."""
    from .tables import _regions_arg
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


def _per_event(s):
    """A figure with one panel per event of the series: (fig, [(axes, event)])."""
    from . import figures
    events = list(dict.fromkeys(s["event"]))
    fig, ax = figures._fig(9, 2.6 * len(events), nrows=len(events))
    return fig, list(zip(ax[:, 0], events))


def series_heat(t):
    """Rate per rank over time, one heat map per event (ranks summed over threads)."""
    from . import figures
    s, why = _series_table(t)
    if why:
        return why
    mpi = (s["source"] == "mpi").any()
    fig, panels = _per_event(s[s["source"] == "mpi"] if mpi else s)
    for a, ev in panels:
        rates, all_ranks, width = heat_grid(s, ev)
        ranks = all_ranks[: figures.MAX_ROWS]
        im = a.imshow(rates[: len(ranks)], aspect="auto", interpolation="nearest",
                      extent=(0, width * rates.shape[1], len(ranks) - 0.5, -0.5))
        a.set_xlabel("time since %s (s)" % ("MPI_Init" if mpi else "the start"))
        a.set_ylabel("rank")
        a.set_title("%s per second, per rank%s%s" % (
            ev, " (MPI report)" if mpi else "", "" if len(all_ranks) <= figures.MAX_ROWS
            else " (the first %d of %d ranks)" % (figures.MAX_ROWS, len(all_ranks))))
        step = max(1, len(ranks) // 16)  # whole ranks, at most ~16 labels
        a.set_yticks(range(0, len(ranks), step))
        a.set_yticklabels([str(r) for r in ranks[::step]])
        figures.colorbar(fig, im, a, label="%s / s" % ev)
    fig.tight_layout()
    return fig


def series_lines(t):
    """Rate over time, one line per rank and thread (the MAX_ROWS largest)."""
    from . import figures
    s, why = _series_table(t)
    if why:
        return why
    fig, panels = _per_event(s)
    for a, ev in panels:
        groups = sorted(s[s["event"] == ev].groupby(["rank", "thread"]),
                        key=lambda kv: -float(kv[1]["count"].sum()))
        for (rank, thread), g in groups[: figures.MAX_ROWS]:
            a.plot(g["time_s"], g["rate"], marker=".", label="rank %s" % rank if
                   thread == MPI_THREAD else "rank %s, thread %s" % (rank, thread))
        a.set_xlabel("time since the start (s)")
        a.set_ylabel("%s / s" % ev)
        a.set_title("%s per second%s" % (ev, "" if len(groups) <= figures.MAX_ROWS else
                                         " (the %d of %d largest)" % (figures.MAX_ROWS, len(groups))))
        if len(groups) <= 12:
            figures.legend_outside(a, fontsize="x-small")
    fig.tight_layout()
    return fig


def series_regions(t):
    """Rate over time per region (the process's threads summed), one line per region and
    rank (the MAX_ROWS with the most counts)."""
    from . import figures
    s = t.get("time_series")
    spans = t.get("region_spans")
    if s is None or spans is None:
        return figures.NotGiven("no region file input given")
    if s.empty or spans.empty:
        return ("no region spans in a time series (PAPI_INTERVAL with the region API: each "
                "region's instances in the series' time)")
    events = list(dict.fromkeys(s[s["source"] == "regions"]["event"]))
    fig, ax = figures._fig(9, 2.6 * len(events), nrows=len(events))
    nranks = spans["rank"].nunique()
    for a, ev in zip(ax[:, 0], events):
        lines = sorted(region_lines(t, ev).items(), key=lambda kv: -float(kv[1]["count"].sum()))
        draw_region_lines(a, lines, "rate", nranks, "%s / s" % ev)
        a.set_title("%s per second, per region (all threads)%s" % (
            ev, "" if len(lines) <= figures.MAX_ROWS else " (the %d of %d largest)"
            % (figures.MAX_ROWS, len(lines))))
    fig.tight_layout()
    return fig


def with_breaks(g, column):
    """(x, y) of g's samples (time_s, column) in sample order, with a NaN between two that
    are not consecutive samples: a line drawn from them joins only the samples of one
    stretch where the region ran, never across the time it did not."""
    g = g.sort_values("sample")
    xs, ys, prev = [], [], None
    for k, x, y in zip(g["sample"], g["time_s"], g[column]):
        if prev is not None and k > prev + 1:
            xs.append(float("nan"))
            ys.append(float("nan"))
        xs.append(x)
        ys.append(y)
        prev = k
    return xs, ys


def draw_region_lines(a, lines, column, nranks, ylabel):
    """[((rank, region), DataFrame)]: the first MAX_ROWS as lines of column over time_s,
    broken where the region did not run."""
    from . import figures
    for (rank, name), g in lines[: figures.MAX_ROWS]:
        xs, ys = with_breaks(g, column)
        a.plot(xs, ys, marker=".", linestyle="-",
               label=name if nranks == 1 else "%s (rank %s)" % (name, rank))
    a.set_xlabel("time since the start (s)")
    a.set_ylabel(ylabel)
    if len(lines) <= 12:
        figures.legend_outside(a, fontsize="x-small")
