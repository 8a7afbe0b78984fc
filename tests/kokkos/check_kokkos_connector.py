#!/usr/bin/env python3
"""check_kokkos_connector.py BUILD SRC CXX KOKKOS_INC KOKKOS_LIBDIR KOKKOS_LIB...: the
Kokkos Tools connector (src-c/connectors/kokkos) under a real Kokkos program.

As a user would: the build is installed into a fresh prefix, the connector is built again
from its sources against the installed papi.h and libpapi (pkg-config papi), and
kokkos_touch.cpp is compiled against Debian's Kokkos. The program runs with
KOKKOS_PROFILE_LIBRARY naming the installed libpapi_kokkos.so (1, 2 and 8 threads) and
the user-built one (2 threads), PAPI_EVENTS=perf::PAGE-FAULTS. In the region file the
kernel "touch" (THREADS std::threads started by the master, PAGES fresh pages each) has
an all-thread total of at least THREADS x PAGES (thread stacks add a few pages each) and
a master's own count far below it; the profile region "phase" holds the kernel
"master-touch" and both count the master's PAGES; "sum" (parallel_reduce), "prefix"
(parallel_scan), a 200-character label (as its first 127 characters, the region API's
limit) and "left-open" (pushed, never popped: ended at Kokkos::finalize) are regions
too."""
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


def sh(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d:\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def build(tmp, build_dir, src, cxx, kinc, klibdir, klibs):
    prefix = os.path.join(tmp, "prefix")
    sh(["cmake", "--install", build_dir, "--prefix", prefix])
    (installed,) = glob.glob(os.path.join(prefix, "lib*", "libpapi_kokkos.so"))
    (pc,) = glob.glob(os.path.join(prefix, "lib*", "pkgconfig", "papi.pc"))
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.dirname(pc))
    flags = sh(["pkg-config", "--cflags", "--libs", "papi"], env=env).split()
    user = os.path.join(tmp, "libpapi_kokkos_user.so")
    sources = sorted(glob.glob(os.path.join(src, "src-c", "connectors", "kokkos", "*.c")))
    sh(["cc", "-std=c11", "-Wall", "-Werror", "-shared", "-fPIC", "-o", user] + sources + flags)
    prog = os.path.join(tmp, "kokkos_touch")
    sh([cxx, "-std=c++14", "-Wall", "-Werror", "-I" + kinc, "-o", prog,
        os.path.join(src, "tests", "kokkos", "kokkos_touch.cpp"), "-L" + klibdir,
        "-Wl,-rpath," + klibdir] + ["-l" + lib for lib in klibs] + ["-pthread"])
    return installed, user, prog


def run(prog, connector, threads):
    with tempfile.TemporaryDirectory(prefix="kokkos_run.") as out:
        env = dict(os.environ, PAPI_EVENTS=EV, PAPI_OUTPUT_DIRECTORY=out,
                   KOKKOS_PROFILE_LIBRARY=connector)
        for k in ("PAPI_HL_ALL_THREADS", "KOKKOS_TOOLS_LIBS", "PMI_RANK", "OMPI_COMM_WORLD_RANK",
                  "PMIX_RANK", "SLURM_PROCID"):
            env.pop(k, None)
        sh([prog, str(threads), str(PAGES)], env=env)
        (f,) = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
        return json.load(open(f))


def check(d, threads, label):
    (tid, t), = d["region_totals"].items()
    own = {name: r[EV] for name, r in t.items()}
    alls = {name: r[EV] for name, r in d["all_threads"][tid]["regions"].items()}
    want = threads * PAGES
    touch_ok = want <= alls.get("touch", -1) < want + PAGES // 2 and own["touch"] <= PAGES // 10
    phase_ok = (own.get("phase", 0) >= PAGES and own.get("master-touch", 0) >= PAGES
                and t["master-touch"]["parent"] == "phase")
    kinds_ok = all(t.get(n, {}).get("region_count") == 1 for n in ("sum", "prefix", "left-open",
                                                                     "L" * 127))
    print("%s, %d threads: kernel touch own %s, all threads %s (expected >= %d, own <= %d) %s; "
          "region phase %s, kernel master-touch %s (>= %d) %s; reduce, scan, long-label and left-open regions %s"
          % (label, threads, own.get("touch"), alls.get("touch"), want, PAGES // 10,
             "ok" if touch_ok else "FAIL", own.get("phase"), own.get("master-touch"), PAGES,
             "ok" if phase_ok else "FAIL", "ok" if kinds_ok else "FAIL"))
    return touch_ok and phase_ok and kinds_ok


def main():
    build_dir, src, cxx, kinc, klibdir = sys.argv[1:6]
    with tempfile.TemporaryDirectory(prefix="kokkos_connector.") as tmp:
        installed, user, prog = build(tmp, build_dir, src, cxx, kinc, klibdir, sys.argv[6:])
        bad = 0
        for threads in (1, 2, 8):
            bad += not check(run(prog, installed, threads), threads, "installed libpapi_kokkos.so")
        bad += not check(run(prog, user, 2), 2, "connector built with pkg-config papi")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
