#!/usr/bin/env python3
"""Run `test_nvml region` (the nvml double first on LD_LIBRARY_PATH) with PAPI_EVENTS
naming device 0's energy and power, and check the region report: the region's energy is
the double's rewritten difference (4321 mJ) and its power the reading at the region's end
(301000 mW, =instant)."""
import glob
import json
import os
import subprocess
import sys
import tempfile

DEV0 = "nvml:::Tesla_V100-SXM2-16GB:device_0:"


def main():
    prog, libdir = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="nvml_region_") as out:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
        env.update(PAPI_EVENTS="%stotal_energy_consumption,%spower=instant" % (DEV0, DEV0),
                   PAPI_OUTPUT_DIRECTORY=out, LD_LIBRARY_PATH=libdir)
        p = subprocess.run([prog, "region"], env=env, capture_output=True, text=True,
                           timeout=60)
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        if p.returncode != 0:
            print("FAIL: test_nvml region exited with %d" % p.returncode)
            return 1
        files = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
        if len(files) != 1:
            print("FAIL: %d region reports in %s" % (len(files), out))
            return 1
        d = json.load(open(files[0]))
    (thread,) = d["threads"].values()
    regions = [r for r in thread["regions"].values() if r["name"] == "gpu_work"]
    failures = 0
    if len(regions) != 1:
        print("FAIL: %d regions named gpu_work" % len(regions))
        return 1
    r = regions[0]
    got = (r.get(DEV0 + "total_energy_consumption"), r.get(DEV0 + "power"))
    print("gpu_work: energy %s mJ, power %s mW" % got)
    if got != (4321, 301000):
        print("FAIL: want energy 4321 mJ and power 301000 mW")
        failures += 1
    print("check_nvml_region: %s" % ("FAILED" if failures else "PASSED"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
