"""papi_report.page.text: the report as plain text (report.txt, `papi_report --text`): the run's
header and the tables the page shows, in the same order and with the same rows, for a
terminal or a mail. Needs pandas only."""
from ..tables import catalog, views

catalog.load("tables")  # every module's views registered


def _table_text(df, rows):
    return df.head(rows).to_string(index=False, float_format=lambda x: "%.6g" % x, na_rep="")


def render(tables, title="PAPI report", sources=()):
    """The text report: the run's header, then each table shown (views.shown()) that has rows."""
    out = [title, "=" * len(title)]
    if sources:
        out.append("From: %s" % ", ".join(sources))
    header = views.run_header(tables)
    if header:
        width = max(len(label) for label, _f, _v in header)
        out += ["", "Run"] + ["  %-*s  %s" % (width, label, v) for label, _f, v in header]
    for name, heading, rows in views.shown():
        df = views.table_view(name, tables)
        if df is None or df.empty:
            continue
        out += ["", heading, "-" * len(heading)]
        if len(df) > rows:
            out.append("The first %d of %d rows (all of them in %s.csv)." % (rows, len(df), name))
        out.append(_table_text(df, rows))
    return "\n".join(out) + "\n"
