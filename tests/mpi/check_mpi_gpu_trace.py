#!/usr/bin/env python3
"""check_mpi_gpu_trace.py --mpirun M --program PROG --records FILE --cupti DIR --shim LIB
[--np 2] [--otf2-print P]: the GPU tracks of the job's traces (PAPI_MPI_TRACE json and
otf2). mpi_gpu_activity.c "trace" on the CUPTI double: each rank launches FILE
(tests/gpu_activity/region/a.txt) twice between two MPI_Barrier calls and prints each
launch's base (the double's moment its staged times count from). Rank 1's
CLOCK_MONOTONIC runs 1 s ahead (clock_shift_shim, PAPI_MPI_CLOCK_PINGPONG=1 so the
offset is measured). Per rank and format: a track "GPU D stream S" per device and
stream, each staged kernel and copy on it exactly once in time order (an operation
starting before the previous one on its stream ends cut there); rank 0's (the clock's
reference) at exactly base + its staged start and end; rank 1's all on one affine map
of its own clock (to 2 ns: the wrapper's interpolated offset) that moves its bases back
by the measured 1 s (within 50 ms), and between its own barriers as the program made
them (after the first one's end by 0.5 ms, before the second one's start): on rank 0's
clock as its MPI calls. The JSON trace follows its schema (tests/trace/check_trace.py), and
papi_report's timeline (tables/timeline_data.py) draws each rank's GPU tracks as lanes of
their own, its kernels "gpu_kernel" and its copies "gpu_copy" spans, as many as staged.
With --many N (mpi_gpu_activity.c "many": each rank launches N kernels, more than the
GPU activity keeps for a trace) the JSON trace holds each rank's first 65536 on its GPU
track and counts the rest as dropped records, two each, as its other records (the
schema is checked on the small trace above: 260,000 events take a minute to validate;
the file's dropped exactly 2 x (records filed - 65536) summed over the ranks, the rows'
records), said in one line."""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

from mpi_check import check, launch_args, rank_env, run_cmd, verdict
import cupti_records  # (tests/common, on the path by mpi_check)
import trace_tracks

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from papi_report.tables import timeline_data  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TRACE_CHECK = os.path.join(HERE, "..", "trace", "check_trace.py")
SCHEMA = os.path.join(HERE, "..", "..", "schema", "trace_json.schema.json")
SHIFT_NS = 1000000000

args = launch_args(more=("--records", "--cupti", "--shim"),
                   options={"--otf2-print": {}, "--many": {"type": int}})
KEPT = 65536  # the GPU operations a process keeps for a trace (gpu_tracelog.h)


def fit(pairs):
    """The least-squares line y = a x + b through (x, y) pairs, and its worst residual."""
    n = len(pairs)
    mx = sum(x for x, _ in pairs) / n
    my = sum(y for _, y in pairs) / n
    sxx = sum((x - mx) ** 2 for x, _ in pairs)
    a = sum((x - mx) * (y - my) for x, y in pairs) / sxx
    b = my - a * mx
    return a, b, max(abs(a * x + b - y) for x, y in pairs)


def check_rank(where, rank, tracks, bases):
    want = cupti_records.expected(args.records, bases)
    gpu = {t: ops for t, ops in tracks.items() if t.startswith("GPU ")}
    check({t: [o[0] for o in ops] for t, ops in gpu.items()} ==
          {t: [o[0] for o in ops] for t, ops in want.items()},
          "%s rank %d: GPU tracks' operations %s, want %s"
          % (where, rank, {t: len(o) for t, o in gpu.items()}, {t: len(o) for t, o in want.items()}))
    if set(gpu) != set(want) or any(len(gpu[t]) != len(want[t]) for t in want):
        return
    if rank == 0:  # the reference clock: no move at all
        check(gpu == want, "%s rank 0: GPU operations at base + staged times exactly: %s, want %s"
              % (where, gpu, want))
    else:
        pairs = [(w[k], g[k]) for t in want for w, g in zip(want[t], gpu[t]) for k in (1, 2)]
        a, b, worst = fit(pairs)
        moved = [x - (a * x + b) for x in bases]
        print("%s rank %d: trace = %.9f x local + %.0f, worst %.1f ns, bases moved by %s ns"
              % (where, rank, a, b, worst, ["%.0f" % m for m in moved]))
        check(worst <= 2, "%s rank %d: one map of the rank's clock (worst %.1f ns)"
              % (where, rank, worst))
        check(all(abs(m - SHIFT_NS) < 50e6 for m in moved),
              "%s rank %d: bases moved by %s ns, want %d (+-50 ms)" % (where, rank, moved, SHIFT_NS))
    barriers = [o for t, ops in tracks.items() if t.startswith("thread ") for o in ops
                if o[0] == "MPI_Barrier"]
    ops = [o for t in gpu for o in gpu[t]]
    ok = len(barriers) == 2 and all(barriers[0][2] + 500000 <= o[1] and o[2] <= barriers[1][1]
                                    for o in ops)
    check(ok, "%s rank %d: GPU operations between the rank's barriers %s"
          % (where, rank, [(b[1], b[2]) for b in barriers]))


def check_lanes(path, bases):
    """papi_report's timeline: per rank a lane per GPU track, its spans' kinds counted."""
    spans, _ = timeline_data.spans_from_events(timeline_data.read_events([path])[0])
    lanes = spans.attrs.get("gpu_lanes", {})
    got = collections.Counter()
    for lane, track in lanes.items():
        mine = spans[spans["lane"] == lane]
        for _, r in mine.iterrows():
            got[(int(r["rank"]), track, r["kind"])] += 1
    want = collections.Counter()
    for rank, b in bases.items():
        for track, ops in cupti_records.expected(args.records, b).items():
            for name, _, _ in ops:
                want[(rank, track, "gpu_copy" if name.startswith(("memcpy", "memset"))
                      else "gpu_kernel")] += 1
    check(got == want, "papi_report's timeline GPU lanes %s, want %s" % (dict(got), dict(want)))


def run(d, fmt):
    out = os.path.join(d, fmt)
    os.mkdir(out)
    env = {"LD_LIBRARY_PATH": args.cupti, "PAPI_MPI_OUTPUT_DIR": out, "PAPI_MPI_TRACE": fmt,
           "PAPI_MPI_CLOCK_PINGPONG": "1", "LD_PRELOAD": args.shim,
           "PAPI_TEST_CLOCK_SHIFT_RANK": "1", "PAPI_TEST_CLOCK_SHIFT_NS": str(SHIFT_NS)}
    p = run_cmd([args.mpirun, "-np", str(args.np)] + rank_env(args.mpirun, env)
                + [args.program, args.records, "trace"])
    check(p.returncode == 0, "%s: exit 0" % fmt)
    bases = collections.defaultdict(list)
    for m in re.finditer(r"^rank (\d+) base (\d+)$", p.stdout, re.M):
        bases[int(m.group(1))].append(int(m.group(2)))
    check(sorted(bases) == list(range(args.np)) and all(len(b) == 2 for b in bases.values()),
          "%s: two bases printed per rank (%s)" % (fmt, dict(bases)))
    return out, bases


def many(d):
    env = {"LD_LIBRARY_PATH": args.cupti, "PAPI_MPI_OUTPUT_DIR": d, "PAPI_MPI_TRACE": "json"}
    p = run_cmd([args.mpirun, "-np", str(args.np)] + rank_env(args.mpirun, env)
                + [args.program, args.records, "many", str(args.many)])
    check(p.returncode == 0, "many: exit 0")
    path = os.path.join(d, "papi_mpi_trace.json")
    rep_path = os.path.join(d, "papi_mpi_report.json")
    if not check(os.path.exists(path) and os.path.exists(rep_path), "many: trace and report"):
        return verdict()
    records = {r["rank"]: r["gpu"]["activity"]["records"]
               for r in json.load(open(rep_path))["ranks"]}
    got = trace_tracks.from_json(path)
    for r in range(args.np):
        gpu = [o for tr, ops in got.get(r, {}).items() if tr.startswith("GPU ") for o in ops]
        check(len(gpu) == KEPT and {o[0] for o in gpu} == {"bench_kernel"},
              "many: rank %d: %d GPU slices, want %d" % (r, len(gpu), KEPT))
    dropped = json.load(open(path))["otherData"]["dropped"]
    want = sum(2 * (n - KEPT) for n in records.values())
    check(records == {r: args.many for r in range(args.np)} and dropped == want,
          "many: the file's dropped %s, want %s (records filed %s)" % (dropped, want, records))
    lines = [ln for ln in p.stdout.splitlines() if "records dropped" in ln]
    check(len(lines) == 1 and "%d records dropped" % want in lines[0] and
          "GPU activity's 65536 operations" in lines[0], "many: one line says it: %s" % lines)
    return verdict()


def main():
    with tempfile.TemporaryDirectory() as d:
        if args.many:
            return many(d)
        out, bases = run(d, "json")
        path = os.path.join(out, "papi_mpi_trace.json")
        if check(os.path.exists(path), "json: %s written" % path):
            p = subprocess.run([sys.executable, TRACE_CHECK, "json", "--schema", SCHEMA, path],
                               capture_output=True, text=True)
            print(p.stdout + p.stderr)
            check(p.returncode == 0, "json: the trace follows its schema, B/E balanced")
            got = trace_tracks.from_json(path)
            for r in range(args.np):
                check_rank("json", r, got.get(r, {}), bases[r])
            check_lanes(path, bases)
        if not args.otf2_print or not os.path.exists(args.otf2_print):
            print("otf2: not checked: no otf2-print")
            return verdict()
        out, bases = run(d, "otf2")
        anchor = os.path.join(out, "papi_mpi_trace", "traces.otf2")
        if check(os.path.exists(anchor), "otf2: %s written" % anchor):
            got = trace_tracks.from_otf2(anchor, args.otf2_print)
            for r in range(args.np):
                check_rank("otf2", r, got.get(r, {}), bases[r])
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
