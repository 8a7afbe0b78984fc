"""papi_report.figures.figures: the pictures of the report, each drawn from the tables alone.

registry.FIGURES lists them in the report's order (this module's MPI and region figures,
then those of the modules after it in registry.MODULES: metric_figures, series_figures,
series_metric_figures): (id, title, section, function); FIGURES is the same list. A function
takes the tables ({name: DataFrame}) and returns a matplotlib Figure, or a string saying
why there is nothing to draw (a wrapper that records no partners, no metric asked for):
the report then says so under the figure's title instead of drawing an empty one. When
the figure's input was not given at all (no MPI report, no region files) the string is a
NotGiven and the page leaves the figure out.

Every figure has a bounded size whatever the run's size: per-rank bars become heat
strips past HEAT_STRIP_RANKS ranks, the rank x rank matrix sums ranks into blocks past
MATRIX_SIDE ranks (its title says so), heat maps and plots show the MAX_ROWS largest
rows or series (their titles say how many there are), the region tree its first
MAX_DEPTH levels."""
import functools
import math

try:
    import matplotlib
except ImportError as e:  # the CLI says which package installs it
    raise ImportError("papi_report needs matplotlib for its figures (Debian: apt-get install "
                      "python3-matplotlib): %s" % e)

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator  # noqa: E402

from ..load import device_events, registry, units  # noqa: E402
from ..tables.tables import ALL_THREADS, path_names  # noqa: E402

HEAT_STRIP_RANKS = 64  # above this many ranks, bars per rank become a heat strip
MATRIX_SIDE = 512  # cells a side of the rank x rank matrix at most (ranks in blocks past it)
MAX_ROWS = 60  # regions in a heat map, series in a plot: the largest, the count said
MAX_DEPTH = 24  # levels of the region tree drawn
APART = ("MPI_Init", "MPI_Init_thread", "MPI_Finalize")


def _fig(w=8.0, h=4.0, ncols=1, nrows=1):
    fig, ax = plt.subplots(nrows, ncols, figsize=(w, h), squeeze=False)
    return fig, ax


class NotGiven(str):
    """Why a figure is not drawn when its input (the MPI report, region files, a time
    series, a metric) was not given: the page leaves the figure out instead of saying so
    in its place. more: what the figure would show and the input it needs, listed in the
    page's one closing line of what more input would show (None: not listed)."""

    def __new__(cls, why, more=None):
        s = str.__new__(cls, why)
        s.more = more
        return s


MORE_MPI = "MPI figures (an MPI report)"
MORE_REGIONS = "region figures (region files)"
MORE_SERIES = "time series (papi_run --interval, PAPI_INTERVAL)"
MORE_REGION_SERIES = "series per region (PAPI_INTERVAL with regions)"
MORE_METRIC_SERIES = "metrics over time (-m or PAPI_METRICS with an interval)"


def papi_run_only(t):
    """Whether the region files given are papi_run's whole-program records only (no
    region API: no region spans or PAPI_hl_read to expect)."""
    r = t.get("region_reads")
    return r is not None and bool(r.attrs.get("papi_run_only"))


def _need(t, *names):
    for n in names:
        if n not in t:
            mpi = n.startswith("mpi")
            return NotGiven("no %s input given" % ("MPI report" if mpi else "region file"),
                            MORE_MPI if mpi else MORE_REGIONS)
        if t[n].empty:
            return "the %s table is empty" % n
    return None


def _needs(*names):
    """A figure drawn from the tables names: without one of them (or with one empty) it
    returns why instead of drawing (_need)."""
    def wrap(draw):
        @functools.wraps(draw)
        def figure(t, *args):
            return _need(t, *names) or draw(t, *args)
        return figure
    return wrap


def _strip(fig, a, values, label, cmap="viridis"):
    """One heat strip: values (in rank order) left to right."""
    im = a.imshow(np.asarray(values, dtype=float)[np.newaxis, :], aspect="auto", cmap=cmap,
                  interpolation="nearest")
    a.set_yticks([])
    a.set_ylabel(label, rotation=0, ha="right", va="center")
    colorbar(fig, im, a)
    return im


def _rank_ticks(a, ranks):
    """A few rank numbers under a strip whose columns are the ranks in order."""
    n = len(ranks)
    pos = np.unique(np.linspace(0, n - 1, min(n, 9)).round().astype(int))
    a.set_xticks(pos)
    a.set_xticklabels([str(ranks[i]) for i in pos])


def region_colours(t):
    """{region name: colour}, the same in every chart of the report: every region the
    tables name (the tree's, the series' spans, the trace's), sorted, takes tab20's
    colours in turn."""
    names = set()
    for table, col in (("region_tree", "name"), ("region_spans", "name"), ("timeline_spans", "name")):
        df = t.get(table)
        if df is not None and col in df and len(df):
            names |= set(df[col][df["kind"] == "region"] if "kind" in df else df[col])
    cmap = plt.get_cmap("tab20")
    return {n: cmap(i % 20) for i, n in enumerate(sorted(names, key=str))}


def legend_outside(a, **kw):
    """The legend right of the axes (inside, it covered bars)."""
    kw.setdefault("fontsize", "small")
    return a.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, **kw)


def integer_axis(axis):
    """Ticks on whole numbers only (ranks, counts): never a rank 0.5."""
    axis.set_major_locator(MaxNLocator(integer=True))


def colorbar(fig, im, ax, label=None, unit=None):
    """A colour bar whose numbers read as they are: no offset ("+2.33e7" read as a
    negative number of bytes) and no shared multiplier; bytes in one binary unit (that of
    the largest value), ticked at round numbers of it (0.5 KiB, 1 KiB, ...)."""
    cb = fig.colorbar(im, ax=ax, label=label, pad=0.01)
    lo, hi = im.get_clim()
    if unit == "bytes" and math.isfinite(lo) and math.isfinite(hi):
        name, f = binary_unit(max(abs(lo), abs(hi)))
        steps = [1, 2, 5, 10] if f == 1 else [1, 2, 2.5, 5, 10]
        ticks = [t * f for t in MaxNLocator(nbins=6, steps=steps, integer=f == 1).tick_values(lo / f, hi / f)
                 if lo / f - 1e-9 <= t <= hi / f + 1e-9]
        if len(ticks) >= 2:
            cb.set_ticks(ticks)
        cb.formatter = FuncFormatter(lambda v, _pos: "%s %s" % (
            np.format_float_positional(round(v / f, 6), trim="-"), name))
    else:  # each tick its own number: no offset, no shared "1e-5" multiplier
        cb.formatter = FuncFormatter(lambda v, _pos: "%.4g" % v)
    cb.update_ticks()
    return cb


BINARY_UNITS = (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10))


def binary_unit(v):
    """(name, bytes) of the largest binary unit not above v (B below 1 KiB)."""
    for name, f in BINARY_UNITS:
        if abs(v) >= f:
            return name, f
    return "B", 1


def binary_units(v):
    name, f = binary_unit(v)
    return "%.4g %s" % (v / f, name)


def fit_bars(a, axis="y", pad=0.03, keep=False):
    """Set a's value axis (axis: "y" for bars, "x" for barh) so that every bar and every
    text of a (a bar's label) lies inside it with pad of the axis' length to spare: the
    tallest bar and its label are never cut at the frame. Texts are measured where they
    are drawn, so it runs after everything is placed (and again if the figure is resized).
    keep: the limits set before are kept as the least extent (a symmetric ratio axis)."""
    fig = a.figure
    get, put = (a.get_ylim, a.set_ylim) if axis == "y" else (a.get_xlim, a.set_xlim)
    ends = [v for p in a.patches for v in ((p.get_y(), p.get_y() + p.get_height()) if axis == "y"
                                           else (p.get_x(), p.get_x() + p.get_width()))]
    base = (min(ends), max(ends)) if ends else get()
    if keep:
        base = (min(base[0], min(get())), max(base[1], max(get())))
    lim = None
    for _ in range(3):  # a text's extent in data units changes with the limits
        room = list(base)
        if lim is not None:
            renderer = fig.canvas.get_renderer()
            inv = a.transData.inverted()
            for t in a.texts:
                if not t.get_visible() or not t.get_text().strip():
                    continue
                e = t.get_window_extent(renderer)
                (x0, y0), (x1, y1) = inv.transform([(e.x0, e.y0), (e.x1, e.y1)])
                v0, v1 = sorted((y0, y1) if axis == "y" else (x0, x1))
                room = [min(room[0], v0), max(room[1], v1)]
        span = (room[1] - room[0]) or 1.0
        # a bar's baseline at 0 stays on the frame; a bar end or a label gets pad to spare
        new = (room[0] - pad * span if room[0] < 0 else room[0],
               room[1] + pad * span if room[1] > 0 else room[1])
        if lim is not None and max(abs(new[0] - lim[0]), abs(new[1] - lim[1])) <= 1e-6 * span:
            break
        lim = new
        put(*lim)


def bar_totals(a, x, tops, fmt="%.3g s"):
    """Each stack's total above it (the rank's whole MPI time), for fit_bars to keep inside."""
    for xi, v in zip(x, tops):
        a.text(xi, v, fmt % v, ha="center", va="bottom", fontsize="x-small")


def note(fig, text):
    """Say text under the figure on the page too (the title says it in the picture)."""
    fig.papi_notes = getattr(fig, "papi_notes", []) + [text]


def _dropped_note(t):
    """' (INCOMPLETE: ...)' when ranks dropped partner records, else ''."""
    r = t.get("mpi_ranks")
    if r is None or "partners_dropped" not in r or not (r["partners_dropped"] > 0).any():
        return ""
    d = r[r["partners_dropped"] > 0]
    return ("INCOMPLETE: %d partner records dropped (partner table full) on %d rank%s, "
            "first rank %d" % (int(d["partners_dropped"].sum()), len(d), "" if len(d) == 1 else "s",
                               int(d["rank"].min())))


@_needs("mpi_ranks")
def compute_vs_mpi(t):
    byrank = t["mpi_ranks"].sort_values("rank")
    if len(byrank) > HEAT_STRIP_RANKS:
        fig, ax = _fig(11, 2.8, nrows=2)
        for a, col, label in ((ax[0][0], "compute_s", "compute s"), (ax[1][0], "mpi_s", "MPI s")):
            _strip(fig, a, byrank[col].values, label)
            _rank_ticks(a, list(byrank["rank"]))
        ax[1][0].set_xlabel("rank")
        c = byrank.set_index("rank")["compute_s"]
        fig.suptitle("compute (wall - MPI) and MPI time per rank, %d ranks: compute min %.4g s "
                     "(rank %d), mean %.4g s, max %.4g s (rank %d)"
                     % (len(c), c.min(), c.idxmin(), c.mean(), c.max(), c.idxmax()), fontsize="small")
        return fig
    r = byrank.sort_values("compute_s")
    fig, ax = _fig(max(6, 0.35 * len(r) + 3), 4)
    a = ax[0][0]
    x = np.arange(len(r))
    a.bar(x, r["compute_s"], label="compute (wall - MPI)", color="tab:blue")
    a.bar(x, r["mpi_s"], bottom=r["compute_s"], label="MPI", color="tab:orange")
    a.set_xticks(x)
    a.set_xticklabels([str(v) for v in r["rank"]])
    a.set_xlabel("rank (sorted by compute time)")
    a.set_ylabel("seconds")
    legend_outside(a)
    a.set_title("compute vs MPI time per rank")
    fig.tight_layout()
    fit_bars(a)
    return fig


@_needs("mpi_calls", "mpi_ranks")
def mpi_time_by_call(t):
    c = t["mpi_calls"]
    c = c[~c["call"].isin(APART)]
    if c.empty:
        return "no MPI call besides MPI_Init and MPI_Finalize"
    wide = c.pivot_table(index="rank", columns="call", values="time_s", aggfunc="sum")
    wide = wide.reindex(sorted(t["mpi_ranks"]["rank"])).fillna(0.0)  # every rank, in order
    wide = wide[wide.sum().sort_values(ascending=False).index]
    top = list(wide.columns[:9])
    if len(wide.columns) > 9:
        wide["other"] = wide[wide.columns[9:]].sum(axis=1)
        top.append("other")
    if len(wide) > HEAT_STRIP_RANKS:
        # One strip per call, ranks left to right: a bar per rank would be wider than any page.
        fig, ax = _fig(11, 0.55 * len(top) + 1.2, nrows=len(top))
        for a, col in zip(ax[:, 0], top):
            _strip(fig, a, wide[col].values, col, cmap="magma_r")
            a.set_xticks([])
        _rank_ticks(ax[-1][0], list(wide.index))
        ax[-1][0].set_xlabel("rank")
        fig.suptitle("MPI time per rank by call (seconds; %d ranks, without Init/Finalize)"
                     % len(wide), fontsize="small")
        return fig
    fig, ax = _fig(max(6, 0.35 * len(wide) + 4), 4)
    a, bottom = ax[0][0], np.zeros(len(wide))
    for col in top:
        a.bar(np.arange(len(wide)), wide[col].values, bottom=bottom, label=col)
        bottom += wide[col].values
    bar_totals(a, np.arange(len(wide)), bottom)
    a.set_xticks(np.arange(len(wide)))
    a.set_xticklabels([str(v) for v in wide.index])
    a.set_xlabel("rank")
    a.set_ylabel("seconds in MPI")
    legend_outside(a)
    a.set_title("MPI time per rank, stacked by call (without Init/Finalize)")
    fig.tight_layout()
    fit_bars(a)
    return fig


@_needs("mpi_call_summary")
def time_per_call_site(t):
    s = t["mpi_call_summary"]
    s = s[~s["apart"].astype(bool)].head(15).iloc[::-1]
    if s.empty:
        return "no MPI call besides MPI_Init and MPI_Finalize"
    fig, ax = _fig(8, 0.4 * len(s) + 1.5, ncols=2 if "mpi_callsites" in t and not t["mpi_callsites"].empty else 1)
    a = ax[0][0]
    y = np.arange(len(s))
    mean = s["time_s"] / max(1, len(t["mpi_ranks"]))
    a.barh(y, mean, color="tab:orange", label="mean per rank")
    a.errorbar(mean, y, xerr=[(mean - s["min_s"]).clip(lower=0), (s["max_s"] - mean).clip(lower=0)],
               fmt="none", ecolor="k", capsize=3, label="min..max across ranks")
    a.set_yticks(y)
    a.set_yticklabels(s["call"])
    a.set_xlabel("seconds per rank")
    a.legend(fontsize="small", loc="upper left", bbox_to_anchor=(0.0, -0.12), borderaxespad=0.0)
    a.set_title("time per call (min..max across ranks)")
    if ax.shape[1] > 1:
        cs = t["mpi_callsites"].dropna(subset=["time_s"]).sort_values("time_s").tail(15)
        b = ax[0][1]
        labels = ["%s %s:%s" % (r.call, str(r.file).rsplit("/", 1)[-1], r.line) for r in cs.itertuples()]
        per_rank = cs["time_s"] / cs["ranks"].clip(lower=1)
        b.barh(np.arange(len(cs)), per_rank, color="tab:green", label="mean per rank")
        if "rank_min_s" in cs and "rank_max_s" in cs:
            b.errorbar(per_rank, np.arange(len(cs)), fmt="none", ecolor="k", capsize=3,
                       xerr=[(per_rank - cs["rank_min_s"]).clip(lower=0),
                             (cs["rank_max_s"] - per_rank).clip(lower=0)],
                       label="min..max across ranks")
        b.legend(fontsize="small", loc="upper left", bbox_to_anchor=(0.0, -0.12), borderaxespad=0.0)
        b.set_yticks(np.arange(len(cs)))
        b.set_yticklabels(labels, fontsize="small")
        b.set_xlabel("seconds per rank")
        b.set_title("call sites (min..max across the ranks calling from each)")
        fig.set_size_inches(14, max(3, 0.4 * max(len(s), len(cs)) + 1.5))
    fig.tight_layout()
    return fig


@_needs("mpi_sizes")
def message_sizes(t):
    s = t["mpi_sizes"]
    calls = s.groupby(["call", "bucket"])[["calls", "time_s"]].sum().reset_index()
    buckets = list(range(int(calls["bucket"].min()), int(calls["bucket"].max()) + 1))
    names = list(calls.groupby("call")["time_s"].sum().sort_values(ascending=False).index)
    grid = calls.pivot_table(index="call", columns="bucket", values="time_s", aggfunc="sum")
    grid = grid.reindex(index=names, columns=buckets)
    ncalls = calls.pivot_table(index="call", columns="bucket", values="calls", aggfunc="sum")
    ncalls = ncalls.reindex(index=names, columns=buckets)
    fig, ax = _fig(max(6, 0.6 * len(buckets) + 3), 0.5 * len(names) + 2)
    a = ax[0][0]
    im = a.imshow(grid.values, aspect="auto", cmap="magma_r")
    for i in range(len(names)):
        for j in range(len(buckets)):
            n = ncalls.values[i, j]
            if not math.isnan(n):
                a.text(j, i, "%d" % n, ha="center", va="center", fontsize="x-small", color="tab:blue")
    a.set_yticks(np.arange(len(names)))
    a.set_yticklabels(names)
    a.set_xticks(np.arange(len(buckets)))
    a.set_xticklabels([_size_label(b) for b in buckets], rotation=45, ha="right", fontsize="small")
    a.set_xlabel("message size (power-of-two bucket, lower bound); numbers are calls")
    colorbar(fig, im, a, label="seconds (all ranks)")
    a.set_title("message size x time per call")
    fig.tight_layout()
    return fig


def _size_label(b):
    if b == 0:
        return "0"
    lo = 1 << (b - 1)
    for unit, f in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if lo >= f:
            return "%d%s" % (lo // f, unit)
    return str(lo)


def matrix_grid(m, n, col, side=MATRIX_SIDE):
    """The rank x rank matrix of column col as a dense grid of at most side x side cells:
    past side ranks, ranks r..r+block-1 share a cell (sums). Returns (grid, block); empty
    cells are NaN. Memory: side^2 cells whatever n."""
    block = max(1, -(-n // side))
    cells = -(-n // block)
    grid = np.zeros((cells, cells))
    seen = np.zeros((cells, cells), dtype=bool)
    ok = m[(m["src"] >= 0) & (m["src"] < n) & (m["dst"] >= 0) & (m["dst"] < n)]
    i, j = ok["src"].to_numpy() // block, ok["dst"].to_numpy() // block
    np.add.at(grid, (i, j), ok[col].to_numpy(dtype=float))
    seen[i, j] = True
    grid[~seen] = np.nan
    return grid, block


@_needs("mpi_matrix", "mpi_ranks")
def comm_matrix(t):
    m, n = t["mpi_matrix"], int(t["mpi_ranks"]["rank"].max()) + 1
    dropped = _dropped_note(t)
    fig, ax = _fig(12, 5.4 if dropped else 5, ncols=2)
    for a, col, label in ((ax[0][0], "bytes", "bytes sent"), (ax[0][1], "time_s", "seconds")):
        grid, block = matrix_grid(m, n, col)
        im = a.imshow(grid, cmap="viridis", origin="upper", interpolation="nearest")
        unit = "rank" if block == 1 else "rank (blocks of %d)" % block
        a.set_xlabel("destination %s" % unit)
        a.set_ylabel("source %s" % unit)
        title = "rank x rank: %s" % label
        if block > 1:
            title += "\n%d ranks in blocks of %d (sums per block)" % (n, block)
            if col == "bytes":
                note(fig, "%d ranks in blocks of %d: each cell sums %d x %d rank pairs"
                     % (n, block, block, block))
        a.set_title(title, fontsize="medium")
        if len(grid) <= 32:
            a.set_xticks(np.arange(len(grid)))
            a.set_yticks(np.arange(len(grid)))
        else:
            integer_axis(a.xaxis)
            integer_axis(a.yaxis)
        if block > 1:  # a cell is a block: its ticks name the block's first rank
            for axis in (a.xaxis, a.yaxis):
                axis.set_major_formatter(FuncFormatter(lambda v, _pos, b=block: "%d" % round(v * b)))
        colorbar(fig, im, a, label=label, unit="bytes" if col == "bytes" else None)
    if dropped:
        fig.suptitle(dropped + ": the matrix misses their messages", color="tab:red", fontsize="medium")
        note(fig, dropped + ": the matrix misses their messages (mpi_matrix.csv: column "
                  "src_partners_dropped)")
    fig.tight_layout()
    return fig


@_needs("mpi_counters")
def counters_per_rank(t):
    c = t["mpi_counters"]
    names = list(dict.fromkeys(c["counter"]))
    many = c["rank"].nunique() > HEAT_STRIP_RANKS
    fig, ax = _fig(11 if many else 8, (1.3 if many else 2.6) * len(names) + (0.6 if many else 0),
                   nrows=len(names))
    for a, name in zip(ax[:, 0], names):
        v = c[c["counter"] == name].sort_values("rank").reset_index(drop=True)
        values = v["value"].astype(float)
        mean = values.mean()
        lo, hi = v.loc[values.idxmin()], v.loc[values.idxmax()]
        if many:  # a heat strip, the min and max ranks marked
            _strip(fig, a, values.values, "")
            for row, color, what in ((lo, "tab:green", "min"), (hi, "tab:red", "max")):
                pos = int(v.index[v["rank"] == row["rank"]][0])
                a.axvline(pos, color=color, linewidth=1.5,
                          label="%s: rank %d (%.4g)" % (what, row["rank"], row["value"]))
            a.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(0, -0.05), ncol=2,
                     frameon=False)
            a.set_xticks([])
            a.set_title("%s per rank (%d ranks, mean %.4g)" % (name, len(v), mean), fontsize="small")
            continue
        a.bar(v["rank"], v["value"], color="tab:gray")
        a.axhline(mean, color="tab:blue", label="mean %.4g" % mean)
        a.bar([lo["rank"]], [lo["value"]], color="tab:green", label="min: rank %d" % lo["rank"])
        a.bar([hi["rank"]], [hi["value"]], color="tab:red", label="max: rank %d" % hi["rank"])
        a.set_title(name)
        a.set_xlabel("rank")
        integer_axis(a.xaxis)
        a.ticklabel_format(axis="y", style="plain", useOffset=False)
        legend_outside(a)
    fig.tight_layout()
    for a in ax[:, 0]:
        if not many:
            fit_bars(a)
    return fig


@_needs("region_tree")
def region_tree(t):
    tree = t["region_tree"]
    metrics = [c for c in tree.columns if c not in ("path", "name", "parent_path", "depth", "region_count")]
    metrics = ["real_time_nsec"] + [m for m in metrics if m not in ("real_time_nsec", "cycles")]
    # An all-thread column beside its event's own only where some region has a value.
    metrics = [m for m in metrics if not m.endswith(ALL_THREADS) or tree[m].notna().any()]
    levels = min(int(tree["depth"].max()) + 1, MAX_DEPTH)
    fig, ax = _fig(10, 1.0 + 0.5 * levels * len(metrics), nrows=len(metrics))
    colours = region_colours(t)
    for a, m in zip(ax[:, 0], metrics):
        _icicle(a, tree, m, levels, colours)
    fig.tight_layout()
    fit_labels(fig)
    return fig


PAGE_DPI = 90  # the page's pictures (html.py): what a label's size in pixels is taken at
LABEL_PX = 11  # an icicle label's font: 11 px on the page (it was ~6 px)


def fit_labels(fig, dpi=PAGE_DPI):
    """Drop each icicle label that does not fit inside its box at the page's resolution
    (first its name: the value alone when that fits; else the whole label): a label never
    spills over its neighbours or shrinks below LABEL_PX."""
    fig.set_dpi(dpi)
    renderer = fig.canvas.get_renderer()
    for a in fig.axes:
        for text in list(a.texts):
            box = getattr(text, "papi_box", None)
            if box is None:
                continue
            (x0, y0), (x1, y1) = a.transData.transform([(box[0], box[1]), (box[2], box[3])])
            room_w, room_h = abs(x1 - x0) - 4, abs(y1 - y0) - 2
            for label in text.papi_labels:
                text.set_text(label)
                e = text.get_window_extent(renderer)
                if e.width <= room_w and e.height <= room_h:
                    break
            else:
                text.remove()


def icicle_boxes(tree, metric, levels=MAX_DEPTH):
    """The icicle's boxes: [(path, depth, x, width, value, scaled)] with x and width as
    fractions of the whole (the roots' sum). A box is as wide as its inclusive value, its
    children side by side under it. Children always lie within their parent's extent:
    when they sum to more than the parent's value (a counter that is not additive down
    the tree, e.g. one read per thread or per rank that also counts what other threads or
    processes did, or clock noise), they are scaled down together to the parent's width
    and marked scaled; their numbers stay the measured ones."""
    vals = tree.set_index("path")[metric].astype(float).fillna(0).clip(lower=0)
    kids = {}
    for p, parent in zip(tree["path"], tree["parent_path"]):
        kids.setdefault(parent, []).append(p)
    roots = kids.get("", [])
    total = float(sum(vals[r] for r in roots)) or 1.0
    boxes = []

    def place(paths, x0, room, k, depth, scaled):
        # k: width per unit of value at this level (1/total unless an ancestor was scaled)
        if depth >= levels or not paths:
            return
        s = float(sum(vals[p] for p in paths))
        if s * k > room * (1 + 1e-9):  # more than the parent's extent: scaled into it
            k, scaled = (room / s if s > 0 else 0.0), True
        x = x0
        for p in paths:
            w = vals[p] * k
            if w >= 1e-5:  # narrower than a pixel: neither it nor its children drawn
                boxes.append((p, depth, x, w, float(vals[p]), scaled))
                place(kids.get(p, []), x, w, k, depth + 1, scaled)
            x += w

    place(roots, 0.0, 1.0, 1.0 / total, 0, False)
    return boxes


def _device_unit(metric, defs):
    """(unit, factor) a device event (GPU energy, power, memory) is read in, as the tables
    give it (J of nvml's mJ, W of mW, GB of B: tables.views.device_units); None for
    another measurement."""
    if not device_events.is_device(metric, defs or {}):
        return None
    unit, factor = units.readable(device_events.native_unit(metric, defs or {}))
    return (unit, factor) if unit else None


def _box_value(v, metric, defs):
    """An icicle box's value: a device event in the unit its tables are in ("2700 J", not
    "2.7 M" of mJ), the rest as region measurements."""
    dev = _device_unit(metric, defs)
    return "%.4g %s" % (v * dev[1], dev[0]) if dev else units.measurement(v, metric)


def _icicle(a, tree, metric, levels=MAX_DEPTH, colours=None):
    """An icicle: each region a box as wide as its inclusive value, children below it,
    in its colour (colours: region_colours, the same in every chart)."""
    colours = colours or region_colours({"region_tree": tree})
    boxes = icicle_boxes(tree, metric, levels)
    names = dict(zip(tree["path"], tree["name"]))
    scaled = False
    for p, depth, x, w, v, sc in boxes:
        face = colours[names.get(p, p)] if names.get(p, p) in colours else "0.7"
        a.add_patch(plt.Rectangle((x, -depth - 1), w, 0.95, facecolor=face, hatch="//" if sc else None,
                                  edgecolor="0.35" if sc else face, linewidth=0.4, clip_on=True))
        scaled |= sc
        if w * 10 * PAGE_DPI < 3 * LABEL_PX:  # narrower than a few characters: no label
            continue
        value = _box_value(v, metric, tree.attrs.get("event_definitions"))
        name = names.get(p, p)
        if len(name) > 40:
            name = name[:39] + "\u2026"
        text = a.text(x + w / 2, -depth - 0.5, "", ha="center", va="center", clip_on=True,
                      fontsize=LABEL_PX * 72.0 / PAGE_DPI)
        text.papi_box = (x, -depth - 1, x + w, -depth - 0.05)  # fit_labels: the room it has
        text.papi_labels = ["%s\n%s" % (name, value), value]
        text.set_text(text.papi_labels[0])
    a.set_xlim(0, 1)
    a.set_ylim(-levels, 0)
    a.set_yticks([])
    a.set_xticks([])
    if metric.endswith(ALL_THREADS):
        title = ("region tree (icicle), inclusive %s, all threads (every thread of the process "
                 "during each region)" % units.measurement_name(metric[: -len(ALL_THREADS)]))
    elif metric + ALL_THREADS in tree.columns and tree[metric + ALL_THREADS].notna().any():
        title = ("region tree (icicle), inclusive %s, own (the thread that ran each region)"
                 % units.measurement_name(metric))
    else:
        dev = _device_unit(metric, tree.attrs.get("event_definitions"))
        title = "region tree (icicle), inclusive %s" % (
            "%s (%s)" % (metric, dev[0]) if dev else units.measurement_name(metric))
    if int(tree["depth"].max()) + 1 > levels:
        title += " (first %d levels)" % levels
    if scaled:
        title += "\nhatched: children summing to more than their parent, scaled to its width"
    a.set_title(title, fontsize="medium")


LABEL_CHARS = 60  # a region's label at most: a text's cost grows with its length


def region_labels(paths, width=LABEL_CHARS):
    """Short, distinct labels of region paths for an axis: the outermost name, the levels
    left out, and as many of the innermost names as fit in width characters. A path of a
    deep tree is thousands of characters: drawn whole, its tick label cost minutes and
    overflowed the rasterizer."""
    out, seen = [], {}
    for p in paths:
        names = path_names(p)
        label = "/".join(names)
        if len(label) > width and len(names) > 2:
            tail, used = [], 0
            for n in reversed(names[1:]):
                if tail and used + len(n) + 1 > width - len(names[0]) - 12:
                    break
                tail.insert(0, n)
                used += len(n) + 1
            skipped = len(names) - 1 - len(tail)
            label = "/".join([names[0]] + (["\u2026%d\u2026" % skipped] if skipped else []) + tail)
        if len(label) > width:
            label = label[: width - 1] + "\u2026"
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else "%s #%d" % (label, seen[label]))
    return out


@_needs("region_totals")
def _region_heat(t, by, label):
    tot = t["region_totals"]
    grid = tot.pivot_table(index="path", columns=by, values="real_time_nsec", aggfunc="sum") / 1e9
    nrows = len(grid)
    if nrows > MAX_ROWS:  # the regions with most time
        grid = grid.loc[grid.sum(axis=1).sort_values(ascending=False).index[:MAX_ROWS]]
    ncols = len(grid.columns)
    wide = ncols > HEAT_STRIP_RANKS
    fig, ax = _fig(11 if wide else max(6, 0.5 * ncols + 4), 0.45 * len(grid) + 2)
    a = ax[0][0]
    im = a.imshow(grid.values, aspect="auto", cmap="viridis", interpolation="nearest")
    a.set_yticks(np.arange(len(grid)))
    a.set_yticklabels(region_labels(grid.index), fontsize="small")
    if wide:
        _rank_ticks(a, [str(c) for c in grid.columns])
    else:
        a.set_xticks(np.arange(ncols))
        a.set_xticklabels([str(c) for c in grid.columns], rotation=45, ha="right", fontsize="small")
    a.set_xlabel("%s (%d)" % (label, ncols))
    colorbar(fig, im, a, label="inclusive real time, s")
    title = "region x %s" % label
    if nrows > len(grid):
        title += " (the %d of %d regions with most time)" % (len(grid), nrows)
    a.set_title(title)
    fig.tight_layout()
    return fig


def region_by_rank(t):
    return _region_heat(t, "rank", "rank")


@_needs("region_totals")
def region_by_thread(t):
    tot = t["region_totals"].copy()
    tot["rank/thread"] = tot["rank"].astype(str) + "/" + tot["thread"].astype(str)
    return _region_heat(dict(t, region_totals=tot), "rank/thread", "rank/thread")


def region_reads(t):
    r = t.get("region_reads")
    if r is not None and r.empty and r.attrs.get("papi_run_only"):
        # papi_run's whole-program record: no region API, so no PAPI_hl_read to draw
        return NotGiven("the region files are papi_run's (no region API)",
                        "PAPI_hl_read series (the region API)")
    why = _need(t, "region_reads")
    if why:
        return why
    r = t["region_reads"]
    metrics = list(dict.fromkeys(r["metric"]))
    fig, ax = _fig(8, 2.8 * len(metrics), nrows=len(metrics))
    for a, m in zip(ax[:, 0], metrics):
        series = list(r[r["metric"] == m].groupby(["rank", "thread", "id", "name"]))
        if len(series) > MAX_ROWS:  # the series ending highest
            series = sorted(series, key=lambda kv: -float(kv[1]["value"].iloc[-1]))[:MAX_ROWS]
        for (rank, thread, rid, name), g in series:
            a.plot(g["read"], g["value"], marker="o", label="%s (rank %s, thread %s, #%s)" % (name, rank, thread, rid))
        a.set_xlabel("PAPI_hl_read")
        a.set_ylabel(m)
        n = r[r["metric"] == m].groupby(["rank", "thread", "id"]).ngroups
        a.set_title("PAPI_hl_read series: %s since the region's begin%s"
                    % (m, "" if n <= MAX_ROWS else " (the %d of %d ending highest)" % (MAX_ROWS, n)))
        integer_axis(a.xaxis)
        if len(series) <= 12:
            legend_outside(a, fontsize="x-small")
    fig.tight_layout()
    return fig


for _fid, _title, _section, _draw in (
    ("compute-vs-mpi", "Compute vs MPI time per rank", "MPI", compute_vs_mpi),
    ("mpi-time-by-call", "MPI time per rank, stacked by call", "MPI", mpi_time_by_call),
    ("time-per-call-site", "Time per call and call site, min..max across ranks", "MPI", time_per_call_site),
    ("message-sizes", "Message size histogram x time per call", "MPI", message_sizes),
    ("comm-matrix", "Rank x rank communication (bytes and time)", "MPI", comm_matrix),
    ("counters-per-rank", "Counters per rank (mean, min and max ranks)", "MPI", counters_per_rank),
    ("region-tree", "Region tree (icicle): inclusive time and each counter", "Regions", region_tree),
    ("region-by-rank", "Region x rank", "Regions", region_by_rank),
    ("region-by-thread", "Region x thread", "Regions", region_by_thread),
    ("region-reads", "PAPI_hl_read series per region", "Regions", region_reads),
):
    registry.figure(_fid, _title, _section)(_draw)
#: Every figure of the report (all modules' once catalog.load("figures") ran): the registry's.
FIGURES = registry.FIGURES
