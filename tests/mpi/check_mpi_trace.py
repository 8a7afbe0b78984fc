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
  (a preloaded shim): one line from rank 0 each, no trace, the report still written;
--part metrics: with PAPI_INTERVAL and PAPI_MPI_METRICS=CPU_UTILIZATION each rank's
  metric track (JSON counter track, OTF2 metric records of a double member) holds the
  row's series' metric of every interval, value for value, and the track of the region
  "ring" one point, the region's own task clock over its wall time;
--part threads: mpi_threads.c (MPI_THREAD_MULTIPLE: 3 threads besides the main one make
  50 MPI_Comm_rank and one MPI_Sendrecv to their own rank with tag 10 + t): a track per
  rank and thread (JSON tid = the thread's OS id), each worker's 50 + 1 calls and its own
  message on its own track; OTF2 a location per rank and thread with the same counts;
--part threads_many: mpi_threads.c "many" (the workers also make 2000 rounds of an
  MPI_Sendrecv and an Isend + Irecv + Waitall(2), all at once): calls that log two
  records each stay one slice each, on their own thread's track, however the threads'
  records interleave: per worker 2001 Sendrecv and 2000 Waitall slices (JSON and OTF2),
  2 x 2000 + 1 messages sent and received on its track, totals the report's calls;
--part waits_null: mpi_waits_null.c (Wait, Waitall, Waitany, Waitsome and the four Test
  forms on MPI_REQUEST_NULL handles, then each Test form polling a receive): every call
  in the JSON trace, each call's count the report's (a slice of folded polls counting its
  args.calls); in OTF2 (no count on a fold) the Wait forms' exactly;
--part persist_reuse: mpi_persist_reuse.c (persistent requests freed and their handles
  reused with other partners, one round filed while recording was paused): each rank's
  partners in the report and its messages in the trace (the event log) are each
  request's own partner, tag and bytes, once per start, and the wait states match them;
  with 6000 persistent sends alive at once (the table holds 4096) the partners and the
  trace both lack the same ones, counted once in partners_dropped.
Usage: check_mpi_trace.py --mpirun M --program PROG
  --part json|otf2|bad|metrics|threads|threads_many|waits_null|persist_reuse
  [--otf2-print P] [--no-otf2-shim LIB] [--threads-program PROG] [--waits-program PROG]
  [--persist-program PROG]"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from mpi_check import check, rank_env, run_cmd, verdict

HERE = os.path.dirname(os.path.abspath(__file__))
TRACE_CHECK = os.path.join(HERE, "..", "trace", "check_trace.py")
SCHEMA = os.path.join(HERE, "..", "..", "schema", "trace_json.schema.json")
NP = 4


def run(args, out, env, extra=(), program=None):
    e = {"PAPI_MPI_OUTPUT_DIR": out}
    e.update(env)
    p = run_cmd([args.mpirun, "-np", str(NP)] + rank_env(args.mpirun, e) +
                [program or args.program] + list(extra),
                tail=3000)
    check(p.returncode == 0, f"exit status {p.returncode}")
    path = os.path.join(out, "papi_mpi_report.json")
    if not check(os.path.exists(path), "report written"):
        return None, p
    with open(path, encoding="utf-8") as f:
        return json.load(f), p


def otf2_folder(args, out):
    """out/otf2, made for a part's OTF2 run; None (the part checks the JSON only) when
    there is no otf2-print to read the trace."""
    if not args.otf2_print or args.otf2_print == "none":
        print("otf2: no otf2-print (Debian: otf2-tools): the JSON only")
        return None
    sub = os.path.join(out, "otf2")
    os.makedirs(sub)
    return sub


def otf2_written(out, p, ran, skip=False):
    """The anchor of the OTF2 trace the job p (ran: its report was written) left in out,
    or None: a build or machine without libotf2 (the job says so) is a skip (exit 77) or,
    with skip False, a note (the JSON only); a missing trace otherwise a failed check."""
    anchor = os.path.join(out, "papi_mpi_trace", "traces.otf2")
    if ran and "libotf2" in p.stdout and not os.path.exists(anchor):
        if skip:
            print("SKIPPED: this build or machine has no libotf2: " + p.stdout.strip()[-200:])
            sys.exit(77)
        print("otf2: this build or machine has no libotf2: the JSON only")
        return None
    if not ran or not check(os.path.exists(anchor), "papi_mpi_trace/traces.otf2 written"):
        return None
    return anchor


def json_case(args, out, what, env):
    """The job run with a JSON trace and env in out/<what>: (report, run, the trace's path,
    None where the report or the trace is missing)."""
    sub = os.path.join(out, what.replace(" ", "_"))
    os.makedirs(sub)
    rep, p = run(args, sub, dict(env, PAPI_MPI_TRACE="json"))
    path = os.path.join(sub, "papi_mpi_trace.json")
    if rep is None or not check(os.path.exists(path), f"{what}: papi_mpi_trace.json written"):
        return rep, p, None
    return rep, p, path


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


def region_metric_points(rep):
    """Counter records of the regions' named metrics: one per metric with a value (the
    default CPU_UTILIZATION ...) per region entry."""
    return sum(sum(1 for v in r.get("named_metrics", {}).values() if v is not None) *
               sum(g["entries"] for g in r["regions"].values()) for r in rep["ranks"])


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
    trace_check(["json", "--schema", SCHEMA, "--tracks", str(NP), "--counters",
                 str(region_metric_points(rep))] + expected(rep) + [path])
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
    rep, p, path = json_case(args, out, "small log", {"PAPI_MPI_LOG_RECORDS": "12"})
    if path is None:
        return
    with open(path, encoding="utf-8") as f:
        other = json.load(f).get("otherData", {})
    logged = sum(r["calls"][c]["calls"] for r in rep["ranks"]
                 for c in ("MPI_Comm_rank", "MPI_Comm_size", "MPI_Send", "MPI_Irecv", "MPI_Wait",
                           "MPI_Allreduce", "MPI_Barrier")) + 2 * NP  # + region enter/exit
    logged += region_metric_points(rep)  # the named metrics of each region entry
    print(f"small log: file says {other.get('dropped')} dropped, {logged} records were made")
    check(other.get("dropped") == logged - 12 * NP, f"small log: dropped {other.get('dropped')}, "
          f"expected {logged - 12 * NP}")
    lines = [l for l in p.stdout.splitlines() if "records dropped" in l]
    check(len(lines) == 1, f"small log: one line says the drops: {lines}")
    trace_check(["json", "--schema", SCHEMA, "--one-rank", "--tracks", str(NP), path])
    # PAPI_INTERVAL: each sample of each rank's series (all but the last, the row's own
    # counts read at MPI_Finalize) a counter record per event, counts since MPI_Init
    rep, p, path = json_case(args, out, "interval", {"PAPI_INTERVAL": "0.001"})
    if path is None:
        return
    want = sum(max(len(r.get("series", {}).get("samples", [])) - 1, 0) * len(rep["events"])
               for r in rep["ranks"])
    # and each named metric (CPU_UTILIZATION by default) of each of those intervals
    want += sum(1 for r in rep["ranks"] for s in r.get("series", {}).get("samples", [])[:-1]
                for v in s.get("metrics", {}).values() if v is not None)
    want += region_metric_points(rep)
    print(f"interval: {want} counter records expected from the report's series")
    trace_check(["json", "--schema", SCHEMA, "--tracks", str(NP), "--counters", str(want)] +
                expected(rep) + [path])


def part_otf2(args, out):
    if not args.otf2_print or args.otf2_print == "none":
        print("SKIPPED: no otf2-print (Debian: otf2-tools)")
        sys.exit(77)
    rep, p = run(args, out, {"PAPI_MPI_TRACE": "otf2"})
    anchor = otf2_written(out, p, rep is not None, skip=True)
    if anchor is None:
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


def series_metric(rep, rank, name):
    """The row's series' values of a named metric, one per interval but the last (the
    row's own counts at MPI_Finalize, not in the trace); null ones left out as the trace
    leaves them out."""
    row = rep["ranks"][rank]
    return [s["metrics"][name] for s in row.get("series", {}).get("samples", [])[:-1]
            if s.get("metrics", {}).get(name) is not None]


def same_values(got, want, what, tol=1e-6):
    ok = len(got) == len(want) and all(abs(a - b) <= tol * max(1.0, abs(b)) for a, b in zip(got, want))
    return check(ok and len(want) > 0, f"{what}: {len(got)} values {got[:4]}..., the series' "
                 f"{len(want)} {want[:4]}...")


def region_metric(rep, rank, name, got, tol):
    """The region "ring" (entered once per rank) has one point of the metric, at its
    exit: the metric of the region's counts over its wall time. Where the metric is the
    task clock over the wall time (no PMU: the default events), it is checked against the
    region's own counters, scaled as the row's metric is (row metric / row's ratio)."""
    if not check(len(got) == 1, f"rank {rank}: one {name} point for region ring: {got}"):
        return
    row = rep["ranks"][rank]
    reg = row["regions"]["ring"]
    task, metric = "perf::TASK-CLOCK", row.get("named_metrics", {}).get(name)
    if task not in row["counters"] or not metric or task not in reg.get("counters", {}):
        print(f"rank {rank}: region ring's {name} {got[0]} (no task clock to check it by)")
        return
    scale = metric / (row["counters"][task] / row["wall_s"])
    want = scale * reg["counters"][task] / reg["wall_s"]
    print(f"rank {rank}: region ring's {name} {got[0]:.6f}, from its counters {want:.6f}")
    check(abs(got[0] - want) <= tol + 1e-6 * abs(want) + 1e-6,
          f"rank {rank}: region ring's {name} {got[0]} = its task clock over its wall {want}")


def otf2_lines(args, anchor):
    p = subprocess.run([args.otf2_print, anchor], capture_output=True, text=True)
    check(p.returncode == 0, f"otf2-print exit status {p.returncode}: {p.stderr[-300:]}")
    return p.stdout.splitlines()


def part_metrics(args, out):
    name = "CPU_UTILIZATION"
    env = {"PAPI_INTERVAL": "0.005", "PAPI_MPI_METRICS": name}
    rep, _ = run(args, out, dict(env, PAPI_MPI_TRACE="json"), ["100"])  # 100 ms of work
    path = os.path.join(out, "papi_mpi_trace.json")
    if rep is None or not check(os.path.exists(path), "papi_mpi_trace.json written"):
        return
    trace_check(["json", "--schema", SCHEMA, "--tracks", str(NP)] + expected(rep) + [path])
    with open(path, encoding="utf-8") as f:
        events = json.load(f)["traceEvents"]
    for r in range(NP):
        want = series_metric(rep, r, name)
        got = [e["args"]["value"] for e in sorted(
            (e for e in events if e["ph"] == "C" and e["pid"] == r and
             e["name"] == name), key=lambda e: e["ts"])]
        print(f"rank {r}: {name} track {len(got)} points, series {len(want)}")
        same_values(got, want, f"rank {r}'s {name} track in the JSON", 2e-6)
        region_metric(rep, r, name, [e["args"]["value"] for e in events
                                     if e["ph"] == "C" and e["pid"] == r and
                                     e["name"] == name + " [region ring]"], 2e-6)
        events_tracks = {e["name"] for e in events if e["ph"] == "C" and e["pid"] == r}
        check(set(rep["events"]) <= events_tracks, f"rank {r}: the raw counters' tracks beside "
              f"the metric's: {sorted(events_tracks)}")
    sub = otf2_folder(args, out)
    if sub is None:
        return
    rep, p = run(args, sub, dict(env, PAPI_MPI_TRACE="otf2"), ["100"])
    anchor = otf2_written(sub, p, rep is not None)
    if anchor is None:
        return
    # METRIC <location> <time> Metric: <ref>, <n> Value(s): ("NAME" <m>; DOUBLE; v)
    got = collections.defaultdict(list)
    for line in otf2_lines(args, anchor):
        m = re.match(r'^METRIC\s+(\d+)\s+(\d+)\s.*\("%s" <\d+>; (\w+); ([^)]+)\)' % name, line)
        if m:
            check(m.group(3) == "DOUBLE", f"the metric is a double member: {line}")
            got[int(m.group(1)) >> 16].append(float(m.group(4)))
    reg = collections.defaultdict(list)
    for line in otf2_lines(args, anchor):
        m = re.match(r'^METRIC\s+(\d+)\s+(\d+)\s.*\("%s \[region ring\]" <\d+>; DOUBLE; ([^)]+)\)' % name,
                     line)
        if m:
            reg[int(m.group(1)) >> 16].append(float(m.group(3)))
    for r in range(NP):
        region_metric(rep, r, name, reg.get(r, []), 5e-6)
        # otf2-print writes 6 significant digits
        same_values(got.get(r, []), series_metric(rep, r, name), f"rank {r}'s {name} in OTF2", 5e-6)


def part_threads(args, out):
    if not args.threads_program:
        check(False, "--threads-program is needed")
        return
    np_, workers = 2, 3
    args.program = args.threads_program
    e = {"PAPI_MPI_OUTPUT_DIR": out, "PAPI_MPI_TRACE": "json"}
    p = run_cmd([args.mpirun, "-np", str(np_)] + rank_env(args.mpirun, e) + [args.program, "0"],
                tail=3000)
    if "SKIPPED" in p.stdout:
        print("SKIPPED: MPI_THREAD_MULTIPLE not provided")
        sys.exit(77)
    check(p.returncode == 0, f"exit status {p.returncode}")
    path = os.path.join(out, "papi_mpi_trace.json")
    if not check(os.path.exists(path), "papi_mpi_trace.json written"):
        return
    with open(os.path.join(out, "papi_mpi_report.json"), encoding="utf-8") as f:
        rep = json.load(f)
    trace_check(["json", "--schema", SCHEMA, "--tracks", str(np_ * (workers + 1)),
                 "--messages", str(np_ * workers), path])
    with open(path, encoding="utf-8") as f:
        events = json.load(f)["traceEvents"]
    for r in range(np_):
        check(rep["ranks"][r]["threads"] == workers + 1, f"rank {r}: the row's threads "
              f"{rep['ranks'][r]['threads']}")
        by_tid = collections.defaultdict(collections.Counter)
        for ev in events:
            if ev["pid"] == r and ev["ph"] == "B":
                by_tid[ev["tid"]][ev["name"]] += 1
        flows = collections.defaultdict(list)
        for ev in events:
            if ev["pid"] == r and ev["ph"] in ("s", "f"):
                flows[ev["tid"]].append((ev["ph"], ev["args"]["tag"]))
        print(f"rank {r}: tracks {dict((t, dict(c)) for t, c in by_tid.items())}, flows {dict(flows)}")
        check(len(by_tid) == workers + 1, f"rank {r}: a track per thread: {sorted(by_tid)}")
        work = [t for t, c in by_tid.items() if c["MPI_Sendrecv"] == 1]
        check(len(work) == workers and all(by_tid[t]["MPI_Comm_rank"] == 50 for t in work),
              f"rank {r}: each worker's 50 MPI_Comm_rank and 1 MPI_Sendrecv on its own track")
        tags = sorted(tag for t in work for ph, tag in flows[t] if ph == "s")
        check(tags == [10, 11, 12] and all(sorted(flows[t]) == [("f", flows[t][0][1]), ("s", flows[t][0][1])]
                                           for t in work),
              f"rank {r}: each worker's send and receive (its own tag) on its track: {dict(flows)}")
        total = collections.Counter()
        for c in by_tid.values():
            total.update(c)
        for call in ("MPI_Comm_rank", "MPI_Sendrecv"):
            check(total[call] == rep["ranks"][r]["calls"][call]["calls"],
                  f"rank {r}: {call} slices {total[call]} = the report's calls")
    sub = otf2_folder(args, out)
    if sub is None:
        return
    e = {"PAPI_MPI_OUTPUT_DIR": sub, "PAPI_MPI_TRACE": "otf2"}
    p = run_cmd([args.mpirun, "-np", str(np_)] + rank_env(args.mpirun, e) + [args.program, "0"],
                tail=3000)
    anchor = otf2_written(sub, p, True)
    if anchor is None:
        return
    enters = collections.defaultdict(collections.Counter)
    for line in otf2_lines(args, anchor):
        m = re.match(r'^ENTER\s+(\d+)\s+\d+\s+Region: "([^"]*)"', line)
        if m:
            enters[int(m.group(1))][m.group(2)] += 1
    for r in range(np_):
        locs = {loc: c for loc, c in enters.items() if loc >> 16 == r}
        work = [loc for loc, c in locs.items() if c["MPI_Sendrecv"] == 1 and c["MPI_Comm_rank"] == 50]
        print(f"otf2 rank {r}: locations {dict((l, dict(c)) for l, c in locs.items())}")
        check(len(locs) == workers + 1 and len(work) == workers,
              f"otf2 rank {r}: a location per thread, each worker's calls on its own: {sorted(locs)}")


MANY = 2000


def part_threads_many(args, out):
    if not args.threads_program:
        check(False, "--threads-program is needed")
        return
    np_, workers = 2, 3
    want = {"MPI_Sendrecv": MANY + 1, "MPI_Waitall": MANY, "MPI_Isend": MANY,
            "MPI_Irecv": MANY, "MPI_Comm_rank": 50}
    fmts = ["json"] + ([] if not args.otf2_print or args.otf2_print == "none" else ["otf2"])
    for fmt in fmts:
        sub = os.path.join(out, fmt)
        os.makedirs(sub)
        e = {"PAPI_MPI_OUTPUT_DIR": sub, "PAPI_MPI_TRACE": fmt}
        p = run_cmd([args.mpirun, "-np", str(np_)] + rank_env(args.mpirun, e) +
                    [args.threads_program, "0", "many"], tail=3000)
        if "SKIPPED" in p.stdout:
            print("SKIPPED: MPI_THREAD_MULTIPLE not provided")
            sys.exit(77)
        check(p.returncode == 0, f"{fmt}: exit status {p.returncode}")
        with open(os.path.join(sub, "papi_mpi_report.json"), encoding="utf-8") as f:
            rep = json.load(f)
        slices = collections.defaultdict(collections.Counter)  # (rank, track) -> call -> n
        msgs = collections.defaultdict(collections.Counter)    # (rank, track) -> s/f -> n
        if fmt == "json":
            with open(os.path.join(sub, "papi_mpi_trace.json"), encoding="utf-8") as f:
                for ev in json.load(f)["traceEvents"]:
                    if ev["ph"] == "B":
                        slices[(ev["pid"], ev["tid"])][ev["name"]] += 1
                    elif ev["ph"] in ("s", "f"):
                        msgs[(ev["pid"], ev["tid"])][ev["ph"]] += 1
        else:
            anchor = os.path.join(sub, "papi_mpi_trace", "traces.otf2")
            if "libotf2" in p.stdout and not os.path.exists(anchor):
                print("otf2: this build or machine has no libotf2: the JSON only")
                continue
            for line in otf2_lines(args, anchor):
                m = re.match(r'^(ENTER|MPI_SEND|MPI_RECV)\s+(\d+)\s+\d+\s+(?:Region: "([^"]*)")?', line)
                if not m:
                    continue
                loc = int(m.group(2))
                key = (loc >> 16, loc & 0xffff)
                if m.group(1) == "ENTER":
                    slices[key][m.group(3)] += 1
                else:
                    msgs[key]["s" if m.group(1) == "MPI_SEND" else "f"] += 1
        for r in range(np_):
            tracks = {t: c for (rr, t), c in slices.items() if rr == r}
            work = [t for t, c in tracks.items() if c["MPI_Sendrecv"] > 0]
            print(f"{fmt} rank {r}: " + "; ".join(
                f"{t}: {dict(c)} msgs {dict(msgs[(r, t)])}" for t, c in sorted(tracks.items())))
            check(len(tracks) == workers + 1 and len(work) == workers,
                  f"{fmt} rank {r}: a track per thread, {workers} with the workers' calls")
            for t in work:
                got = {k: tracks[t][k] for k in want}
                check(got == want, f"{fmt} rank {r} track {t}: one slice per call: {got}, "
                      f"expected {want}")
                m = msgs[(r, t)]
                check(m["s"] == 2 * MANY + 1 and m["f"] == 2 * MANY + 1,
                      f"{fmt} rank {r} track {t}: messages sent and received {dict(m)}, "
                      f"expected {2 * MANY + 1} each")
            for call in want:
                total = sum(c[call] for c in tracks.values())
                check(total == rep["ranks"][r]["calls"][call]["calls"],
                      f"{fmt} rank {r}: {call} slices {total} = the report's calls")


WAIT_TEST = ("MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Test",
             "MPI_Testall", "MPI_Testany", "MPI_Testsome")


def part_waits_null(args, out):
    """Every Wait and Test call a slice, as the report counts it, those on nothing but
    MPI_REQUEST_NULL handles included (mpi_waits_null.c: 7 rounds of the 8 forms)."""
    rounds = 7
    for fmt in ("json", "otf2"):
        if fmt == "otf2" and (not args.otf2_print or args.otf2_print == "none"):
            print("otf2: no otf2-print (Debian: otf2-tools): the JSON only")
            continue
        sub = os.path.join(out, fmt)
        os.makedirs(sub)
        rep, p = run(args, sub, {"PAPI_MPI_TRACE": fmt}, program=args.waits_program)
        if rep is None:
            continue
        want = {c: calls(rep, c) for c in WAIT_TEST}
        # the Wait forms: the null rounds; each Test form: those and its polling rounds,
        # each a receive polled until done (at least one poll that found it not done)
        waits = {c: want[c] for c in WAIT_TEST if c.startswith("MPI_Wait")}
        check(waits == {c: NP * rounds for c in waits},
              f"{fmt}: the report counts every Wait call: {waits}, expected {NP * rounds} each")
        for c in WAIT_TEST:
            if c.startswith("MPI_Test"):
                check(want[c] > NP * rounds * 2,
                      f"{fmt}: the report counts the polls of {c}: {want[c]} > {NP * rounds * 2}")
        regions = [a for c in WAIT_TEST for a in ("--region", f"{c}={want[c]}")]
        if fmt == "json":
            trace_check(["json", "--schema", SCHEMA, "--tracks", str(NP),
                         "--messages", str(NP * rounds * 4)] +
                        regions + [os.path.join(sub, "papi_mpi_trace.json")])
            continue
        anchor = os.path.join(sub, "papi_mpi_trace", "traces.otf2")
        if "libotf2" in p.stdout and not os.path.exists(anchor):
            print("otf2: this build or machine has no libotf2: the JSON only")
            continue
        # OTF2: a fold of polls is one ENTER/LEAVE without its count (the writer sets no
        # attributes): the Wait forms' calls exact, and the messages
        trace_check(["otf2", "--otf2-print", args.otf2_print, "--locations", str(NP),
                     "--messages", str(NP * rounds * 4)] +
                    [a for c in waits for a in ("--region", f"{c}={want[c]}")] + [anchor])


def flows(doc, ph, key):
    """Each rank's flow ends of kind ph ("s": sends, "f": receives) as a dict
    {rank: {(partner, tag, bytes): messages}} (key: "to" or "from")."""
    out = {}
    for e in doc["traceEvents"]:
        if e["ph"] == ph:
            k = (e["args"][key], e["args"]["tag"], e["args"]["bytes"])
            mine = out.setdefault(e["pid"], {})
            mine[k] = mine.get(k, 0) + 1
    return out


def part_persist_reuse(args, out):
    """Persistent requests freed and their handles reused by *_init calls with other
    partners, one round made while recording was paused (mpi_persist_reuse.c): the
    report's partners and the trace's messages (the event log) both see each request's
    own partner, tag and bytes, at each start."""
    rep, p = run(args, out, {"PAPI_MPI_TRACE": "json"}, program=args.persist_program)
    path = os.path.join(out, "papi_mpi_trace.json")
    if rep is None or not check(os.path.exists(path), "papi_mpi_trace.json written"):
        return
    trace_check(["json", "--schema", SCHEMA, "--tracks", str(NP), "--messages", str(5 * NP),
                 path])
    print("\n".join(l for l in p.stdout.splitlines() if l.startswith("REUSED")))
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    sends, recvs = flows(doc, "s", "to"), flows(doc, "f", "from")
    for row in rep["ranks"]:
        r = row["rank"]
        right, left, across = (r + 1) % NP, (r + NP - 1) % NP, (r + 2) % NP
        want = {right: (1, 4, 3, 24), left: (3, 24, 1, 4), across: (1, 12, 1, 12)}
        got = {q["rank"]: (q["sends"], q["bytes_sent"], q["recvs"], q["bytes_recv"])
               for q in row["partners"]}
        check(got == want and row["partners_dropped"] == 0,
              f"rank {r}: partners (sends, bytes_sent, recvs, bytes_recv) {got}, "
              f"expected {want}, {row['partners_dropped']} dropped")
        want = {(right, 1, 4): 1, (left, 2, 8): 3, (across, 3, 12): 1}
        check(sends.get(r) == want,
              f"rank {r}: trace's sends (to, tag, bytes): {sends.get(r)}, expected {want}")
        want = {(left, 1, 4): 1, (right, 2, 8): 3, (across, 3, 12): 1}
        check(recvs.get(r) == want,
              f"rank {r}: trace's receives (from, tag, bytes): {recvs.get(r)}, expected {want}")
    matched = rep["wait_states"]["matched"]
    check(matched["p2p"] == 5 * NP and matched["p2p_unmatched"] == 0,
          f"the wait states match every message: {matched}")
    # more persistent requests than the table holds: the partners and the trace miss
    # the same ones, counted once in partners_dropped
    sub = os.path.join(out, "drop")
    os.makedirs(sub)
    many = 6000  # mpi_persist_reuse.c's MANY
    rep, p = run(args, sub, {"PAPI_MPI_TRACE": "json"}, extra=["drop"],
                 program=args.persist_program)
    path = os.path.join(sub, "papi_mpi_trace.json")
    if rep is None or not check(os.path.exists(path), "drop: papi_mpi_trace.json written"):
        return
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    sends, recvs = flows(doc, "s", "to"), flows(doc, "f", "from")
    for row in rep["ranks"]:
        r, dropped = row["rank"], row["partners_dropped"]
        right, left = (r + 1) % NP, (r + NP - 1) % NP
        got = {q["rank"]: (q["sends"], q["recvs"]) for q in row["partners"]}
        print(f"drop: rank {r}: {dropped} of {many} requests dropped, partners {got}")
        check(many - 4096 <= dropped < many,
              f"drop: rank {r}: partners_dropped {dropped}, expected {many - 4096} to {many - 1}")
        check(got == {right: (many - dropped, 0), left: (0, many)},
              f"drop: rank {r}: partners (sends, recvs) {got}, expected "
              f"{{{right}: ({many - dropped}, 0), {left}: (0, {many})}}")
        check(sends.get(r) == {(right, 4, 4): many - dropped},
              f"drop: rank {r}: trace's sends {sends.get(r)}, expected "
              f"{{({right}, 4, 4): {many - dropped}}}")
        check(recvs.get(r) == {(left, 4, 4): many},
              f"drop: rank {r}: trace's receives {recvs.get(r)}, expected {{({left}, 4, 4): {many}}}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--part", choices=["json", "otf2", "bad", "metrics", "threads", "threads_many",
                                           "waits_null", "persist_reuse"], required=True)
    ap.add_argument("--otf2-print")
    ap.add_argument("--no-otf2-shim")
    ap.add_argument("--threads-program")
    ap.add_argument("--waits-program")
    ap.add_argument("--persist-program")
    args = ap.parse_args()
    out = tempfile.mkdtemp(prefix="papi_mpi_trace_")
    try:
        {"json": part_json, "otf2": part_otf2, "bad": part_bad, "metrics": part_metrics,
         "threads": part_threads, "threads_many": part_threads_many,
         "waits_null": part_waits_null, "persist_reuse": part_persist_reuse}[args.part](args, out)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
