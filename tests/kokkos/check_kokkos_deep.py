#!/usr/bin/env python3
"""check_kokkos_deep.py DRIVER: the Kokkos connector past its nesting limit of 64 open
kernels and regions a thread (kokkos_deep_driver.c says what it calls). With
PAPI_EVENTS=perf::PAGE-FAULTS and PAGES fresh pages touched after each pop, every
accepted region ends at its own pop: deep_N (N < 64) counts the 69 - N touches of the
deeper pops (at least that many pages, less than half a touch more), no refused push is
a region, a refused push's pop ends nothing (b62 holds the two touches after r's and
q's pops), and the limit is said once on stderr."""
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
PAGES = 200


def main():
    driver = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="kokkos_deep.") as out:
        env = dict(os.environ, PAPI_EVENTS=EV, PAPI_OUTPUT_DIRECTORY=out)
        for k in ("PAPI_HL_ALL_THREADS", "PAPI_METRICS", "PMI_RANK", "OMPI_COMM_WORLD_RANK",
                  "PMIX_RANK", "SLURM_PROCID"):
            env.pop(k, None)
        p = subprocess.run([driver, str(PAGES)], env=env, capture_output=True, text=True,
                           timeout=60)
        if p.returncode != 0:
            sys.exit("FAIL: driver exited %d: %s" % (p.returncode, p.stderr))
        files = glob.glob(os.path.join(out, "papi_hl_output", "*.json"))
        if len(files) != 1:
            sys.exit("FAIL: one region file expected, found %s" % files)
        d = json.load(open(files[0]))
    if not d["region_totals"]:
        print("SKIPPED: %s counts nothing here (no region totals)" % EV)
        sys.exit(77)
    (t,) = d["region_totals"].values()
    bad = []

    def count(name):
        return t[name][EV] if name in t else None

    for n in range(64):
        name = "deep_%02d" % n
        want = (69 - n) * PAGES
        c = count(name)
        if c is None or t[name].get("region_count") != 1 or not want <= c < want + PAGES // 2:
            bad.append("%s: %s pages (want %d .. %d), region_count %s"
                       % (name, c, want, want + PAGES // 2 - 1,
                          t.get(name, {}).get("region_count")))
    for n in range(64, 70):
        if "deep_%02d" % n in t:
            bad.append("deep_%02d is a region: it was past the limit" % n)
    if "q" in t:
        bad.append("q is a region: it was past the limit")
    for name, lo, hi in (("r", 0, PAGES // 2), ("b62", 2 * PAGES, 2 * PAGES + PAGES // 2),
                         ("b00", 64 * PAGES, 64 * PAGES + PAGES // 2)):
        c = count(name)
        if c is None or not lo <= c < hi or t[name].get("region_count") != 1:
            bad.append("%s: %s pages (want %d .. %d)" % (name, c, lo, hi - 1))
    if t.get("kern", {}).get("region_count") != 1:
        bad.append("kern: region_count %s" % t.get("kern", {}).get("region_count"))
    said = p.stderr.count("papi_kokkos: more than 64")
    if said != 1:
        bad.append("the limit said %d times on stderr (want once): %r" % (said, p.stderr))
    print("deep_63 %s, deep_00 %s, r %s, b62 %s, b00 %s pages; %d regions; limit said %d time(s)"
          % (count("deep_63"), count("deep_00"), count("r"), count("b62"), count("b00"), len(t),
             said))
    for b in bad:
        print("FAIL: " + b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
