"""papi_report.figures.timeline: the run's timeline (issue 49 item 5): one lane per rank (per rank
and thread where the trace has several threads), MPI time coloured by its wait state
(late sender, late receiver, wait at N x N, wait at barrier, late root, early reduce,
other MPI), computation, a GPU track's kernels and copies (a lane per device and
stream), the region covering most of each pixel column as a band over each lane, and a
counter track below (a PAPI_INTERVAL counter's rate over time). Drawn from timeline_data's
tables, which come from the run's JSON trace.

Bounded whatever the run's size: the lanes are an image WIDTH pixel columns wide; each
column shows the state that covers most of its time (spans shorter than a column are
merged into it, the title says how long a column is), so drawing costs the same for 4
ranks as for 256, and the lanes get thinner (the title says how many) past THIN_LANES."""
from .figures import NotGiven, _fig, legend_outside, note, region_colours  # first: says which package installs matplotlib
import numpy as np
from matplotlib.patches import Patch

from ..load import mpi_rules, registry
from ..tables import timeline_data

WIDTH = 1200  # pixel columns of the lanes
THIN_LANES = 32  # past this many lanes: no lane labels but a few, and no gap between lanes
MAX_COUNTER_LINES = 8  # past this many ranks the counter track is the sum over ranks
# The wait kinds' colours and words: mpi-wrappers/wait_kinds.list.
COLOURS = dict(mpi_rules.COLOURS, other_mpi="#f5c342", computation="#4c8bd6",
               gpu_kernel="#2ca02c", gpu_copy="#9467bd")
LABELS = dict(mpi_rules.LABELS, other_mpi="other MPI", computation="computation",
              gpu_kernel="GPU kernel", gpu_copy="GPU copy or memset")


def _rgb(hexcolour):
    return [int(hexcolour[i:i + 2], 16) / 255.0 for i in (1, 3, 5)]


def coverage(t0, t1, edges):
    """Time each pixel column [edges[i], edges[i+1]) holds of the non-overlapping spans
    [t0, t1): O((spans + columns) log spans), whatever the spans' count."""
    order = np.argsort(t0)
    t0, t1 = np.asarray(t0, float)[order], np.asarray(t1, float)[order]
    length = t1 - t0
    before = np.concatenate([[0.0], np.cumsum(length)])  # covered before span i
    i = np.searchsorted(t0, edges, side="right") - 1
    inside = np.where(i >= 0, np.clip(edges - t0[np.maximum(i, 0)], 0, length[np.maximum(i, 0)]), 0)
    upto = np.where(i >= 0, before[np.maximum(i, 0)] + inside, 0.0)
    return np.diff(upto)


def _groups(keys):
    """[(key, indices of keys equal to it)], keys ascending."""
    order = np.argsort(keys, kind="stable")
    cuts = np.flatnonzero(np.diff(keys[order])) + 1
    return [(keys[g[0]], g) for g in np.split(order, cuts) if len(g)]


def raster(spans, t_start, t_end, width=WIDTH):
    """(lanes x width state indices into timeline_data.KINDS, -1 where none; lanes x width
    region indices, -1 where none; region names): what each pixel column shows. numpy
    throughout: one pass per lane and kind, none per span."""
    edges = np.linspace(t_start, t_end, width + 1)
    lanes = int(spans["lane"].max()) + 1 if len(spans) else 0
    state = np.full((lanes, width), -1, dtype=int)
    region = np.full((lanes, width), -1, dtype=int)
    lane = spans["lane"].to_numpy(dtype=np.int64)
    kind = spans["kind"].to_numpy()
    t0, t1 = spans["t0_s"].to_numpy(dtype=float), spans["t1_s"].to_numpy(dtype=float)
    is_region = kind == "region"
    names = sorted(set(spans["name"].to_numpy()[is_region]))
    code = {k: i for i, k in enumerate(timeline_data.KINDS)}
    kcode = np.array([code.get(k, -1) for k in kind], dtype=np.int64)
    cov = np.zeros((lanes, len(timeline_data.KINDS), width))
    sel = np.flatnonzero(kcode >= 0)
    for key, idx in _groups(lane[sel] * len(code) + kcode[sel]):
        idx = sel[idx]
        cov[key // len(code), key % len(code)] = coverage(t0[idx], t1[idx], edges)
    state[:] = np.where(cov.max(axis=1) > 0, cov.argmax(axis=1), -1)
    if names:
        ncode = {n: i for i, n in enumerate(names)}
        sel = np.flatnonzero(is_region)
        rcode = np.array([ncode[n] for n in spans["name"].to_numpy()[sel]], dtype=np.int64)
        rc = np.zeros((lanes, len(names), width))
        for key, idx in _groups(lane[sel] * len(names) + rcode):
            idx = sel[idx][np.argsort(t0[sel[idx]], kind="stable")]
            # An instance nested in one of the same name is cut at its start (no double count).
            ends = np.minimum(t1[idx], np.r_[t0[idx][1:], np.inf])
            rc[key // len(names), key % len(names)] = coverage(t0[idx], ends, edges)
        region[:] = np.where(rc.max(axis=1) > 0, rc.argmax(axis=1), -1)
    return state, region, names


def _counter_track(a, counters, t_start):
    """One counter's rate per rank (summed over ranks past MAX_COUNTER_LINES): the one that
    grows most (a flat page-fault count says nothing; the others are in the CSV)."""
    growth = counters.dropna(subset=["value"]).groupby("counter")["value"].agg(lambda v: v.max() - v.min())
    name = growth.sort_values(ascending=False, kind="stable").index[0] if len(growth) else \
        sorted(counters["counter"].unique())[0]
    c = counters[counters["counter"] == name].dropna(subset=["value"]).sort_values("t_s")
    ranks = sorted(c["rank"].unique())
    series = []
    for r, g in c.groupby(["rank", "thread"]):
        t, v = g["t_s"].values, g["value"].values.astype(float)
        if len(t) >= 2:
            dt = np.diff(t)
            ok = dt > 0
            series.append((r[0], t[1:][ok] - t_start, np.diff(v)[ok] / dt[ok]))
    if not series:
        a.text(0.5, 0.5, "%s: fewer than 2 samples per rank" % name, ha="center",
               transform=a.transAxes)
        return name, False
    if len(ranks) <= MAX_COUNTER_LINES:
        for r, t, rate in series:
            a.step(t, rate, where="pre", label="rank %d" % r, linewidth=1)
        legend_outside(a)
        a.set_ylabel("%s / s" % name, fontsize="small")
        return name, False
    grid = np.linspace(min(t[0] for _, t, _ in series), max(t[-1] for _, t, _ in series), 400)
    total = sum(np.interp(grid, t, rate, left=0, right=0) for _, t, rate in series)
    a.plot(grid, total, linewidth=1)
    a.set_ylabel("%s / s\n(sum of %d ranks)" % (name, len(ranks)), fontsize="small")
    return name, True


MORE_TIMELINE = "a timeline (a trace: PAPI_MPI_TRACE, PAPI_TRACE)"


@registry.figure("timeline", "Timeline per rank: MPI states by kind, regions, a counter track",
                 "MPI wait states")
def timeline(t):
    spans = t.get("timeline_spans")
    if spans is None:
        return "no timeline table"
    if spans.empty:
        why = spans.attrs.get("why", "the trace holds no MPI call or region")
        return NotGiven(why, MORE_TIMELINE) if spans.attrs.get("not_given") else why
    t_start, t_end = float(spans["t0_s"].min()), float(spans["t1_s"].max())
    if not t_end > t_start:
        return "the trace spans no time"
    state, region, names = raster(spans, t_start, t_end)
    lanes = state.shape[0]
    keys = spans.drop_duplicates("lane").sort_values("lane")[["rank", "thread"]].values
    threads = len(set(k[1] for k in keys)) > len(set(k[0] for k in keys))
    counters = t.get("timeline_counters")
    has_counters = counters is not None and not counters.empty
    lane_h = 0.22 if lanes <= THIN_LANES else max(0.02, 6.0 / lanes)
    h = 1.2 + lanes * lane_h + (1.6 if has_counters else 0)
    fig, ax = _fig(12, h, nrows=2 if has_counters else 1)
    a = ax[0][0]
    colours = np.array([_rgb(COLOURS[k]) for k in timeline_data.KINDS] + [[1.0, 1.0, 1.0]])
    # Each lane 4 rows: the region band on top, 3 rows of state.
    img = np.ones((lanes * 4, state.shape[1], 3))
    by_name = region_colours(t)  # each region its colour in every chart
    rcol = np.array([by_name.get(n, (0.7, 0.7, 0.7))[:3] for n in names] + [[1.0, 1.0, 1.0]])
    for lane in range(lanes):
        img[lane * 4] = rcol[region[lane]]  # -1: the white last entry
        img[lane * 4 + 1: lane * 4 + 4] = colours[state[lane]]
    span = t_end - t_start
    # Lane i centred on i: whole-number ticks, as every rank axis of the report has.
    a.imshow(img, aspect="auto", interpolation="nearest", extent=(0, span, lanes - 0.5, -0.5))
    step = max(1, lanes // 16) if lanes > THIN_LANES else 1
    a.set_yticks(list(range(0, lanes, step)))
    gpu = spans.attrs.get("gpu_lanes") or {}  # a GPU track's lane: rank and its track name
    a.set_yticklabels(["%d %s" % (k[0], gpu[i]) if i in gpu else
                       "%d.%d" % (k[0], k[1]) if threads else "%d" % k[0]
                       for i, k in zip(range(0, lanes, step), keys[::step])],
                      fontsize="small" if lanes <= THIN_LANES else "x-small")
    a.set_ylabel("rank.thread" if threads else "rank")
    col_ms = 1e3 * span / state.shape[1]
    said = "one pixel column = %.3g ms: spans shorter are merged, a column shows the state " \
           "covering most of it" % col_ms
    if lanes > THIN_LANES:
        said += "; %d lanes, thin" % lanes
    a.set_title("%d %s, %.4g s%s\n%s" % (
        lanes, "lanes (rank, thread)" if threads else "ranks", span,
        (", %d trace records dropped" % spans.attrs["dropped"]) if spans.attrs.get("dropped") else "",
        said), fontsize="small")
    handles = [Patch(color=COLOURS[k], label=LABELS[k]) for k in timeline_data.KINDS
               if (spans["kind"] == k).any()]
    handles += [Patch(color=rcol[i], label="region %s" % n) for i, n in enumerate(names[:12])]
    if len(names) > 12:
        handles.append(Patch(color="white", label="... %d regions in all" % len(names)))
    legend_outside(a, handles=handles)
    note(fig, said)
    if has_counters:
        b = ax[1][0]
        name, summed = _counter_track(b, counters, t_start)
        b.set_xlim(0, span)
        b.set_xlabel("seconds since the trace's start")
        if summed:
            note(fig, "the counter track sums %s over the ranks" % name)
    else:
        a.set_xlabel("seconds since the trace's start (no counter in the trace: set "
                     "PAPI_INTERVAL for a counter track)")
    fig.tight_layout()
    return fig
