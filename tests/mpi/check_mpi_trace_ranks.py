#!/usr/bin/env python3
"""PAPI_MPI_TRACE=otf2 and json written by every rank for itself (issue 60 item 2), on
the ring of mpi_trace.c with many rounds, at --np ranks (4 and 16, oversubscribed), each
run under a preloaded shim (count_recv_bytes_shim.c) that counts the bytes each rank
receives from MPI_Finalize on:
- OTF2: one event file per location (traces/<rank << 16>.evt, one per rank), and
  otf2-print reads the archive whole: its locations, ENTER per region, MPI_SEND, MPI_RECV
  and collective ends are the report's calls and the JSON trace's counts; OTF2's own
  Python reader (Debian's python3-otf2) counts the same events over the whole archive,
  the same as otf2-print's ("SKIPPED: no python3-otf2" for that part where it is absent);
- JSON: a file per rank (papi_mpi_trace.ranks/rank_NNNNNN.json, each of one rank, all of
  the index's base) and the index papi_mpi_trace.index.json (its schema), the one file
  papi_mpi_trace.json for these small jobs, and `papi_report --merge-trace OUT INDEX`
  gives the one file's events, event for event;
- no rank receives another's records: each rank receives at most LIMIT bytes more than
  the same job without a trace (names, heads, OTF2's own collectives), where a gather
  would bring rank 0 48 bytes a record (the test fails with f8b6ee5's gathered OTF2).
With checkpoints on (PAPI_MPI_CHECKPOINT=0.05) in every run, a finished job leaves no
checkpoint archive. --kill PROG: mpi_waits.c's checkpoint_kill (4 ranks, rank 3 SIGKILLed
after 500 ms of checkpoints) with PAPI_MPI_TRACE=otf2: rank 3's checkpoint archive,
papi_mpi_trace.rank3.checkpoint/traces.otf2, is read whole by otf2-print without a
warning, holds rank 3's location alone, and its ENTERs per MPI call are the calls of
rank 3's last checkpoint row (MPI_Init is no region).
Usage: check_mpi_trace_ranks.py --mpirun M --program PROG --shim LIB --np N
  [--rounds R] [--otf2-print P] [--kill PROG]"""
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from mpi_check import check, launch_args, run_failing_job, run_ranks, verdict

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "..", "python", "papi_report.py")
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from papi_report.load import schema_check  # noqa: E402

LIMIT = 64 * 1024  # bytes a rank may receive for an OTF2 trace: no records among them
RECORD = 48        # bytes of one record (src-c/common/trace_records.h)
CALLS = ("MPI_Send", "MPI_Irecv", "MPI_Wait", "MPI_Allreduce", "MPI_Barrier")


def run(args, out, trace):
    """The job in out with PAPI_MPI_TRACE=trace (None: no trace): (report, the bytes each
    rank received from MPI_Finalize on), report None when the job failed."""
    env = {"PAPI_MPI_OUTPUT_DIR": out, "COUNT_RECV_DIR": out, "LD_PRELOAD": args.shim,
           "PAPI_MPI_CHECKPOINT": "0.05"}
    if trace:
        env["PAPI_MPI_TRACE"] = trace
    p = run_ranks(args.mpirun, args.np, env, [args.program, "0", str(args.rounds)], tail=3000)
    if not check(p.returncode == 0, f"{trace or 'no trace'}: exit status {p.returncode}"):
        return None, {}
    got = {}
    for path in glob.glob(os.path.join(out, "recv_bytes.*")):
        with open(path, encoding="utf-8") as f:
            rank, n = f.read().split()
            got[int(rank)] = int(n)
    check(sorted(got) == list(range(args.np)), f"{trace}: every rank counted: {sorted(got)}")
    with open(os.path.join(out, "papi_mpi_report.json"), encoding="utf-8") as f:
        return json.load(f), got


def report_counts(rep):
    calls = {c: sum(r["calls"].get(c, {}).get("calls", 0) for r in rep["ranks"]) for c in CALLS}
    calls["ring"] = sum(r["regions"]["ring"]["entries"] for r in rep["ranks"])
    return calls


def json_counts(path):
    """Regions' slices, messages sent and received, collectives and tracks of the JSON
    trace."""
    with open(path, encoding="utf-8") as f:
        events = json.load(f)["traceEvents"]
    got = collections.Counter()
    tracks = set()
    for e in events:
        if e["ph"] == "M":
            continue
        tracks.add((e["pid"], e["tid"]))
        if e["ph"] == "B":
            got[e["name"]] += e.get("args", {}).get("calls", 1)
        elif e["ph"] in ("s", "f"):
            got["sends" if e["ph"] == "s" else "recvs"] += 1
        elif e["ph"] == "X":
            got["collectives"] += 1
    got["locations"] = len(tracks)
    return got


def otf2_counts(args, anchor):
    p = subprocess.run([args.otf2_print, anchor], capture_output=True, text=True)
    check(p.returncode == 0 and "warning" not in p.stderr,
          f"otf2-print exit status {p.returncode}, no warning: {p.stderr[-300:]}")
    got = collections.Counter()
    locations = set()
    for line in p.stdout.splitlines():
        m = re.match(r'^(ENTER|MPI_SEND|MPI_RECV|MPI_COLLECTIVE_END)\s+(\d+)\s+\d+\s*(?:Region: "([^"]*)")?', line)
        if not m:
            continue
        locations.add(int(m.group(2)))
        kind = m.group(1)
        key = {"ENTER": m.group(3), "MPI_SEND": "sends", "MPI_RECV": "recvs",
               "MPI_COLLECTIVE_END": "collectives"}[kind]
        got[key] += 1
    got["locations"] = len(locations)
    return got


def otf2_python_counts(anchor):
    """otf2_counts' counts read by OTF2's own Python reader (python3-otf2), or None where
    the module is absent."""
    try:
        import otf2
    except ImportError:
        return None
    kinds = {"MpiSend": "sends", "MpiRecv": "recvs", "MpiCollectiveEnd": "collectives"}
    got = collections.Counter()
    locations = set()
    with otf2.reader.open(anchor) as trace:
        for location, event in trace.events:
            kind = type(event).__name__
            key = event.region.name if kind == "Enter" else kinds.get(kind)
            if key is None:
                continue
            locations.add(location.name)
            got[key] += 1
    got["locations"] = len(locations)
    return got


def json_ranks(args, out, want):
    """The JSON trace rank by rank: its index, each rank's file, the one file (want: its
    counts) and papi_report --merge-trace of the index."""
    index = os.path.join(out, "papi_mpi_trace.index.json")
    if not check(os.path.exists(index), "papi_mpi_trace.index.json written"):
        return
    with open(index, encoding="utf-8") as f:
        doc = json.load(f)
    why = schema_check.check_document(index, doc, "trace_index")
    check(why is None, f"the index follows trace_index.schema.json: {why}")
    check(doc["ranks"] == args.np and doc["one_file"] == "papi_mpi_trace.json",
          f"the index: {args.np} ranks, the one file named: {doc}")
    files = sorted(glob.glob(os.path.join(out, "papi_mpi_trace.ranks", "rank_*.json")))
    want_files = [os.path.join(out, doc["files"] % r) for r in range(args.np)]
    check(files == want_files, f"a file per rank: {[os.path.basename(p) for p in files][:4]}...")
    for p in files:
        with open(p, encoding="utf-8") as f:
            other = json.load(f)["otherData"]
        check(other["ranks"] == 1 and other["base_ns"] == doc["base_ns"],
              f"{os.path.basename(p)}: one rank, the index's base: {other}")
    merged = os.path.join(out, "merged.json")
    p = subprocess.run([sys.executable, REPORT, "--merge-trace", merged, index],
                       capture_output=True, text=True)
    print(p.stdout.strip(), p.stderr.strip())
    if not check(p.returncode == 0, f"papi_report --merge-trace OUT INDEX: exit {p.returncode}"):
        return
    with open(merged, encoding="utf-8") as f:
        m = json.load(f)
    with open(os.path.join(out, "papi_mpi_trace.json"), encoding="utf-8") as f:
        one = json.load(f)
    check(m["traceEvents"] == one["traceEvents"] and m["otherData"] == one["otherData"],
          f"the merged index is the one file, event for event: {len(m['traceEvents'])} "
          f"and {len(one['traceEvents'])} events")
    records = sum(1 for e in m["traceEvents"] if e["ph"] != "M")
    check(records > 0 and json_counts(merged) == want,
          f"the merged index's counts are the one file's: {records} events")


def part_kill(args):
    top = tempfile.mkdtemp(prefix="papi_mpi_trace_kill_")
    try:
        env = {"PAPI_MPI_OUTPUT_DIR": top, "PAPI_MPI_CHECKPOINT": "0.05", "PAPI_MPI_TRACE": "otf2"}
        run_failing_job(args.mpirun, 4, env, [args.kill, "checkpoint_kill"], "rank 3 killed")
        names = sorted(os.listdir(top))
        print("left:", names)
        check("papi_mpi_trace" not in names, "no job archive (MPI_Finalize not reached)")
        anchor = os.path.join(top, "papi_mpi_trace.rank3.checkpoint", "traces.otf2")
        if not check(os.path.exists(anchor), "rank 3 left its checkpoint archive"):
            return
        row = os.path.join(top, "papi_mpi_rank3.checkpoint.json")
        with open(row if os.path.exists(row) else row.replace(".checkpoint.", ".checkpoint.prev."),
                  encoding="utf-8") as f:
            calls = {k: v["calls"] for k, v in json.load(f)["calls"].items() if k != "MPI_Init"}
        got = otf2_counts(args, anchor)
        enters = {k: got[k] for k in calls}
        print(f"rank 3's archive: {dict(got)}; its row's calls {calls}")
        check(got["locations"] == 1, f"one location, rank 3's: {got['locations']}")
        check(calls and enters == calls, f"rank 3's ENTERs {enters} = its row's calls {calls}")
        q = subprocess.run([args.otf2_print, "-G", anchor], capture_output=True, text=True)
        locs = re.findall(r"^LOCATION\s+(\d+)", q.stdout, re.M)
        check(locs == [str(3 << 16)], f"the archive defines rank 3's location alone: {locs}")
    finally:
        shutil.rmtree(top, ignore_errors=True)


def main():
    args = launch_args(more=("--shim",), options={"--rounds": {"type": int, "default": 1000},
                                                  "--otf2-print": {}, "--kill": {}})
    if not args.otf2_print or args.otf2_print == "none":
        print("SKIPPED: no otf2-print (Debian: otf2-tools)")
        return 77
    if args.kill:
        part_kill(args)
        return verdict()
    top = tempfile.mkdtemp(prefix="papi_mpi_trace_ranks_")
    try:
        runs = {}
        for trace in (None, "json", "otf2"):
            out = os.path.join(top, trace or "none")
            os.makedirs(out)
            runs[trace] = run(args, out, trace) + (out,)
        if any(rep is None for rep, _, _ in runs.values()):
            return verdict()
        anchor = os.path.join(runs["otf2"][2], "papi_mpi_trace", "traces.otf2")
        if not os.path.exists(anchor) and os.path.exists(os.path.join(runs["json"][2], "papi_mpi_trace.json")):
            print("SKIPPED: this build or machine has no libotf2")
            return 77
        if not check(os.path.exists(anchor), "papi_mpi_trace/traces.otf2 written"):
            return verdict()
        evts = sorted(os.path.basename(p) for p in glob.glob(os.path.join(os.path.dirname(anchor), "traces", "*.evt")))
        want = sorted(f"{r << 16}.evt" for r in range(args.np))
        check(evts == want, f"one event file per rank's location: {evts[:6]}..., expected {want[:6]}...")
        left = [n for t in runs for n in os.listdir(runs[t][2]) if ".checkpoint" in n]
        check(not left, f"a finished job leaves no checkpoint file or archive: {left}")
        rep = runs["otf2"][0]
        o = otf2_counts(args, anchor)
        j = json_counts(os.path.join(runs["json"][2], "papi_mpi_trace.json"))
        r = report_counts(rep)
        print(f"report {dict(r)}\notf2 {dict(o)}\njson {dict(j)}")
        check(r["MPI_Send"] == args.np * args.rounds, f"the report counts the ring's sends: {r['MPI_Send']}")
        for k in CALLS + ("ring",):
            check(o[k] == r[k], f"otf2: {k} {o[k]} = the report's {r[k]}")
        check(o["sends"] == o["recvs"] == r["MPI_Send"], f"otf2: sends {o['sends']} and receives "
              f"{o['recvs']} = the report's MPI_Send {r['MPI_Send']}")
        check(o["collectives"] == r["MPI_Allreduce"] + r["MPI_Barrier"],
              f"otf2: collectives {o['collectives']} = the report's")
        check(o["locations"] == args.np, f"otf2: {o['locations']} locations, one per rank")
        py = otf2_python_counts(anchor)
        if py is None:
            print("SKIPPED: no python3-otf2 (OTF2's Python reader; Debian: python3-otf2): the "
                  "archive is counted by otf2-print alone")
        else:
            print(f"otf2 (python3-otf2) {dict(py)}")
            check(py == o, f"python3-otf2 counts the archive as otf2-print does: {dict(py)}")
            check(py["MPI_Send"] == r["MPI_Send"] and py["locations"] == args.np,
                  f"python3-otf2: the report's {r['MPI_Send']} sends, {args.np} locations")
        # the JSON trace of the same job: the same counts (it has its own run's report)
        jr = report_counts(runs["json"][0])
        check(jr == r, f"the JSON run's report counts the same calls: {dict(jr)}")
        for k in CALLS + ("ring", "sends", "recvs", "collectives", "locations"):
            check(o[k] == j[k], f"{k}: otf2 {o[k]} = json {j[k]}")
        json_ranks(args, runs["json"][2], j)
        # bytes received from MPI_Finalize on, over the run without a trace
        base = runs[None][1]
        check(base.get(0, 0) > 0, f"the shim counts the wrapper's own transfers: rank 0 "
              f"{base.get(0)} bytes without a trace")
        records = sum(j[k] for k in ("sends", "recvs")) * (args.np - 1) // args.np
        for t in ("json", "otf2"):
            extra = {k: runs[t][1].get(k, 0) - base.get(k, 0) for k in range(args.np)}
            print(f"{t}: bytes received beyond the run without a trace {extra}; a gather "
                  f"would bring rank 0 at least {RECORD * records}")
            worst = max(extra.values())
            check(worst <= LIMIT, f"{t}: no rank receives records: at most {worst} bytes "
                  f"more than without a trace (limit {LIMIT})")
    finally:
        shutil.rmtree(top, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
