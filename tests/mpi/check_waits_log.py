#!/usr/bin/env python3
"""The event log of a job that dies (issue 49, item 3): mpi_waits.c checkpoint_abort on 4
ranks with PAPI_MPI_CHECKPOINT=0.05: rank 0 sends 200 ms late to rank 1, then after half a
second of checkpoints rank 3 calls abort() and the launcher ends the job. No report is
written; each rank's papi_mpi_rank<N>.events.jsonl must follow
schema/mpi_event_log.schema.json line by line, `papi_report DIR` prints the waits they give
(rank 1's late sender, rank 3 unfinished), and `papi_report --merge-trace OUT DIR`
must give a trace (trace_json.schema.json) whose wait states hold rank 1's late-sender wait
(what the program measured +- 30 ms, and 200 ms +- 30 ms unless the machine delayed a rank
past that), each rank's wait at a barrier on its half of an MPI_Comm_split (rank r
entering after r x 100 ms: what the program measured +- 30 ms), and name rank 3 as ended
by its signal.
Usage: check_waits_log.py --mpirun M --program PROG"""
import argparse
import json
import os
import re
import shutil
import sys
import tempfile

from mpi_check import check, expect_values, rank_env, run_cmd, verdict, wait_ranks_gone

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "src-c", "utils"))
from papi_report import schema_check  # noqa: E402

REPORT = os.path.join(HERE, "..", "..", "src-c", "utils", "papi_report.py")
TOL = 0.030


def near(got, want, what, tol=TOL):
    ok = abs(got - want) <= tol
    print(f"{what}: {got:.4f} s, expected {want:.4f} s +- {tol:.3f}: {'ok' if ok else 'NO'}")
    return check(ok, f"{what}: {got:.4f} s, expected {want:.4f} +- {tol:.3f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--program", required=True)
    args = ap.parse_args()
    try:
        schema_check.validators()
    except schema_check.SchemaUnavailable as e:
        print(f"SKIPPED: {e}")
        return 77
    out = tempfile.mkdtemp(prefix="papi_mpi_waits_log_")
    try:
        env = {"PAPI_MPI_OUTPUT_DIR": out, "PAPI_MPI_CHECKPOINT": "0.05"}
        p = run_cmd([args.mpirun, "-np", "4"] + rank_env(args.mpirun, env) +
                    [args.program, "checkpoint_abort"], tail=3000)
        wait_ranks_gone(out)
        check(p.returncode != 0, f"the job failed (rank 3 aborted): status {p.returncode}")
        measured = expect_values(p.stdout).get(("late_sender_recv", 1))
        if not check(measured is not None, "the program's EXPECT line for rank 1"):
            return verdict()
        names = sorted(os.listdir(out))
        print("left:", names)
        check("papi_mpi_report.json" not in names, "no final report")
        logs = [n for n in names if re.fullmatch(r"papi_mpi_rank\d\.events\.jsonl", n)]
        check("papi_mpi_rank3.events.jsonl" in logs, f"the dead rank's log: {logs}")
        check("papi_mpi_rank1.events.jsonl" in logs, f"the waiting rank's log: {logs}")
        for n in logs:
            bad = schema_check.check_file(os.path.join(out, n))
            check(bad is None, f"{n} follows mpi_event_log.schema.json: {bad}")
        with open(os.path.join(out, "papi_mpi_rank3.events.jsonl"), encoding="utf-8") as f:
            last = [json.loads(x) for x in f if x.strip()][-1]
        check(last["reason"] == "signal 6", f"rank 3's last line says its signal: {last['reason']}")
        # papi_report DIR: the waits the logs give, in text, instead of a refusal
        q = run_cmd(["/usr/bin/python3", REPORT, out], tail=3000)
        check(q.returncode == 0, f"papi_report DIR (no final report): status {q.returncode}")
        check(re.search(r"^papi_report: rank 3 did not finish: signal 6$", q.stdout, re.M),
              "papi_report DIR names rank 3 and its signal")
        row = re.search(r"^\s+1\s+\d+\s+\d+\s+([0-9.]+)\s", q.stdout, re.M)
        if check(row is not None, "papi_report DIR: rank 1's row"):
            near(float(row.group(1)), measured, "papi_report DIR: rank 1 late sender")
        check(re.search(r"^\s+3\s+[0-9.]+\s+[0-9.]+\s+signal 6$", q.stdout, re.M),
              "papi_report DIR: rank 3's own row says its signal")
        rows_only = tempfile.mkdtemp(prefix="papi_mpi_rows_only_")
        try:  # the rows alone (no event logs): their table, no refusal
            for n in names:
                if re.fullmatch(r"papi_mpi_rank\d\.(partial|checkpoint)\.json", n):
                    shutil.copy(os.path.join(out, n), rows_only)
            q = run_cmd(["/usr/bin/python3", REPORT, rows_only], tail=2000)
            check(q.returncode == 0 and "no event log" in q.stdout and
                  re.search(r"^\s+3\s+[0-9.]+\s+[0-9.]+\s+signal 6$", q.stdout, re.M),
                  f"papi_report DIR with rows only: status {q.returncode}, rank 3's row")
        finally:
            shutil.rmtree(rows_only, ignore_errors=True)
        trace = os.path.join(out, "dead_job_trace.json")
        q = run_cmd(["/usr/bin/python3", REPORT, "--merge-trace", trace, out], tail=2000)
        check(q.returncode == 0, f"papi_report --merge-trace DIR: status {q.returncode}")
        check(re.search(r"^papi_report: rank 3 did not finish: signal 6$", q.stdout, re.M),
              "papi_report names rank 3 and its signal")
        if not check(os.path.exists(trace), "the trace written"):
            return verdict()
        bad = schema_check.check_file(trace)
        check(bad is None, f"the trace follows trace_json.schema.json: {bad}")
        with open(trace, encoding="utf-8") as f:
            doc = json.load(f)
        other = doc["otherData"]
        gone = {r["rank"]: r["exit_reason"] for r in other["unfinished"]}
        check(gone.get(3) == "signal 6", f"unfinished names rank 3: {gone}")
        waits = {r["rank"]: r for r in other["wait_states"]["ranks"]}
        if check(1 in waits, "rank 1's waits"):
            got = waits[1]["late_sender_s"]
            near(got, measured, "rank 1 late sender (what the program measured)")
            if abs(measured - 0.200) <= TOL:
                near(got, 0.200, "rank 1 late sender (nominal)")
            else:
                print(f"the program measured {measured:.4f} s against the nominal 0.200 s: "
                      "checked against what happened only")
        for r in range(4):  # the barrier on the halves of an MPI_Comm_split
            m = expect_values(p.stdout).get(("split_barrier", r))
            if check(m is not None and r in waits, f"rank {r}: EXPECT split_barrier and its waits"):
                near(waits[r]["wait_barrier_s"], m, f"rank {r} wait at its half's barrier")
        check(other["wait_states"]["matched"]["p2p_matched"] >= 1,
              f"the send matched its receive: {other['wait_states']['matched']}")
        recvs = [e for e in doc["traceEvents"] if e.get("pid") == 1 and e.get("name") == "MPI_Recv"
                 and e.get("ph") == "B"]
        check(any("late_sender_s" in e.get("args", {}) for e in recvs),
              f"rank 1's MPI_Recv slice carries its wait: {recvs}")
        named = [e["args"]["name"] for e in doc["traceEvents"]
                 if e.get("ph") == "M" and e.get("pid") == 3 and e.get("name") == "process_name"]
        check(named and "signal 6" in named[0], f"rank 3's track says why it ended: {named}")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
