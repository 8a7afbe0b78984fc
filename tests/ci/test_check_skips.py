#!/usr/bin/env python3
"""test_check_skips.py CHECK_SKIPS FACTS: scripts/check-skips.py on made-up results: a
skip for a missing PMU is a fact; a skipped ctest whose reason is a missing package, a
SKIPPED line inside a passing test, a lane that could not install its tools and a test
skipped without a reason are fixable; CI=true fails on the fixable ones only."""
import os
import subprocess
import sys
import tempfile

JUNIT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="t" tests="5">
 <testcase name="needs_pmu" status="skipped"><skipped message="SKIP_RETURN_CODE=77"/>
  <system-out>counting...\nSKIPPED: needs PAPI_TOT_CYC: No hardware PMU: /sys/bus/event_source/devices lists no CPU PMU</system-out></testcase>
 <testcase name="pmu_lane" status="skipped"><skipped message="SKIP_RETURN_CODE=77"/>
  <system-out>SKIPPED: not installed: qemu-user (scripts/install-deps.sh installs them)</system-out></testcase>
 <testcase name="report_browser" status="run"><system-out>tables ok\nSKIPPED: chromium is not installed\nreport: PASSED</system-out></testcase>
 <testcase name="silent" status="skipped"><skipped message="SKIP_RETURN_CODE=77"/><system-out></system-out></testcase>
 <testcase name="plain" status="run"><system-out>plain: PASSED</system-out></testcase>
</testsuite>
"""
FACT_ONLY = JUNIT.split('<testcase name="pmu_lane"')[0] + "</testsuite>\n"


def run(check, facts, args, ci):
    env = dict(os.environ)
    env.pop("CI", None)
    if ci:
        env["CI"] = "true"
    p = subprocess.run([sys.executable, check, facts] + args, env=env, capture_output=True, text=True)
    return p.returncode, p.stdout


def main():
    check, facts = sys.argv[1], sys.argv[2]
    bad = []
    with tempfile.TemporaryDirectory() as d:
        junit, only, lanes = (os.path.join(d, n) for n in ("all.xml", "fact.xml", "lanes"))
        open(junit, "w").write(JUNIT)
        open(only, "w").write(FACT_ONLY)
        open(lanes, "w").write("conformance-arm64\tSKIPPED: cannot download the guest kernel\n")
        rc, out = run(check, facts, ["--junit", junit, "--lanes", lanes], ci=True)
        want = {"fact     ctest needs_pmu": True, "FIXABLE  ctest pmu_lane": True,
                "FIXABLE  ctest report_browser (part)": True, "FIXABLE  ctest silent": True,
                "FIXABLE  lane conformance-arm64": True, "ctest plain": False}
        for text, present in want.items():
            if (text in out) != present:
                bad.append("%r %s in the output:\n%s" % (text, "missing" if present else "found", out))
        if rc != 1 or "5 skips, 1 facts of this machine, 4 fixable" not in out:
            bad.append("CI=true with fixable skips: exit %d, want 1:\n%s" % (rc, out))
        rc, out = run(check, facts, ["--junit", junit, "--lanes", lanes], ci=False)
        if rc != 0:
            bad.append("without CI a fixable skip is listed, not failed: exit %d" % rc)
        rc, out = run(check, facts, ["--junit", only], ci=True)
        if rc != 0 or "1 skips, 1 facts of this machine, 0 fixable" not in out:
            bad.append("CI=true with facts only: exit %d, want 0:\n%s" % (rc, out))
        rc, out = run(check, facts, ["--bogus", junit], ci=True)
        if rc != 2:
            bad.append("a bad option: exit %d, want 2" % rc)
    for b in bad:
        print("FAIL:", b)
    print("test_check_skips: %s" % ("FAILED" if bad else "PASSED"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
