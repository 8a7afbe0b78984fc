"""papi_report.tables.profile_mpi_tables: the MPI wrapper's PAPI_SAMPLE (the report's "sampling"
members, issue 48) as tidy tables, one row per entry a rank's row lists (its
PAPI_MPI_SAMPLE_TOP entries; the rest are in its *_other sums, said in the heading):
    mpi_sampled_functions   rank, function, region ("" outside every MPI_Pcontrol
                            region), samples, time_s (the event's time when it is a
                            clock, else empty), wall_s, share_pct (of the rank's samples)
    mpi_sampled_by_caller   rank, function (the caller), file, line, call, samples,
                            mpi_time_s (sampled wall time inside the call), event_s,
                            calls and measured_s (the wrapper's own count and time at the
                            site; empty when call sites are off)
Shown on the page and in the text: each by rank, largest first. Needs pandas only."""
import pandas as pd

from ..load import registry

FN_COLUMNS = ["rank", "function", "region", "samples", "time_s", "wall_s", "share_pct"]
CALLER_COLUMNS = ["rank", "function", "file", "line", "call", "samples", "mpi_time_s", "event_s",
                  "calls", "measured_s"]


def _num(v):
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _sampling(rep):
    """(rank, its row's sampling member) of every rank that sampled."""
    for r in rep.get("ranks") or []:
        s = r.get("sampling")
        if isinstance(s, dict):
            yield int(r["rank"]), s


def mpi_sampled_functions(rep):
    rows = []
    for rank, s in _sampling(rep):
        n = s.get("samples") or 0
        for e in s.get("functions") or []:
            rows.append([rank, e["function"], e.get("region") or "", int(e["samples"]),
                         _num(e.get("time_s")), _num(e.get("wall_s")),
                         100.0 * e["samples"] / n if n else 0.0])
    return pd.DataFrame(rows, columns=FN_COLUMNS)


def mpi_sampled_by_caller(rep):
    rows = []
    for rank, s in _sampling(rep):
        for e in s.get("mpi_by_caller") or []:
            calls = e.get("calls")
            rows.append([rank, e["function"], e["file"], int(e["line"]), e["call"], int(e["samples"]),
                         _num(e.get("mpi_time_s")), _num(e.get("event_s")),
                         int(calls) if isinstance(calls, int) and calls >= 0 else None,
                         _num(e.get("measured_s"))])
    df = pd.DataFrame(rows, columns=CALLER_COLUMNS)
    df["calls"] = df["calls"].astype("Int64")
    return df


def _by_rank(df, _tables=None):
    """Largest first, then by rank: the page's and the text's rows."""
    if df is None or df.empty:
        return df
    key = "mpi_time_s" if "mpi_time_s" in df else "samples"
    return df.sort_values([key, "rank"], ascending=[False, True], kind="stable").reset_index(drop=True).fillna("")


registry.table("mpi")(mpi_sampled_functions)
registry.table("mpi")(mpi_sampled_by_caller)
registry.view("mpi_sampled_functions", "Sampled functions by region per rank (the MPI wrapper's "
              "PAPI_SAMPLE: each rank's listed entries, PAPI_MPI_SAMPLE_TOP of them; share of the "
              "rank's samples)", 40, _by_rank)
registry.view("mpi_sampled_by_caller", "MPI time by calling function per rank (PAPI_SAMPLE: the "
              "sampled wall time inside each call from each call site, beside the wrapper's own "
              "calls and time there)", 40, _by_rank)
