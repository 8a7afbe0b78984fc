"""papi_report.html: one self-contained HTML file (figures inline as PNG data URIs, no
script, no external file) and the tidy CSV tables beside it."""
import base64
import html
import io
import os

import matplotlib.pyplot as plt

from . import figures

STYLE = """body{font-family:sans-serif;margin:2em;max-width:1400px}
figure{margin:1.5em 0;border-top:1px solid #ccc;padding-top:.5em}
figcaption{font-weight:bold;margin-bottom:.5em}img{max-width:100%}
table{border-collapse:collapse;font-size:small}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
.missing{color:#a33;font-style:italic}"""


def png_data_uri(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _table_html(df, rows=30):
    if df is None or df.empty:
        return ""
    return df.head(rows).to_html(index=False, float_format=lambda x: "%.6g" % x, border=0)


def render(tables, title="PAPI report", sources=()):
    """The HTML text: every figure of figures.FIGURES, drawn or with the reason it is not."""
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>%s</title><style>%s</style></head><body>" % (html.escape(title), STYLE),
           "<h1>%s</h1>" % html.escape(title)]
    if sources:
        out.append("<p>From: %s</p>" % ", ".join("<code>%s</code>" % html.escape(s) for s in sources))
    section = None
    for fid, ftitle, sect, draw in figures.FIGURES:
        if sect != section:
            out.append("<h2>%s</h2>" % html.escape(sect))
            section = sect
        got = draw(tables)
        out.append('<figure id="%s" data-figure="%s">' % (fid, fid))
        out.append("<figcaption>%s</figcaption>" % html.escape(ftitle))
        if isinstance(got, str):
            out.append('<p class="missing" data-missing="%s">Not drawn: %s.</p>' %
                       (html.escape(got, quote=True), html.escape(got)))
        else:
            out.append('<img alt="%s" src="%s">' % (html.escape(ftitle, quote=True), png_data_uri(got)))
        out.append("</figure>")
    for name in ("mpi_ranks", "mpi_call_summary", "region_tree"):
        if name in tables and not tables[name].empty:
            out.append("<h2>Table %s</h2>%s" % (name, _table_html(tables[name])))
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write(tables, outdir, title="PAPI report", sources=()):
    """outdir/report.html and outdir/<table>.csv; returns the paths written."""
    os.makedirs(outdir, exist_ok=True)
    written = []
    for name, df in tables.items():
        path = os.path.join(outdir, name + ".csv")
        df.to_csv(path, index=False)
        written.append(path)
    path = os.path.join(outdir, "report.html")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(render(tables, title, sources))
    os.replace(tmp, path)
    return [path] + written
