"""papi_report.tables.metric_views: what the page and the text report show of the named metrics
(metric_tables.py): the summary over ranks with the ranks holding min and max, one row per
rank and per region of a thread with a column per metric, the roofline's points and
peaks. Values are the tables' (the library's, from summed counts), only laid out."""
import pandas as pd

from ..load import registry
from .views import _num, _with_rank

TABLES = [("mpi_metric_summary", "Named metrics over the ranks (each rank's value from its "
           "summed counts; job: all ranks' counts summed)", 40),
          ("mpi_rank_metrics", "Named metrics per rank", 64),
          ("region_metrics", "Named metrics per region and thread (from the counts summed "
           "over the region's instances)", 60),
          ("region_all_thread_metrics", "Named metrics per region over all threads (the "
           "counts of every thread of the process during the region, over the wall time of "
           "the thread that ran it)", 60),
          ("roofline", "Roofline points (FLOP/s against FLOPs per byte)", 60),
          ("roofline_peaks", "Machine peaks of the roofline", 4)]


def _summary(df, num, with_rank):
    return pd.DataFrame([{"metric": r["metric"], "unit": r["unit"],
                          "ranks": int(r["ranks_with_value"]),
                          "min (rank)": with_rank(r["min"], r["min_rank"]),
                          "mean": num(r["mean"]),
                          "max (rank)": with_rank(r["max"], r["max_rank"]),
                          "job": num(r["job"])} for r in df.to_dict("records")])


def _cell(value, shared, num):
    s = num(value)
    return s if not s or shared <= 1 else "%s (shared by %d ranks)" % (s, shared)


def _per_rank(df, num):
    rows = {}
    for r in df.to_dict("records"):
        row = rows.setdefault(r["rank"], {"rank": r["rank"]})
        row["%s [%s]" % (r["metric"], r["unit"])] = _cell(r["value"], r["shared_by"], num)
        if r["note"]:
            row["why missing"] = r["note"]
    return pd.DataFrame([rows[k] for k in sorted(rows)])


def _per_region(df, num):
    rows = {}
    for r in df.to_dict("records"):
        key = (r["rank"], r["thread"], r["region"])
        row = rows.setdefault(key, {"rank": r["rank"], "thread": r["thread"], "region": r["region"]})
        row["%s [%s]" % (r["metric"], r["unit"])] = num(r["value"]) or "(null: nothing counted)"
    return pd.DataFrame([rows[k] for k in sorted(rows)])


_SHAPES = {"mpi_metric_summary": lambda df, t: _summary(df, _num, _with_rank),
           "mpi_rank_metrics": lambda df, t: _per_rank(df, _num),
           "region_metrics": lambda df, t: _per_region(df, _num),
           "region_all_thread_metrics": lambda df, t: _per_region(df, _num)}
for _name, _heading, _rows in TABLES:
    registry.view(_name, _heading, _rows, _SHAPES.get(_name))
