"""papi_report.tables.profile_tables: the sampled profiles as tidy tables (issue 48, the job-wide
view). Two inputs give them:
  papi_run --sample's profile of one run (source "profiles": the job's
  job_profile_RUNID.json as profile.load gives it, papi_run's merge of every process):
    profile_functions         function, self share of each event, each -m metric of the
                              function's own counts, and over ranks min, mean, max and
                              max_rank of the sampled event, then "M min", "M mean",
                              "M max", "M max_rank" per -m metric M (over the ranks that
                              sampled the function), and with several threads "thread
                              min", "thread mean", "thread max" and max_thread ("rank/tid",
                              else "pid/tid") of the sampled event (profile.functions: the
                              text's top functions, profile_functions.csv)
    profile_stacks            stack (root;...;leaf, the folded format's names), where
                              (each frame's file:line, ';' between frames, "" unknown),
                              one weight column per event (the folded files' counts),
                              then one column per -m metric of the stack's counts
    profile_function_ranks    rank, pid, tid, function, weight, share_pct: each
                              thread's self weight of the sampled event per function and
                              its share of that thread's weight
    profile_function_rank_grid  function, then one column per rank ("rank N"; per
                              process and thread "pid/tid" without ranks): the heat
                              map's cells, each rank's self weight of the function as a
                              share of that rank's weight, largest mean share first
  region files with PAPI_SAMPLE (source "regions", their "sampled_functions"):
    profile_function_regions  rank, thread, tid, function, region ("" outside every
                              region), samples, share_pct (of the thread's samples)
Needs pandas only."""
import pandas as pd

from ..load import profile, profile_metrics, registry

RANK_COLUMNS = ["rank", "pid", "tid", "function", "weight", "share_pct"]
REGION_COLUMNS = ["rank", "thread", "tid", "function", "region", "samples", "share_pct"]


def profile_functions(job):
    df = pd.DataFrame(profile.functions(job))
    for c in df.columns:
        if c == "max_rank" or c.endswith(" max_rank"):
            df[c] = df[c].astype("Int64")  # a rank, also where a metric has none
    return df


def profile_stacks(job):
    """One row per distinct (names, places) stack of the run, weights summed (by papi_run's
    merge), in the order of the sampled event's weight, then of the names and places."""
    events, metrics, st = job["events"], job["metrics"], job["stacks"]
    order = sorted(range(len(st)), key=lambda i: (st.stack[i], st.where[i]))
    cols = [[st.stack[i] for i in order], [st.where[i] for i in order]]
    cols += [[st.counts[k][i] for i in order] if k < len(st.counts) else []
             for k in range(len(events))]
    cols += [[profile_metrics.evaluate(m, st.counts_of(i)) for i in order] for m in metrics]
    names = ["stack", "where"] + list(events) + [m["name"] for m in metrics]
    df = pd.DataFrame(dict(enumerate(cols)), columns=range(len(cols)))  # names may repeat
    df.columns = names
    if len(df):
        df = df.sort_values(events[0], ascending=False, kind="stable").reset_index(drop=True)
    df.attrs["events"] = list(events)
    df.attrs["metrics"] = list(metrics)  # the flame graphs weighted by a metric read them
    return df


def profile_function_ranks(job):
    """Each thread's self weight of the sampled event per function (the innermost name of
    an inlined chain)."""
    own, totals = {}, {}
    for e in job["thread_functions"]:
        key = (e["rank"] if e["rank"] is not None else 0, e["pid"], e["tid"])
        leaf = e["function"].split(";")[-1]
        own[key + (leaf,)] = own.get(key + (leaf,), 0) + e["counts"][0]
        totals[key] = totals.get(key, 0) + e["counts"][0]
    rows = [list(k) + [w, 100.0 * w / totals[k[:3]] if totals[k[:3]] else 0.0]
            for k, w in sorted(own.items())]
    return pd.DataFrame(rows, columns=RANK_COLUMNS)


def rank_grid(ranks):
    """(function x unit DataFrame of self shares %, unit label): profile_function_ranks
    summed per rank (or per pid/tid without ranks), each column a share of its unit's
    weight; the rows by mean share, largest first, the rank columns in rank order."""
    by_rank = ranks["rank"].nunique() > 1
    if by_rank:
        unit, label = ranks["rank"].astype(str), "rank"
    else:
        unit = ranks["pid"].astype(str) + "/" + ranks["tid"].astype(str)
        label = "process/thread (pid/tid; no ranks)"
    grid = ranks.assign(unit=unit).pivot_table(index="function", columns="unit", values="weight",
                                               aggfunc="sum", fill_value=0)
    grid = grid.div(grid.sum(axis=0).replace(0, 1), axis=1) * 100.0
    grid = grid.loc[grid.mean(axis=1).sort_values(ascending=False, kind="stable").index]
    if by_rank:
        grid = grid[sorted(grid.columns, key=int)]
    grid.columns.name = None
    return grid, label


def profile_function_rank_grid(job):
    """The heat map's cells as a table: function, then "rank N" per rank."""
    ranks = profile_function_ranks(job)
    if ranks.empty:
        return pd.DataFrame(columns=["function"])
    grid, label = rank_grid(ranks)
    if label == "rank":
        grid = grid.rename(columns=lambda c: "rank " + c)
    return grid.reset_index()


def profile_function_regions(files):
    """The region files' function x region tables (PAPI_SAMPLE), one row per thread."""
    rows = []
    for rank, data in files:
        for thread, t in sorted((data.get("sampled_functions") or {}).items()):
            n = t.get("samples", 0)
            for e in t.get("functions", []):
                rows.append([rank, int(thread), t.get("tid"), e["function"], e["region"] or "",
                             e["samples"], 100.0 * e["samples"] / n if n else 0.0])
    return pd.DataFrame(rows, columns=REGION_COLUMNS)


def function_region_view(df, _tables=None):
    """Summed over ranks and threads: function, region, samples, the share of all samples."""
    if df is None or df.empty:
        return df
    g = df.groupby(["function", "region"], as_index=False)["samples"].sum()
    g["share_pct"] = 100.0 * g["samples"] / g["samples"].sum()
    return g.sort_values(["samples", "function"], ascending=[False, True]).reset_index(drop=True)


registry.table("profiles")(profile_functions)
registry.table("profiles")(profile_stacks)
registry.table("profiles")(profile_function_ranks)
registry.table("profiles")(profile_function_rank_grid)
registry.table("regions")(profile_function_regions)
registry.view("profile_functions", "Top functions of the sampled profile (self share of each "
              "event, each -m metric of the function's own counts; over ranks: min, mean, max of the sampled event and the rank of the max, "
              "then each metric's min, mean, max over the ranks that sampled the function and the rank of its max; "
              "over threads: min, mean, max of the sampled event and the thread of the max, rank/tid or pid/tid)", 30)
registry.view("profile_function_regions", "Sampled functions x region (PAPI_SAMPLE: samples of "
              "each function in the region innermost at the time, all ranks and threads)", 40,
              function_region_view)
