#!/usr/bin/env python3
"""check_mpi_omp_trace.py --mpirun M --program P --wrapper LIB [--otf2-print X]: the
OpenMP slices in the MPI wrapper's trace (PAPI_MPI_TRACE json and otf2; issue 58 item 4).
mpi_omp_trace.c (2 ranks): an MPI_Barrier outside OpenMP, then 3 parallel regions of 2
threads whose master calls MPI_Allreduce and MPI_Barrier inside its implicit task. The
program (gcc's, libgomp) runs under libomp.so.5 preloaded before the wrapper, which names
the OMPT tool. Per rank and format: 6 "implicit task" and 6 "join" slices on 2 thread
tracks, every track's slices nested; each of the 3 MPI_Allreduce slices, and the 3
MPI_Barrier slices made inside a region, inside an implicit task on the same track (the
OpenMP times on the calls' clock: the same conversion to rank 0's); the barrier made
before OpenMP inside none. The JSON trace follows its schema. Every region typed by its
name (issue 73 item 3; trace_tracks.region_type): the OpenMP slices' JSON "cat"
openmp.ROLE and OTF2 paradigm OPENMP with their kind's role, the MPI calls' mpi and
MPI/FUNCTION."""
import json
import os
import subprocess
import sys
import tempfile

from mpi_check import check, launch_args, rank_env, run_cmd, verdict
import llvm_libomp  # (tests/common, on the path by mpi_check)
import trace_tracks

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "schema", "trace_json.schema.json")
args = launch_args(more=("--wrapper",), options={"--otf2-print": {}})


def inside(a, b):
    return b[1] <= a[1] and a[2] <= b[2]


def check_rank(where, tracks):
    for name, sl in tracks.items():
        crossing = [(n, m) for i, (n, s, e) in enumerate(sl) for (m, s2, e2) in sl[i + 1:]
                    if s2 < e and e2 > e]
        check(not crossing, "%s %s: slices nest (%s)" % (where, name, crossing[:2]))
    tasks = [(t, s) for t, sl in tracks.items() for s in sl if s[0] == "implicit task"]
    joins = [(t, s) for t, sl in tracks.items() for s in sl if s[0] == "join"]
    check(len(tasks) == 6 and len(joins) == 6 and len({t for t, _ in tasks}) == 2,
          "%s: 6 implicit tasks and 6 joins on 2 tracks (%d, %d, %d tracks)" % (
              where, len(tasks), len(joins), len({t for t, _ in tasks})))
    calls = [(t, s) for t, sl in tracks.items() for s in sl if s[0] in ("MPI_Allreduce", "MPI_Barrier")]
    held = [(s[0], any(u == t and inside(s, x) for u, x in tasks)) for t, s in sorted(calls, key=lambda c: c[1][1])]
    want = [("MPI_Barrier", False)] + [("MPI_Allreduce", True), ("MPI_Barrier", True)] * 3
    check(held == want, "%s: the calls made inside an implicit task lie inside it on its track, "
          "the first barrier in none: %s" % (where, held))


def run(fmt, out):
    llvm_libomp.require()
    env = dict(os.environ, OMP_WAIT_POLICY="passive")
    for k in ("OMP_TOOL_LIBRARIES", "PAPI_TRACE", "PAPI_OMPT_TRACE_SPANS"):
        env.pop(k, None)
    renv = {"LD_PRELOAD": "libomp.so.5:" + args.wrapper, "PAPI_MPI_OUTPUT_DIR": out,
            "PAPI_MPI_TRACE": fmt}
    p = run_cmd([args.mpirun, "-np", "2"] + rank_env(args.mpirun, renv) + [args.program], env=env)
    check(p.returncode == 0, "%s: exit status %d" % (fmt, p.returncode))
    check(p.stdout.count('"sum": 2') == 2, "%s: both ranks' allreduce answered 2" % fmt)


def main():
    out = tempfile.mkdtemp(prefix="mpi_omp_trace_")
    run("json", os.path.join(out, "json"))
    path = os.path.join(out, "json", "papi_mpi_trace.json")
    if check(os.path.exists(path), "the JSON trace written"):
        try:
            import jsonschema
            doc = json.load(open(path))
            errs = list(jsonschema.Draft202012Validator(json.load(open(SCHEMA))).iter_errors(doc))
            check(not errs, "the JSON trace follows its schema (%s)" % (errs[0].message[:200] if errs else "ok"))
        except ImportError:
            print("schema: not checked: no python3-jsonschema")
        cats = trace_tracks.categories_json(path)
        bad = {n: sorted(c) for n, c in cats.items() if c != {trace_tracks.region_type(n)[0]}}
        check(not bad and "implicit task" in cats and "MPI_Allreduce" in cats,
              "json: every region's category by its name (%s)" % (bad or sorted(cats)))
        tr = trace_tracks.from_json(path)
        check(sorted(tr) == [0, 1], "json: both ranks (%s)" % sorted(tr))
        for r in sorted(tr):
            check_rank("json rank %d" % r, tr[r])
    if args.otf2_print and args.otf2_print != "none":
        run("otf2", os.path.join(out, "otf2"))
        anchor = os.path.join(out, "otf2", "papi_mpi_trace", "traces.otf2")
        if check(os.path.exists(anchor), "the OTF2 archive written"):
            info = subprocess.run([args.otf2_print, "-I", anchor], capture_output=True, text=True).stdout
            check("PAPI_COMPAT::DROPPED_RECORDS" in info,
                  "otf2: the archive says its dropped records (a property)")
            regs = trace_tracks.regions_otf2(anchor, args.otf2_print)
            bad = {n: t for n, t in regs.items() if t != trace_tracks.region_type(n)[1:]}
            check(not bad and regs.get("implicit task", ("",))[0] == "TASK" and
                  regs.get("join", ("",))[0] == "IMPLICIT_BARRIER",
                  "otf2: every region's role and paradigm by its name (%s)" % (bad or sorted(regs.items())))
            tr = trace_tracks.from_otf2(anchor, args.otf2_print)
            check(sorted(tr) == [0, 1], "otf2: both ranks (%s)" % sorted(tr))
            for r in sorted(tr):
                check_rank("otf2 rank %d" % r, tr[r])
    else:
        print("otf2: not checked: no otf2-print (Debian: apt-get install otf2-tools)")
    return verdict("mpi_omp_trace", scratch=out)


if __name__ == "__main__":
    sys.exit(main())
