"""papi_report.figures: the pictures of the report, each drawn from the tables alone.

FIGURES lists them in the report's order: (id, title, section, function). A function
takes the tables ({name: DataFrame}) and returns a matplotlib Figure, or a string saying
why there is nothing to draw (no MPI report given, a wrapper that records no partners):
the report then says so under the figure's title instead of drawing an empty one."""
import math

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

HEAT_STRIP_RANKS = 64  # above this many ranks, bars per rank become a heat strip


def _fig(w=8.0, h=4.0, ncols=1, nrows=1):
    fig, ax = plt.subplots(nrows, ncols, figsize=(w, h), squeeze=False)
    return fig, ax


def _need(t, *names):
    for n in names:
        if n not in t:
            return "no %s input given" % ("MPI report" if n.startswith("mpi") else "region file")
        if t[n].empty:
            return "the %s table is empty" % n
    return None


def compute_vs_mpi(t):
    why = _need(t, "mpi_ranks")
    if why:
        return why
    r = t["mpi_ranks"].sort_values("compute_s")
    if len(r) > HEAT_STRIP_RANKS:
        fig, ax = _fig(10, 2.6, nrows=2)
        for a, col, label in ((ax[0][0], "compute_s", "compute s"), (ax[1][0], "mpi_s", "MPI s")):
            byrank = t["mpi_ranks"].set_index("rank")[col]
            im = a.imshow(byrank.values[np.newaxis, :], aspect="auto", cmap="viridis")
            a.set_yticks([])
            a.set_ylabel(label)
            fig.colorbar(im, ax=a)
        ax[1][0].set_xlabel("rank")
        fig.suptitle("compute (wall - MPI) and MPI time per rank")
        return fig
    fig, ax = _fig(max(6, 0.35 * len(r) + 3), 4)
    a = ax[0][0]
    x = np.arange(len(r))
    a.bar(x, r["compute_s"], label="compute (wall - MPI)", color="tab:blue")
    a.bar(x, r["mpi_s"], bottom=r["compute_s"], label="MPI", color="tab:orange")
    a.set_xticks(x)
    a.set_xticklabels([str(v) for v in r["rank"]])
    a.set_xlabel("rank (sorted by compute time)")
    a.set_ylabel("seconds")
    a.legend()
    a.set_title("compute vs MPI time per rank")
    return fig


def mpi_time_by_call(t):
    why = _need(t, "mpi_calls")
    if why:
        return why
    c = t["mpi_calls"]
    c = c[~c["call"].isin(("MPI_Init", "MPI_Init_thread", "MPI_Finalize"))]
    if c.empty:
        return "no MPI call besides MPI_Init and MPI_Finalize"
    wide = c.pivot_table(index="rank", columns="call", values="time_s", aggfunc="sum").fillna(0.0)
    wide = wide[wide.sum().sort_values(ascending=False).index]
    top = list(wide.columns[:9])
    if len(wide.columns) > 9:
        wide["other"] = wide[wide.columns[9:]].sum(axis=1)
        top.append("other")
    fig, ax = _fig(max(6, 0.35 * len(wide) + 4), 4)
    a, bottom = ax[0][0], np.zeros(len(wide))
    for col in top:
        a.bar(np.arange(len(wide)), wide[col].values, bottom=bottom, label=col)
        bottom += wide[col].values
    a.set_xticks(np.arange(len(wide)))
    a.set_xticklabels([str(v) for v in wide.index])
    a.set_xlabel("rank")
    a.set_ylabel("seconds in MPI")
    a.legend(fontsize="small", ncol=2)
    a.set_title("MPI time per rank, stacked by call (without Init/Finalize)")
    return fig


def time_per_call_site(t):
    why = _need(t, "mpi_call_summary")
    if why:
        return why
    s = t["mpi_call_summary"]
    s = s[~s["apart"]].head(15).iloc[::-1]
    if s.empty:
        return "no MPI call besides MPI_Init and MPI_Finalize"
    fig, ax = _fig(8, 0.4 * len(s) + 1.5, ncols=2 if "mpi_callsites" in t and not t["mpi_callsites"].empty else 1)
    a = ax[0][0]
    y = np.arange(len(s))
    mean = s["time_s"] / max(1, len(t["mpi_ranks"]))
    a.barh(y, mean, color="tab:orange", label="mean per rank")
    a.errorbar(mean, y, xerr=[mean - s["min_s"], s["max_s"] - mean], fmt="none", ecolor="k",
               capsize=3, label="min..max across ranks")
    a.set_yticks(y)
    a.set_yticklabels(s["call"])
    a.set_xlabel("seconds per rank")
    a.legend(fontsize="small")
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
        b.legend(fontsize="small")
        b.set_yticks(np.arange(len(cs)))
        b.set_yticklabels(labels, fontsize="small")
        b.set_xlabel("seconds per rank")
        b.set_title("call sites (min..max across the ranks calling from each)")
        fig.set_size_inches(14, max(3, 0.4 * max(len(s), len(cs)) + 1.5))
    fig.tight_layout()
    return fig


def message_sizes(t):
    why = _need(t, "mpi_sizes")
    if why:
        return why
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
    fig.colorbar(im, ax=a, label="seconds (all ranks)")
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


def comm_matrix(t):
    why = _need(t, "mpi_matrix", "mpi_ranks")
    if why:
        return why
    m, n = t["mpi_matrix"], int(t["mpi_ranks"]["rank"].max()) + 1
    fig, ax = _fig(12, 5, ncols=2)
    for a, col, label in ((ax[0][0], "bytes", "bytes sent"), (ax[0][1], "time_s", "seconds")):
        grid = np.full((n, n), np.nan)
        for r in m.itertuples():
            if 0 <= r.src < n and 0 <= r.dst < n:
                grid[r.src, r.dst] = getattr(r, col)
        im = a.imshow(grid, cmap="viridis", origin="upper")
        a.set_xlabel("destination rank")
        a.set_ylabel("source rank")
        a.set_title("rank x rank: %s" % label)
        if n <= 32:
            a.set_xticks(np.arange(n))
            a.set_yticks(np.arange(n))
        fig.colorbar(im, ax=a)
    fig.tight_layout()
    return fig


def counters_per_rank(t):
    why = _need(t, "mpi_counters")
    if why:
        return why
    c = t["mpi_counters"]
    names = list(dict.fromkeys(c["counter"]))
    fig, ax = _fig(8, 2.6 * len(names), nrows=len(names))
    for a, name in zip(ax[:, 0], names):
        v = c[c["counter"] == name].sort_values("rank")
        a.bar(v["rank"], v["value"], color="tab:gray")
        mean = v["value"].mean()
        a.axhline(mean, color="tab:blue", label="mean %.4g" % mean)
        lo, hi = v.loc[v["value"].idxmin()], v.loc[v["value"].idxmax()]
        a.bar([lo["rank"]], [lo["value"]], color="tab:green", label="min: rank %d" % lo["rank"])
        a.bar([hi["rank"]], [hi["value"]], color="tab:red", label="max: rank %d" % hi["rank"])
        a.set_title(name)
        a.set_xlabel("rank")
        a.legend(fontsize="small")
    fig.tight_layout()
    return fig


def region_tree(t):
    why = _need(t, "region_tree")
    if why:
        return why
    tree = t["region_tree"]
    metrics = [c for c in tree.columns if c not in ("path", "name", "parent_path", "depth", "region_count")]
    metrics = ["real_time_nsec"] + [m for m in metrics if m not in ("real_time_nsec", "cycles")]
    fig, ax = _fig(10, 1.0 + 0.5 * (tree["depth"].max() + 1) * len(metrics), nrows=len(metrics))
    for a, m in zip(ax[:, 0], metrics):
        _icicle(a, tree, m)
    fig.tight_layout()
    return fig


def _icicle(a, tree, metric):
    """An icicle: each region a box as wide as its inclusive value, children below it."""
    vals = tree.set_index("path")[metric].fillna(0).clip(lower=0)
    kids = {}
    for p, parent in zip(tree["path"], tree["parent_path"]):
        kids.setdefault(parent, []).append(p)
    roots = kids.get("", [])
    total = float(sum(vals[r] for r in roots)) or 1.0
    cmap = plt.get_cmap("tab20")

    def draw(paths, x0, depth, scale):
        x = x0
        for i, p in enumerate(paths):
            w = vals[p] / total
            a.add_patch(plt.Rectangle((x, -depth - 1), w, 0.95, color=cmap((depth * 7 + i) % 20)))
            if w > 0.04:
                a.text(x + w / 2, -depth - 0.5, "%s\n%.4g" % (p.rsplit("/", 1)[-1], vals[p]),
                       ha="center", va="center", fontsize="x-small")
            draw(kids.get(p, []), x, depth + 1, scale)
            x += w
    draw(roots, 0.0, 0, 1.0)
    a.set_xlim(0, 1)
    a.set_ylim(-(tree["depth"].max() + 1), 0)
    a.set_yticks([])
    a.set_xticks([])
    a.set_title("region tree (icicle), inclusive %s" % metric)


def _region_heat(t, by):
    why = _need(t, "region_totals")
    if why:
        return why
    tot = t["region_totals"]
    grid = tot.pivot_table(index="path", columns=by, values="real_time_nsec", aggfunc="sum") / 1e9
    fig, ax = _fig(max(6, 0.5 * len(grid.columns) + 4), 0.45 * len(grid) + 2)
    a = ax[0][0]
    im = a.imshow(grid.values, aspect="auto", cmap="viridis")
    a.set_yticks(np.arange(len(grid)))
    a.set_yticklabels(grid.index, fontsize="small")
    a.set_xticks(np.arange(len(grid.columns)))
    a.set_xticklabels([str(c) for c in grid.columns], rotation=45, ha="right", fontsize="small")
    a.set_xlabel(by)
    fig.colorbar(im, ax=a, label="inclusive real time, s")
    a.set_title("region x %s" % by)
    fig.tight_layout()
    return fig


def region_by_rank(t):
    return _region_heat(t, "rank")


def region_by_thread(t):
    why = _need(t, "region_totals")
    if why:
        return why
    tot = t["region_totals"].copy()
    tot["rank/thread"] = tot["rank"].astype(str) + "/" + tot["thread"].astype(str)
    return _region_heat(dict(t, region_totals=tot), "rank/thread")


def region_reads(t):
    why = _need(t, "region_reads")
    if why:
        return why
    r = t["region_reads"]
    metrics = list(dict.fromkeys(r["metric"]))
    fig, ax = _fig(8, 2.8 * len(metrics), nrows=len(metrics))
    for a, m in zip(ax[:, 0], metrics):
        for (rank, thread, rid, name), g in r[r["metric"] == m].groupby(["rank", "thread", "id", "name"]):
            a.plot(g["read"], g["value"], marker="o", label="%s (rank %s, thread %s, #%s)" % (name, rank, thread, rid))
        a.set_xlabel("PAPI_hl_read")
        a.set_ylabel(m)
        a.set_title("PAPI_hl_read series: %s since the region's begin" % m)
        a.legend(fontsize="x-small")
    fig.tight_layout()
    return fig


FIGURES = [
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
]
