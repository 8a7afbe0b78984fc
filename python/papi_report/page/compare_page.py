"""papi_report.page.compare_page: --compare's files: compare.csv (every row), compare.txt,
compare_regions.csv (a verdict per region) and compare.html, whose ratio charts are
small multiples: one chart per region (a bar per quantity) and one per quantity (a bar
per region), then the job's quantities and the MPI calls. A bar is log2 of the B/A its
verdict judged (a region's load-free one, compare.py) in the colour of its verdict over
the grey band of "same" its row was given; a quantity on one
side only is written "only in A/B" where its bar would be, never drawn as 0. Ranks are
in the CSV only (10,000 ranks make no readable chart)."""
import base64
import html
import io
import math
import os

from . import pop_compare, profile_compare

COLOURS = {"same": "#999999", "slower": "#c0392b", "higher": "#d35400", "faster": "#27ae60",
           "lower": "#2980b9", "only in A": "#555555", "only in B": "#555555"}
MAX_PANELS = 40  # charts per section: the regions or quantities that moved most
MAX_BARS = 24  # bars per chart: the rows that moved most (the CSV has every row)
LABEL = 30  # characters of a bar's label


def _moved(r):
    """How far a row moved, for choosing what a chart shows: |log B/A|, absent first."""
    ratio = r.get("load_free_ratio")
    if not isinstance(ratio, float) or math.isnan(ratio):
        ratio = r["ratio"]
    if not isinstance(ratio, float) or math.isnan(ratio):
        return 1e9 if r["verdict"].startswith("only") else 0.0
    return 1e6 if math.isinf(ratio) or ratio <= 0 else abs(math.log(ratio))


def _short(text, n=LABEL):
    text = str(text)
    return text if len(text) <= n else text[: n // 2 - 1] + "..." + text[-(n - n // 2 - 2):]


def _chart(rows, label_of, title, title_colour):
    """One small chart (a PNG's bytes) of rows (dicts of compare's columns)."""
    import matplotlib.pyplot as plt
    fig = chart_figure(rows, label_of, title, title_colour)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def chart_figure(rows, label_of, title, title_colour):
    """_chart's matplotlib Figure (the tests inspect it)."""
    import matplotlib.pyplot as plt
    from ..figures.figures import fit_bars  # matplotlib: the ratio charts only
    rows = sorted(rows, key=_moved, reverse=True)
    more = len(rows) - MAX_BARS
    rows = rows[:MAX_BARS][::-1]
    fig, ax = plt.subplots(figsize=(4.6, 0.75 + 0.27 * len(rows)))
    lim = 1.0
    for i, r in enumerate(rows):
        thr = r["threshold"]
        if isinstance(thr, float) and math.isfinite(thr):  # the band of "same" this row had
            # symmetric in log ratio: 1/(1+thr) .. 1+thr (compare.in_band)
            ax.barh(i, 2 * math.log2(1 + thr), left=-math.log2(1 + thr), height=0.9,
                    color="#eeeeee", zorder=0)
        ratio, judged = r["ratio"], r.get("load_free_ratio")
        label = " x%.3g " % ratio if isinstance(ratio, float) and math.isfinite(ratio) else ""
        if isinstance(judged, float) and math.isfinite(judged) and judged > 0:
            # A wall time judged on its load-free ratio: that is the bar, the wall's is said.
            ratio, label = judged, " x%.3g (wall x%.3g) " % (judged, ratio)
        if isinstance(ratio, float) and math.isfinite(ratio) and ratio > 0:
            x = max(-10.0, min(10.0, math.log2(ratio)))
            lim = max(lim, abs(x))
            ax.barh(i, x, height=0.6, color=COLOURS.get(r["verdict"], "#555555"), zorder=2)
            ax.text(x, i, label, va="center", ha="left" if x >= 0 else "right", fontsize=7, zorder=3)
        else:  # absent on a side, or from 0: said, not drawn
            ax.text(0, i, " %s " % (r["verdict"] if r["verdict"].startswith("only") else
                                   "from 0" if ratio == math.inf else "0 and 0"),
                    va="center", ha="left", fontsize=7, style="italic", zorder=3)
    lim = min(10.0, lim * 1.35)
    ax.set_xlim(-lim, lim)
    step = max(1, int(math.ceil(lim / 3)))
    ticks = [k for k in range(-int(lim), int(lim) + 1) if k % step == 0]
    ax.set_xticks(ticks)
    ax.set_xticklabels(["%dx" % 2 ** k if k >= 0 else "1/%dx" % 2 ** -k for k in ticks], fontsize=7)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([_short(label_of(r)) for r in rows], fontsize=7.5)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.axvline(0, color="black", linewidth=0.8, zorder=1)
    ax.set_title(_short(title, 60), fontsize=9, color=title_colour, loc="left")
    if more > 0:
        ax.set_xlabel("B / A; %d more rows in compare.csv" % more, fontsize=7)
    else:
        ax.set_xlabel("B / A (log scale)", fontsize=7)
    fig.set_dpi(80)  # the labels measured at the picture's resolution
    fit_bars(ax, "x", keep=True)  # a bar past 1024x (drawn at 10) and its label inside
    return fig


def _figure(kind, name, verdict, png, caption):
    return ('<figure class="ratio" data-kind="%s" data-name="%s" data-verdict="%s"><img alt="B/A '
            'of %s %s" src="data:image/png;base64,%s"><figcaption>%s</figcaption></figure>' % (
                kind, html.escape(str(name), True), verdict, kind, html.escape(str(name), True),
                base64.b64encode(png).decode(), html.escape(caption)))


def _panels(groups, kind, label_of, verdict_of):
    """The figures of one section: groups {name: [rows]}, the MAX_PANELS that moved most."""
    order = sorted(groups, key=lambda g: max(_moved(r) for r in groups[g]), reverse=True)
    out = []
    for name in order[:MAX_PANELS]:
        rows = groups[name]
        v = verdict_of(name, rows)
        png = _chart(rows, label_of, "%s: %s" % (name or kind, v), COLOURS.get(v, "#333333"))
        counts = {}
        for r in rows:
            counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
        out.append(_figure(kind, name, v, png, ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items()))))
    if len(order) > MAX_PANELS:
        out.append("<p>%d more %s charts left out: every row is in compare.csv.</p>" % (
            len(order) - MAX_PANELS, kind))
    return out


def _worst(rows):
    """A chart's title verdict: the first of slower, faster, higher, lower among its rows;
    "only in A/B" when every row is; else same."""
    vs = {r["verdict"] for r in rows}
    for v in ("slower", "faster", "higher", "lower"):
        if v in vs:
            return v
    return vs.pop() if len(vs) == 1 and next(iter(vs)).startswith("only") else "same"


def charts(df, regions):
    """The HTML of every ratio chart (the sections' headings and figures)."""
    from ..figures import figures  # noqa: F401 (first: says which package installs matplotlib)
    recs = df[df["scope"].isin(("job", "mpi call", "region", "kernel"))].to_dict("records")
    if not recs:
        return ""
    region_v = dict(zip(regions["region"], regions["verdict"])) if len(regions) else {}
    by_region, by_quantity, job, calls, kernels = {}, {}, [], [], []
    for r in recs:
        if r["scope"] == "kernel":
            if r["quantity"] == "kernel_s":
                kernels.append(r)
        elif r["scope"] == "region":
            by_region.setdefault(r["entity"], []).append(r)
            by_quantity.setdefault(r["quantity"], []).append(r)
        elif r["scope"] == "job":
            job.append(r)
        else:
            calls.append(r)
    parts = ["<p>Bars: log2(B/A) coloured by verdict (%s) over the grey band of \"same\" each "
             "row was given; a region's wall time with one run a side is drawn at its load-free "
             "B/A (its wall B/A in brackets), and a grey bar past the band is a time that moved "
             "by under 1 ms.</p>" % ", ".join('<span style="color:%s">%s</span>' % (c, v)
                                              for v, c in COLOURS.items() if not v.startswith("only"))]
    grid = '<div class="grid">%s</div>'
    if by_region:
        parts.append("<h2>Per region</h2><p>One chart per region, a bar per quantity; the "
                     "title is the region's verdict (its time's).</p>")
        parts.append(grid % "".join(_panels(by_region, "region", lambda r: r["quantity"],
                                            lambda n, rows: region_v.get(n, _worst(rows)))))
        parts.append("<h2>Per quantity</h2><p>One chart per event, metric and time, a bar per region.</p>")
        parts.append(grid % "".join(_panels(by_quantity, "quantity", lambda r: r["entity"],
                                            lambda n, rows: _worst(rows))))
    if job or calls:
        parts.append("<h2>Job and MPI calls</h2>")
        groups = {}
        if job:
            groups["job"] = job
        if calls:
            groups["MPI calls (time_s)"] = calls
        parts.append(grid % "".join(_panels(groups, "mpi", lambda r: r["quantity"] if r["scope"] == "job"
                                            else r["entity"], lambda n, rows: _worst(rows))))
    if kernels:
        parts.append("<h2>GPU kernels</h2><p>Each kernel's GPU time (kernel_s, its launches' "
                     "durations summed per rank), a bar per kernel (NAME @ REGION inside a "
                     "region).</p>")
        parts.append(grid % "".join(_panels({"GPU kernels (kernel_s)": kernels}, "kernel",
                                            lambda r: r["entity"], lambda n, rows: _worst(rows))))
    return "".join(parts)


def _replace(path, write):
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        write(f)
    os.replace(path + ".tmp", path)


def _fmt_ratio(r):
    return "-" if isinstance(r, float) and math.isnan(r) else "%.3f" % r


def write_outputs(df, out_dir, a_label, b_label, text, regions, tolerance):
    """The files (see above) in out_dir; their paths."""
    os.makedirs(out_dir, exist_ok=True)
    csv = os.path.join(out_dir, "compare.csv")
    # a ratio over an A of 0 is infinite: empty in the CSV, as its schema says (the verdict
    # column keeps higher/slower)
    finite = df.replace([float("inf"), float("-inf")], float("nan"))
    _replace(csv, lambda f: finite.to_csv(f, index=False))
    written = []
    if len(regions):
        written.append(os.path.join(out_dir, "compare_regions.csv"))
        _replace(written[-1], lambda f: regions.to_csv(f, index=False))
    omp = df.attrs.get("openmp")
    if omp is not None and len(omp):
        written.append(os.path.join(out_dir, "compare_openmp.csv"))
        _replace(written[-1], lambda f: omp.to_csv(f, index=False))
    pop = df.attrs.get("pop_scalability")
    if pop is not None and len(pop):
        written.append(os.path.join(out_dir, "compare_pop_scalability.csv"))
        pop.to_csv(written[-1], index=False)
    txt = os.path.join(out_dir, "compare.txt")
    _replace(txt, lambda f: f.write(text))
    shown = df[df["scope"] != "rank"]
    rows = "".join("<tr>%s</tr>" % "".join("<td>%s</td>" % html.escape(str(c)) for c in (
        r["scope"], r["entity"], r["quantity"], fmt(r["a"], r["unit"]), fmt(r["b"], r["unit"]),
        _fmt_ratio(r["ratio"]), r["verdict"])) for r in shown.to_dict("records"))
    reg = "" if not len(regions) else "<h2>Regions</h2>" + regions.to_html(index=False, na_rep="-", border=0)
    page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>papi_report --compare</title>"
            "<style>body{font-family:sans-serif;margin:2em;max-width:1500px}table{border-collapse:"
            "collapse;font-size:small}td,th{border:1px solid #ccc;padding:2px 6px}.grid{display:flex;"
            "flex-wrap:wrap;gap:8px}figure.ratio{margin:0;border:1px solid #ddd;padding:4px}"
            "figcaption{font-size:x-small;color:#555}</style></head><body>"
            "<h1>A = %s<br>B = %s</h1><p>%s</p>%s%s%s<h2>Every row but the ranks' (compare.csv has "
            "them)</h2><table><tr><th>scope</th><th>entity</th><th>quantity</th><th>A</th><th>B</th>"
            "<th>B/A</th><th>verdict</th></tr>%s</table></body></html>" % (
                html.escape(a_label), html.escape(b_label), html.escape(text.splitlines()[1]),
                reg, charts(df, regions), "" if pop is None or not len(pop) else
                "<h2>POP computation scalability (A the reference)</h2>" +
                pop_compare.shown(pop).to_html(index=False, na_rep="-", border=0), rows))
    page_path = os.path.join(out_dir, "compare.html")
    _replace(page_path, lambda f: f.write(page))
    return [page_path, txt, csv] + written + profile_compare.write_csv(df.attrs.get("functions"), out_dir)


def fmt(v, unit):
    """A value with its unit, seconds scaled to s, ms or us; "-" when absent."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if unit == "s":
        for scale, u in ((1, "s"), (1e-3, "ms"), (1e-6, "us")):
            if abs(v) >= scale or scale == 1e-6:
                return "%.4g %s" % (v / scale, u)
    return "%.6g%s" % (v, (" " + unit) if unit else "")
