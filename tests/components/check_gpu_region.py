#!/usr/bin/env python3
"""A GPU component's events per region through the region API: run `PROG region` (a test
linked with a vendor library's double, first on LD_LIBRARY_PATH) with PAPI_EVENTS naming
the events, and check the region "gpu_work" of its report holds the exact values.
    check_gpu_region.py [--ranks MPIRUN N] [--env NAME=VALUE]... PROG LIBDIR FSROOT|- EVENT@VALUE@UNITS[@SCOPE]...
EVENT as PAPI_EVENTS takes it (energy counted over the region; `power=instant`: the
reading at the region's end); VALUE the double's rewritten difference or reading, or
LO..HI where the region's real length bounds it (a counter over real time); UNITS
the unit event_definitions must give it, as papi_native_avail does, with "scope":
"device" (a GPU's value is the same for every thread), or the SCOPE of
EVENT@VALUE@UNITS@SCOPE ("thread": rocp_sdk counts its thread's dispatches). A double's
staging (PAPI_TEST_*) is passed on; --env passes another variable (the others starting
with PAPI_ are not passed). With
--ranks the program runs as N MPI ranks (MPIRUN -np N) and every rank's report must hold
the values (each rank's own reading of its device). Every report is checked against
region.schema.json."""
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from papi_report.load import schema_check  # noqa: E402  (the report's schema, as papi_report --check reads it)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()


def check_report(name, d, want):
    """The failures of one report: its region gpu_work must hold want."""
    (thread,) = d["threads"].values()
    regions = [r for r in thread["regions"].values() if r["name"] == "gpu_work"]
    if len(regions) != 1:
        print("FAIL: %s: %d regions named gpu_work" % (name, len(regions)))
        return 1
    failures = 0
    for event, value, units, scope in want:
        key = event
        for suffix in ("=instant", "=delta"):
            if key.endswith(suffix):
                key = key[: -len(suffix)]
        got = regions[0].get(key)
        print("%s: gpu_work: %s = %s (want %s)" % (name, key, got, value))
        lo, _, hi = value.partition("..")
        failures += got is None or not int(lo) <= got <= int(hi or lo)
        meta = d["event_definitions"].get(key, {})
        print("%s: event_definitions: %s: %s" % (name, key, meta))
        if meta.get("units", "") != units or meta.get("scope") != scope:
            print("FAIL: %s: %s's units/scope %r/%r, want %r/%r"
                  % (name, key, meta.get("units"), meta.get("scope"), units, scope))
            failures += 1
    return failures


def main():
    args, launch, nranks = sys.argv[1:], [], 1
    if args[0] == "--ranks":
        launch, nranks, args = [args[1], "-np", args[2]], int(args[2]), args[3:]
    extra = {}
    while args[0] == "--env":
        name, _, value = args[1].partition("=")
        extra[name] = value
        args = args[2:]
    prog, libdir, fsroot = args[:3]
    want = [(a.split("@") + ["device"])[:4] for a in args[3:]]
    failures = 0
    with tempfile.TemporaryDirectory(prefix="gpu_region_") as out:
        # (a double's staging, PAPI_TEST_*, is kept: it is not the library's)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("PAPI_") or k.startswith("PAPI_TEST_")}
        env.update(PAPI_EVENTS=",".join(w[0] for w in want), PAPI_OUTPUT_DIRECTORY=out,
                   LD_LIBRARY_PATH=libdir)
        env.update(extra)
        if fsroot != "-":
            env["PAPI_FSROOT"] = fsroot
        p = subprocess.run(launch + [prog, "region"], env=env, capture_output=True, text=True,
                           timeout=60)
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        if p.returncode != 0:
            print("FAIL: %s region exited with %d" % (prog, p.returncode))
            return 1
        files = sorted(glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json")))
        if len(files) != nranks:
            print("FAIL: %d region reports in %s, want %d" % (len(files), out, nranks))
            return 1
        for f in files:
            bad = schema_check.check_file(f)
            if bad:
                print("FAIL: the region report breaks its schema: %s" % bad)
                failures += 1
            failures += check_report(os.path.basename(f), json.load(open(f)), want)
    print("check_gpu_region: %s" % ("FAILED" if failures else "PASSED"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
