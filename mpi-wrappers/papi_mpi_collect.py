#!/usr/bin/env python3
"""papi_mpi_collect: say which ranks of a run finished, from what the wrapper library
left in its output directory (PAPI_MPI_OUTPUT_DIR).

A finished run has papi_mpi_report.json (every rank in it finished). A run that died
leaves papi_mpi_rank<N>.partial.json from each rank that could still run its exit path
and, with PAPI_MPI_CHECKPOINT, papi_mpi_rank<N>.checkpoint.json (the last snapshot; the
exit row wins when both exist) or, for a rank killed while it replaced its snapshot,
papi_mpi_rank<N>.checkpoint.prev.json (the one before); ranks killed outright (SIGKILL)
before their first snapshot leave nothing.
Every file carries the run's "run_id": only the newest run's files count, so a report or
rows left by an earlier run in the same directory are never taken for this one (they
are listed under "ignored"). Prints one JSON object:
  {"nranks": P, "run_id": ..., "finished": [...], "partial": [{"rank", "exit_reason"}...],
   "missing": [...], "ignored": [...]}
Usage: papi_mpi_collect DIR [--np P]
Exit status: 0 done; 2 bad usage, or a file that is valid JSON of the wrong shape (one
line on stderr names the file and what is wrong). A file that is not JSON at all (a rank
killed while the file system was full) is skipped, as a rank that left nothing."""
import argparse
import glob
import json
import math
import os
import re
import sys


def compat_version():
    """The papi-compat release of the libpapi installed beside this script (bin/../lib*)."""
    import ctypes
    here = os.path.dirname(os.path.realpath(__file__))
    libs = glob.glob(os.path.join(here, "..", "lib*", "libpapi.so.*")) + \
        glob.glob(os.path.join(here, "..", "lib*", "*", "libpapi.so.*"))  # multiarch libdir
    for lib in sorted(libs):
        try:
            f = ctypes.CDLL(lib).PAPI_compat_version
        except (OSError, AttributeError):
            continue
        f.restype = ctypes.c_char_p
        return f().decode()
    return "unknown (no libpapi beside %s)" % here


def run_time(run_id):
    """Run ids start with the start time (seconds.nanoseconds)."""
    m = re.match(r"(\d+)\.(\d+)", run_id or "")
    return (int(m.group(1)), int(m.group(2))) if m else (-1, -1)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError:
        return None
    except (ValueError, RecursionError) as e:  # a half-written or hostile file
        raise Malformed("%s: not JSON: %s" % (path, e))


class Malformed(Exception):
    """A report or row of the wrong shape: "FILE: what is wrong"."""


def is_count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def check_run_id(name, doc):
    if not isinstance(doc.get("run_id", ""), (str, type(None))):
        raise Malformed("%s: 'run_id' is %s, not a string" % (name, type(doc["run_id"]).__name__))


def is_seconds(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0


def check_times(name, where, r):
    """A rank's finished flag and times: "finished" true or false (not the string "false"),
    times >= 0, time in MPI (the wall-clock time any thread was in it) not above the wall
    time; the per-thread sum (mpi_thread_sum_s) may be, several threads at once."""
    if "finished" in r and not isinstance(r["finished"], bool):
        raise Malformed("%s: %s'finished' is %r, not true or false" % (name, where, r["finished"]))
    for k in ("wall_s", "mpi_s", "mpi_thread_sum_s"):
        if k in r and not is_seconds(r[k]):
            raise Malformed("%s: %s'%s' is %r, not a time in seconds (>= 0)" % (name, where, k, r[k]))
    if is_seconds(r.get("wall_s")) and is_seconds(r.get("mpi_s")) and \
            r["mpi_s"] > r["wall_s"] * (1 + 1e-9) + 1e-6:
        raise Malformed("%s: %s'mpi_s' is %g s, more than the wall time ('wall_s' %g s)" %
                        (name, where, r["mpi_s"], r["wall_s"]))


def check_report(name, doc):
    if not isinstance(doc, dict):
        raise Malformed("%s: the report is %s, not an object" % (name, type(doc).__name__))
    check_run_id(name, doc)
    if "nranks" in doc and not is_count(doc["nranks"]):
        raise Malformed("%s: 'nranks' is %r, not a number of ranks" % (name, doc["nranks"]))
    if not isinstance(doc.get("ranks"), list):
        raise Malformed("%s: 'ranks' is missing or not a list" % name)
    for i, r in enumerate(doc["ranks"]):
        if not isinstance(r, dict) or not is_count(r.get("rank")):
            raise Malformed("%s: ranks[%d] has no 'rank' number" % (name, i))
        check_times(name, "ranks[%d]." % i, r)
    if "nranks" not in doc:
        raise Malformed("%s: 'nranks' is missing" % name)


def check_row(name, doc):
    if not isinstance(doc, dict):
        raise Malformed("%s: the row is %s, not an object" % (name, type(doc).__name__))
    check_run_id(name, doc)
    if not is_count(doc.get("rank")):
        raise Malformed("%s: 'rank' is %r, not a rank number" % (name, doc.get("rank")))
    if not isinstance(doc.get("exit_reason"), (str, type(None))):
        raise Malformed("%s: 'exit_reason' is not a string" % name)
    check_times(name, "", doc)


def collect(directory, nranks=None):
    docs = []  # (run_id, kind, path, doc)
    report = load(os.path.join(directory, "papi_mpi_report.json"))
    if report is not None:
        check_report(os.path.join(directory, "papi_mpi_report.json"), report)
        docs.append((report.get("run_id"), "report", "papi_mpi_report.json", report))
    for kind in ("partial", "checkpoint", "checkpoint.prev"):  # the order of preference
        for path in glob.glob(os.path.join(directory, f"papi_mpi_rank*.{kind}.json")):
            if not re.search(r"papi_mpi_rank\d+\.%s\.json$" % re.escape(kind), path):
                continue
            row = load(path)
            if row is not None:
                check_row(path, row)
                docs.append((row.get("run_id"), kind, os.path.basename(path), row))
    newest = max((d[0] for d in docs), key=run_time, default=None)
    ignored = sorted(d[2] for d in docs if d[0] != newest)
    finished, rows = [], {}
    for run_id, kind, _, doc in docs:
        if run_id != newest:
            continue
        if kind == "report":
            nranks = nranks or doc["nranks"]
            finished = sorted(r["rank"] for r in doc["ranks"] if r.get("finished"))
        elif kind == "partial" or doc["rank"] not in rows:
            rows[doc["rank"]] = doc
    partial = [{"rank": k, "exit_reason": r.get("exit_reason")}
               for k, r in sorted(rows.items()) if k not in finished]
    known = set(finished) | {r["rank"] for r in partial}
    if nranks is None:
        nranks = max(known) + 1 if known else 0
    missing = [r for r in range(nranks) if r not in known]
    return {"nranks": nranks, "run_id": newest, "finished": finished, "partial": partial,
            "missing": missing, "ignored": ignored}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--version", action="version",
                    version="papi_mpi_collect (papi-compat) %s" % compat_version())
    ap.add_argument("dir")
    ap.add_argument("--np", type=int, default=None, help="ranks the run had")
    args = ap.parse_args()
    try:
        result = collect(args.dir, args.np)
    except Malformed as e:
        print("papi_mpi_collect: %s" % e, file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
