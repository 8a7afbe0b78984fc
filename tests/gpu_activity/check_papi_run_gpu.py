#!/usr/bin/env python3
"""papi_run --gpu on a program with no PAPI in it (gpu_plain.c, the CUPTI double linked):
    check_papi_run_gpu.py PAPI_RUN GPU_PLAIN DOUBLE_DIR RECORDS
The program launches RECORDS (region/a.txt) twice and exits without a flush: the
preloaded library files them at exit into papi_run_output/gpu_activity_RUNID_PID.json,
exact (busy 4400 and 600 ns per device, 6 + 2 launches, 8192 B to the device, 2000 B
back, 1400 ns of synchronisation) and its whole run's host/device POP factors (run_pop)
from them, on since papi_run sets PAPI_GPU_ACTIVITY=1 (no CUDA runtime is loaded).
papi_report on papi_run's folder gives that file's figures in its run_gpu_kernels,
run_gpu_processes and run_gpu_pop tables. Without --gpu nothing records it and no such
file is written. With --trace json and
otf2 (otf2-print, where there is one) papi_run's trace holds, beside the program's
region, a track per device and stream with each staged kernel and copy exactly once at
the program's printed base + its staged start and end (cut where it starts before the
previous one on its stream ends), and the file the preloaded library handed them over in
is gone; two processes of the program that run at once each have GPU tracks of their own.
Every file follows its schema (report_check; the JSON trace
tests/trace/check_trace.py)."""
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check, verdict  # noqa: E402
import cupti_records  # noqa: E402
import trace_tracks  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TRACE_CHECK = os.path.join(HERE, "..", "trace", "check_trace.py")
SCHEMA = os.path.join(HERE, "..", "..", "schema", "trace_json.schema.json")
PAPI_REPORT = os.path.join(HERE, "..", "..", "python", "papi_report.py")

report_check.guard()


def run(papi_run, plain, double, records, *opts, env_extra=None):
    out = tempfile.mkdtemp(prefix="papi_run_gpu_")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    env["LD_LIBRARY_PATH"] = double
    env.update(env_extra or {})
    p = subprocess.run([papi_run, "--quiet", "-o", out, *opts, "--", plain, records, "2"],
                       env=env, capture_output=True, text=True, timeout=60)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    run.out = out
    return p, glob.glob(os.path.join(out, "papi_run_output", "gpu_activity_*.json"))


def check_trace(papi_run, plain, double, records, fmt):
    """papi_run --gpu --trace FMT: the GPU tracks exact beside the program's region."""
    p, _ = run(papi_run, plain, double, records, "--gpu", "--trace", fmt)
    bases = [int(b) for b in re.findall(r"^gpu_plain: base (\d+) pid \d+$", p.stdout, re.M)]
    check(p.returncode == 0 and len(bases) == 2, "--trace %s: exit %d, bases %s"
          % (fmt, p.returncode, bases))
    tdir = os.path.join(run.out, "papi_run_trace")
    if fmt == "json":
        (path,) = glob.glob(os.path.join(tdir, "trace_rank_*.json")) or [None]
        t = subprocess.run([sys.executable, TRACE_CHECK, "json", "--schema", SCHEMA, path or "-"],
                           capture_output=True, text=True)
        print(t.stdout + t.stderr)
        check(path and t.returncode == 0, "--trace json: the trace follows its schema")
        tracks = trace_tracks.from_json(path).get(0, {}) if path else {}
    else:
        (anchor,) = glob.glob(os.path.join(tdir, "*", "traces.otf2")) or [None]
        tracks = trace_tracks.from_otf2(anchor).get(0, {}) if anchor else {}
    gpu = {t: ops for t, ops in tracks.items() if t.startswith("GPU ")}
    want = cupti_records.expected(records, bases)
    print("--trace %s: GPU tracks %s" % (fmt, gpu))
    check(gpu == want, "--trace %s: GPU tracks %s, want %s" % (fmt, gpu, want))
    prog = [o for t, ops in tracks.items() if t.startswith("thread ") for o in ops]
    check(len(prog) == 1 and prog[0][0] == os.path.basename(plain) and
          all(prog[0][1] <= o[1] and o[2] <= prog[0][2] for ops in gpu.values() for o in ops),
          "--trace %s: the program's region %s holds the GPU operations" % (fmt, prog))
    left = glob.glob(os.path.join(run.out, "papi_run_output", ".papi_run_gpu_trace.*"))
    check(not left, "--trace %s: the hand-over file removed (%s)" % (fmt, left))


def check_processes(papi_run, plain, double, records):
    """papi_run --gpu --trace json on a shell running two such programs at once: each
    process's operations on GPU tracks of its own, "GPU D stream S (pid P)", exact (two
    processes' streams are not one: neither is cut by the other's), none on the shell's."""
    script = "'%s' '%s' 1 & '%s' '%s' 1; wait" % (plain, records, plain, records)
    out = tempfile.mkdtemp(prefix="papi_run_gpu_")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    env["LD_LIBRARY_PATH"] = double
    p = subprocess.run([papi_run, "--quiet", "-o", out, "--gpu", "--trace", "json", "--",
                        "/bin/sh", "-c", script], env=env, capture_output=True, text=True,
                       timeout=60)
    sys.stdout.write(p.stdout + p.stderr)
    launched = {int(pid): int(b) for b, pid in
                re.findall(r"^gpu_plain: base (\d+) pid (\d+)$", p.stdout, re.M)}
    if not check(p.returncode == 0 and len(launched) == 2,
                 "two processes: exit %d, bases %s" % (p.returncode, launched)):
        return
    (path,) = glob.glob(os.path.join(out, "papi_run_trace", "trace_rank_*.json")) or [None]
    tracks = trace_tracks.from_json(path).get(0, {}) if path else {}
    want = {}
    for pid, base in launched.items():
        for track, ops in cupti_records.expected(records, [base]).items():
            want["%s (pid %d)" % (track, pid)] = ops
    gpu = {t: ops for t, ops in tracks.items() if t.startswith("GPU ")}
    print("two processes: GPU tracks %s" % sorted(gpu))
    check(gpu == want, "two processes: GPU tracks %s, want %s" % (gpu, want))


def check_report(out, d):
    """papi_report on papi_run's folder, as a user types it: its run_gpu_* tables hold the
    process's file exactly (kernels, what its GPUs did, its whole run's POP factors)."""
    rep = os.path.join(out, "rep")
    p = subprocess.run([sys.executable, PAPI_REPORT, "-o", rep, out], capture_output=True,
                       text=True, timeout=120)
    print(p.stdout + p.stderr)
    if not check(p.returncode == 0, "papi_report %s: exit %d" % (out, p.returncode)):
        return
    tables = {}
    for name in ("run_gpu_kernels", "run_gpu_processes", "run_gpu_pop"):
        path = os.path.join(rep, name + ".csv")
        tables[name] = list(csv.DictReader(open(path))) if os.path.exists(path) else None
    pid = str(d["pid"])
    kernels = {(r["pid"], r["kernel"]): (int(r["launches"]), round(float(r["total_s"]) * 1e9))
               for r in tables["run_gpu_kernels"] or []}
    check(kernels == {(pid, "square(float*, int)"): (6, 5400), (pid, "plain_kernel"): (2, 600)},
          "papi_report's run_gpu_kernels %s" % kernels)
    procs = tables["run_gpu_processes"] or []
    got = [(r["pid"], round(float(r["busy_s"]) * 1e9), int(r["kernel_launches"]),
            int(r["copy_bytes"]), round(float(r["sync_s"]) * 1e9), int(r["dropped"])) for r in procs]
    check(got == [(pid, 5000, 8, 10192, 1400, 0)], "papi_report's run_gpu_processes %s" % got)
    pops = tables["run_gpu_pop"] or []
    want = dict(d["run_pop"]["pop"], wall_s=d["run_pop"]["wall_s"])
    same = len(pops) == 1 and pops[0]["pid"] == pid and all(
        (pops[0][k] == "" if v is None else abs(float(pops[0][k]) - v) <= 1e-12 * max(1, abs(v)))
        for k, v in want.items())
    check(same, "papi_report's run_gpu_pop %s, want %s" % (pops, want))


def check_unrecorded(papi_run, plain, double, records):
    """A CUPTI the layer refuses (the double says version 140000): no gpu_activity file (as
    papi_run(1) says) and the line saying why once per job: from a process outside a
    launcher and from launcher rank 0, not from rank 1 (issue 69: it came from every rank,
    and each wrote a file)."""
    mode = {"PAPI_TEST_CUPTI_MODE": "version=140000"}
    for rank, lines in ((None, 1), ("0", 1), ("1", 0)):
        extra = dict(mode, **({"PMI_RANK": rank} if rank is not None else {}))
        p, files = run(papi_run, plain, double, records, "--gpu", env_extra=extra)
        said = p.stderr.count("no GPU activity: ")
        check(p.returncode == 0 and not files and said == lines,
              "unrecorded, launcher rank %s: exit %d, %d GPU files (want none), the reason said "
              "%d times (want %d)" % (rank, p.returncode, len(files), said, lines))
        shutil.rmtree(run.out, ignore_errors=True)


def main():
    papi_run, plain, double, records = sys.argv[1:5]
    p, files = run(papi_run, plain, double, records, "--gpu")
    if p.returncode != 0 or len(files) != 1 or "launched" not in p.stdout:
        print("FAIL: papi_run --gpu exited %d, %d GPU files" % (p.returncode, len(files)))
        return 1
    d = json.load(open(files[0]))
    print(os.path.basename(files[0]), json.dumps(d["gpu"]["activity"]))
    check(d["tool"] == "papi_run" and d["kind"] == "gpu_activity" and
          files[0].endswith("_%d.json" % d["pid"]),
          "head %s" % {k: d[k] for k in ("tool", "kind", "run_id", "pid")})
    act, tot = d["gpu"]["activity"], d["gpu"]["total"]
    check(act["on"] and act["records"] == 14 and act["dropped"] == 0,
          "activity %s: want on, 14 records" % act)
    devices = {x["device"]: x["busy_ns"] for x in tot["devices"]}
    check(devices == {0: 4400, 1: 600}, "busy per device %s" % devices)
    kernels = {x["name"]: (x["launches"], x["total_ns"]) for x in tot["kernels"]}
    check(kernels == {"square(float*, int)": (6, 5400), "plain_kernel": (2, 600)},
          "kernels %s" % kernels)
    copies = {k: (v["count"], v["bytes"], v["ns"]) for k, v in tot["copies"].items()}
    check(copies == {"HtoD": (2, 8192, 1000), "DtoH": (2, 2000, 200)}, "copies %s" % copies)
    check(tot["sync"] == {"count": 2, "ns": 1400}, "sync %s" % tot["sync"])
    # the whole run's host/device POP: U 5000 ns, A 6200 ns, 1400 ns of synchronisation,
    # over the run's wall time (the program's start to its exit)
    run_pop = d.get("run_pop") or {}
    pop, wall = run_pop.get("pop", {}), run_pop.get("wall_s", 0)
    print("run_pop", run_pop)
    check(pop.get("gpus") == 1 and pop.get("useful_sum_s") == 5e-6 and
          pop.get("active_max_s") == 6.2e-6 and pop.get("runtime_s") == 1.4e-6 and
          pop.get("communication_efficiency") == round(5000 / 6200, 6) and 0.002 < wall < 60 and
          abs(pop.get("offload_efficiency", 0) - (wall - 1.4e-6) / wall) < 2e-6 and
          abs(pop.get("orchestration_efficiency", 0) - 6.2e-6 / wall) < 2e-6,
          "run_pop %s exact" % run_pop)
    check_report(run.out, d)
    p, files = run(papi_run, plain, double, records)
    check(p.returncode == 0 and not files and "nobody records" in p.stdout,
          "without --gpu: exit %d, %d GPU files, %r" % (p.returncode, len(files), p.stdout))
    check_unrecorded(papi_run, plain, double, records)
    check_trace(papi_run, plain, double, records, "json")
    check_processes(papi_run, plain, double, records)
    if shutil.which("otf2-print"):
        check_trace(papi_run, plain, double, records, "otf2")
    else:
        print("--trace otf2: not checked: no otf2-print")
    return verdict("check_papi_run_gpu")


if __name__ == "__main__":
    sys.exit(main())
