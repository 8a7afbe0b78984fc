"""The profiles of papi_run --sample: the job's job_profile_RUNID.json
(schema/profile_job.schema.json), which papi_run merged once from every process and rank
of one run: its stacks by names and places and each thread's functions. From it: the
flame-graph files papi_run's merge wrote beside it (profile.folded, weighted by the sampled
event; profile.EVENT.folded per event read with it; flamegraph.pl's "root;...;leaf count"
lines), copied while they are still the run's (copy_folded), and a table of the
functions by their self share, with the spread over ranks (min, mean, max and the rank of
the max) when there are several, and each -m metric of the function's own summed counts
(profile_metrics: a ratio of sums), with ranks also its spread over the ranks that sampled
the function (each rank's metric of its own counts of the function). An output folder
whose papi_run was killed before its merge has only the processes' profile_RUNID_PID.json
(schema/profile.schema.json) and .sample_RUNID_PID.txt: papi_run --merge writes its job
file (papi_run_merge.py), no merge is done here. Each file is checked against its schema on load."""
import csv
import glob
import os
import re
import shutil
import sys
import zlib

from . import papi_run_merge, profile_metrics, profile_read, schema_check
from .check import MalformedInput


def find(paths):
    """The profile files under paths (files or directories, searched to any depth): the
    processes' profile_RUNID_PID.json and the job's job_profile_RUNID.json."""
    found = []
    for p in paths:
        if os.path.isdir(p):
            for pattern in ("profile_*.json", "job_profile_*.json"):
                found += glob.glob(os.path.join(p, "**", pattern), recursive=True)
        elif re.fullmatch(r"(job_)?profile_.*\.json", os.path.basename(p)):
            found.append(p)
    return sorted({os.path.realpath(f) for f in found})


def _checked(path):
    """The profile (a process's or the job's) in path, refused (MalformedInput: the file,
    the JSON path and the rule broken, in one line) when it is not JSON or breaks its
    schema, as load.py refuses MPI reports and region files; None for a JSON file of
    another kind."""
    d, bad = profile_read.load(path)  # a job's stacks as columns, each checked
    if not isinstance(d, dict) or d.get("kind") not in ("profile", "profile_job"):
        return None
    try:
        why = profile_read.check(path, d, bad)
    except schema_check.SchemaUnavailable:
        why = None  # no schema files installed: read as before
    if why:
        raise MalformedInput(why)
    if d["kind"] == "profile_job" and isinstance(d.get("stacks"), list):
        d["stacks"] = profile_read.Stacks.of(d["stacks"])  # read whole: its kind came after
    why = _cross_fault(d) or _short(d)
    if why:
        raise MalformedInput("%s: %s" % (path, why))
    return d


def _short(d):
    """A profile cut short or made up: a process's stacks not its distinct_stacks, or its
    stacks' samples and the dropped ones not its samples (stack_table.c counts every sample
    into one of the two); a job's file that says it is whole (partial false under a
    launcher, ranks_expected) with fewer ranks' processes. None, or the JSON path and why."""
    if d.get("kind") == "profile":
        n = len(d["stacks"])
        if n != d["distinct_stacks"]:
            return "$.stacks: %d stack%s, but $.distinct_stacks says %d" % (
                n, "" if n == 1 else "s", d["distinct_stacks"])
        kept = sum(s["samples"] for s in d["stacks"])
        if kept + d["dropped_samples"] != d["samples"]:
            return ("$.samples: %d, but the stacks hold %d and $.dropped_samples %d (%d)" % (
                d["samples"], kept, d["dropped_samples"], kept + d["dropped_samples"]))
        return None
    expected, n = d.get("ranks_expected"), len(d.get("processes") or [])
    if not d.get("partial") and isinstance(expected, int) and n < expected:
        return ("$.processes: %d process%s, but $.ranks_expected says %d and $.partial false "
                "(every rank's profile merged)" % (n, "" if n == 1 else "es", expected))
    return None


def _cross_fault(d):
    """What the schema cannot say of a profile: a stack's counts, one per event of events;
    its frames, indices into frames. None, or the JSON path and why."""
    events, frames = d.get("events"), d.get("frames")
    if d.get("kind") == "profile_job":
        for table in ("stacks", "thread_functions"):
            rows = d.get(table) or []
            for i in range(len(rows)):
                n = len(rows.counts_of(i) if table == "stacks" else rows[i].get("counts") or [])
                if isinstance(events, list) and n != len(events):
                    return ("$.%s[%d].counts: %d counts for the %d events of $.events"
                            % (table, i, n, len(events)))
        return None
    for i, s in enumerate(d.get("stacks") if isinstance(d.get("stacks"), list) else []):
        if not isinstance(s, dict):
            continue
        counts = s.get("counts")
        if isinstance(events, list) and isinstance(counts, list) and len(counts) != len(events):
            return ("$.stacks[%d].counts: %d counts for the %d events of $.events"
                    % (i, len(counts), len(events)))
        for k, f in enumerate(s.get("frames") if isinstance(s.get("frames"), list) else []):
            if isinstance(frames, list) and isinstance(f, int) and f >= len(frames):
                return ("$.stacks[%d].frames[%d]: %d, not an index of the %d $.frames"
                        % (i, k, f, len(frames)))
    return None


def load(files, run=None):
    """The job's profile of one run (run's, else the latest run's by start), as
    job_profile_RUNID.json holds it; None without profiles."""
    docs = [(f, d) for f, d in ((f, _checked(f)) for f in files) if d is not None]
    if not docs:
        return None
    if run is None:
        run = max((d for _, d in docs), key=lambda d: (d["run"]["start"], d["run"]["id"]))["run"]["id"]
    docs = [(f, d) for f, d in docs if d["run"]["id"] == run]
    jobs = [d for _, d in docs if d["kind"] == "profile_job"]
    if jobs:
        job = jobs[0]
        job["_path"] = next(f for f, d in docs if d is job)  # its folded files lie beside it
        return job
    # A folder whose papi_run was killed before its merge holds only the processes' files:
    # papi_run --merge writes the job file beside them (None, said once, where it cannot:
    # also a papi-compat 1.0.0 folder, whose line-form files it no longer reads).
    for folder in sorted({os.path.dirname(f) for f, d in docs if d["kind"] == "profile"}):
        path = papi_run_merge.merged(folder, run)
        job = _checked(path) if path else None
        if job is not None:
            job["_path"] = path
            return job
    return None


def merge(job):
    """(events, {function: {rank: [self weight per event]}}, {function: [self weight per
    event]}): the job's threads' functions by rank and over all."""
    events, per_rank, own = job["events"], {}, {}
    n = len(events)
    for t in job["thread_functions"]:
        o = own.setdefault(t["function"], [0] * n)
        r = per_rank.setdefault(t["function"], {}).setdefault(_rank(t), [0] * n)
        for i, c in enumerate(t["counts"]):
            o[i] += c
            r[i] += c
    return events, per_rank, own


def _rank(entry):
    return entry["rank"] if entry["rank"] is not None else 0


def functions(job):
    """Rows of the functions table, largest self share first. With several ranks: min,
    mean, max and max_rank of the sampled event's self weight over all ranks (a rank
    without the function counts 0), then per -m metric M "M min", "M mean", "M max" and
    "M max_rank" over the ranks whose own counts of the function give a value (a rank
    that never sampled it has none: no 0 stands in for a ratio). Where a process (a rank)
    had several threads (one thread a rank would repeat the ranks' columns): "thread min", "thread mean", "thread max" of the sampled event's self weight over all
    threads and max_thread ("rank/tid", "pid/tid" without ranks)."""
    events, per_rank, own = merge(job)
    ranks = sorted({_rank(p) for p in job["processes"]})
    totals = [sum(o[i] for o in own.values()) for i in range(len(events))]
    metrics = job["metrics"]
    by_thread, threads = thread_weights(job)
    rows = []
    for fn, o in own.items():
        row = {"function": fn}
        for i, ev in enumerate(events):
            row["self_pct " + ev] = 100.0 * o[i] / totals[i] if totals[i] else 0.0
        for m in metrics:
            row[m["name"]] = profile_metrics.evaluate(m, o)
        if len(ranks) > 1:
            w = [per_rank[fn].get(r, [0])[0] for r in ranks]
            top = max(range(len(ranks)), key=lambda k: w[k])
            row.update({"min": min(w), "mean": sum(w) / len(w), "max": w[top], "max_rank": ranks[top]})
            for m in metrics:
                row.update(spread(m, per_rank[fn]))
        if len(threads) > len({t.split("/")[0] for t in threads}):  # a process had several
            row.update(thread_spread(by_thread.get(fn, {}), threads))
        rows.append(row)
    rows.sort(key=lambda r: (-r["self_pct " + events[0]], r["function"]))
    return rows


def thread_weights(job):
    """({function: {thread: self weight of the sampled event}}, [threads]): a thread named
    "rank/tid" in an MPI run, else "pid/tid" (tids are per host, ranks may share one)."""
    by, threads = {}, set()
    for e in job["thread_functions"]:
        t = "%s/%s" % (e["rank"] if e["rank"] is not None else e["pid"], e["tid"])
        threads.add(t)
        leaf = by.setdefault(e["function"], {})
        leaf[t] = leaf.get(t, 0) + e["counts"][0]
    return by, sorted(threads)


def thread_spread(weights, threads):
    """{"thread min", "thread mean", "thread max", "max_thread"} of one function's self
    weight over every sampled thread of the run (a thread without it counts 0, as a rank
    does), the max thread named as thread_weights names it."""
    w = [weights.get(t, 0) for t in threads]
    top = max(range(len(threads)), key=lambda k: w[k])
    return {"thread min": min(w), "thread mean": sum(w) / len(w), "thread max": w[top],
            "max_thread": threads[top]}


def spread(metric, by_rank):
    """{"M min", "M mean", "M max", "M max_rank"} of metric M over by_rank ({rank: own
    counts}), the ranks without a value left out; None each where no rank has one."""
    name = metric["name"]
    values = {r: profile_metrics.evaluate(metric, c) for r, c in sorted(by_rank.items())}
    values = {r: v for r, v in values.items() if v is not None}
    if not values:
        return {name + " min": None, name + " mean": None, name + " max": None, name + " max_rank": None}
    top = max(values, key=lambda r: (values[r], -r))
    return {name + " min": min(values.values()), name + " mean": sum(values.values()) / len(values),
            name + " max": values[top], name + " max_rank": top}


def copy_folded(job, outdir):
    """papi_run's folded files of job's run (profile.folded, profile.EVENT.folded: its merge
    is their one writer) copied into outdir, each while the file beside the job file is
    still the one the job file records (its size and CRC-32: another run's merge in the
    same folder writes the same names); the paths written. A file not so is said on stderr,
    with the command that writes it again, and left out."""
    folder = os.path.dirname(job.get("_path") or "")
    written, run = [], job["run"]["id"]
    fix = "`papi_run --merge %s --run %s` writes it again" % (folder or ".", run)
    if not job.get("folded"):
        print("papi_report: the job file of run %s names no folded files (an older papi_run's): "
              "no profile.folded in the report; %s" % (run, fix), file=sys.stderr)
        return written
    for rec in job["folded"]:
        src, dst = os.path.join(folder, rec["file"]), os.path.join(outdir, rec["file"])
        try:
            with open(src, "rb") as f:
                data = f.read(rec["bytes"] + 1)
        except OSError as e:
            print("papi_report: %s: %s: left out; %s" % (src, e.strerror, fix), file=sys.stderr)
            continue
        if len(data) != rec["bytes"] or zlib.crc32(data) != rec["crc32"]:
            print("papi_report: %s is no longer run %s's (%d bytes, the job file says %d with "
                  "CRC-32 %d): left out; %s" % (src, run, len(data), rec["bytes"], rec["crc32"], fix),
                  file=sys.stderr)
            continue
        if os.path.abspath(src) != os.path.abspath(dst):
            shutil.copyfile(src, dst + ".tmp")
            os.replace(dst + ".tmp", dst)
        written.append(dst)
    return written


def write(paths, outdir, run=None, job=None):
    """The merged files of paths' profiles (job: the one load() gave of them, not read
    again) in outdir; the paths written ([] without any)."""
    job = job if job is not None else load(find(paths), run)
    if not job:
        return []
    os.makedirs(outdir, exist_ok=True)
    written = copy_folded(job, outdir)
    rows = functions(job)
    path = os.path.join(outdir, "profile_functions.csv")
    with open(path + ".tmp", "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["function"])
        w.writeheader()
        w.writerows(rows)
    os.replace(path + ".tmp", path)
    written.append(path)
    return written

