#!/usr/bin/env python3
"""The Python module as users get it, outside the build tree:
  1. `cmake --install` into a temporary prefix: /usr/bin/python3 with PYTHONPATH=
     <prefix>/lib/python3/dist-packages imports the install's papi, which loads the
     install's libpapi and counts 100 page faults exactly;
  2. the prefix moved elsewhere: the same from the new place (the path to libpapi is
     relative to the package);
  3. pip's offline install (--no-index --no-build-isolation --no-deps --target DIR) of
     this source tree, nothing else, with PAPI_ROOT naming the moved prefix: the same,
     loading that prefix's libpapi; with PAPI_ROOT naming no install, pip fails saying
     so; the checkout is left unchanged.

  check_install.py BUILD_DIR SOURCE_DIR"""

import os
import shutil
import subprocess
import sys
import tempfile

PY = "/usr/bin/python3"
PROBE = """import mmap, papi
with papi.EventSet(["perf::PAGE-FAULTS"]) as es:
    m = mmap.mmap(-1, 100 * mmap.PAGESIZE)
    for i in range(100): m[i * mmap.PAGESIZE] = 1
print(papi.__file__, papi.lib._name, es.values[0])"""
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, fails  # noqa: E402 (tests/common/checks.py)


def probe(site, prefix, what):
    env = dict(os.environ, PYTHONPATH=site)
    env.pop("LD_LIBRARY_PATH", None)
    run = subprocess.run([PY, "-c", PROBE], env=env, capture_output=True, text=True, cwd="/")
    print("%s: %s%s" % (what, run.stdout.strip(), run.stderr.strip()))
    parts = run.stdout.split()
    check(run.returncode == 0 and len(parts) == 3, "%s: import papi failed" % what)
    if len(parts) == 3:
        check(parts[0].startswith(site + "/papi/"), "%s: papi imported from %s" % (what, parts[0]))
        check(os.path.realpath(parts[1]).startswith(os.path.realpath(prefix) + "/"),
              "%s: libpapi %s is not the install's" % (what, parts[1]))
        check(100 <= int(parts[2]) <= 110, "%s: %s page faults for 100 pages" % (what, parts[2]))


def pip_install(src, target, root):
    env = dict(os.environ, PAPI_ROOT=root, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    args = ["-q", "--no-index", "--no-build-isolation", "--no-deps", "--target", target, src]
    return subprocess.run([PY, "-m", "pip", "install"] + args, env=env, capture_output=True,
                          text=True)


def status(src):
    return subprocess.run(["git", "-C", src, "status", "--porcelain", "--ignored"],
                          capture_output=True, text=True).stdout


def main(build, src):
    if subprocess.run([PY, "-m", "pip", "--version"], capture_output=True).returncode != 0:
        print("SKIPPED: pip is not installed for %s (Debian: apt-get install python3-pip)" % PY)
        return 77
    work = tempfile.mkdtemp()
    try:
        prefix = os.path.join(work, "prefix")
        subprocess.run(["cmake", "--install", build, "--prefix", prefix], check=True,
                       capture_output=True)
        rel = "lib/python3/dist-packages"
        probe(os.path.join(prefix, rel), prefix, "installed")
        moved = os.path.join(work, "moved")
        os.rename(prefix, moved)
        probe(os.path.join(moved, rel), moved, "moved")
        before = status(src)
        run = pip_install(src, os.path.join(work, "site"), moved)
        check(run.returncode == 0, "pip install failed: " + run.stdout + run.stderr)
        probe(os.path.join(work, "site"), moved, "pip install")
        run = pip_install(src, os.path.join(work, "site2"), os.path.join(work, "none"))
        check(run.returncode != 0 and "no installed papi-compat libpapi found" in run.stderr,
              "pip install without an install: " + run.stderr[-400:])
        check(status(src) == before, "pip install changed the checkout: " + status(src))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("PASSED" if not fails else "FAILED (%d checks)" % len(fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
