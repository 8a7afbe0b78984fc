"""papi_report.series: the time series of region files, as a table and two figures.

Two producers write "series" into rank_*.json: papi_run --interval (one series per
process: "samples", each with time_nsec and each event's count over the interval) and the
region API with PAPI_INTERVAL ("threads": thread id -> samples of the same form, one per
thread that existed at the first region, with the threads it created). The table
time_series has one row per rank, thread, sample and event: its time in seconds, the
count over the interval and the rate (count per second). The figures: a heat map of the
rate per rank (rows) over time (one per event) and lines of the rate per rank and thread."""
import pandas as pd

COLUMNS = ["rank", "thread", "sample", "time_s", "interval_s", "event", "count", "rate"]


def _rows(rank, thread, samples, events):
    prev = 0
    for k, s in enumerate(samples):
        if not isinstance(s, dict) or not isinstance(s.get("time_nsec"), (int, float)):
            continue  # not a sample of either producer: left out, never a crash
        t = s["time_nsec"] * 1e-9
        dt = max(t - prev, 1e-12)
        for ev in events:
            if isinstance(s.get(ev), (int, float)):
                yield (rank, str(thread), k, t, dt, ev, s[ev], s[ev] / dt)
        prev = t


def time_series(files):
    """One row per rank, thread, sample and event of every region file's series."""
    from .tables import _regions_arg
    out = []
    for rank, data in _regions_arg(files):
        series = data.get("series")
        if not isinstance(series, dict):
            continue
        events = list(data.get("event_definitions", {}))
        if isinstance(series.get("samples"), list):  # papi_run: the whole process
            out += _rows(rank, data.get("pid", "process"), series["samples"], events)
        for thread, samples in (series.get("threads") or {}).items():
            if isinstance(samples, list):
                out += _rows(rank, thread, samples, events)
    return pd.DataFrame(out, columns=COLUMNS)


def _series_table(t):
    s = t.get("time_series")
    if s is None or s.empty:
        return None, ("no time series in the region files (papi_run --interval, or "
                      "PAPI_INTERVAL with the region API)")
    return s, None


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
    fig, panels = _per_event(s)
    for a, ev in panels:
        e = s[s["event"] == ev]
        bins = min(60, max(1, e["sample"].max() + 1))
        e = e.assign(bin=pd.cut(e["time_s"], bins=bins, labels=False))
        grid = e.pivot_table(index="rank", columns="bin", values="count", aggfunc="sum",
                             fill_value=0)
        width = (e["time_s"].max() / bins) if bins else 1
        ranks = list(grid.index)[: figures.MAX_ROWS]
        im = a.imshow(grid.loc[ranks].values / width, aspect="auto", interpolation="nearest",
                      extent=(0, e["time_s"].max(), len(ranks) - 0.5, -0.5))
        a.set_xlabel("time since the start (s)")
        a.set_ylabel("rank")
        a.set_title("%s per second, per rank%s" % (
            ev, "" if len(grid) <= figures.MAX_ROWS else " (the first %d of %d ranks)"
            % (figures.MAX_ROWS, len(grid))))
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
            a.plot(g["time_s"], g["rate"], marker=".", label="rank %s, thread %s" % (rank, thread))
        a.set_xlabel("time since the start (s)")
        a.set_ylabel("%s / s" % ev)
        a.set_title("%s per second%s" % (ev, "" if len(groups) <= figures.MAX_ROWS else
                                         " (the %d of %d largest)" % (figures.MAX_ROWS, len(groups))))
        if len(groups) <= 12:
            figures.legend_outside(a, fontsize="x-small")
    fig.tight_layout()
    return fig
