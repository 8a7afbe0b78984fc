#!/usr/bin/env python3
"""PAPI_MPI_TRACE (issue 49 item 4) on a 4-rank ring (mpi_trace.c), oversubscribed:
--part json: papi_mpi_trace.json follows schema/trace_json.schema.json, one track per
  rank, B/E balanced, every flow's send paired with its receive (tests/trace/check_trace.py),
  and its counts equal the report's: flows = MPI_Send calls, B events of each call and
  of the region "ring", X events = Allreduce + Barrier calls; with a 12-record log the
  drops are said (file and one line); with PAPI_INTERVAL each series sample but the last
  is a counter record per event;
--part otf2: otf2-print reads papi_mpi_trace/traces.otf2 whole: 4 locations, MPI_SEND
  (= MPI_RECV) records = MPI_Send calls, collective ends = Allreduce + Barrier calls,
  ENTER/LEAVE per region as the report counts them (skipped when libotf2 is missing);
--part bad: an unknown format, a trace file that cannot be published, libotf2 missing
  (a preloaded shim): one line from rank 0 each, no trace, the report still written.
Usage: check_mpi_trace.py --mpirun M --program PROG --part json|otf2|bad
  [--otf2-print P] [--no-otf2-shim LIB]"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from mpi_check import check, rank_env, run_cmd, verdict

HERE = os.path.dirname(os.path.abspath(__file__))
TRACE_CHECK = os.path.join(HERE, "..", "trace", "check_trace.py")
SCHEMA = os.path.join(HERE, "..", "..", "schema", "trace_json.schema.json")
NP = 4


def run(args, out, env):
    e = {"PAPI_MPI_OUTPUT_DIR": out}
    e.update(env)
    p = run_cmd([args.mpirun, "-np", str(NP)] + rank_env(args.mpirun, e) + [args.program], tail=3000)
    check(p.returncode == 0, f"exit status {p.returncode}")
    path = os.path.join(out, "papi_mpi_report.json")
    if not check(os.path.exists(path), "report written"):
        return None, p
    with open(path, encoding="utf-8") as f:
        return json.load(f), p


def calls(rep, name):
    return sum(r["calls"].get(name, {}).get("calls", 0) for r in rep["ranks"])


def expected(rep):
    """check_trace.py's arguments: the report's counts."""
    coll = calls(rep, "MPI_Allreduce") + calls(rep, "MPI_Barrier")
    want = ["--messages", str(calls(rep, "MPI_Send")), "--collectives", str(coll)]
    for name in ("MPI_Send", "MPI_Irecv", "MPI_Wait", "MPI_Allreduce", "MPI_Barrier"):
        want += ["--region", f"{name}={calls(rep, name)}"]
    want += ["--region", "ring=%d" % sum(r["regions"]["ring"]["entries"] for r in rep["ranks"])]
    print("report: %d MPI_Send, %d MPI_Irecv, %d collectives" % (
        calls(rep, "MPI_Send"), calls(rep, "MPI_Irecv"), coll))
    check(calls(rep, "MPI_Send") == NP * 5 and coll == 2 * NP, "the report counts the ring's calls")
    return want


def trace_check(argv):
    p = subprocess.run([sys.executable, TRACE_CHECK] + argv, capture_output=True, text=True)
    print(p.stdout.strip())
    if p.returncode == 77:
        print(p.stdout.strip())
        sys.exit(77)
    return check(p.returncode == 0, "check_trace.py %s: %s" % (argv[0], p.stdout.strip()[-300:]))


def part_json(args, out):
    rep, _ = run(args, out, {"PAPI_MPI_TRACE": "json"})
    path = os.path.join(out, "papi_mpi_trace.json")
    if rep is None or not check(os.path.exists(path), "papi_mpi_trace.json written"):
        return
    trace_check(["json", "--schema", SCHEMA, "--tracks", str(NP)] + expected(rep) + [path])
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    pids = {e["pid"] for e in doc["traceEvents"] if e["ph"] != "M"}
    check(pids == set(range(NP)), f"one process per rank: {sorted(pids)}")
    other = doc.get("otherData", {})
    check(other.get("dropped") == 0 and other.get("ranks") == NP,
          f"{NP} ranks, nothing dropped: {other}")
    # A log of 12 records per rank: its drops said in the file and in one line; what
    # was kept still balanced (the ring region closed at MPI_Finalize; flows may lack
    # an end now, so they are not paired)
    sub = os.path.join(out, "small_log")
    os.makedirs(sub)
    rep, p = run(args, sub, {"PAPI_MPI_TRACE": "json", "PAPI_MPI_LOG_RECORDS": "12"})
    path = os.path.join(sub, "papi_mpi_trace.json")
    if rep is None or not check(os.path.exists(path), "small log: papi_mpi_trace.json written"):
        return
    with open(path, encoding="utf-8") as f:
        other = json.load(f).get("otherData", {})
    logged = sum(r["calls"][c]["calls"] for r in rep["ranks"]
                 for c in ("MPI_Comm_rank", "MPI_Comm_size", "MPI_Send", "MPI_Irecv", "MPI_Wait",
                           "MPI_Allreduce", "MPI_Barrier")) + 2 * NP  # + region enter/exit
    print(f"small log: file says {other.get('dropped')} dropped, {logged} records were made")
    check(other.get("dropped") == logged - 12 * NP, f"small log: dropped {other.get('dropped')}, "
          f"expected {logged - 12 * NP}")
    lines = [l for l in p.stdout.splitlines() if "records dropped" in l]
    check(len(lines) == 1, f"small log: one line says the drops: {lines}")
    trace_check(["json", "--schema", SCHEMA, "--one-rank", "--tracks", str(NP), path])
    # PAPI_INTERVAL: each sample of each rank's series (all but the last, the row's own
    # counts read at MPI_Finalize) a counter record per event, counts since MPI_Init
    sub = os.path.join(out, "interval")
    os.makedirs(sub)
    rep, p = run(args, sub, {"PAPI_MPI_TRACE": "json", "PAPI_INTERVAL": "0.001"})
    path = os.path.join(sub, "papi_mpi_trace.json")
    if rep is None or not check(os.path.exists(path), "interval: papi_mpi_trace.json written"):
        return
    want = sum(max(len(r.get("series", {}).get("samples", [])) - 1, 0) * len(rep["events"])
               for r in rep["ranks"])
    print(f"interval: {want} counter records expected from the report's series")
    trace_check(["json", "--schema", SCHEMA, "--tracks", str(NP), "--counters", str(want)] +
                expected(rep) + [path])


def part_otf2(args, out):
    if not args.otf2_print or args.otf2_print == "none":
        print("SKIPPED: no otf2-print (Debian: otf2-tools)")
        sys.exit(77)
    rep, p = run(args, out, {"PAPI_MPI_TRACE": "otf2"})
    anchor = os.path.join(out, "papi_mpi_trace", "traces.otf2")
    if rep is not None and "libotf2" in p.stdout and not os.path.exists(anchor):
        print("SKIPPED: this build or machine has no libotf2: " + p.stdout.strip()[-200:])
        sys.exit(77)
    if rep is None or not check(os.path.exists(anchor), "papi_mpi_trace/traces.otf2 written"):
        return
    trace_check(["otf2", "--otf2-print", args.otf2_print, "--locations", str(NP)] + expected(rep) + [anchor])


def part_bad(args, out):
    cases = [("unknown format", {"PAPI_MPI_TRACE": "vampir"}, "PAPI_MPI_TRACE=vampir", None),
             ("trace not publishable", {"PAPI_MPI_TRACE": "json"}, "PAPI_MPI_TRACE=json", "dir")]
    if args.no_otf2_shim:
        cases.append(("libotf2 missing", {"PAPI_MPI_TRACE": "otf2", "LD_PRELOAD": args.no_otf2_shim},
                      "libotf2", None))
    for what, env, said, block in cases:
        sub = os.path.join(out, what.replace(" ", "_"))
        os.makedirs(sub)
        if block:  # a directory where the file goes: its rename fails, even for root
            os.makedirs(os.path.join(sub, "papi_mpi_trace.json", "x"))
        rep, p = run(args, sub, env)
        lines = [l for l in p.stdout.splitlines() if "papi_mpi: PAPI_MPI_TRACE" in l]
        print(f"{what}: {lines}")
        check(len(lines) == 1 and said in lines[0] and "report is still written" in lines[0],
              f"{what}: one line from rank 0 saying {said!r}: {lines}")
        check(rep is not None and len(rep["ranks"]) == NP and calls(rep, "MPI_Send") == NP * 5,
              f"{what}: the report still written with the counts")
        check(not os.path.exists(os.path.join(sub, "papi_mpi_trace")), f"{what}: no OTF2 archive")
        if not block:
            check(not os.path.exists(os.path.join(sub, "papi_mpi_trace.json")), f"{what}: no JSON")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--part", choices=["json", "otf2", "bad"], required=True)
    ap.add_argument("--otf2-print")
    ap.add_argument("--no-otf2-shim")
    args = ap.parse_args()
    out = tempfile.mkdtemp(prefix="papi_mpi_trace_")
    try:
        {"json": part_json, "otf2": part_otf2, "bad": part_bad}[args.part](args, out)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
