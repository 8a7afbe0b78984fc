"""papi_report.figures.openmp_figures: OpenMP's parallel regions in one figure (issue 58),
drawn from tables/openmp.py's tables alone: for the regions that lost most thread time
(at most TOP_REGIONS), each thread's work and waits (at barriers inside the region, at
the join barrier, at taskwait) as stacked bars, and beside them the region's load
balance, scheduling and parallel efficiency. A region's threads past MAX_THREADS are
left out of its bars (its title says how many it has)."""
import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..load import registry
from .figures import NotGiven, fit_bars, legend_outside

TOP_REGIONS = 6
MAX_THREADS = 64
PARTS = (("work_s", "work", "tab:blue"), ("barrier_wait_s", "barrier wait", "tab:orange"),
         ("join_wait_s", "join wait", "tab:red"), ("taskwait_wait_s", "taskwait wait", "tab:purple"))
EFFS = (("load_balance", "load balance"), ("scheduling", "scheduling"),
        ("parallel_efficiency", "parallel"))
MORE = "OpenMP figures (the OMPT tool's ompt_PID.json, or papi_run's files of an OpenMP program)"


def _basenames(text):
    """Paths in text as their last part (the titles' room: the CSVs keep them whole)."""
    return re.sub(r"[^\s(]*/", "", text)


def shorten(name, width):
    """A region's name within width characters where it can be: its function (a C++
    signature may be long) cut with "...", never its "(file:line)" tail."""
    if len(name) <= width:
        return name
    m = re.match(r"^(.*?)( \([^()]*:\d+\))$", name, re.S)
    if not m:
        return name[:max(width - 3, 1)] + "..."
    fn, tail = m.groups()
    return fn[:max(width - len(tail) - 3, 8)] + "..." + tail


def _label(row, several):
    """The region's name, its site where it has one (regions of one name told apart),
    with its process where the tables hold several."""
    who = ""
    if several:
        who = ("" if pd.isna(row["rank"]) else "rank %d, " % row["rank"]) + "pid %d: " % row["pid"]
    site = "" if pd.isna(row["site"]) else _basenames(str(row["site"]))
    label = shorten(str(row["region"]), 70)
    return who + label + (" [%s]" % (site if len(site) <= 60 else "..." + site[-57:]) if site else "")


def _threads(t, row):
    """The region's rows of openmp_threads: its process, its name and its site."""
    th = t["openmp_threads"]
    site = "" if pd.isna(row["site"]) else row["site"]
    same = (th["pid"] == row["pid"]) & (th["region"] == row["region"]) & (th["site"].fillna("") == site)
    if not pd.isna(row["rank"]):
        same &= th["rank"] == row["rank"]
    return th[same].sort_values("thread")


def _bars(a, th, title):
    """One region's threads: work and each wait stacked, thread numbers on the y axis."""
    shown = th.head(MAX_THREADS)
    y = np.arange(len(shown))
    left = np.zeros(len(shown))
    for col, label, colour in PARTS:
        v = shown[col].fillna(0.0).to_numpy(dtype=float) * 1e3
        a.barh(y, v, left=left, color=colour, label=label, height=0.8)
        left += v
    a.set_yticks(y)
    a.set_yticklabels([str(n) for n in shown["thread"]], fontsize="x-small")
    a.invert_yaxis()
    a.set_ylabel("thread")
    a.set_xlabel("ms")
    more = "" if len(th) <= len(shown) else " (threads 0-%d of %d)" % (len(shown) - 1, len(th))
    a.set_title(title + more, fontsize="small", loc="left")


def _efficiencies(a, row):
    """The region's efficiencies as bars on 0..1, each labelled with its value."""
    vals = [None if pd.isna(row[c]) else float(row[c]) for c, _ in EFFS]
    y = np.arange(len(EFFS))
    a.barh(y, [v or 0.0 for v in vals], color="tab:green", height=0.6)
    for yi, v in zip(y, vals):  # an efficiency that cannot be formed: "-", no bar
        a.text((v or 0.0) + 0.02, yi, "-" if v is None else "%.3f" % v, ha="left", va="center",
               fontsize="x-small")
    a.set_yticks(y)
    a.set_yticklabels([n for _, n in EFFS], fontsize="x-small")
    a.invert_yaxis()
    a.set_xlim(0, 1.3)
    a.set_xticks([0, 0.5, 1])
    a.set_title("efficiency", fontsize="small")


def openmp_regions(t):
    if "openmp_regions" not in t:
        return NotGiven("no OMPT tool table given", MORE)
    regs = t["openmp_regions"]
    if regs.empty:
        return "the OMPT tool's tables hold no parallel region"
    top = regs.head(TOP_REGIONS)  # most thread time lost first
    several = regs["pid"].nunique() > 1
    # A region's panel grows with its threads (bounded: MAX_THREADS), the efficiencies beside.
    heights = [1.2 + 0.12 * min(MAX_THREADS, len(_threads(t, row))) for _, row in top.iterrows()]
    fig, ax = plt.subplots(len(top), 2, figsize=(11, 0.8 + sum(heights)), squeeze=False,
                           gridspec_kw={"width_ratios": [3.2, 1], "height_ratios": heights})
    for i, (_, row) in enumerate(top.iterrows()):
        title = "%s: %.3g ms wall, %.3g ms lost" % (_label(row, several), row["wall_s"] * 1e3,
                                                   row["lost_s"] * 1e3)
        _bars(ax[i][0], _threads(t, row), title)
        _efficiencies(ax[i][1], row)
    legend_outside(ax[0][0], fontsize="x-small")
    fig.suptitle("OpenMP parallel regions, most thread time lost first (%d of %d): each thread's "
                 "work and waits, and the efficiencies" % (len(top), len(regs)), fontsize="small")
    fig.tight_layout()
    for i in range(len(top)):
        fit_bars(ax[i][0], axis="x")
    return fig


registry.figure("openmp-regions", "OpenMP parallel regions: threads' work and waits, efficiencies",
                "OpenMP")(openmp_regions)
