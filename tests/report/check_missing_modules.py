#!/usr/bin/env python3
"""check_missing_modules.py PAPI_REPORT HL_OUTPUT_WRITER: the Python tools on a machine
without pandas or without matplotlib (each hidden in turn by a package of that name that
fails to import, first on PYTHONPATH). Each tool that needs the missing module must stop
with exit status 1 and one message naming the Debian package that installs it (never a
traceback); --help needs neither, nor does refusing an input (papi_report reads and checks
its inputs before it imports pandas). Exit 0 pass, 1 fail."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, verdict  # noqa: E402 (tests/common/checks.py)
PACKAGES = {"pandas": "python3-pandas", "matplotlib": "python3-matplotlib"}
#: a valid MPI report of one rank: what is missing is said once the input is read
REPORT = {"run_id": "1700000000.000000001-1", "nranks": 1, "finished_ranks": 1,
          "ranks": [{"rank": 0, "finished": True, "threads": 1, "wall_s": 1.0, "mpi_s": 0.25,
                     "counters": {}, "calls": {"MPI_Init": {"calls": 1, "time_s": 0.1,
                                                            "bytes_sent": 0, "bytes_recv": 0}}}]}


def hide(root, module):
    d = os.path.join(root, "hide_" + module, module)
    os.makedirs(d)
    with open(os.path.join(d, "__init__.py"), "w", encoding="utf-8") as f:
        f.write("raise ModuleNotFoundError(\"No module named '%s' (hidden by the test)\", name=%r)\n"
                % (module, module))
    return os.path.dirname(d)


def run(cmd, hidden, cwd):
    env = dict(os.environ, PYTHONPATH=hidden)
    p = subprocess.run([sys.executable] + cmd, capture_output=True, text=True, env=env, cwd=cwd,
                       timeout=120)
    return p.returncode, p.stdout + p.stderr


def main():
    report, writer = (os.path.abspath(a) for a in sys.argv[1:3])
    root = tempfile.mkdtemp(prefix="missing_modules_")
    with open(os.path.join(root, "papi_mpi_report.json"), "w", encoding="utf-8") as f:
        json.dump(REPORT, f)
    with open(os.path.join(root, "bad_report.json"), "w", encoding="utf-8") as f:
        json.dump({"run_id": 5}, f)
    for module, package in PACKAGES.items():
        hidden = hide(root, module)
        rc, out = run([report, "--mpi", root, "-o", os.path.join(root, "out")], hidden, root)
        print("papi_report without %s: exit %d: %s" % (module, rc, out.strip()))
        check(rc == 1 and package in out and "Traceback" not in out,
              "papi_report without %s: exit %d, %r" % (module, rc, out))
        check(not os.path.exists(os.path.join(root, "out")), "papi_report without %s: nothing written" % module)
        rc, out = run([report, "--mpi", os.path.join(root, "bad_report.json")], hidden, root)
        check(rc == 2 and "bad_report.json" in out and "Traceback" not in out,
              "papi_report without %s refuses a malformed report first, exit 2: %d, %r" % (module, rc, out))
        rc, out = run([report, "--help"], hidden, root)
        check(rc == 0 and "usage" in out, "papi_report --help without %s: exit %d" % (module, rc))
        if module == "pandas":  # papi_hl_output_writer draws nothing: pandas only
            rc, out = run([writer, "--source", root], hidden, root)
            print("papi_hl_output_writer without %s: exit %d: %s" % (module, rc, out.strip()))
            check(rc == 1 and package in out and "Traceback" not in out,
                  "papi_hl_output_writer without %s: exit %d, %r" % (module, rc, out))
    return verdict("check_missing_modules")


if __name__ == "__main__":
    sys.exit(main())
