#!/usr/bin/env python3
"""papi_mpi_collect: say which ranks of a run finished, from what the wrapper library
left in its output directory (PAPI_MPI_OUTPUT_DIR).

A finished run has papi_mpi_report.json (every rank in it finished). A run that died
leaves papi_mpi_rank<N>.partial.json from each rank that could still run its exit path;
ranks killed outright (SIGKILL) leave nothing. Prints one JSON object:
  {"nranks": P, "finished": [...], "partial": [{"rank", "exit_reason"}...], "missing": [...]}
Usage: papi_mpi_collect.py DIR [--np P]"""
import argparse
import glob
import json
import os
import re
import sys


def collect(directory, nranks=None):
    finished, partial = [], []
    report = os.path.join(directory, "papi_mpi_report.json")
    if os.path.exists(report):
        with open(report, encoding="utf-8") as f:
            rep = json.load(f)
        nranks = nranks or rep["nranks"]
        finished = sorted(r["rank"] for r in rep["ranks"] if r.get("finished"))
    for path in glob.glob(os.path.join(directory, "papi_mpi_rank*.partial.json")):
        if not re.search(r"papi_mpi_rank\d+\.partial\.json$", path):
            continue
        with open(path, encoding="utf-8") as f:
            row = json.load(f)
        if row["rank"] not in finished:
            partial.append({"rank": row["rank"], "exit_reason": row.get("exit_reason")})
    partial.sort(key=lambda r: r["rank"])
    known = set(finished) | {r["rank"] for r in partial}
    if nranks is None:
        nranks = max(known) + 1 if known else 0
    missing = [r for r in range(nranks) if r not in known]
    return {"nranks": nranks, "finished": finished, "partial": partial, "missing": missing}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--np", type=int, default=None, help="ranks the run had")
    args = ap.parse_args()
    print(json.dumps(collect(args.dir, args.np)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
