#!/usr/bin/env python3
"""Run hl_single_workload (PAPI_EVENTS=perf::PAGE-FAULTS) and check its all-thread totals:
while the process has one thread they come from the thread's own counts (no process
counter read) and equal them exactly ("alone": 40 pages); a region begun alone around a
thread created inside it ("spawn") and one begun with threads created ("after") hold the
own count plus the other thread's 30 pages (and its stack's few). Run again with a
thread created and joined before the first region (issue 56 item 11): the same values,
and "alone"'s begin + end makes as many read() calls as in the process that never had a
thread (no process counter read)."""
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check, verdict  # noqa: E402

report_check.guard()



def run(exe, mode):
    """One run ("" or "joined"): the main thread's own and all-thread page faults per
    region, and the read() calls of the "alone" begin + end; None when skipped."""
    with tempfile.TemporaryDirectory(prefix="hl_single_") as out:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
        env.update(PAPI_EVENTS="perf::PAGE-FAULTS", PAPI_OUTPUT_DIRECTORY=out)
        p = subprocess.run([exe] + ([mode] if mode else []), env=env, capture_output=True,
                           text=True, timeout=60)
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        if p.returncode == 77:
            return None
        check(p.returncode == 0, "%s: workload exited with %d" % (mode or "one thread", p.returncode))
        reads = [int(line.split()[2]) for line in p.stdout.splitlines() if line.startswith("SYSCR alone ")]
        (f,) = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
        d = json.load(open(f))
    ev = "perf::PAGE-FAULTS"
    (key, t), = d["threads"].items()
    own = {}
    for r in t["regions"].values():
        own[r["name"]] = own.get(r["name"], 0) + r[ev]
    allt = {n: v[ev] for n, v in d["all_threads"][key]["regions"].items()}
    return own, allt, reads[0] if reads else None


def main():
    reads = {}
    for mode in ("", "joined"):
        got = run(sys.argv[1], mode)
        if got is None:
            return 77
        own, allt, reads[mode] = got
        what = mode or "one thread"
        print("%s: own %s, all threads %s, alone's read() calls %s" % (what, own, allt, reads[mode]))
        check(own.get("alone") == 40 and allt.get("alone") == 40,
              "%s: alone: own %s, all threads %s, want 40 and 40" % (what, own.get("alone"), allt.get("alone")))
        check(allt.get("first") == own.get("first"), "%s: first: all threads %s, own %s"
              % (what, allt.get("first"), own.get("first")))
        for name in ("spawn", "after"):
            o, a = own.get(name, -1), allt.get(name, -1)
            check(o + 30 <= a <= o + 30 + 64,
                  "%s: %s: all threads %d, want the own %d + 30 (+ the thread's stack)" % (what, name, a, o))
    check(reads[""] is not None and reads[""] > 0, "one thread: alone's read() calls %s" % reads[""])
    check(reads["joined"] == reads[""],
          "a thread joined before the first region: alone's begin + end makes %s read() calls, "
          "a process that never had one %s" % (reads["joined"], reads[""]))
    return verdict("check_hl_single")


if __name__ == "__main__":
    sys.exit(main())
