#!/usr/bin/env python3
"""A GPU component's events per region through the region API: run `PROG region` (a test
linked with a vendor library's double, first on LD_LIBRARY_PATH) with PAPI_EVENTS naming
the events, and check the region "gpu_work" of its report holds the exact values.
    check_gpu_region.py PROG LIBDIR FSROOT|- EVENT@VALUE...
EVENT as PAPI_EVENTS takes it (energy counted over the region; `power=instant`: the
reading at the region's end); VALUE the double's rewritten difference or reading."""
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "src-c", "utils", "papi_report"))
import schema_check  # noqa: E402  (the report's schema, as papi_report --check reads it)


def main():
    prog, libdir, fsroot = sys.argv[1:4]
    want = [a.rsplit("@", 1) for a in sys.argv[4:]]
    with tempfile_dir() as out:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
        env.update(PAPI_EVENTS=",".join(e for e, _ in want), PAPI_OUTPUT_DIRECTORY=out,
                   LD_LIBRARY_PATH=libdir)
        if fsroot != "-":
            env["PAPI_FSROOT"] = fsroot
        p = subprocess.run([prog, "region"], env=env, capture_output=True, text=True,
                           timeout=60)
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        if p.returncode != 0:
            print("FAIL: %s region exited with %d" % (prog, p.returncode))
            return 1
        files = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
        if len(files) != 1:
            print("FAIL: %d region reports in %s" % (len(files), out))
            return 1
        d = json.load(open(files[0]))
        bad = schema_check.check_file(files[0])
        if bad:
            print("FAIL: the region report breaks its schema: %s" % bad)
            return 1
    (thread,) = d["threads"].values()
    regions = [r for r in thread["regions"].values() if r["name"] == "gpu_work"]
    if len(regions) != 1:
        print("FAIL: %d regions named gpu_work" % len(regions))
        return 1
    failures = 0
    for event, value in want:
        key = event
        for suffix in ("=instant", "=delta"):
            if key.endswith(suffix):
                key = key[: -len(suffix)]
        got = regions[0].get(key)
        print("gpu_work: %s = %s (want %s)" % (key, got, value))
        failures += got != int(value)
    print("check_gpu_region: %s" % ("FAILED" if failures else "PASSED"))
    return 1 if failures else 0


def tempfile_dir():
    import tempfile
    return tempfile.TemporaryDirectory(prefix="gpu_region_")


if __name__ == "__main__":
    sys.exit(main())
