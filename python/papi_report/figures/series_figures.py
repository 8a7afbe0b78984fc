"""papi_report.figures.series_figures: the time series drawn (series.py's tables): a heat map of
the rate per rank over time, lines per rank and thread, lines per region."""
from . import figures
from ..load import registry, units
from ..tables.series import MPI_THREAD, _series_table, heat_grid, region_lines


def _per_event(s):
    """A figure with one panel per event of the series: (fig, [(axes, event)])."""
    events = list(dict.fromkeys(s["event"]))
    fig, ax = figures._fig(9, 2.6 * len(events), nrows=len(events))
    return fig, list(zip(ax[:, 0], events))


def series_heat(t):
    """Rate per rank over time, one heat map per event (ranks summed over threads)."""
    s, why = _series_table(t)
    if why:  # no series at all: one was not asked for
        return figures.NotGiven(why, figures.MORE_SERIES)
    mpi = (s["source"] == "mpi").any()
    fig, panels = _per_event(s[s["source"] == "mpi"] if mpi else s)
    for a, ev in panels:
        rates, all_ranks, width = heat_grid(s, ev)
        factor, unit = units.rate(ev)  # a CPU clock's ns per second in CPUs
        rates = rates * factor
        ranks = all_ranks[: figures.MAX_ROWS]
        im = a.imshow(rates[: len(ranks)], aspect="auto", interpolation="nearest",
                      extent=(0, width * rates.shape[1], len(ranks) - 0.5, -0.5))
        a.set_xlabel("time since %s (s)" % ("MPI_Init" if mpi else "the start"))
        a.set_ylabel("rank")
        a.set_title("%s per second, per rank%s%s" % (
            _per_s(ev), " (MPI report)" if mpi else "", "" if len(all_ranks) <= figures.MAX_ROWS
            else " (the first %d of %d ranks)" % (figures.MAX_ROWS, len(all_ranks))))
        step = max(1, len(ranks) // 16)  # whole ranks, at most ~16 labels
        a.set_yticks(range(0, len(ranks), step))
        a.set_yticklabels([str(r) for r in ranks[::step]])
        figures.colorbar(fig, im, a, label=unit)
    fig.tight_layout()
    return fig


def series_lines(t):
    """Rate over time, one line per rank and thread (the MAX_ROWS largest)."""
    s, why = _series_table(t)
    if why:  # no series at all: one was not asked for
        return figures.NotGiven(why, figures.MORE_SERIES)
    fig, panels = _per_event(s)
    for a, ev in panels:
        groups = sorted(s[s["event"] == ev].groupby(["rank", "thread"]),
                        key=lambda kv: -float(kv[1]["count"].sum()))
        factor, unit = units.rate(ev)
        for (rank, thread), g in groups[: figures.MAX_ROWS]:
            a.plot(g["time_s"], g["rate"] * factor, marker=".", label="rank %s" % rank if
                   thread == MPI_THREAD else "rank %s, thread %s" % (rank, thread))
        a.set_xlabel("time since the start (s)")
        a.set_ylabel(unit)
        a.set_title("%s per second%s" % (_per_s(ev), "" if len(groups) <= figures.MAX_ROWS else
                                         " (the %d of %d largest)" % (figures.MAX_ROWS, len(groups))))
        if len(groups) <= 12:
            figures.legend_outside(a, fontsize="x-small")
    fig.tight_layout()
    return fig


def series_regions(t):
    """Rate over time per region (the process's threads summed), one line per region and
    rank (the MAX_ROWS with the most counts)."""
    s = t.get("time_series")
    spans = t.get("region_spans")
    if s is None or spans is None:
        return figures.NotGiven("no region file input given", figures.MORE_REGIONS)
    if s.empty or spans.empty:
        why = ("no region spans in a time series (PAPI_INTERVAL with the region API: each "
               "region's instances in the series' time)")
        if s.empty or figures.papi_run_only(t):  # no series, or no region API: not asked for
            return figures.NotGiven(why, figures.MORE_REGION_SERIES)
        return why
    events = list(dict.fromkeys(s[s["source"] == "regions"]["event"]))
    fig, ax = figures._fig(9, 2.6 * len(events), nrows=len(events))
    nranks = spans["rank"].nunique()
    for a, ev in zip(ax[:, 0], events):
        lines = sorted(region_lines(t, ev).items(), key=lambda kv: -float(kv[1]["count"].sum()))
        factor, unit = units.rate(ev)
        draw_region_lines(a, lines, "rate", nranks, unit, factor,
                          figures.region_colours(t))
        a.set_title("%s per second, per region (all threads)%s" % (
            _per_s(ev), "" if len(lines) <= figures.MAX_ROWS else " (the %d of %d largest)"
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


def _per_s(ev):
    """An event's name in a rate's title: a CPU clock's says it is read in CPUs."""
    return "%s (CPUs: its seconds per second)" % ev if units.is_time(ev) else ev


def draw_region_lines(a, lines, column, nranks, ylabel, factor=1.0, colours=None):
    """[((rank, region), DataFrame)]: the first MAX_ROWS as lines of column (times factor)
    over time_s, broken where the region did not run; each region in its colour
    (colours: figures.region_colours)."""
    for (rank, name), g in lines[: figures.MAX_ROWS]:
        xs, ys = with_breaks(g, column)
        a.plot(xs, [y * factor for y in ys], marker=".", linestyle="-", color=(colours or {}).get(name),
               label=name if nranks == 1 else "%s (rank %s)" % (name, rank))
    a.set_xlabel("time since the start (s)")
    a.set_ylabel(ylabel)
    if len(lines) <= 12:
        figures.legend_outside(a, fontsize="x-small")


registry.figure("series-heat", "Time series: rate per rank over time (papi_run --interval, "
                "PAPI_INTERVAL)", "Time series")(series_heat)
registry.figure("series-lines", "Time series: rate per rank and thread", "Time series")(series_lines)
registry.figure("series-regions", "Time series: rate per region (PAPI_INTERVAL with the region "
                "API)", "Time series")(series_regions)
