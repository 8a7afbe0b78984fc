#!/usr/bin/env python3
"""check_sample_job.py PAPI_RUN PROG PAPI_REPORT: the job's profile merged once.
papi_run --sample on PROG threads (a forked child and threads: two processes, several
threads), with -e perf::PAGE-FAULTS read at each sample, writes
papi_run_output/job_profile_RUNID.json: its run is the processes' run, it follows
schema/profile_job.schema.json, lists every process with its samples, and its stacks
(by names and places) and threads' functions are exactly the merge of the processes'
profile_RUNID_PID.json, done here independently; its stacks by names are profile.folded's.
papi_report reads it: a folder without it (an older papi_run's) gives the same files
(papi_report runs papi_run --merge on it, papi_run on PATH), and a job file whose counts were changed gives the changed
shares (papi_report took them from the job file, not from the processes)."""
import csv
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from papi_report.load import schema_check  # noqa: E402
from checks import fail  # noqa: E402 (tests/common/checks.py)

report_check.guard()


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    return p.returncode, p.stdout + p.stderr


def merged(procs):
    """The processes' stacks summed by (names, places) and by (rank, pid, tid, leaf)."""
    stacks, threads = {}, {}
    for d in procs:
        for s in d["stacks"]:
            path, where = [], []
            for i in s["frames"]:
                f = d["frames"][i]
                parts = f["name"].split(";")
                path += parts
                where += [""] * (len(parts) - 1) + ["%s:%d" % (f["file"], f["line"]) if "file" in f else ""]
            for table, key in ((stacks, (";".join(path), ";".join(where))),
                               (threads, (d["rank"], d["pid"], s["tid"], d["frames"][s["frames"][-1]]["name"]))):
                e = table.setdefault(key, [0, [0] * len(s["counts"])])
                e[0] += s["samples"]
                e[1] = [a + b for a, b in zip(e[1], s["counts"])]
    return stacks, threads


def check_job(out):
    job_files = glob.glob(os.path.join(out, "job_profile_*.json"))
    procs = [json.load(open(f)) for f in glob.glob(os.path.join(out, "profile_*.json"))
             if "job_profile_" not in f]
    if len(job_files) != 1 or len(procs) != 2:
        fail("%d job files, %d process profiles (expected 1 and 2): %s"
             % (len(job_files), len(procs), sorted(os.listdir(out))))
    job = json.load(open(job_files[0]))
    why = schema_check.check_document(job_files[0], job)
    if why:
        fail(why)
    run_id = procs[0]["run"]["id"]
    if job["run"]["id"] != run_id or os.path.basename(job_files[0]) != "job_profile_%s.json" % run_id:
        fail("the job file names run %s, the processes run %s" % (job["run"]["id"], run_id))
    want = sorted((d["pid"], d["samples"]) for d in procs)
    got = sorted((p["pid"], p["samples"]) for p in job["processes"])
    if got != want or job["samples"] != sum(d["samples"] for d in procs) or job["events"] != procs[0]["events"]:
        fail("processes %s, samples %d, events %s; the processes' %s, %d, %s"
             % (got, job["samples"], job["events"], want, sum(d["samples"] for d in procs), procs[0]["events"]))
    stacks, threads = merged(procs)
    got_s = {(s["stack"], s["where"]): [s["samples"], s["counts"]] for s in job["stacks"]}
    got_t = {(t["rank"], t["pid"], t["tid"], t["function"]): [t["samples"], t["counts"]]
             for t in job["thread_functions"]}
    if got_s != stacks:
        fail("job stacks differ from the processes' merge: %s" % sorted(set(got_s.items()) ^ set(stacks.items()))[:4])
    if got_t != threads or len({k[2] for k in threads}) < 3:
        fail("job threads %s, the processes' merge %s" % (sorted(got_t.items())[:4], sorted(threads.items())[:4]))
    folded = {}
    for s in job["stacks"]:
        folded[s["stack"]] = folded.get(s["stack"], 0) + s["counts"][0]
    with open(os.path.join(out, "profile.folded")) as f:
        lines = dict(line.rstrip("\n").rsplit(" ", 1) for line in f)
    if {k: int(v) for k, v in lines.items()} != {k: v for k, v in folded.items() if v}:
        fail("profile.folded is not the job file's stacks by names")
    print("job file: %d processes, %d stacks, %d thread functions, the processes' merge"
          % (len(job["processes"]), len(job["stacks"]), len(job["thread_functions"])))
    return job_files[0], job


def report(papi_report, src, rep):
    env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(sys.argv[1])) + os.pathsep
               + os.environ.get("PATH", ""))  # papi_report's papi_run --merge: this one
    rc, text = run([sys.executable, papi_report, src, "-o", rep], env)
    if rc != 0:
        fail("papi_report %s: exit status %d\n%s" % (src, rc, text))
    return {os.path.basename(f): open(f).read() for f in glob.glob(os.path.join(rep, "profile*"))}


def main():
    papi_run, prog, papi_report = sys.argv[1:4]
    try:
        import pandas  # noqa: F401
    except ImportError:
        print("SKIPPED: papi_report needs python3-pandas")
        return 77
    with tempfile.TemporaryDirectory(prefix="sample_job_") as tmp:
        d = os.path.join(tmp, "run")
        rc, text = run([papi_run, "--sample", "perf::TASK-CLOCK@1000000", "-e", "perf::PAGE-FAULTS",
                        "-o", d, "--", prog, "threads", "400"])
        if rc != 0:
            fail("papi_run exit status %d\n%s" % (rc, text))
        out = os.path.join(d, "papi_run_output")
        job_file, job = check_job(out)
        with_job = report(papi_report, out, os.path.join(tmp, "rep_job"))
        old = os.path.join(tmp, "old")  # an older papi_run's folder: no job file
        shutil.copytree(out, old)
        os.remove(os.path.join(old, os.path.basename(job_file)))
        without = report(papi_report, old, os.path.join(tmp, "rep_old"))
        if with_job != without or "profile_functions.csv" not in with_job:
            fail("papi_report's profile files differ with and without the job file: %s"
                 % sorted(k for k in set(with_job) | set(without) if with_job.get(k) != without.get(k)))
        # the job file alone decides: all but one function's weight set to 0
        keep = max(job["thread_functions"], key=lambda t: t["counts"][0])["function"]
        for t in job["thread_functions"]:
            if t["function"] != keep:
                t["counts"] = [0] * len(t["counts"])
        with open(job_file, "w") as f:
            json.dump(job, f)
        rows = list(csv.DictReader(open(os.path.join(tmp, "rep_new", "profile_functions.csv"))
                                   if report(papi_report, out, os.path.join(tmp, "rep_new")) else []))
        shares = {r["function"]: float(r["self_pct perf::TASK-CLOCK"]) for r in rows}
        if shares.get(keep) != 100.0 or any(v != 0.0 for k, v in shares.items() if k != keep):
            fail("papi_report did not take the job file's counts: %s" % shares)
    print("check_sample_job: PASSED (papi_report's files the same with and without the job file)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
