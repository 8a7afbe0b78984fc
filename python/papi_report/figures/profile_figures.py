"""papi_report.figures.profile_figures: the sampled profile on the page (issue 48, the job-wide
view): a flame graph (an icicle: the root on top, callees below) per event of the
profile, written as inline SVG (frames as boxes, width = the frame's share of the event's
weight, a hover title with the function, file:line and the share; no script), and the
same weighted by each -m metric (the metric of each stack's counts times its weight of the
sampled event; each box says the metric of its own summed counts), and the
function x rank heat map (matplotlib: each rank's, or thread's without ranks, self share
of the sampled event in each of the top functions).

A flame graph stays readable at any number of distinct stacks: the callees of a frame
that each hold less than OTHER_PCT of the total are one "[other]" box with nothing drawn
under it, so a graph has at most 2 x 100 / OTHER_PCT boxes a level."""
import html
import math
import zlib

import numpy as np

from ..load import profile_metrics, registry
from ..tables import profile_tables
from .figures import NotGiven, _fig, colorbar, note

OTHER_PCT = 0.1  # callees under this share of the total become one [other] box
WIDTH = 1200  # the graph's width in pixels (the shares are exact in the SVG's units)
ROW = 17  # a frame's height in pixels
MAX_EVENTS = 9  # the schema's bound on a profile's events: one figure each
TOP_FUNCTIONS = 30  # rows of the heat map
MAX_DEPTH = 64  # levels drawn (frames deeper are in the folded files and profile_stacks)
CHAR_PX = 6.6  # a label character's width at the font below


class Svg:
    """A figure that is inline SVG text (html.py puts it in the page as it is)."""

    def __init__(self, svg, notes=()):
        self.papi_svg = svg
        self.papi_notes = list(notes)


def _node(name):
    return {"name": name, "w": 0, "loc": {}, "c": None}


def _add(node, c):
    if c is not None:
        node["c"] = list(c) if node["c"] is None else [a + b for a, b in zip(node["c"], c)]


def _next(text, pos):
    """(the ";"-separated item of text at pos, where the next starts); (None, pos) past the
    last item."""
    if pos > len(text):
        return None, pos
    end = text.find(";", pos)
    end = len(text) if end < 0 else end
    return text[pos:end], end + 1


def boxes(stacks, where, col, counts=None, min_pct=OTHER_PCT):
    """[(depth, x, width, node)] of the call tree of one weight, x and width as fractions
    of the total; stacks and where: the profile_stacks table's columns (names and places,
    ';' between frames). A node is {"name", "w", "loc": {file:line: w}, "c"}; with counts
    (a list per stack) "c" sums them (a metric's value per box). The callees under min_pct
    of the total of each frame are merged into one [other] node, nothing drawn under it.
    Only the boxes drawn are made: each frame's stacks are split by their next name, a
    name at a time (no tree of every stack: 10^5 stacks in a few MB)."""
    stacks, where, col = list(stacks), list(where), list(col)
    members = [i for i, w in enumerate(col) if w]
    root = _node("all")
    for i in members:
        root["w"] += col[i]
        _add(root, counts[i] if counts is not None else None)
    total = root["w"]
    if not total:
        return []
    cut = total * min_pct / 100.0
    name_at, place_at = [0] * len(stacks), [0] * len(stacks)  # each stack's next frame
    out, todo = [], [(0, 0.0, root, members)]
    while todo:
        depth, x, node, mem = todo.pop()
        out.append((depth, x / total, node["w"] / total, node))
        kids, kid_members = {}, {}
        for i in mem or ():
            name, name_at[i] = _next(stacks[i], name_at[i])
            if name is None:
                continue  # the stack ends at this frame
            loc, place_at[i] = _next(where[i], place_at[i])
            kid = kids.get(name)
            if kid is None:
                kid = kids[name] = _node(name)
                kid_members[name] = []
            w = col[i]
            kid["w"] += w
            _add(kid, counts[i] if counts is not None else None)
            if loc:
                kid["loc"][loc] = kid["loc"].get(loc, 0) + w
            kid_members[name].append(i)
        ranked = sorted(kids.values(), key=lambda k: (-k["w"], k["name"]))
        big = [(k, kid_members[k["name"]]) for k in ranked if k["w"] >= cut]
        small = [k for k in ranked if k["w"] < cut]
        if small:  # one box, and nothing drawn under it: thin chains end here too
            cs = [k["c"] for k in small if k.get("c") is not None]
            big.append(({"name": "[other]", "w": sum(k["w"] for k in small),
                         "c": [sum(v) for v in zip(*cs)] if cs else None,
                         "loc": {}, "merged": [k["name"] for k in small[:3]] + (
                             ["..."] if len(small) > 3 else []), "count": len(small)}, None))
        for k, kmem in big:
            todo.append((depth + 1, x, k, kmem))
            x += k["w"]
    return out


def _colour(name):
    if name in ("[other]", "all"):
        return "#bbbbbb"
    if name == "[kernel]":
        return "#e0a060"
    h = zlib.crc32(name.encode())
    return "rgb(%d,%d,%d)" % (205 + h % 50, 80 + (h >> 8) % 130, 40 + (h >> 16) % 40)


def svg(stacks_df, event, metric=None):
    """(The flame graph of one event as SVG text, a note when stacks were cut); (None,
    None) without weight. With metric (a profile's -m metric), weighted by it instead
    (metric_weights) and each box says the metric of its summed counts."""
    if event not in stacks_df:
        return None, None
    if metric is None:
        bx = boxes(stacks_df["stack"], stacks_df["where"], stacks_df[event])
    else:
        col, counts = metric_weights(stacks_df, metric)
        bx = boxes(stacks_df["stack"], stacks_df["where"], col, counts)
    if not bx:
        return None, None
    root = bx[0][3]
    deepest = max(b[0] for b in bx)
    bx = [b for b in bx if b[0] <= MAX_DEPTH]
    cut = ("Stacks deeper than %d frames are cut at %d (the deepest drawn would be %d): "
           "profile.folded and profile_stacks.csv have them whole." % (MAX_DEPTH, MAX_DEPTH, deepest)
           if deepest > MAX_DEPTH else None)
    depth = max(b[0] for b in bx) + 1
    height = depth * ROW + 4
    out = ['<svg xmlns="http://www.w3.org/2000/svg" class="flame" data-%s="%s" '
           'data-total="%d" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="monospace" font-size="11">' % (
               "metric" if metric else "event", html.escape(metric["name"] if metric else event, quote=True),
               root["w"], WIDTH, height, WIDTH, height)]
    for d, x, w, node in sorted(bx, key=lambda b: (b[0], b[1])):
        pct = 100.0 * w
        loc = ""
        if node["loc"]:
            top = max(node["loc"].items(), key=lambda kv: kv[1])[0]
            more = len(node["loc"]) - 1
            loc = "\n%s%s" % (top, " (and %d more lines)" % more if more else "")
        what = node["name"] if node["name"] != "[other]" else \
            "[other]: %d callee%s each under %g%% (%s)" % (
                node["count"], "" if node["count"] == 1 else "s", OTHER_PCT,
                ", ".join(node["merged"]))
        if metric is None:
            title = "%s%s\n%.2f%% of %s (%d)" % (what, loc, pct, event, node["w"])
        else:
            v = profile_metrics.evaluate(metric, node["c"]) if node["c"] else None
            title = "%s%s\n%s = %s %s (of its summed counts)\n%.2f%% of %s x %s" % (
                what, loc, metric["name"], "-" if v is None else "%.4g" % v, metric.get("unit", ""),
                pct, metric["name"], event)
        px, pw = x * WIDTH, w * WIDTH
        out.append('<g><title>%s</title><rect x="%.3f" y="%d" width="%.3f" height="%d" '
                   'fill="%s" stroke="white" stroke-width="0.3" data-function="%s" '
                   'data-share="%.4f" data-depth="%d"/>' % (
                       html.escape(title), px, d * ROW, pw, ROW - 1, _colour(node["name"]),
                       html.escape(node["name"], quote=True), pct, d))
        chars = int((pw - 4) / CHAR_PX)
        if chars >= 3:
            label = node["name"] if len(node["name"]) <= chars else node["name"][: chars - 2] + ".."
            out.append('<text x="%.3f" y="%d">%s</text>' % (px + 2, d * ROW + 12, html.escape(label)))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out), cut


def _flame(index):
    def draw(t):
        st = t.get("profile_stacks")
        if st is None:
            return NotGiven("no profile (papi_run --sample) given")
        events = st.attrs.get("events") or [c for c in st.columns if c not in ("stack", "where")]
        if index >= len(events):
            return NotGiven("the profile has %d events" % len(events))
        text, cut = svg(st, events[index])
        if text is None:
            return "no weight of %s in the profile" % events[index]
        what = "the sampled event" if index == 0 else "an event read at each sample (-e)"
        return Svg(text, ([cut] if cut else []) + ["Weighted by %s (%s); width = share of its total, hover a box for the "
                          "function, its file:line and share; callees under %g%% of the total "
                          "are one [other] box." % (events[index], what, OTHER_PCT)])
    return draw


def metric_weights(stacks_df, metric):
    """(Each stack's weight for metric M: M of the stack's counts times its weight of the
    sampled event, M integrated over the sampled event, so boxes add up; a stack without a
    value weighs 0. When the sampled event is M's denominator, M x weight is M's numerator.
    Each stack's counts, for the box's own value of M.)"""
    events = stacks_df.attrs.get("events") or []
    counts = [list(r) for r in stacks_df[events].itertuples(index=False, name=None)]
    col = []
    for c in counts:
        v = profile_metrics.evaluate(metric, c)
        col.append(v * c[0] if v is not None and v > 0 else 0)
    return col, counts


def _metric_flame(index):
    def draw(t):
        st = t.get("profile_stacks")
        if st is None:
            return NotGiven("no profile (papi_run --sample) given")
        metrics = st.attrs.get("metrics") or []
        if index >= len(metrics):
            return NotGiven("the profile has %d -m metrics" % len(metrics))
        m, events = metrics[index], st.attrs.get("events") or []
        text, cut = svg(st, events[0], m)
        if text is None:
            return "no stack has a value of %s" % m["name"]
        return Svg(text, ([cut] if cut else []) + [
            "Weighted by the -m metric %s (%s) times each stack's %s: the metric summed over "
            "the sampled event, so where %s is high and time is spent is wide (when %s is its "
            "denominator, this is its numerator's share); hover a box for %s of its own summed "
            "counts (a ratio of sums). Stacks without a value (a zero denominator) weigh 0."
            % (m["name"], m.get("formula", ""), events[0], m["name"], events[0], m["name"])])
    return draw


for _i in range(MAX_EVENTS):
    registry.figure("profile_flame_%d" % _i, "Flame graph (icicle) of the sampled profile" +
                    ("" if _i == 0 else ", event %d" % (_i + 1)), "Profile")(_flame(_i))
for _i in range(MAX_EVENTS):
    registry.figure("profile_flame_metric_%d" % _i, "Flame graph (icicle) weighted by -m metric %d"
                    % (_i + 1), "Profile")(_metric_flame(_i))


@registry.figure("profile_function_ranks", "Function x rank: each rank's share of its sampled "
                 "weight per function", "Profile")
def function_ranks(t):
    df = t.get("profile_function_ranks")
    if df is None:
        return NotGiven("no profile (papi_run --sample) given")
    if df.empty:
        return "the profile has no samples"
    grid, label = profile_tables.rank_grid(df)
    nfun = len(grid)
    grid = grid.iloc[:TOP_FUNCTIONS]
    ncols = len(grid.columns)
    fig, ax = _fig(max(6.0, min(16.0, 0.6 * ncols + 5)), 0.4 * len(grid) + 2)
    a = ax[0][0]
    im = a.imshow(grid.values, aspect="auto", cmap="viridis", interpolation="nearest",
                  vmin=0, vmax=max(1e-9, float(np.nanmax(grid.values))))
    a.set_yticks(np.arange(len(grid)))
    a.set_yticklabels([f if len(f) <= 50 else f[:24] + ".." + f[-24:] for f in grid.index],
                      fontsize="small")
    step = max(1, int(math.ceil(ncols / 40)))
    a.set_xticks(np.arange(0, ncols, step))
    a.set_xticklabels([str(c) for c in grid.columns][::step], rotation=45, ha="right",
                      fontsize="small")
    a.set_xlabel("%s (%d)" % (label, ncols))
    if grid.size <= 400:
        for (i, j), v in np.ndenumerate(grid.values):
            a.text(j, i, "%.1f" % v, ha="center", va="center", fontsize="x-small",
                   color="white" if v < 0.6 * grid.values.max() else "black")
    colorbar(fig, im, a, label="% of its sampled weight (self)")
    a.set_title("function x %s: self share of the sampled event" % label.split(" ")[0])
    fig.tight_layout()
    fig.papi_grid = grid  # the figure's cells, for tests and notebooks
    if nfun > len(grid):
        note(fig, "The %d of %d functions with the largest mean share." % (len(grid), nfun))
    return fig
