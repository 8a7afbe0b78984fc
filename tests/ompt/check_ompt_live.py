#!/usr/bin/env python3
"""check_ompt_live.py --papi-run PAPI_RUN --tool-dir DIR [--report PAPI_REPORT_PY --report-python
PY] [--fork FORK_PROGRAM] PROGRAM: papi_run --interval 0.1
on ompt_live.c (500 ms serial, then 500 ms of 4-thread regions where thread t works t+1
units): each series sample carries the OpenMP figures of its interval (issue 73 item 6,
schema/region.schema.json $defs/sample "openmp"), from the OMPT tool's running sums:
  - the samples of the serial part (no parallel time): serialization 0, load balance,
    scheduling and parallel null, no useful time, serial time the interval's;
  - the samples wholly inside the parallel part (parallel time >= 90 % of the interval):
    load balance 0.625 +- 0.05 (each instance's), serialization >= 0.9;
  - every sample: useful + wait = 4 x its parallel time at most (team x wall), serial +
    parallel = its interval;
  - the useful times of the samples sum to the tool's file's (its regions' work_ns) within
    2 %, and their parallel times to its parallel_ns within 2 %;
  - with --report: papi_report's time_series.csv carries each sample's figures on each of
    its event rows (omp_* columns: times in s, the efficiencies, empty where null);
  - with --fork (ompt_fork.c: a region, a fork whose child runs a region of its own, a
    region; a gcc program run with --libomp: libgomp hangs in such a child): the child, which inherits the tool's state, writes nothing into the sums: the
    samples' useful time is the parent's table's work (2 %).
A libgomp program keeps libgomp, its GOMP_* entry points interposed (papi_run's default);
without LLVM's libomp.so.5 the fork case alone is left out (said)."""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

import check_ompt  # its report_check guard checks every file against its schema
from check_papi_run_omp import run_papi_run
from checks import check_said as check, verdict  # noqa: E402


def check_report(a, folder, out, samples, nevents):
    """papi_report's time_series.csv: each sample's openmp member on its event rows."""
    p = subprocess.run([a.report_python, a.report, folder, "-o", out], capture_output=True,
                       text=True, timeout=300)
    print("$ papi_report %s -o %s: exit %d" % (folder, out, p.returncode))
    if not check(p.returncode == 0, "papi_report reads papi_run's folder: %s" % p.stderr.strip()):
        return
    with open(os.path.join(out, "time_series.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    check(len(rows) == len(samples) * nevents, "time_series.csv: a row per sample and event: %d"
          % len(rows))
    for r in rows:
        o = samples[int(r["sample"])]["openmp"]
        want = {"omp_useful_s": o["useful_ns"] * 1e-9, "omp_serial_s": o["serial_ns"] * 1e-9,
                "omp_wait_s": o["wait_ns"] * 1e-9, "omp_serialization": o["serialization"],
                "omp_load_balance": o["load_balance"], "omp_scheduling": o["scheduling"],
                "omp_parallel": o["parallel"]}
        got = {k: (float(r[k]) if r[k] != "" else None) for k in want}
        same = all((w is None and got[k] is None) or
                   (w is not None and got[k] is not None and abs(got[k] - w) <= 1e-9 * max(1, abs(w)))
                   for k, w in want.items())
        if not check(same, "sample %s's row (%s): the sample's OpenMP figures %s: %s"
                     % (r["sample"], r["event"], want, got)):
            break


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--papi-run", required=True)
    ap.add_argument("--tool-dir", required=True)
    ap.add_argument("--report", help="papi_report.py")
    ap.add_argument("--report-python", help="a python3 with pandas, for papi_report")
    ap.add_argument("--fork", help="ompt_fork")
    ap.add_argument("program")
    a = ap.parse_args()
    check_ompt.GOMP_INTERPOSER = "papi_run's"  # a libgomp program keeps libgomp, interposed
    check_ompt.runtime_env(a.program)  # SKIPPED where no runtime with OMPT runs it
    with tempfile.TemporaryDirectory() as tmp:
        p, doc = run_papi_run(a.papi_run, a.tool_dir, a.program, os.path.join(tmp, "out"),
                              "--interval", "0.1")
        if doc is None:
            return verdict()
        facts = json.loads(p.stdout.strip().splitlines()[-1])
        samples = doc.get("series", {}).get("samples", [])
        live = [(s, s.get("openmp")) for s in samples]
        if not check(samples and all(o is not None for _, o in live),
                     "every sample of %d has an openmp member" % len(samples)):
            return verdict()
        tool = doc["openmp"]["processes"][0]
        left = [f for f in os.listdir(os.path.join(tmp, "out", "papi_run_output"))
                if f.startswith(".papi_run_ompt_live")]
        check(not left, "the shared file is removed at the end: %s" % left)
        prev = 0
        serial, inside = [], []
        for s, o in live:
            dt = s["time_nsec"] - prev
            prev = s["time_nsec"]
            check(o["serial_ns"] + o["parallel_ns"] == dt or
                  (o["parallel_ns"] > dt and o["serial_ns"] == 0),
                  "serial + parallel = the interval (%d ns): %s" % (dt, o))
            check(o["useful_ns"] + o["wait_ns"] <= 4 * o["parallel_ns"] * 1.01 + 1e6,
                  "useful + wait within team x wall: %s" % o)
            if o["parallel_ns"] == 0:
                serial.append(o)
            elif o["parallel_ns"] >= 0.9 * dt:
                inside.append(o)
        check(len(serial) >= 3, "at least 3 samples in the serial part: %d" % len(serial))
        for o in serial:
            check(o["serialization"] == 0 and o["load_balance"] is None and o["scheduling"] is None
                  and o["parallel"] is None and o["useful_ns"] == 0,
                  "a serial interval: serialization 0, the rest null, no useful time: %s" % o)
        check(len(inside) >= 3, "at least 3 samples inside the parallel part: %d" % len(inside))
        for o in inside:
            check(o["load_balance"] is not None and abs(o["load_balance"] - 0.625) <= 0.05,
                  "an interval of the parallel part: load balance 0.625 +- 0.05: %s" % o)
            check(o["serialization"] >= 0.9, "its serialization >= 0.9: %s" % o)
        work = sum(t["work_ns"] for r in tool["regions"] for t in r["threads"])
        useful = sum(o["useful_ns"] for _, o in live)
        check(work > 0 and abs(useful - work) <= 0.02 * work,
              "the samples' useful time %d = the tool's work %d within 2 %%" % (useful, work))
        par = sum(o["parallel_ns"] for _, o in live)
        check(abs(par - tool["parallel_ns"]) <= 0.02 * tool["parallel_ns"],
              "the samples' parallel time %d = the tool's %d within 2 %%" % (par, tool["parallel_ns"]))
        check(facts["instances"] >= 10, "the program ran %d instances" % facts["instances"])
        if a.report:
            check_report(a, os.path.join(tmp, "out", "papi_run_output"), os.path.join(tmp, "rep"),
                         samples, len(doc["event_definitions"]))
        if a.fork:
            check_fork(a, os.path.join(tmp, "fork"))
    return verdict()


def check_fork(a, out):
    """A child forked after OpenMP started: its inherited tasks and region stay out. Under
    libomp (--libomp): libgomp itself never ends a parallel region in a child forked after
    its threads started (the child has no pool threads; ompt_fork.c hangs under plain
    libgomp, with or without papi_run)."""
    if not check_ompt.llvm_libomp.installed():
        print("note: LLVM's libomp.so.5 is not installed: the fork case is left out")
        return
    p, doc = run_papi_run(a.papi_run, a.tool_dir, a.fork, out, "--libomp", "--interval", "0.05")
    if doc is None:
        return
    live = [s.get("openmp") for s in doc.get("series", {}).get("samples", [])]
    if not check(live and all(o is not None for o in live), "fork: every sample has openmp"):
        return
    tool = doc["openmp"]["processes"][0]
    work = sum(t["work_ns"] for r in tool["regions"] for t in r["threads"])
    useful = sum(o["useful_ns"] for o in live)
    check(work > 0 and abs(useful - work) <= 0.02 * work,
          "fork: the samples' useful time %d = the parent's work %d within 2 %% (the child's "
          "region not in it)" % (useful, work))


if __name__ == "__main__":
    sys.exit(main())
