"""papi_report.figures.metric_figures: the roofline, drawn from the tables alone (metric_tables.py):
each rank and each region of a thread as a point at its arithmetic intensity (FLOPs per
byte of memory traffic: DP_FLOPS + SP_FLOPS over MEM_BW, both rates over the same time,
so the FLOPs over the bytes) and its FLOP/s, log-log, with the machine's roof (peak
FLOP/s and peak bandwidth) where a peak is known; the picture and the page say where
each peak comes from, or that none was given. Without points, the reason instead."""
import textwrap

import numpy as np

from ..load import registry
from .figures import NotGiven, _fig, legend_outside, note
from ..tables.metric_tables import BYTES_METRIC, FLOP_METRICS

NO_METRIC = ("no %s in the inputs: ask for it with PAPI_MPI_METRICS (MPI) or PAPI_METRICS "
             "(regions), e.g. FLOPS_DP,MEM; `papi_metric_avail -m %s` says whether this "
             "machine can count it")
MORE_ROOFLINE = "a roofline (the FLOPS_DP and MEM metrics)"


def _metric_rows(t):
    """[(where, DataFrame of metric, value, note)] of the inputs given."""
    out = []
    r = t.get("mpi_rank_metrics")
    if r is not None:
        out.append(("the MPI report", r))
    g = t.get("region_metrics")
    if g is not None:
        out.append(("the region files", g.assign(note="")))
    return out


def _skipped(t, names):
    """'M: reason' of the first named metric the region files skipped, or None."""
    s = t.get("region_metrics_skipped")
    if s is None or s.empty:
        return None
    s = s[s["metric"].isin(names)]
    return None if s.empty else "%s: %s" % (s.iloc[0]["metric"], s.iloc[0]["reason"])


def _why_no_value(rows, names):
    """Why no point has a value of names (all null), from the rows' notes."""
    for where, df in rows:
        d = df[df["metric"].isin(names)]
        if not d.empty:
            notes = [n for n in d["note"] if n]
            return ("%s has %s only as null (nothing counted, or a zero denominator)%s"
                    % (where, "/".join(sorted(set(d["metric"]))),
                       ": " + notes[0] if notes else ""))
    return None


def why_no_roofline(t):
    """The whole reason the roofline has no point, or None when it has some."""
    pts = t.get("roofline")
    if pts is not None and not pts.empty:
        return None
    rows = _metric_rows(t)
    if not rows:
        return NotGiven("no MPI report and no region files given", MORE_ROOFLINE)
    for names, label, ask in ((FLOP_METRICS, "FLOP metric (DP_FLOPS or SP_FLOPS)", "DP_FLOPS"),
                              ((BYTES_METRIC,), "memory bandwidth metric (MEM_BW)", "MEM_BW")):
        present = any(df["metric"].isin(names).any() for _w, df in rows)
        if not present:
            skipped = _skipped(t, names)
            if not skipped:  # not asked for: more input, not a failure
                return NotGiven(NO_METRIC % (label, ask), MORE_ROOFLINE)
            return NO_METRIC % (label, ask) + "; the region files say %s" % skipped
        if not any(df[df["metric"].isin(names)]["value"].notna().any() for _w, df in rows):
            return _why_no_value(rows, names)
    return ("no rank or region has every FLOP metric it lists with a value, their sum above 0 "
            "and a MEM_BW above 0 (a log-log chart has no place for 0)")


def _roof(a, peaks, xlim):
    """The peak lines; what the chart says of their sources."""
    p = dict(zip(peaks["what"], peaks["value"]))
    src = dict(zip(peaks["what"], peaks["source"]))
    x = np.logspace(np.log10(xlim[0]), np.log10(xlim[1]), 200)
    said = []
    f, bw = p.get("flops_per_s"), p.get("bytes_per_s")
    if f and bw:
        a.plot(x, np.minimum(f, bw * x), color="black", linewidth=1.5,
               label="roof: min(%.3g FLOP/s, %.3g B/s x intensity)" % (f, bw))
    elif f:
        a.axhline(f, color="black", linewidth=1.5, label="peak %.3g FLOP/s" % f)
    elif bw:
        a.plot(x, bw * x, color="black", linewidth=1.5, label="peak %.3g B/s x intensity" % bw)
    for k, what in (("flops_per_s", "peak FLOP/s"), ("bytes_per_s", "peak bandwidth")):
        said.append("%s: %s" % (what, src[k]) if k in p else
                    "%s: not known (give --peak-%s, or \"peaks\" in a report)"
                    % (what, "flops" if k == "flops_per_s" else "bw"))
    return "; ".join(said)


def roofline(t):
    why = why_no_roofline(t)
    if why:
        return why
    pts = t["roofline"]
    fig, ax = _fig(8, 5)
    a = ax[0][0]
    for kind, marker in (("rank", "o"), ("region", "s")):
        d = pts[pts["kind"] == kind]
        if not d.empty:
            a.scatter(d["intensity"], d["flops_per_s"], marker=marker, s=30,
                      label="%d %s%s" % (len(d), kind, "" if len(d) == 1 else "s"))
    a.set_xscale("log")
    a.set_yscale("log")
    lo, hi = pts["intensity"].min(), pts["intensity"].max()
    xlim = (lo / 10, hi * 10)
    a.set_xlim(*xlim)
    sources = _roof(a, t.get("roofline_peaks"), xlim) if t.get("roofline_peaks") is not None \
        else "no peaks table"
    a.set_xlabel("arithmetic intensity (FLOPs per byte of memory traffic)")
    a.set_ylabel("FLOP/s (%s)" % " + ".join(FLOP_METRICS))
    a.set_title("Roofline: per rank and per region of a thread\n%s" % textwrap.fill(sources, 90),
                fontsize="small")
    legend_outside(a)
    note(fig, "Peaks: " + sources)
    fig.tight_layout()
    return fig


registry.figure("roofline", "Roofline: arithmetic intensity against FLOP/s, per rank and "
                "region", "Named metrics")(roofline)
