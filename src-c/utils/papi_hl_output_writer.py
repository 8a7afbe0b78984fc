#!/usr/bin/python3
"""papi_hl_output_writer: combine the region files of the high-level API
(papi_hl_output/rank_*.json, PAPI 7's format, one entry per region instance) into one
report, on pandas (Debian's python3-pandas).

  --type summary   regions of the same name merged over instances, threads and ranks
                   (papi_sum.json): total, min, median, max, and which rank and thread
                   hold the min and the max (min_rank, min_thread, max_rank, max_thread;
                   --no-locations leaves them out: PAPI 7's writer's output exactly)
  --type detail    every rank, thread and region instance as measured (papi.json)
  --type accumulate  PAPI 5/6's name for summary
  --notation raw|derived   counts as measured, or times in s, IPC and rates per second
  --format json|csv|html   JSON as PAPI 7's (printed too); CSV and HTML tables: the
                   summary one row per region and measurement, the detail one row per
                   instance (papi_sum.csv/.html, papi.csv/.html)

The report is written to the file named above in the current directory.
Exit status: 0 done, 1 a file cannot be read or written, 2 bad usage or a rank file that
is not PAPI 7's format (one line naming the file and what is wrong)."""
import argparse
import json
import os
import sys
from collections import OrderedDict

pd = None  # pandas, imported once the arguments are read (--help and --version need none)


def import_pandas():
    global pd
    try:
        import pandas
    except ImportError as e:
        sys.exit("papi_hl_output_writer: %s\n(Debian: apt-get install python3-pandas)" % e)
    pd = pandas

# The release of papi-compat; the install writes it here (src-c/utils/CMakeLists.txt).
PAPI_COMPAT_VERSION = "source tree"

# Names the derived notation gives to the region's built-in measurements.
DERIVED_NAMES = {"region_count": "Region count", "real_time_nsec": "Real time in s",
                 "perf::TASK-CLOCK": "CPU time in s"}
# Events shown as a rate per second of real time, in the order they are listed.
RATE_NAMES = OrderedDict([
    ("PAPI_FP_INS", "MFLIPS/s"),
    ("PAPI_VEC_SP", "Single precision vector/SIMD instructions rate in M/s"),
    ("PAPI_VEC_DP", "Double precision vector/SIMD instructions rate in M/s"),
    ("PAPI_FP_OPS", "MFLOPS/s"),
    ("PAPI_SP_OPS", "Single precision MFLOPS/s"),
    ("PAPI_DP_OPS", "Double precision MFLOPS/s"),
])
# Measurements every region has besides its events; their totals always make sense.
TIME_KEYS = ("cycles", "real_time_nsec")


class InputError(Exception):
    pass


class MalformedInput(InputError):
    """A rank file that parses but is not PAPI 7's format: exit status 2."""


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and \
        v not in (float("inf"), float("-inf"))


def check_rank_file(path, data):
    """Every value the report reads, of the type it reads it as; the first that is not
    raises MalformedInput naming the file and where."""
    def bad(where, what):
        raise MalformedInput("%s: %s %s" % (path, where, what))
    if not isinstance(data, dict) or "threads" not in data or "event_definitions" not in data:
        raise MalformedInput("%s is not a region file in PAPI 7's format (needs "
                             "'event_definitions' and 'threads')" % path)
    if not isinstance(data["event_definitions"], dict):
        bad("'event_definitions'", "is not an object")
    for event, d in data["event_definitions"].items():
        if not isinstance(d, dict):
            bad("event_definitions['%s']" % event, "is not an object")
    if not isinstance(data["threads"], dict):
        bad("'threads'", "is not an object")
    for thread, t in data["threads"].items():
        where = "threads['%s']" % thread
        if not isinstance(t, dict) or not isinstance(t.get("regions"), dict):
            bad(where, "has no 'regions' object")
        for rid, region in t["regions"].items():
            where = "threads['%s'].regions['%s']" % (thread, rid)
            if not isinstance(region, dict):
                bad(where, "is not an object")
            if "name" in region and not isinstance(region["name"], str):
                bad(where + ".name", "is not a string")
            for key, value in region.items():
                if key in ("name", "parent_region_id") or is_number(value):
                    continue
                if not isinstance(value, dict):
                    bad("%s['%s']" % (where, key), "is neither a number nor an object of reads")
                if "region_value" not in value:
                    bad("%s['%s']" % (where, key), "has no 'region_value'")
                for read, v in value.items():
                    if not is_number(v):
                        bad("%s['%s'].%s" % (where, key, read), "is not a number")


def two_decimals(x):
    return float("%.2f" % x)


def seconds(nsec):
    return two_decimals(float(nsec) / 1e9)


def rank_of(file_name, position):
    """rank_000003.json is rank 3; a name without a number counts by position."""
    stem = file_name.split("_", 1)[1].rsplit(".", 1)[0] if "_" in file_name else file_name
    try:
        return int(stem)
    except ValueError:
        return position


def unranked(data):
    """A file of a process without MPI: a "pid" and no "rank" (null in older files); its
    name's number is that process id, not a rank."""
    return "pid" in data and data.get("rank") is None


def rank_keys(files):
    """Each file's rank, [(name, data)] -> [int]: its "rank", else (PAPI 7's files) its
    name's number; files of processes without MPI numbered after the ranks, 0 for one."""
    keys = [None if unranked(d) else int(d["rank"]) if is_number(d.get("rank")) else rank_of(n, i)
            for i, (n, d) in enumerate(files)]
    nxt = max([k for k in keys if k is not None], default=-1) + 1
    for i, k in enumerate(keys):
        if k is None:
            keys[i], nxt = nxt, nxt + 1
    return keys


def load(source):
    """All rank files of the directory: (event definitions, {rank: {"threads": ...}})."""
    try:
        names = sorted(n for n in os.listdir(source) if os.path.isfile(os.path.join(source, n)))
    except OSError as e:
        raise InputError("cannot list '%s': %s" % (source, e.strerror))
    if not names:
        raise InputError("'%s' holds no rank files" % source)
    definitions = None
    files = []
    for name in names:
        path = os.path.join(source, name)
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f, object_pairs_hook=OrderedDict)
        except OSError as e:
            raise InputError("cannot read %s: %s" % (path, e.strerror))
        except (ValueError, RecursionError) as e:
            raise MalformedInput("%s is not JSON: %s" % (path, e))
        check_rank_file(path, data)
        if definitions is None:
            definitions = data["event_definitions"]
        files.append((name, data))
    ranks = OrderedDict((str(k), OrderedDict([("threads", d["threads"])]))
                        for k, (_, d) in zip(rank_keys(files), files))
    return definitions, OrderedDict([("ranks", ranks)])


def regions_of(data):
    """(rank, thread, region) for every region instance, in file order."""
    for rank, rank_data in data["ranks"].items():
        for thread, thread_data in rank_data["threads"].items():
            for region in thread_data["regions"].values():
                yield rank, thread, region


def instances(data):
    """Every instance's measurements as one tidy table: order (file order), rank, thread,
    region, metric, value (a value read midway counts with its region_value)."""
    rows = []
    for order, (rank, thread, region) in enumerate(regions_of(data)):
        name = region.get("name", "unknown")
        if "region_count" not in region:
            rows.append((order, rank, thread, name, "region_count", 1))
        for key, value in region.items():
            if key in ("name", "parent_region_id"):
                continue
            if isinstance(value, dict) and "region_value" in value:
                value = float(value["region_value"])  # reads are shown in detail only
            rows.append((order, rank, thread, name, key, int(value)))
    return pd.DataFrame(rows, columns=["order", "rank", "thread", "region", "metric", "value"])


def median(values):
    """PAPI 7's median: the middle value, or the mean of the two middle ones (a float)."""
    s = sorted(int(v) for v in values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def summary_table(definitions, data):
    """One row per region and measurement: region_count (instances), total, min, median,
    max (as PAPI 7: a maximum never below 0) and the rank and thread holding the min and
    the max; ranks and threads as PAPI 7 counts them (changes in file order)."""
    df = instances(data)
    cols = ["region", "metric", "region_count", "total", "min", "min_rank", "min_thread", "median",
            "max", "max_rank", "max_thread", "summable", "ranks", "threads"]
    if df.empty:
        return pd.DataFrame(columns=cols)
    first = df.drop_duplicates("region").set_index("region")["order"]
    counts = df[df.metric == "region_count"].groupby("region")["value"].sum()
    ranks, threads = {}, {}
    for name, g in df.drop_duplicates("order").groupby("region", sort=False):
        rank_change = g["rank"].ne(g["rank"].shift()).iloc[1:]
        any_change = rank_change | g["thread"].ne(g["thread"].shift()).iloc[1:]
        ranks[name], threads[name] = 1 + int(rank_change.sum()), 1 + int(any_change.sum())
    g = df.groupby(["region", "metric"], sort=False)["value"]
    out = g.agg(total="sum", min="min", max="max").reset_index()
    out["median"] = list(g.apply(median).values)
    lo, hi = df.loc[g.idxmin().values], df.loc[g.idxmax().values]
    out["min_rank"], out["min_thread"] = lo["rank"].values, lo["thread"].values
    out["max_rank"], out["max_thread"] = hi["rank"].values, hi["thread"].values
    out["max"] = out["max"].clip(lower=0)
    out["region_count"] = out["region"].map(counts)
    out["summable"] = [m in TIME_KEYS or summable(definitions, m) for m in out["metric"]]
    out["ranks"], out["threads"] = out["region"].map(ranks), out["region"].map(threads)
    out["_first"] = out["region"].map(first)
    return out.sort_values("_first", kind="stable")[cols].reset_index(drop=True)


def summable(definitions, event):
    """Counts of perf_event that grow over time add up over threads; instant values do not."""
    d = definitions.get(event, {})
    return d.get("type") == "delta" and d.get("component") == "perf_event"


def summary(definitions, data, locations=True):
    """PAPI 7's summary JSON from the summary table; with locations, each min and max also
    says which rank and thread holds it (min_rank, min_thread, max_rank, max_thread)."""
    table = summary_table(definitions, data)
    report = OrderedDict()
    for name, g in table.groupby("region", sort=False):
        out = OrderedDict()
        count = int(g["region_count"].iloc[0])
        out["region_count"] = count
        for r in g.itertuples():
            if r.metric == "region_count":
                continue
            if count > 1:
                st = OrderedDict()
                if r.summable:
                    st["total"] = int(r.total)
                st["min"] = int(r.min)
                if locations:
                    st["min_rank"], st["min_thread"] = int(r.min_rank), r.min_thread
                st["median"] = r.median if isinstance(r.median, float) else int(r.median)
                st["max"] = int(r.max)
                if locations:
                    st["max_rank"], st["max_thread"] = int(r.max_rank), r.max_thread
                out[r.metric] = st
            else:
                out[r.metric] = int(r.min)
        ranks, threads = int(g["ranks"].iloc[0]), int(g["threads"].iloc[0])
        if ranks > 1 or threads > 1:
            out["Number of ranks"] = ranks
            out["Number of threads per rank"] = threads // ranks
        report[name] = out
    return report


def ratio_or(default, num, den, scale=1.0):
    try:
        return two_decimals(float(num) / scale / den)
    except (ZeroDivisionError, TypeError, ValueError, KeyError):
        return default


def derive_summary(report):
    out = OrderedDict()
    for name, events in report.items():
        events = OrderedDict(events)
        many = events.get("region_count", 1) > 1
        pick = (lambda v: v["total"]) if many else (lambda v: v)
        d = OrderedDict()
        rt = None
        d["Region count"] = int(events.pop("region_count", 1))
        events.pop("cycles", None)
        if "real_time_nsec" in events:
            v = events.pop("real_time_nsec")
            d[DERIVED_NAMES["real_time_nsec"]] = seconds(v["max"] if many else v)
            rt = seconds(pick(v))
        if "perf::TASK-CLOCK" in events:
            d[DERIVED_NAMES["perf::TASK-CLOCK"]] = seconds(pick(events.pop("perf::TASK-CLOCK")))
        if "PAPI_TOT_INS" in events and "PAPI_TOT_CYC" in events:
            ins, cyc = events.pop("PAPI_TOT_INS"), events.pop("PAPI_TOT_CYC")
            try:
                d["IPC"] = two_decimals(int(pick(ins)) / int(pick(cyc)))
            except (ZeroDivisionError, TypeError, KeyError):
                d["IPC"] = "n/a"
        for event, label in RATE_NAMES.items():
            if event in events:
                v = events.pop(event)
                try:
                    d[label] = ratio_or("n/a", pick(v), rt, 1e6) if rt is not None else "n/a"
                except (TypeError, KeyError):
                    d[label] = "n/a"
        d.update(events)
        out[name] = d
    return out


def per_read(values, convert):
    return OrderedDict((k, convert(v)) for k, v in values.items())


def derive_region(region):
    """One region instance in derived notation; a value with reads stays one per read."""
    events = OrderedDict(region)
    d = OrderedDict()
    if "name" in events:
        d["name"] = events.pop("name")
    events.pop("parent_region_id", None)
    events.pop("cycles", None)
    rt, rt_reads = 1.0, OrderedDict()
    if "real_time_nsec" in events:
        v = events.pop("real_time_nsec")
        if isinstance(v, dict):
            rt_reads = per_read(v, seconds)
            d[DERIVED_NAMES["real_time_nsec"]] = rt_reads
        else:
            rt = seconds(v)
            d[DERIVED_NAMES["real_time_nsec"]] = rt
    if "perf::TASK-CLOCK" in events:
        v = events.pop("perf::TASK-CLOCK")
        d[DERIVED_NAMES["perf::TASK-CLOCK"]] = per_read(v, seconds) if isinstance(v, dict) else seconds(v)
    if "PAPI_TOT_INS" in events and "PAPI_TOT_CYC" in events:
        ins, cyc = events.pop("PAPI_TOT_INS"), events.pop("PAPI_TOT_CYC")
        if isinstance(ins, dict) and isinstance(cyc, dict):
            d["IPC"] = OrderedDict((k, ratio_or(0.0, i, c))
                                   for (k, i), c in zip(ins.items(), cyc.values()))
        else:
            d["IPC"] = ratio_or(0.0, ins, cyc)
    for event, label in RATE_NAMES.items():
        if event in events:
            v = events.pop(event)
            if isinstance(v, dict):
                d[label] = OrderedDict((k, ratio_or(0.0, x, t, 1e6))
                                       for (k, x), t in zip(v.items(), rt_reads.values()))
            else:
                d[label] = ratio_or(0, v, rt, 1e6)
    for key, v in events.items():
        d[key] = per_read(v, lambda x: two_decimals(float(x))) if isinstance(v, dict) \
            else two_decimals(float(v))
    return d


def derive_detail(data):
    for rank_data in data["ranks"].values():
        for thread_data in rank_data["threads"].values():
            regions = thread_data["regions"]
            for key in list(regions):
                regions[key] = derive_region(regions[key])
    return data


def write(report, file_name):
    text = json.dumps(report, indent=4, separators=(",", ": "), ensure_ascii=False)
    with open(file_name, "w", encoding="utf-8") as f:
        f.write(text)
    print(text)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="papi_hl_output_writer",
        description="Combine the high-level API's region files (rank_*.json) into one report.")
    p.add_argument("--version", action="version",
                   version="papi_hl_output_writer (papi-compat) %s" % PAPI_COMPAT_VERSION,
                   help="print the papi-compat release")
    p.add_argument("--source", default="papi_hl_output", help="Measurement directory of raw data.")
    p.add_argument("--format", default="json", help="Output format: json, csv or html.")
    p.add_argument("--type", default="summary",
                   help="Output type: detail or summary (accumulate: PAPI 5/6's summary).")
    p.add_argument("--notation", default="derived", help="Output notation: raw or derived.")
    p.add_argument("--json", action="store_true",
                   help="Accepted like the other papi_* tools: the report is JSON already.")
    p.add_argument("--no-locations", action="store_true",
                   help="Summary without the rank and thread of each min and max (PAPI 7's output).")
    a = p.parse_args(argv)
    problem = None
    if not os.path.isdir(a.source):
        problem = "Measurement directory '%s' does not exist!" % a.source
    elif a.format not in ("json", "csv", "html"):
        problem = "Output format '%s' is not supported!" % a.format
    elif a.type not in ("detail", "summary", "accumulate"):
        problem = "Output type '%s' is not supported!" % a.type
    elif a.notation not in ("raw", "derived"):
        problem = "Output notation '%s' is not supported!" % a.notation
    if problem:
        print(problem + "\n", file=sys.stderr)
        p.print_help(sys.stderr)
        sys.exit(2)
    return a


def detail_table(data):
    """One row per instance: rank, thread, id, name, parent_region_id and its measurements
    (a value read midway counts with its region_value)."""
    rows = []
    for rank, rank_data in data["ranks"].items():
        for thread, thread_data in rank_data["threads"].items():
            for rid, region in thread_data["regions"].items():
                row = OrderedDict([("rank", rank), ("thread", thread), ("id", rid)])
                for key, value in region.items():
                    row[key] = value.get("region_value") if isinstance(value, dict) else value
                rows.append(row)
    return pd.DataFrame(rows)


def write_table(df, file_name, fmt):
    if fmt == "csv":
        df.to_csv(file_name, index=False)
    else:
        with open(file_name, "w", encoding="utf-8") as f:
            f.write("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head>"
                    "<body>\n%s\n</body></html>\n" % (file_name, df.to_html(index=False)))
    print("papi_hl_output_writer: wrote %s (%d rows)" % (file_name, len(df)))


def main(argv):
    a = parse_args(argv)
    import_pandas()
    try:
        definitions, data = load(a.source)
        if a.format != "json":
            if a.type == "detail":
                write_table(detail_table(data), "papi." + a.format, a.format)
            else:
                write_table(summary_table(definitions, data).drop(columns="summable"),
                            "papi_sum." + a.format, a.format)
        elif a.type == "detail":
            write(derive_detail(data) if a.notation == "derived" else data, "papi.json")
        else:
            report = summary(definitions, data, not a.no_locations)
            write(derive_summary(report) if a.notation == "derived" else report, "papi_sum.json")
    except InputError as e:
        print("papi_hl_output_writer: %s" % e, file=sys.stderr)
        return 2 if isinstance(e, MalformedInput) else 1
    except OSError as e:
        print("papi_hl_output_writer: cannot write the report: %s" % e, file=sys.stderr)
        return 1
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as e:
        # Content check_rank_file let through: still one line, no traceback.
        print("papi_hl_output_writer: %s: unexpected content (%s: %s)"
              % (a.source, type(e).__name__, e), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
