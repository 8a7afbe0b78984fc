#!/usr/bin/env python3
"""Run hl_regions_workload and check the JSON region report it writes at exit: it
parses, has every region with its parent, exact page-fault counts (nested regions are
inclusive, repeated regions add up), and the thread ids the workload printed."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

failures = 0


def check(cond, msg):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", msg)


def run(exe, args, env_extra):
    out = tempfile.mkdtemp(prefix="hl_report_")
    env = dict(os.environ)
    for k in ("PAPI_EVENTS", "PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID",
              "MPI_LOCALRANKID", "PAPI_REPORT"):
        env.pop(k, None)
    env.update(env_extra)
    env["PAPI_OUTPUT_DIRECTORY"] = out
    p = subprocess.run([exe] + args, env=env, capture_output=True, text=True, timeout=60)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    check(p.returncode == 0, "workload exited with %d" % p.returncode)
    tids = {}
    for line in p.stdout.splitlines():
        if line.startswith("TID "):
            _, who, tid = line.split()
            tids[who] = int(tid)
    files = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
    check(len(files) == 1, "expected one report file, found %s" % files)
    if not files:
        sys.exit(1)
    with open(files[0]) as f:
        report = json.load(f)  # raises (test fails) if it does not parse
    shutil.rmtree(out)
    return report, os.path.basename(files[0]), tids, p.stdout


def regions_by_thread(report):
    return {t["id"]: {r["name"]: r for r in t["regions"]} for t in report["threads"]}


def check_counts(report, tids, ev):
    threads = regions_by_thread(report)
    check(set(threads) == set(tids.values()),
          "thread ids %s, workload printed %s" % (sorted(threads), sorted(tids.values())))
    main = threads.get(tids.get("main"), {})
    want = {"outer": (1, 65, None), "inner": (2, 25, "outer"), "recursive": (1, 7, None),
            "after_stop": (1, 9, None), "warm": (1, None, None), "warm_inner": (1, None, "warm")}
    for name, (count, faults, parent) in want.items():
        r = main.get(name)
        check(r is not None, "main thread has no region %s" % name)
        if not r:
            continue
        check(r["region_count"] == count, "%s: region_count %s, want %d" % (name, r["region_count"], count))
        check(r["parent"] == parent, "%s: parent %s, want %s" % (name, r["parent"], parent))
        check(r["open"] is False, "%s is still open" % name)
        check(r["real_time_nsec"] > 0, "%s: no real time" % name)
        if faults is not None:
            got = r["events"].get(ev)
            check(got == faults, "%s: %s = %s, want %d" % (name, ev, got, faults))
    check('odd "name"\\\ttab' in main, "the escaped region name did not survive: %s" % list(main))
    if "outer" in main and "inner" in main:
        o, i = main["outer"], main["inner"]
        check(o["real_time_nsec"] >= i["real_time_nsec"], "inner real time above outer's")
        check(o["events"][ev] >= i["events"][ev], "nested regions do not add up")
    for k in range(6):
        th = threads.get(tids.get("t%d" % k), {})
        w = th.get("work")
        check(w is not None, "thread t%d has no region work" % k)
        if w:
            check(w["region_count"] == 2, "t%d work count %s" % (k, w["region_count"]))
            check(w["events"].get(ev) == 2 * (100 + 50 * k),
                  "t%d work %s = %s, want %d" % (k, ev, w["events"].get(ev), 2 * (100 + 50 * k)))
            check(w["parent"] is None, "t%d work has a parent" % k)


def main():
    exe = sys.argv[1]
    # 1. PAPI_EVENTS, rank from papi_hl_set_rank, PAPI_REPORT=1 summary.
    rep, name, tids, out = run(exe, ["setrank"], {"PAPI_EVENTS": "perf::PAGE-FAULTS,perf::TASK-CLOCK,NO_SUCH_EVENT",
                                                   "PAPI_REPORT": "1", "PMI_RANK": "3"})
    check(name == "rank_000005.json", "file %s, want rank_000005.json" % name)
    check(rep["rank"] == 5 and rep["rank_source"] == "MPI", "rank %s from %s" % (rep["rank"], rep["rank_source"]))
    check(rep["event_source"] == "PAPI_EVENTS", "event_source %s" % rep["event_source"])
    check(rep["events"] == ["perf::PAGE-FAULTS", "perf::TASK-CLOCK"], "events %s" % rep["events"])
    check([s["name"] for s in rep["skipped_events"]] == ["NO_SUCH_EVENT"], "skipped %s" % rep["skipped_events"])
    check("PAPI high-level report" in out and "region outer" in out, "no PAPI_REPORT summary")
    check_counts(rep, tids, "perf::PAGE-FAULTS")
    # 2. No PAPI_EVENTS: the default list, or the software fallback on a machine without
    #    hardware events; the rank from the launcher's environment.
    rep, name, tids, out = run(exe, [], {"PMI_RANK": "3"})
    check(name == "rank_000003.json" and rep["rank_source"] == "PMI_RANK", "file %s rank %s" % (name, rep["rank_source"]))
    check("PAPI high-level report" not in out, "summary printed without PAPI_REPORT")
    if rep["event_source"] == "fallback":
        check(rep["events"] == ["perf::TASK-CLOCK", "perf::PAGE-FAULTS"], "fallback events %s" % rep["events"])
        check("software events" in rep["note"], "fallback note missing: %r" % rep["note"])
        check_counts(rep, tids, "perf::PAGE-FAULTS")
    else:
        check(rep["event_source"] == "default" and rep["events"], "event_source %s" % rep["event_source"])
    # 3. Neither: the process id names the file.
    rep, name, tids, out = run(exe, [], {"PAPI_EVENTS": "perf::PAGE-FAULTS"})
    check(rep["rank"] is None and name == "rank_%06d.json" % rep["pid"], "file %s for pid %s" % (name, rep["pid"]))
    check_counts(rep, tids, "perf::PAGE-FAULTS")
    print("check_hl_report: %s" % ("FAILED (%d)" % failures if failures else "PASSED"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
