"""papi_report.page.html: one self-contained HTML file (figures inline as PNG data URIs or SVG,
no script, no external file) and the tidy CSV tables beside it.

A figure that cannot be drawn (an error while drawing or saving it, or a picture larger
than MAX_PIXELS a side) does not lose the report: the page says under the figure's
title which error stopped it, the other figures and every table are written, and the
failures are returned to the caller (papi_report then exits with status 3)."""
import base64
import html
import io
import os

from ..figures import figures  # first: it says which package installs matplotlib when missing
from ..tables import catalog, views
from ..load import registry  # noqa: I100
import matplotlib.pyplot as plt  # noqa: E402,I100

catalog.load("figures")  # every module's figures and views registered

STYLE = """body{font-family:sans-serif;margin:2em;max-width:1400px}
figure{margin:1.5em 0;border-top:1px solid #ccc;padding-top:.5em}
figcaption{font-weight:bold;margin-bottom:.5em}img{max-width:100%}
table{border-collapse:collapse;font-size:small}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
.missing{color:#555;font-style:italic}.failed{color:#c00;font-weight:bold}.note{color:#a33}
table.run th{text-align:left}table.run td{text-align:left}"""
MAX_PIXELS = 30000  # a figure side at DPI: browsers and Agg (2^16) give up beyond
DPI = figures.PAGE_DPI  # the labels' sizes in pixels are taken at it


class FigureTooLarge(Exception):
    """A figure whose picture would exceed MAX_PIXELS a side."""


def png_data_uri(fig):
    try:
        w, h = fig.get_size_inches() * DPI
        if max(w, h) > MAX_PIXELS:
            raise FigureTooLarge("the picture would be %d x %d pixels (at most %d a side)"
                                 % (w, h, MAX_PIXELS))
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    finally:
        plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _table_html(df, rows=30):
    if df is None or df.empty:
        return ""
    return df.head(rows).to_html(index=False, float_format=lambda x: "%.6g" % x, border=0,
                                 na_rep="")


def _run_header(tables):
    """The run's header (command, start, hosts, ranks, wall time) from the MPI report."""
    items = views.run_header(tables)
    if not items:
        return []
    out = ['<table class="run" id="run-header">']
    for label, field, v in items:
        out.append('<tr><th scope="row">%s</th><td data-field="%s"><code>%s</code></td></tr>'
                   % (html.escape(label), html.escape(field), html.escape(str(v))))
    out.append("</table>")
    return out


def _figure(draw, tables):
    """(PNG data URI, None, notes), (None, why not drawn, []) or raises what stopped the
    drawing. notes: what the figure's own title says about its completeness (figures.note)."""
    got = draw(tables)
    if isinstance(got, str):
        return None, got, []
    if hasattr(got, "papi_svg"):  # inline SVG (the flame graphs: hover titles, no script)
        return got.papi_svg, None, list(getattr(got, "papi_notes", []))
    notes = list(getattr(got, "papi_notes", []))
    return png_data_uri(got), None, notes


def _order(tables):
    """registry.FIGURES in the page's order: the Profile section first when the profile is
    what was asked for (its region files are papi_run's whole-program record, no MPI
    report), else the registry's order."""
    lead = ("profile_stacks" in tables and "mpi_ranks" not in tables and
            ("region_reads" not in tables or figures.papi_run_only(tables)))
    return sorted(registry.FIGURES, key=lambda f: 0 if lead and f[2] == "Profile" else 1)


def _more_input(more):
    """The page's closing line: what it could show with more input (NotGiven.more of the
    figures left out), or []."""
    if not more:
        return []
    return ['<p class="more-input" id="more-input">With more input this page could also '
            'show: %s.</p>' % html.escape("; ".join(more))]


def render(tables, title="PAPI report", sources=(), failures=None):
    """The HTML text: every figure of registry.FIGURES, drawn or with the reason it is not.
    A figure whose input was not given is left out, and listed in one closing line of what
    more input would show. A figure that fails says so in its place; (id, reason) is
    appended to failures."""
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>%s</title><style>%s</style></head><body>" % (html.escape(title), STYLE),
           "<h1>%s</h1>" % html.escape(title)]
    if sources:
        out.append("<p>From: %s</p>" % ", ".join("<code>%s</code>" % html.escape(s) for s in sources))
    out += _run_header(tables)
    section, more = None, []
    for fid, ftitle, sect, draw in _order(tables):
        try:
            uri, why, notes = _figure(draw, tables)
            failed = None
        except Exception as e:  # noqa: BLE001 -- any error of one figure: the rest goes on
            uri, why, notes, failed = None, None, [], "%s: %s" % (type(e).__name__, e)
            plt.close("all")
            if failures is not None:
                failures.append((fid, failed))
        if isinstance(why, figures.NotGiven):  # its input was not given: no place held for it
            if why.more and why.more not in more:
                more.append(why.more)
            continue
        if sect != section:
            out.append("<h2>%s</h2>" % html.escape(sect))
            section = sect
        out.append('<figure id="%s" data-figure="%s">' % (fid, fid))
        out.append("<figcaption>%s</figcaption>" % html.escape(ftitle))
        if failed:
            out.append('<p class="failed" data-failed="%s">This figure failed: %s. The other '
                       'figures and the tables are complete.</p>' %
                       (html.escape(failed, quote=True), html.escape(failed)))
        elif why is not None:
            out.append('<p class="missing" data-missing="%s">Not drawn: %s.</p>' %
                       (html.escape(why, quote=True), html.escape(why)))
        else:
            out.append(uri if uri.startswith("<svg") else '<img alt="%s" src="%s">' %
                       (html.escape(ftitle, quote=True), uri))
            for n in notes:
                out.append('<p class="note" data-note="%s">%s</p>' %
                           (html.escape(n, quote=True), html.escape(n)))
        out.append("</figure>")
    for name, heading, rows in views.shown():
        df = views.table_view(name, tables)
        if df is not None and not df.empty:
            out.append('<h2 id="table-%s">%s</h2>' % (name, html.escape(heading)))
            if len(df) > rows:
                out.append("<p>The first %d of %d rows (all of them in %s.csv).</p>"
                           % (rows, len(df), name))
            out.append(_table_html(df, rows))
    out += _more_input(more)
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write(tables, outdir, title="PAPI report", sources=(), failures=None):
    """outdir/report.html and outdir/<table>.csv; returns the paths written. Figures that
    failed are appended to failures as (id, reason); the page is written all the same."""
    os.makedirs(outdir, exist_ok=True)
    written = []
    for name, df in tables.items():
        path = os.path.join(outdir, name + ".csv")
        df.to_csv(path, index=False)
        written.append(path)
    path = os.path.join(outdir, "report.html")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(render(tables, title, sources, failures))
    os.replace(tmp, path)
    return [path] + written
