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
are listed under "ignored"). The files are read and checked as papi_report reads them
(its module papi_report.load.mpi_rows: each against its JSON Schema, then the values a schema
cannot relate). Prints one JSON object:
  {"nranks": P, "run_id": ..., "finished": [...], "partial": [{"rank", "exit_reason"}...],
   "missing": [...], "ignored": [...]}
Usage: papi_mpi_collect DIR [--np P]
Exit status: 0 done; 1 papi_report's module is not installed beside it; 2 bad usage, or
a file that is not JSON or breaks its schema (one line on stderr per such file names it
and what is wrong; nothing is printed on stdout: a verdict that left a rank out would be
wrong)."""
import argparse
import importlib
import importlib.machinery
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
#: Where papi_report's package is: installed, <prefix>/share/papi/python (this script is
#: <prefix>/bin/papi_mpi_collect); in the source tree, python/ beside mpi-wrappers.
PACKAGE_DIRS = [os.path.join(HERE, "..", "share", "papi", "python"),
                os.path.join(HERE, "..", "python")]


def load_module(name):
    """papi_report.load.NAME (mpi_rows, the one reader of the rows; compat_version) with
    papi_report's load layer only: the package's __init__ (its tables, which need pandas)
    is not run, so this script needs nothing beyond the standard library."""
    if "papi_report" in sys.modules:  # imported whole by a caller
        return importlib.import_module("papi_report.load." + name)
    for d in PACKAGE_DIRS:
        pkg = os.path.abspath(os.path.join(d, "papi_report"))
        if os.path.isfile(os.path.join(pkg, "load", name + ".py")):
            spec = importlib.machinery.ModuleSpec("papi_report", None, is_package=True)
            spec.submodule_search_locations = [pkg]
            sys.modules["papi_report"] = importlib.util.module_from_spec(spec)
            return importlib.import_module("papi_report.load." + name)
    raise ImportError("papi_report's module is not installed beside %s (looked in %s)" % (
        HERE, ", ".join(os.path.abspath(d) for d in PACKAGE_DIRS)))


class Malformed(Exception):
    """Files that are not JSON or break their schema: one line "FILE: what is wrong" each."""


def collect(directory, nranks=None):
    found = load_module("mpi_rows").read(directory)
    if found.malformed:
        raise Malformed("\n".join(found.malformed))
    finished = []
    if found.report is not None:
        rep = found.report
        nranks = nranks or rep.get("nranks")
        finished = sorted(r["rank"] for r in rep["ranks"] if r.get("finished"))
    partial = [{"rank": k, "exit_reason": doc.get("exit_reason")}
               for k, (_kind, _name, doc) in sorted(found.rows.items()) if k not in finished]
    known = set(finished) | {r["rank"] for r in partial}
    if nranks is None:
        nranks = max(known) + 1 if known else 0
    missing = [r for r in range(nranks) if r not in known]
    return {"nranks": nranks, "run_id": found.run_id, "finished": finished, "partial": partial,
            "missing": missing, "ignored": found.ignored}


def main():
    try:
        version = load_module("compat_version")
    except ImportError as e:
        print("papi_mpi_collect: %s" % e, file=sys.stderr)
        return 1
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--version", action=version.VersionAction, tool="papi_mpi_collect", bindir=HERE)
    ap.add_argument("dir")
    ap.add_argument("--np", type=int, default=None, help="ranks the run had")
    args = ap.parse_args()
    try:
        result = collect(args.dir, args.np)
    except ImportError as e:
        print("papi_mpi_collect: %s" % e, file=sys.stderr)
        return 1
    except Malformed as e:
        for line in str(e).splitlines():
            print("papi_mpi_collect: %s" % line, file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
