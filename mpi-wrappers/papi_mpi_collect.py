#!/usr/bin/env python3
"""papi_mpi_collect: say which ranks of a run finished, from what the wrapper library
left in its output directory (PAPI_MPI_OUTPUT_DIR).

A finished run has papi_mpi_report.json (every rank in it finished). A run that died
leaves papi_mpi_rank<N>.partial.json from each rank that could still run its exit path
and, with PAPI_MPI_CHECKPOINT, papi_mpi_rank<N>.checkpoint.json (the last snapshot; the
exit row wins when both exist); ranks killed outright (SIGKILL) leave nothing else.
Every file carries the run's "run_id": only the newest run's files count, so a report or
rows left by an earlier run in the same directory are never taken for this one (they
are listed under "ignored"). Prints one JSON object:
  {"nranks": P, "run_id": ..., "finished": [...], "partial": [{"rank", "exit_reason"}...],
   "missing": [...], "ignored": [...]}
Usage: papi_mpi_collect DIR [--np P]"""
import argparse
import glob
import json
import os
import re
import sys


def run_time(run_id):
    """Run ids start with the start time (seconds.nanoseconds)."""
    m = re.match(r"(\d+)\.(\d+)", run_id or "")
    return (int(m.group(1)), int(m.group(2))) if m else (-1, -1)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def collect(directory, nranks=None):
    docs = []  # (run_id, kind, path, doc)
    report = load(os.path.join(directory, "papi_mpi_report.json"))
    if report is not None:
        docs.append((report.get("run_id"), "report", "papi_mpi_report.json", report))
    for kind in ("partial", "checkpoint"):
        for path in glob.glob(os.path.join(directory, f"papi_mpi_rank*.{kind}.json")):
            if not re.search(rf"papi_mpi_rank\d+\.{kind}\.json$", path):
                continue
            row = load(path)
            if row is not None:
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
    ap.add_argument("dir")
    ap.add_argument("--np", type=int, default=None, help="ranks the run had")
    args = ap.parse_args()
    print(json.dumps(collect(args.dir, args.np)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
