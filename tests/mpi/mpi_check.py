"""Shared by the MPI test checkers: the tally of failed checks and the verdict (from
tests/common/checks.py), the launcher's options and the ranks' output markers."""
import argparse
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check, verdict  # noqa: E402,F401 (the MPI checkers' tally)

report_check.guard()


def is_openmpi(mpirun):
    """Open MPI's launcher (mpirun.openmpi, orterun), else Hydra (MPICH)."""
    return "openmpi" in os.path.basename(mpirun) or "orterun" in os.path.basename(mpirun)


def rank_env(mpirun, env):
    """mpirun arguments that set env (a dict) in the ranks only, not in the launcher:
    Hydra's -genv NAME VALUE, Open MPI's -x NAME=VALUE."""
    out = []
    for k, v in env.items():
        out += ["-x", f"{k}={v}"] if is_openmpi(mpirun) else ["-genv", k, v]
    return out


def wait_ranks_gone(outdir, timeout=30):
    """Wait until no process started with PAPI_MPI_OUTPUT_DIR=outdir is alive (a zombie
    counts as gone: it writes nothing). A launcher can return while a rank it SIGKILLed
    is still finishing its last system call (Hydra after an MPI_Abort): what is on disk
    is final only then. Returns the pids still alive at the timeout."""
    key = b"\0PAPI_MPI_OUTPUT_DIR=" + os.fsencode(outdir) + b"\0"
    deadline = time.monotonic() + timeout
    while True:
        alive = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    env = b"\0" + f.read()
            except OSError:
                continue
            if key in env:
                alive.append(int(pid))
        if not alive or time.monotonic() > deadline:
            check(not alive, f"the ranks writing to {outdir} are gone: {alive} still alive")
            return alive
        time.sleep(0.01)


def package_of(cpu):
    """The package (socket) of a CPU from sysfs, None where unreadable."""
    try:
        with open("/sys/devices/system/cpu/cpu%d/topology/physical_package_id" % cpu) as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def skip_off_package0():
    """Exit 77 (SKIPPED) unless every CPU this process may run on is on package 0: the
    energy checkers replay a two-socket machine and expect the ranks on its package 0."""
    pkgs = {package_of(c) for c in os.sched_getaffinity(0)}
    if pkgs != {0}:
        print("SKIPPED: this machine's CPUs are not all on package 0 (%s): the ranks' socket "
              "would not be the replayed package 0" % sorted(map(str, pkgs)))
        sys.exit(77)


def launch_args(np=2, more=(), options=None):
    """The options of a checker that runs one program under one MPI's launcher:
    --mpirun, --program, --np (default np), each name of more (required) and each of
    options ({name: add_argument's keywords})."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--np", type=int, default=np)
    for name in more:
        ap.add_argument(name, required=True)
    for name, kw in (options or {}).items():
        ap.add_argument(name, **kw)
    return ap.parse_args()


def schemas_unavailable():
    """True, the SKIPPED line printed, where the report schemas cannot be loaded here
    (papi_report's schema_check: no jsonschema) for a checker that validates reports."""
    sys.path.insert(0, report_check.PYTHON_DIR)
    from papi_report.load import schema_check
    try:
        schema_check.validators()
    except schema_check.SchemaUnavailable as e:
        print(f"SKIPPED: {e}")
        return True
    return False


def marker_lines(text, word):
    """The fields after `word` on each line of a program's output that carries the marker
    word (EXPECT, WORK). mpirun forwards each rank's output in the chunks the rank wrote: a
    rank whose block-buffered stdout flushed mid-line (the report's tables, 4 KiB at a
    time) leaves the next rank's marker line behind a line fragment, so a marker is looked
    for anywhere in a line, up to its end."""
    return [m.group(1).split() for m in re.finditer(r"%s ([^\n]*)$" % re.escape(word), text, re.M)]


def expect_values(text):
    """{(what, rank): seconds} of the program's "EXPECT what rank seconds" lines."""
    out = {}
    for f in marker_lines(text, "EXPECT"):
        if len(f) == 3 and f[1].isdigit() and re.fullmatch(r"[0-9.]+", f[2]):
            out[(f[0], int(f[1]))] = float(f[2])
    return out


def run_cmd(cmd, env=None, cwd=None, tail=6000):
    """Runs cmd (stdout and stderr together, 120 s at most), prints it, the end of its
    output and its exit status; returns the CompletedProcess."""
    print("+", " ".join(cmd))
    p = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=120)
    print(p.stdout[-tail:])
    print("exit status", p.returncode)
    return p


def run_ranks(mpirun, np, env, argv, tail=6000):
    """Runs argv on np ranks under mpirun with env (a dict) set in the ranks alone
    (rank_env), as run_cmd does; returns the CompletedProcess."""
    return run_cmd([mpirun, "-np", str(np)] + rank_env(mpirun, env) + list(argv), tail=tail)


def run_failing_job(mpirun, np, env, argv, what):
    """A job one of whose ranks dies (killed, aborted), run as run_ranks runs it (its
    output's last 3000 characters printed); once the ranks writing to env's
    PAPI_MPI_OUTPUT_DIR are gone (what is on disk is final), checks that the job failed
    (what: how). Returns the CompletedProcess."""
    p = run_ranks(mpirun, np, env, argv, tail=3000)
    wait_ranks_gone(env["PAPI_MPI_OUTPUT_DIR"])
    check(p.returncode != 0, f"the job failed ({what}): status {p.returncode}")
    return p


def job_report(out, what=""):
    """The job's papi_mpi_report.json in the folder out, loaded, once checked written and
    checked against mpi_report.schema.json; None (a failed check) when it was not written.
    what: the words that start the checks' messages (a run's name)."""
    path = os.path.join(out, "papi_mpi_report.json")
    if not check(os.path.exists(path), what + "the report written"):
        return None
    sys.path.insert(0, report_check.PYTHON_DIR)
    from papi_report.load import schema_check
    bad = schema_check.check_file(path)
    check(bad is None, what + "the report follows mpi_report.schema.json: %s" % bad)
    with open(path, encoding="utf-8") as f:
        return json.load(f)
