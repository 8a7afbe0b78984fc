#!/usr/bin/env python3
"""check_hl_all_threads.py PROGRAM: the region API's all-thread totals on OpenMP.

For 1, 2 and 8 threads touching 1000 fresh pages each inside a region on the master
thread: when the pool existed before the region (created in a first region, which also
takes the one-time costs), the master's own count is exactly 1000 and the all-thread
total exactly threads x 1000; when the pool is created inside the region the total is at
least threads x 1000 (creating the threads faults too) and the master's own below 2000."""
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

EV = "perf::PAGE-FAULTS"
PAGES = 1000


def run(prog, threads, warm, extra=(), interval=None):
    with tempfile.TemporaryDirectory(prefix="hl_all_threads.") as out:
        env = dict(os.environ, PAPI_EVENTS=EV, PAPI_OUTPUT_DIRECTORY=out)
        if interval:
            env["PAPI_EVENTS"] = EV + ",perf::TASK-CLOCK"
            env["PAPI_INTERVAL"] = interval
        for k in ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID"):
            env.pop(k, None)
        p = subprocess.run([prog, str(threads), str(PAGES), str(warm)] + list(extra), env=env,
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            sys.exit("FAIL: %s exited %d: %s" % (prog, p.returncode, p.stderr))
        (f,) = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
        d = json.load(open(f))
    (tid, t), = [(k, v) for k, v in d["threads"].items() if v["regions"]]
    (iid, own), = [(k, r[EV]) for k, r in t["regions"].items() if r["name"] == "work"]
    total = d["all_threads"][tid]["regions"]["work"][EV]
    inst = d["all_threads"][tid]["instances"][iid][EV]
    if interval:
        return d, tid
    return own, total, inst


def check_series(prog):
    """PAPI_INTERVAL=0.05 on a 0.5 s region: >= 5 samples per counter that sum to the
    totals, which cover the region's all-thread counts."""
    d, tid = run(prog, 2, 1, ["0.5"], "0.05")
    s = d["series"]
    n = min(len(v) for v in s["threads"].values())
    ok = n >= 5 and abs(s["interval_s"] - 0.05) < 1e-9
    for ev, total in s["totals"].items():
        summed = sum(x[ev] for v in s["threads"].values() for x in v)
        region = d["all_threads"][tid]["regions"]["work"][ev]
        ok = ok and summed == total and total >= region
        print("PAPI_INTERVAL=0.05: %s: %d samples sum to %d, totals %d, region %d"
              % (ev, n, summed, total, region))
    return ok


def check_bad_intervals(prog):
    """PAPI_INTERVAL of 0, -1, nan, text or 1e9: said once on stderr, no series, the
    region report still written (as the MPI wrapper and papi_run --interval refuse them)."""
    ok = True
    for bad in ("0", "-1", "nan", "soon", "1e9"):
        with tempfile.TemporaryDirectory(prefix="hl_all_threads.") as out:
            env = dict(os.environ, PAPI_EVENTS=EV, PAPI_OUTPUT_DIRECTORY=out, PAPI_INTERVAL=bad)
            for k in ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID"):
                env.pop(k, None)
            p = subprocess.run([prog, "1", str(PAGES), "1"], env=env, capture_output=True,
                               text=True, timeout=60)
            files = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
            said = p.stderr.count("PAPI_INTERVAL=%s is not a number of seconds" % bad)
            series = files and "series" in json.load(open(files[0]))
            good = p.returncode == 0 and said == 1 and len(files) == 1 and not series
            print("PAPI_INTERVAL=%s: exit %d, said %d time(s), report %d, series %s %s"
                  % (bad, p.returncode, said, len(files), bool(series), "ok" if good else "FAIL"))
            ok = ok and good
    return ok


def main():
    prog = sys.argv[1]
    bad = 0
    for threads in (1, 2, 8):
        for warm in (1, 0):
            own, total, inst = run(prog, threads, warm)
            want = threads * PAGES
            if warm:
                ok = own == PAGES and inst == total == want
            else:  # thread creation faults too, in the master (clone) and the new threads
                ok = PAGES <= own < 2 * PAGES and inst == total and total >= want
            print("%d threads, pool %s the region: own %d, all threads %d (expected %s%d) %s"
                  % (threads, "before" if warm else "created in", own, total,
                     "" if warm else ">= ", want, "ok" if ok else "FAIL"))
            bad += not ok
    if not check_series(prog):
        print("FAIL: the PAPI_INTERVAL series")
        bad += 1
    if not check_bad_intervals(prog):
        bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
