#!/usr/bin/env python3
"""check_version_identity.py CMAKE BUILD PREFIX VERSION HL_PROGRAM [MPIRUN WRAPPER MPI_PROGRAM]

The project's release names everything a user or a support ticket sees (issue 26): the
build is installed into PREFIX, then
  - every installed program (the C utilities and the Python ones: papi_hl_output_writer,
    papi_report, papi_mpi_collect) answers --version with "<name> (papi-compat) VERSION";
  - papi_report and papi_mpi_collect ask libpapi through papi_report's
    load/compat_version.py alone, and answer --version without pandas, through a
    symbolic link too;
  - papi_avail --json carries "papi_compat_version": VERSION;
  - the high-level report a program writes (HL_PROGRAM, PAPI_OUTPUT_DIRECTORY set)
    carries it;
  - the MPI wrapper's report (MPI_PROGRAM under MPIRUN -np 2 with WRAPPER preloaded)
    carries it, when the wrapper is built.
Exit 0 pass, 1 fail."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, fails as FAILURES  # noqa: E402 (tests/common/checks.py)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


def shebang(path):
    """A program's #! line, b"" for a binary."""
    with open(path, "rb") as f:
        line = f.readline(128)
    return line if line.startswith(b"#!") else b""


def asks_release(path):
    with open(path, "rb") as f:
        return b"PAPI_compat_version" in f.read()


def check_python_tools(prefix, version):
    """The Python tools' release has one home, papi_report's load/compat_version.py (issue
    57): no installed Python program or module but it asks libpapi (PAPI_compat_version),
    and papi_report and papi_mpi_collect load it without the package's __init__, so their
    --version answers where pandas cannot be imported."""
    scripts = [f for f in glob.glob(os.path.join(prefix, "bin", "*")) if b"python" in shebang(f)]
    modules = glob.glob(os.path.join(prefix, "share", "papi", "python", "**", "*.py"), recursive=True)
    askers = sorted(os.path.relpath(f, prefix) for f in scripts + modules
                    if asks_release(f))
    check(askers == [os.path.join("share", "papi", "python", "papi_report", "load", "compat_version.py")],
          "the Python files that ask libpapi its release: %s, want load/compat_version.py alone" % askers)
    with tempfile.TemporaryDirectory() as fake:
        os.makedirs(os.path.join(fake, "pandas"))
        with open(os.path.join(fake, "pandas", "__init__.py"), "w") as f:
            f.write("raise ImportError('pandas hidden by check_version_identity.py')\n")
        env = dict(os.environ, PYTHONPATH=fake)
        for name in ("papi_report", "papi_mpi_collect"):
            link = os.path.join(fake, name)  # a link elsewhere (~/bin) finds the install too
            os.symlink(os.path.join(prefix, "bin", name), link)
            for exe in (os.path.join(prefix, "bin", name), link):
                p = run([exe, "--version"], env=env)
                check(p.returncode == 0 and p.stdout.strip() == "%s (papi-compat) %s" % (name, version),
                      "%s --version without pandas: exit %d, %r %r" % (exe, p.returncode, p.stdout,
                                                                      p.stderr[-300:]))
    print("the Python tools' --version: one home, no pandas needed")


def main():
    if len(sys.argv) not in (6, 9):
        print(__doc__)
        return 2
    cmake, build, prefix, version, hl_prog = sys.argv[1:6]
    shutil.rmtree(prefix, ignore_errors=True)
    p = run([cmake, "--install", build, "--prefix", prefix])
    if not check(p.returncode == 0, "cmake --install: %s" % p.stderr[-2000:]):
        return 1
    progs = sorted(glob.glob(os.path.join(prefix, "bin", "*")))
    check(len(progs) >= 15, "only %d installed programs" % len(progs))
    for exe in progs:
        name = os.path.basename(exe)
        p = run([exe, "--version"])
        first = (p.stdout or p.stderr).strip().split("\n")[0]
        check(p.returncode == 0 and first == "%s (papi-compat) %s" % (name, version),
              "%s --version: exit %d, %r" % (name, p.returncode, first))
    print("--version: %d programs" % len(progs))
    check_python_tools(prefix, version)

    p = run([os.path.join(prefix, "bin", "papi_avail"), "--json"])
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = {}
    check(doc.get("papi_compat_version") == version,
          "papi_avail --json: papi_compat_version %r" % doc.get("papi_compat_version"))

    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, PAPI_OUTPUT_DIRECTORY=out, PAPI_EVENTS="perf::PAGE-FAULTS")
        p = run([hl_prog], env=env, cwd=out)
        reports = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
        if check(p.returncode == 0 and len(reports) == 1,
                 "%s: exit %d, reports %s: %s" % (hl_prog, p.returncode, reports, p.stderr[-500:])):
            hl = json.load(open(reports[0], encoding="utf-8"))
            check(hl.get("papi_compat_version") == version,
                  "high-level report: papi_compat_version %r" % hl.get("papi_compat_version"))
            # doc/examples/highlevel.c: region compute, 100 fresh pages, a read, 50 more.
            regions = [r for t in hl.get("threads", {}).values() for r in t["regions"].values()]
            faults = [r.get("perf::PAGE-FAULTS") for r in regions if r.get("name") == "compute"]
            check(faults == [{"region_value": 150, "read_1": 100}],
                  "high-level report: region compute counted %s, want 150 (100 at the read)" % faults)

    if len(sys.argv) == 9:
        mpirun, wrapper, mpi_prog = sys.argv[6:9]
        with tempfile.TemporaryDirectory() as out:
            env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
            p = run([mpirun, "-np", "2", "-genv", "LD_PRELOAD", wrapper, "-genv",
                     "PAPI_MPI_OUTPUT_DIR", out, mpi_prog], env=env, cwd=out)
            path = os.path.join(out, "papi_mpi_report.json")
            if check(p.returncode == 0 and os.path.exists(path),
                     "%s -np 2 %s: exit %d, no %s: %s" % (mpirun, mpi_prog, p.returncode, path, p.stderr[-500:])):
                rep = json.load(open(path, encoding="utf-8"))
                check(rep.get("papi_compat_version") == version,
                      "MPI report: papi_compat_version %r" % rep.get("papi_compat_version"))
        print("MPI report checked")
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        return 1
    print("version identity: PASSED (%s)" % version)
    return 0


if __name__ == "__main__":
    sys.exit(main())
