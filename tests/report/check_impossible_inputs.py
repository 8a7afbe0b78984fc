#!/usr/bin/env python3
"""check_impossible_inputs.py PAPI_REPORT: values no run can produce, and files cut short,
refused (issue 69, N7): papi_report exits 2 with one line naming the file and the JSON
path of the value, and writes no report; each against its unchanged file, which passes.

- The OMPT tool's table (ompt_PID.json): a thread's work above its region's wall time; a
  wall time of 2^64 - 1 ns; papi_run's file carrying one process's table twice.
- papi_run --gpu's file (gpu_activity_RUNID_PID.json): a device busy 10^9 s in a 17 ms
  run; a kernel's launches 2^64 - 1 (was a TypeError without a path); dropped records
  2^64 - 1 (was taken without a word).
- Region files: a region's real_time_nsec 2^64 - 1; two files of one rank (one process
  counted twice).
- Event logs (--merge-trace, --check): an empty papi_mpi_rankN.events.jsonl (was left out
  without a word); a record's times 2^63 - 1 ns (was a trace 292 years long).
- A JSON trace of layout version 99 (--merge-trace).
- papi_run --sample's process profile cut short: fewer stacks than distinct_stacks, or
  samples its stacks and dropped samples do not add up to.
- An MPI report of 2 rank rows claiming nranks 10^6 (--check, and the report); a finished
  rank's wall time 0 (--compare against it gave "inf, slower")."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
sys.path.insert(0, HERE)
from checks import check_said as check, verdict  # noqa: E402
import synthetic_logs  # noqa: E402
import synthetic_mpi_report  # noqa: E402

BIG64 = 2 ** 64 - 1
BIG63 = 2 ** 63 - 1
GPU_RUN = "h200-gpu-energy-1"  # the run of gpu_h200/rank_000000.json


def run(tool, args):
    p = subprocess.run([sys.executable, tool] + args, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def dump(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path


def refused(tool, args, what, path, field, out=None):
    """papi_report ARGS: exit 2, one line naming path and field; no report in out."""
    rc, said = run(tool, args)
    check(rc == 2 and path in said and field in said,
          "%s: exit 2 naming %s and %s (exit %d: %s)" % (what, os.path.basename(path), field, rc, said.strip()))
    if out:
        check(not os.path.exists(os.path.join(out, "report.html")), "%s: no report written" % what)


def passes(tool, args, what):
    rc, said = run(tool, args)
    check(rc == 0, "%s: the unchanged input passes (exit %d: %s)" % (what, rc, said.strip()[-400:]))


def ompt_doc(pid=4242):
    """A process's table as the OMPT tool writes it: one region, a team of 2."""
    def thr(n, work):
        return {"thread": n, "implicit_tasks": 1, "work_ns": work, "barrier_wait_ns": 0,
                "taskwait_wait_ns": 0, "wall_ns": 100000000, "join_wait_ns": 100000000 - work,
                "counted_tasks": 0, "events": {}}
    region = {"name": "work (a.c:12)", "function": "work", "file": "a.c", "line": 12,
              "module": "a.out", "instances": 1, "outermost_instances": 1, "wall_ns": 100000000,
              "team_sizes": [{"size": 2, "instances": 1, "wall_ns": 100000000}],
              "other_team_size_instances": 0,
              "efficiency": {"load_balance": 0.75, "scheduling": 0.8, "parallel": 0.6},
              "lost_ns": 80000000, "events": {}, "threads": [thr(0, 80000000), thr(1, 40000000)]}
    return {"tool": "papi_ompt", "kind": "ompt", "pid": pid, "runtime": "LLVM OMP version: 5.0",
            "omp_version": 201611, "unsupported_callbacks": [], "names": "libdw",
            "wall_ns": 150000000, "parallel_ns": 100000000, "serial_ns": 50000000,
            "threads_seen": 2, "threads_ended": 2,
            "not_measured": {"region_instances_dropped": 0, "regions_max": 1024,
                             "implicit_tasks_too_deep": 0, "nesting_max": 16,
                             "implicit_tasks_no_room": 0, "events_of_threads_past_max": 0,
                             "threads_max": 256},
            "counters": {"source": "", "events": [], "threads_counted": 0,
                         "threads_not_counted": 0, "reason": ""},
            "regions": [region],
            "efficiency": {"serialization": 0.6667, "load_balance": 0.75, "scheduling": 0.8,
                           "parallel": 0.4}}


def gpu_doc(busy_ns=15000000, wall_s=0.017):
    """papi_run --gpu's file of one process of run GPU_RUN: 3 launches of one kernel."""
    section = {"devices": [{"device": 0, "busy_ns": busy_ns}], "busy_ns": busy_ns,
               "kernel_launches": 3, "kernel_ns": busy_ns,
               "kernels": [{"name": "saxpy", "device": 0, "stream": 7, "launches": 3,
                            "total_ns": busy_ns, "mean_ns": busy_ns // 3}],
               "copies": {}, "memset": {"count": 0, "ns": 0, "bytes": 0},
               "sync": {"count": 0, "ns": 0}, "dropped": 0}
    pop = {"gpus": 1, "runtime_s": 0.001, "useful_sum_s": busy_ns / 1e9,
           "useful_max_s": busy_ns / 1e9, "active_max_s": busy_ns / 1e9,
           "offload_efficiency": 0.94, "parallel_efficiency": 0.88, "load_balance": 1.0,
           "communication_efficiency": 1.0, "orchestration_efficiency": 0.88}
    return {"tool": "papi_run", "kind": "gpu_activity", "run_id": GPU_RUN, "pid": 4343,
            "gpu": {"activity": {"on": True, "reason": "", "records": 4, "dropped": 0},
                    "total": section},
            "run_pop": {"wall_s": wall_s, "pop": pop}}


def profile_doc(pid=5151):
    """A process's profile (papi_run --sample): 5 samples in 2 stacks."""
    return {"kind": "profile",
            "run": {"id": "r1", "command": "prog", "start": "2026-01-01T00:00:00Z", "host": "h"},
            "pid": pid, "rank": None, "sampled_event": "perf::TASK-CLOCK", "period": 1000000,
            "call_graph": "fp", "call_graph_reason": "--call-graph fp given",
            "kernel_frames": False, "events": ["perf::TASK-CLOCK"], "samples": 5,
            "lost_records": 0, "stack_cap": 65536, "distinct_stacks": 2, "dropped_samples": 0,
            "dropped_weight": 0, "notes": "", "metrics": [],
            "frames": [{"name": "main", "module": "prog", "file": "a.c", "line": 3},
                       {"name": "work", "module": "prog", "file": "a.c", "line": 9}],
            "stacks": [{"tid": pid, "samples": 2, "counts": [2000000], "frames": [0]},
                       {"tid": pid, "samples": 3, "counts": [3000000], "frames": [0, 1]}]}


def region_file():
    with open(os.path.join(HERE, "gpu_h200", "rank_000000.json"), encoding="utf-8") as f:
        return json.load(f)


def openmp(tool, d):
    path = dump(os.path.join(d, "good", "ompt_4242.json"), ompt_doc())
    passes(tool, ["--openmp", path, "-o", os.path.join(d, "good", "out")], "OMPT table")
    cases = [("a thread's work above its region's wall",
              lambda x: x["regions"][0]["threads"][1].update(work_ns=250000000),
              "$.regions[0].threads[1].work_ns"),
             ("wall_ns 2^64 - 1", lambda x: x.update(wall_ns=BIG64, serial_ns=BIG64 - 100000000),
              "$.wall_ns")]
    for i, (what, edit, field) in enumerate(cases):
        doc = ompt_doc()
        edit(doc)
        path = dump(os.path.join(d, "ompt%d" % i, "ompt_4242.json"), doc)
        out = os.path.join(d, "ompt%d" % i, "out")
        refused(tool, ["--openmp", path, "-o", out], "OMPT table, " + what, path, field, out)
    # papi_run's file carrying one process's table twice
    reg = region_file()
    reg.update(tool="papi_run", openmp={"program_runtime": "libomp", "libomp_preloaded": "",
                                        "user_tools": "", "status": "measured", "reason": "",
                                        "tables_unread": 0, "processes": [ompt_doc()]})
    path = dump(os.path.join(d, "omp_run_good", "rank_000000.json"), reg)
    passes(tool, [path, "-o", os.path.join(d, "omp_run_good", "out")], "papi_run's file with a table")
    reg["openmp"]["processes"].append(ompt_doc())
    path = dump(os.path.join(d, "omp_run_twice", "rank_000000.json"), reg)
    out = os.path.join(d, "omp_run_twice", "out")
    refused(tool, [path, "-o", out], "papi_run's file with one process's table twice", path,
            "$.openmp.processes[1].pid", out)


def gpu(tool, d):
    def folder(name, doc):
        f = os.path.join(d, name)
        dump(os.path.join(f, "rank_000000.json"), region_file())
        return f, dump(os.path.join(f, "gpu_activity_%s_4343.json" % GPU_RUN), doc)
    f, _ = folder("gpu_good", gpu_doc())
    passes(tool, [f, "-o", os.path.join(f, "out")], "GPU activity file")
    check(os.path.exists(os.path.join(f, "out", "run_gpu_processes.csv")),
          "GPU activity file: read (run_gpu_processes.csv)")
    cases = [("busy 10^9 s in a 17 ms run", gpu_doc(busy_ns=10 ** 18), "$.gpu.total.devices[0].busy_ns"),
             ("launches 2^64 - 1", gpu_doc(), "$.gpu.total.kernels[0].launches"),
             ("dropped 2^64 - 1", gpu_doc(), "$.gpu.activity.dropped")]
    cases[1][1]["gpu"]["total"]["kernels"][0]["launches"] = BIG64
    cases[2][1]["gpu"]["activity"]["dropped"] = BIG64
    for i, (what, doc, field) in enumerate(cases):
        f, path = folder("gpu%d" % i, doc)
        refused(tool, [f, "-o", os.path.join(f, "out")], "GPU activity, " + what, path, field,
                os.path.join(f, "out"))


def regions(tool, d):
    reg = region_file()
    reg["threads"]["0"]["regions"]["1"]["real_time_nsec"] = BIG64
    path = dump(os.path.join(d, "reg_wall", "rank_000000.json"), reg)
    refused(tool, [path, "-o", os.path.join(d, "reg_wall", "out")], "region real_time_nsec 2^64 - 1",
            path, "$.threads[\"0\"].regions[\"1\"].real_time_nsec", os.path.join(d, "reg_wall", "out"))
    f = os.path.join(d, "reg_twice")
    dump(os.path.join(f, "rank_000000.json"), region_file())
    path = dump(os.path.join(f, "rank_000000-copy.json"), region_file())
    refused(tool, [f, "-o", os.path.join(f, "out")], "two region files of rank 0", path,
            "$.rank is 0", os.path.join(f, "out"))


def logs(tool, d):
    good = os.path.join(d, "logs_good")
    os.makedirs(good)
    synthetic_logs.write_logs(good, 2, 40)
    passes(tool, ["--merge-trace", os.path.join(d, "logs_good.json"), good], "event logs")
    passes(tool, ["--check", good], "event logs, --check")
    empty = os.path.join(d, "logs_empty")
    shutil.copytree(good, empty)
    path = os.path.join(empty, "papi_mpi_rank1.events.jsonl")
    open(path, "w").close()
    refused(tool, ["--merge-trace", os.path.join(d, "logs_empty.json"), empty],
            "an empty event log, --merge-trace", path, "empty")
    refused(tool, ["--check", empty], "an empty event log, --check", path, "empty")
    big = os.path.join(d, "logs_big")
    shutil.copytree(good, big)
    path = os.path.join(big, "papi_mpi_rank0.events.jsonl")
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    first = json.loads(lines[0])
    first["records"][0][2] = first["records"][0][3] = BIG63
    lines[0] = json.dumps(first)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    out = os.path.join(d, "logs_big.json")
    refused(tool, ["--merge-trace", out, big], "an event log's times 2^63 - 1", path,
            "$.records[0][2]")
    check(not os.path.exists(out), "no trace written for it")
    refused(tool, ["--check", big], "an event log's times 2^63 - 1, --check", path, "$.records[0][2]")


def traces(tool, d):
    f = os.path.join(d, "traces")
    os.makedirs(f)
    synthetic_logs.write_traces(f, 2, 20)
    paths = [os.path.join(f, "trace_rank%d.json" % r) for r in range(2)]
    passes(tool, ["--merge-trace", os.path.join(d, "traces_good.json")] + paths, "JSON traces")
    with open(paths[1], encoding="utf-8") as x:
        text = x.read()
    with open(paths[1], "w", encoding="utf-8") as x:
        x.write(text.replace('"version":1', '"version":99'))
    out = os.path.join(d, "traces_99.json")
    refused(tool, ["--merge-trace", out] + paths, "a trace of layout version 99", paths[1],
            "$.otherData.version")
    check(not os.path.exists(out), "no merged trace written for it")


def profiles(tool, d):
    path = dump(os.path.join(d, "prof_good", "profile_r1_5151.json"), profile_doc())
    passes(tool, ["--check", path], "a process's profile, --check")
    short = profile_doc()
    short["stacks"].pop()
    short["samples"] = 2
    cut = profile_doc()
    cut["samples"] = 500
    for name, doc, field in (("short", short, "$.stacks"), ("cut", cut, "$.samples")):
        path = dump(os.path.join(d, "prof_" + name, "profile_r1_5151.json"), doc)
        out = os.path.join(d, "prof_" + name, "out")
        refused(tool, [os.path.dirname(path), "-o", out], "a %s profile" % name, path, field, out)
        refused(tool, ["--check", path], "a %s profile, --check" % name, path, field)


def mpi(tool, d):
    f = os.path.join(d, "mpi_good")
    os.makedirs(f)
    synthetic_mpi_report.write(os.path.join(f, "papi_mpi_report.json"), 2)
    passes(tool, ["--check", f], "MPI report, --check")
    bad = os.path.join(d, "mpi_million")
    os.makedirs(bad)
    path = os.path.join(bad, "papi_mpi_report.json")
    with open(os.path.join(f, "papi_mpi_report.json"), encoding="utf-8") as x:
        text = x.read()
    with open(path, "w", encoding="utf-8") as x:
        x.write(text.replace('"nranks": 2,', '"nranks": 1000000,', 1))
    refused(tool, ["--check", bad], "2 rank rows claiming nranks 10^6, --check", path, "$.nranks")
    refused(tool, [bad, "-o", os.path.join(bad, "out")], "2 rank rows claiming nranks 10^6", path,
            "$.nranks", os.path.join(bad, "out"))

    def still(r, row):
        if r == 1:
            row.update(wall_s=0.0, mpi_s=0.0)
        return row
    zero = os.path.join(d, "mpi_zero")
    os.makedirs(zero)
    path = os.path.join(zero, "papi_mpi_report.json")
    synthetic_mpi_report.write(path, 2, still)
    out = os.path.join(d, "mpi_zero_cmp")
    refused(tool, ["--compare", f, zero, "-o", out], "--compare against a wall time of 0", path,
            "ranks[1].wall_s")
    check(not os.path.exists(os.path.join(out, "compare.txt")), "no comparison written for it")


def main():
    tool = sys.argv[1]
    d = tempfile.mkdtemp(prefix="papi_impossible_")
    for part in (openmp, gpu, regions, logs, traces, profiles, mpi):
        part(tool, d)
    return verdict("check_impossible_inputs", scratch=d)


if __name__ == "__main__":
    sys.exit(main())
