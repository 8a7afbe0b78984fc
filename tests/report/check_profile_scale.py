#!/usr/bin/python3
"""check_profile_scale.py PAPI_REPORT STACKS MAX_MB MAX_CPU_S: papi_report on a job
profile of STACKS distinct stacks (synthetic_profile.py) in bounded memory and time (issue
60 item 3: 10^5 stacks in under 200 MB and 10 s): the report's max RSS (getrusage of the
child) under MAX_MB, its CPU time under MAX_CPU_S, and what it wrote whole: profile_stacks.csv
a row per stack with the known total and leaf weights, the flame graph on the page (no
profile.folded: papi_run's merge writes those, and this job file is made, not merged)."""
import csv
import os
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
sys.path.insert(0, HERE)
from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)
import synthetic_profile  # noqa: E402


def main():
    tool, nstacks = sys.argv[1], int(sys.argv[2])
    max_mb, max_cpu = float(sys.argv[3]), float(sys.argv[4])
    try:
        import pandas  # noqa: F401 (papi_report's page needs it)
        import matplotlib  # noqa: F401
    except ImportError as e:
        print("SKIPPED: %s" % e)
        return 77
    tmp = tempfile.mkdtemp(prefix="profile_scale.")
    src, out = os.path.join(tmp, "run"), os.path.join(tmp, "out")
    want = synthetic_profile.write(src, nstacks)
    p = subprocess.run([sys.executable, tool, "-o", out, src], capture_output=True, text=True,
                       timeout=600)
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    rss, cpu = use.ru_maxrss / 1024.0, use.ru_utime + use.ru_stime
    check(p.returncode == 0, "papi_report -o OUT on %d stacks: exit 0 (%d: %s)"
          % (nstacks, p.returncode, p.stderr.strip()[-300:]))
    check(rss < max_mb, "its max RSS %.0f MB, under %.0f MB" % (rss, max_mb))
    check(cpu < max_cpu, "its CPU time %.1f s, under %.0f s" % (cpu, max_cpu))
    if p.returncode != 0:
        return verdict("check_profile_scale", scratch=tmp)
    # papi_run's merge is the folded files' one writer: a job file that records none (this
    # one is made, not merged) gets none in the report, said with the fix.
    check(not os.path.exists(os.path.join(out, "profile.folded")) and
          "names no folded files" in p.stderr and "papi_run --merge" in p.stderr,
          "no profile.folded of a job file that records none, said (%s)" % p.stderr.strip()[-200:])
    rows, total, leaf0 = 0, 0, 0
    with open(os.path.join(out, "profile_stacks.csv"), encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f):
            rows += 1
            total += int(r[synthetic_profile.EVENT])
            if r["stack"].endswith(";leaf_0"):
                leaf0 += int(r[synthetic_profile.EVENT])
    check(rows == want["stacks"], "profile_stacks.csv: a row per stack (%d of %d)" % (rows, want["stacks"]))
    check(total == want["total"], "profile_stacks.csv: the total weight %d (want %d)" % (total, want["total"]))
    check(leaf0 == want["leaf_0"], "profile_stacks.csv: the stacks ending in leaf_0 weigh %d (want %d)"
          % (leaf0, want["leaf_0"]))
    with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
        page = f.read()
    check('data-total="%d"' % want["total"] in page, "the page's flame graph weighs the total")
    return verdict("check_profile_scale", scratch=tmp)


if __name__ == "__main__":
    sys.exit(main())
