#!/usr/bin/env python3
"""One launch, one run id (issue 69): `mpirun -np 2 papi_run -o D -- prog` writes papi_run's
files (D/papi_run_output/rank_XXXXXX-RUNID.json, their "run" header) and the MPI wrapper's
(D/papi_mpi_report.json, its rows) under the same id: the wrapper takes rank 0's
PAPI_RUN_ID, which papi_run gives its program. Checked:
  papi_run: every rank's file is named with its header's id, one id for both ranks;
  the MPI report's run_id and start_utc: papi_run's id, rank 0's start;
  papi_report on D: mpi_run.csv and region_run.csv name that one run; its MPI reader
    (mpi_rows) takes that run, and still does beside an earlier run's row (an id that
    starts with its time, older than this run's files);
  the wrapper alone (preloaded, no papi_run; PAPI_RUN_ID unset or not a run id): its own
    id, time.nanoseconds-pid, whose time is rank 0's start.
Usage: check_run_id.py --mpirun M --program PLAIN --papi-run PAPI_RUN --libdir DIR
  --wrapper LIB"""
import calendar
import csv
import glob
import json
import os
import re
import shutil
import sys
import tempfile
import time

from mpi_check import check, launch_args, rank_env, run_cmd, verdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from papi_report.load import mpi_rows  # noqa: E402

REPORT = os.path.join(HERE, "..", "..", "python", "papi_report.py")
OWN_ID = re.compile(r"(\d+)\.(\d{9})-(\d+)")


def papi_run_ids(out):
    """{file name: header id} of papi_run's files in out."""
    ids = {}
    for path in sorted(glob.glob(os.path.join(out, "papi_run_output", "rank_*.json"))):
        with open(path, encoding="utf-8") as f:
            ids[os.path.basename(path)] = (json.load(f).get("run") or {}).get("id")
    return ids


def report_of(out):
    path = os.path.join(out, "papi_mpi_report.json")
    if not check(os.path.exists(path), "the MPI report written: %s" % path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def csv_column(path, key):
    with open(path, newline="") as f:
        return [r[key] for r in csv.DictReader(f)]


def stale_row(out, rep, run_id):
    """An earlier, killed run's row of rank 1 in out (this run's, as its exit path would
    write it, under another id), written before this run: its id starts with its start
    time (the wrapper's own format)."""
    row = dict(rep["ranks"][1], finished=False, exit_reason="signal SIGKILL", run_id=run_id)
    path = os.path.join(out, "papi_mpi_rank1.partial.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(row, f)
    os.utime(path, (time.time() - 3600, time.time() - 3600))
    return path


def under_papi_run(args):
    out = tempfile.mkdtemp(prefix="papi_run_id_")
    try:
        earlier = "%d.000000001-1" % int(time.time() - 3600)
        cmd = [args.mpirun, "-np", "2", args.papi_run, "--quiet", "-e", "perf::PAGE-FAULTS",
               "-o", out, "--", args.program, "barrier"]
        p = run_cmd(cmd, env=dict(os.environ, PAPI_RUN_LIBDIR=args.libdir))
        check(p.returncode == 0, "papi_run under mpirun: exit status %d" % p.returncode)
        ids = papi_run_ids(out)
        check(len(ids) == 2, "papi_run wrote a file per rank: %s" % sorted(ids))
        for name, rid in ids.items():
            check(rid and name.endswith("-%s.json" % rid), "%s is named with its run id %s" % (name, rid))
        run = set(ids.values())
        if not check(len(run) == 1, "papi_run's two ranks: one run id: %s" % run):
            return
        run = run.pop()
        rep = report_of(out)
        if rep is None:
            return
        print("papi_run's run id %s, the MPI report's %s (start %s)" % (run, rep["run_id"], rep["start_utc"]))
        check(rep["run_id"] == run, "the MPI report's run id %r is papi_run's %r" % (rep["run_id"], run))
        starts = {json.load(open(os.path.join(out, "papi_run_output", n), encoding="utf-8"))["run"]["start"]
                  for n in ids}
        check(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", rep["start_utc"] or "") is not None
              and abs(_epoch(rep["start_utc"]) - min(_epoch(s) for s in starts)) <= 60,
              "the MPI report's start %s is rank 0's, near papi_run's %s" % (rep["start_utc"], starts))
        dest = os.path.join(out, "report")
        p = run_cmd([sys.executable, REPORT, out, "-o", dest])
        if check(p.returncode == 0, "papi_report reads the launch's directory: exit %d" % p.returncode):
            got = set(csv_column(os.path.join(dest, "mpi_run.csv"), "run_id") +
                      csv_column(os.path.join(dest, "region_run.csv"), "run_id"))
            check(got == {run}, "papi_report finds one run, papi_run's %s: %s" % (run, got))
        found = mpi_rows.read(out)
        check(found.run_id == run, "mpi_rows takes the launch's run: %s" % found.run_id)
        stale = stale_row(out, rep, earlier)
        found = mpi_rows.read(out)
        check(found.run_id == run and found.ignored == [os.path.basename(stale)],
              "beside an earlier run's row (%s), mpi_rows still takes the launch's run: %s, "
              "ignored %s" % (earlier, found.run_id, found.ignored))
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _epoch(utc):
    return calendar.timegm(time.strptime(utc, "%Y-%m-%dT%H:%M:%SZ"))


def wrapper_alone(args, papi_run_id):
    """The wrapper preloaded, no papi_run: its own id (PAPI_RUN_ID unset, or set to what
    is no run id: a '/' could not go into a file name)."""
    out = tempfile.mkdtemp(prefix="papi_run_id_own_")
    try:
        env = {"PAPI_MPI_OUTPUT_DIR": out, "LD_PRELOAD": args.wrapper}
        if papi_run_id is not None:
            env["PAPI_RUN_ID"] = papi_run_id
        before = time.time()
        p = run_cmd([args.mpirun, "-np", "2"] + rank_env(args.mpirun, env) + [args.program, "barrier"])
        check(p.returncode == 0, "the wrapper alone: exit status %d" % p.returncode)
        rep = report_of(out)
        if rep is None:
            return
        m = OWN_ID.fullmatch(rep["run_id"] or "")
        print("the wrapper alone: run id %s (start %s)" % (rep["run_id"], rep["start_utc"]))
        what = "PAPI_RUN_ID %r" % papi_run_id if papi_run_id is not None else "no PAPI_RUN_ID"
        if check(m is not None, "%s: the wrapper's own id, time.ns-pid: %r" % (what, rep["run_id"])):
            t = int(m.group(1))
            check(before - 5 <= t <= time.time() + 5 and abs(_epoch(rep["start_utc"]) - t) <= 1,
                  "%s: its time is the run's start %s" % (what, rep["start_utc"]))
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main():
    args = launch_args(more=("--papi-run", "--libdir", "--wrapper"))
    under_papi_run(args)
    wrapper_alone(args, None)
    wrapper_alone(args, "not/a-run-id")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
