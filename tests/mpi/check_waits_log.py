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
Then the same files made hostile by hand (issue 47): a row whose wall_s is a string, one
with a negative time, one that is not JSON, one of an earlier run: `papi_report DIR` names
each in one exact line on stderr and leaves it out (exit 2), the good ranks' rows still
shown; papi_mpi_collect refuses with the same lines; an event log line of the wrong shape
is named in one line (the rows still shown). With PAPI_INTERVAL=0.02 each log holds the
rank's counter samples (kind 8): the k-th sample of each event is the k-th cumulative
count of the rank's row's series, and the merged trace has a counter track per rank and
event with those values. And a rank that left only
papi_mpi_rank<N>.checkpoint.prev.json (killed while replacing its snapshot, issue 49):
papi_report DIR and papi_mpi_collect take it as a partial rank.
--part kill: mpi_waits.c checkpoint_kill, the same job but rank 3 ends by a real SIGKILL
after its last checkpoint (no exit path runs): its event log up to that checkpoint is all
it leaves; `papi_report DIR` and `--merge-trace` read it: rank 3 named as killed after
its last checkpoint, its barrier wait and rank 1's late sender as measured.
--part polls: mpi_waits.c polls (2 ranks): rank 0's 500 MPI_Test calls that complete
nothing, folded into one record of its event log (or a few, where a checkpoint shipped the
fold): run to the end with PAPI_MPI_TRACE=json, then as polls_kill (rank 1 SIGKILLed after
its checkpoints): the killed job's `--merge-trace OUT DIR` has the same calls of MPI_Test on
rank 0 as the finished job's trace (slices plus each fold's args.calls - 1) and its report,
all 500 (before the fold's count was logged the merged trace counted a fold as one call).
Usage: check_waits_log.py --mpirun M --program PROG [--part abort|kill|polls]"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from mpi_check import (check, expect_values, launch_args, rank_env, run_cmd, run_failing_job, schemas_unavailable, verdict,
                       wait_ranks_gone)
import report_check  # noqa: E402 (on the path mpi_check set: tests/common)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from papi_report.load import schema_check  # noqa: E402

REPORT = os.path.join(HERE, "..", "..", "python", "papi_report.py")
COLLECT = os.path.join(HERE, "..", "..", "mpi-wrappers", "papi_mpi_collect.py")
TOL = 0.030


def tool(cmd):
    """(exit status, stdout, stderr lines) of one of the Python tools."""
    p = subprocess.run(["/usr/bin/python3"] + cmd, capture_output=True, text=True, timeout=120)
    print("+", " ".join(cmd), "-> exit", p.returncode)
    print(p.stdout[-3000:] + p.stderr[-3000:])
    return p.returncode, p.stdout, [ln for ln in p.stderr.splitlines() if ln.strip()]


def rows_table(text):
    """{rank: exit_reason} of papi_report DIR's table of the ranks' own rows."""
    out, inside = {}, False
    for ln in text.splitlines():
        if ln.startswith("rows (the ranks' own"):
            inside = True
            continue
        m = re.fullmatch(r"\s*(\d+)\s+[0-9.]+\s+[0-9.]+\s+(.*)", ln) if inside else None
        if inside and ln.lstrip().startswith("rank"):
            continue
        if not m:
            inside = False
            continue
        out[int(m.group(1))] = m.group(2)
    return out


def copy_run(out, prefix):
    d = tempfile.mkdtemp(prefix=prefix)
    for n in os.listdir(out):
        if n.startswith("papi_mpi_rank"):
            shutil.copy(os.path.join(out, n), d)
    return d


def write_json(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


def hostile_rows(out):
    """Each rank's rows of the real run (its exit row, if any, removed for ranks 0 to 2)
    made hostile: rank 0's checkpoint with wall_s a string (its .prev then stands for it),
    rank 1's checkpoint with a negative mpi_s and its .prev not JSON (rank 1 left out),
    rank 2's two snapshots of an earlier run (left out, not malformed), rank 3 untouched."""
    d = copy_run(out, "papi_mpi_hostile_rows_")
    try:
        def path(r, kind):
            return os.path.join(d, f"papi_mpi_rank{r}.{kind}.json")

        def row(r, kind):
            with open(path(r, kind), encoding="utf-8") as f:
                return json.load(f)
        for r in range(3):
            if os.path.exists(path(r, "partial")):
                os.remove(path(r, "partial"))
            # A rank killed while it replaced its snapshot left the one before it alone (a
            # loaded machine makes that window wide): both are rows of this run, so the
            # missing one is made from the other; the malformations below need both.
            have = [k for k in ("checkpoint", "checkpoint.prev") if os.path.exists(path(r, k))]
            if len(have) == 1:
                other = "checkpoint.prev" if have[0] == "checkpoint" else "checkpoint"
                print(f"rank {r} left only its {have[0]}: its {other} made from it")
                shutil.copy(path(r, have[0]), path(r, other))
        if not check(all(os.path.exists(path(r, k)) for r in range(3)
                         for k in ("checkpoint", "checkpoint.prev")),
                     f"ranks 0-2 left a checkpoint or the one before it: {os.listdir(d)}"):
            return
        run_id = row(0, "checkpoint")["run_id"]
        write_json(path(0, "checkpoint"), dict(row(0, "checkpoint"), wall_s="1.5"))
        write_json(path(1, "checkpoint"), dict(row(1, "checkpoint"), mpi_s=-0.25))
        torn = '{"rank": 1, "wall_s": '
        with open(path(1, "checkpoint.prev"), "w", encoding="utf-8") as f:
            f.write(torn)
        try:
            json.loads(torn)
        except ValueError as e:
            torn_why = str(e)
        for k in ("checkpoint", "checkpoint.prev"):
            write_json(path(2, k), dict(row(2, k), run_id="1000000000.000000001-1"))
        want = [f"{path(0, 'checkpoint')}: $.wall_s: '1.5' is not of type 'number' "
                "(rule type of mpi_row.schema.json)",
                f"{path(1, 'checkpoint')}: $.mpi_s: -0.25 is less than the minimum of 0 "
                "(rule minimum of mpi_row.schema.json)",
                f"{path(1, 'checkpoint.prev')} is not JSON: {torn_why}"]
        rc, stdout, err = tool([REPORT, d])
        check(rc == 2, f"papi_report DIR with malformed rows: exit {rc}, want 2")
        check(sorted(err) == sorted(f"papi_report: {w}: left out" for w in want),
              f"papi_report DIR: one exact line per malformed row: {err}")
        for k in ("checkpoint", "checkpoint.prev"):
            check(f"papi_report: {path(2, k)}: an earlier run's row (this run is {run_id}): "
                  "left out" in stdout.splitlines(), f"papi_report DIR names rank 2's earlier {k}")
        table = rows_table(stdout)
        check(table == {0: "checkpoint (from papi_mpi_rank0.checkpoint.prev.json)", 3: "signal 6"},
              f"papi_report DIR: rank 0 from its .prev, rank 3's own row, 1 and 2 left out: {table}")
        check(re.search(r"^\s+1\s+\d+\s+\d+\s+[0-9.]+\s", stdout, re.M),
              "papi_report DIR: rank 1's waits from its event log still shown")
        check("Traceback" not in stdout + "".join(err), "no traceback")
        rc, stdout, err = tool([COLLECT, d, "--np", "4"])
        check(rc == 2 and stdout == "" and sorted(err) == sorted("papi_mpi_collect: " + w for w in want),
              f"papi_mpi_collect refuses the malformed rows, one exact line each: exit {rc}, {err}")
        for f in (path(0, "checkpoint"), path(1, "checkpoint"), path(1, "checkpoint.prev")):
            os.remove(f)  # the earlier run's rows alone: ignored, not refused
        rc, stdout, err = tool([COLLECT, d, "--np", "4"])
        got = json.loads(stdout) if rc == 0 else {}
        why = report_check.violation("papi_mpi_collect", got, "papi_mpi_collect's output")
        check(why is None, f"papi_mpi_collect's output breaks its schema: {why}")
        check(rc == 0 and got.get("ignored") == ["papi_mpi_rank2.checkpoint.json",
                                                 "papi_mpi_rank2.checkpoint.prev.json"] and
              got.get("partial") == [{"rank": 0, "exit_reason": "checkpoint"},
                                     {"rank": 3, "exit_reason": "signal 6"}] and
              got.get("missing") == [1, 2], f"papi_mpi_collect: the earlier run's rows ignored: "
              f"exit {rc}, {got}")
    finally:
        shutil.rmtree(d, ignore_errors=True)


def hostile_log(out):
    """Rank 1's event log with a record of 3 items (the schema says 11): papi_report DIR
    names the line in one line and shows the rows alone (exit 2); --merge-trace refuses
    it in one line (exit 2); never a traceback."""
    d = copy_run(out, "papi_mpi_hostile_log_")
    try:
        log = os.path.join(d, "papi_mpi_rank1.events.jsonl")
        with open(log, encoding="utf-8") as f:
            lines = f.read().splitlines()
        first = json.loads(lines[0])
        first["records"][0] = [1, 2, 3]
        lines[0] = json.dumps(first)
        with open(log, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        why = (f"papi_report: {log}: line 1: $.records[0]: [1, 2, 3] is too short "
               "(rule minItems of mpi_event_log.schema.json)")
        rc, stdout, err = tool([REPORT, d])
        check(rc == 2 and len(err) == 1 and err[0].startswith(why) and err[0].endswith(": left out"),
              f"papi_report DIR with a malformed event log line: exit {rc}, {err}")
        check(sorted(rows_table(stdout)) == [0, 1, 2, 3] and "event logs that cannot be used" in stdout,
              "papi_report DIR: the rows shown without the event logs")
        rc, stdout, err = tool([REPORT, "--merge-trace", os.path.join(d, "t.json"), d])
        check(rc == 2 and len(err) == 1 and err[0].startswith(why) and
              not os.path.exists(os.path.join(d, "t.json")),
              f"papi_report --merge-trace with a malformed event log line: exit {rc}, {err}")
    finally:
        shutil.rmtree(d, ignore_errors=True)


def prev_only(out):
    """Rank 2 killed while replacing its snapshot (SIGKILL between moving its checkpoint
    to .prev and linking the new one: no exit path, no exit row): only
    papi_mpi_rank2.checkpoint.prev.json left, its event log up to its last checkpoint."""
    d = copy_run(out, "papi_mpi_prev_only_")
    try:
        ck = os.path.join(d, "papi_mpi_rank2.checkpoint.json")
        prev_path = os.path.join(d, "papi_mpi_rank2.checkpoint.prev.json")
        if os.path.exists(os.path.join(d, "papi_mpi_rank2.partial.json")):
            os.remove(os.path.join(d, "papi_mpi_rank2.partial.json"))
        if os.path.exists(ck):
            os.replace(ck, prev_path)
        elif not check(os.path.exists(prev_path), f"rank 2 left a checkpoint or its .prev: {os.listdir(d)}"):
            return
        else:  # the launcher's kill already came inside rank 2's replacement window
            print("rank 2 left only its checkpoint.prev in the real run: taken as it is")
        log = os.path.join(d, "papi_mpi_rank2.events.jsonl")
        with open(log, encoding="utf-8") as f:
            kept = [ln for ln in f if json.loads(ln).get("reason") == "checkpoint"]
        with open(log, "w", encoding="utf-8") as f:
            f.writelines(kept)
        prev = "checkpoint (from papi_mpi_rank2.checkpoint.prev.json)"
        rc, stdout, err = tool([REPORT, d])
        table = rows_table(stdout)
        check(rc == 0 and not err, f"papi_report DIR with rank 2's .prev only: exit {rc}, {err}")
        check(table.get(2) == prev, f"papi_report DIR: rank 2's row from its .prev: {table}")
        check(sorted(table) == [0, 1, 2, 3], f"papi_report DIR: every rank's row: {table}")
        check("papi_report: rank 2 did not finish: killed after its last checkpoint (no exit "
              "path ran)" in stdout.splitlines(), "papi_report DIR: rank 2 killed after its last checkpoint")
        os.remove(log)  # its event log lost too: the row says what ended it
        rc, stdout, err = tool([REPORT, d])
        check(rc == 0 and "papi_report: rank 2 did not finish: no event log; its row "
              "papi_mpi_rank2.checkpoint.prev.json says checkpoint" in stdout.splitlines(),
              f"papi_report DIR without rank 2's log: its .prev row named: exit {rc}")
        for n in os.listdir(d):
            if n.endswith(".events.jsonl"):
                os.remove(os.path.join(d, n))
        rc, stdout, err = tool([REPORT, d])
        table = rows_table(stdout)
        check(rc == 0 and "no event log" in stdout and table.get(2) == prev,
              f"papi_report DIR, rows only, rank 2's .prev: exit {rc}, {table}")
        rc, stdout, err = tool([COLLECT, d, "--np", "4"])
        got = json.loads(stdout) if rc == 0 else {}
        check(rc == 0 and {"rank": 2, "exit_reason": "checkpoint"} in got.get("partial", []) and
              got.get("missing") == [], f"papi_mpi_collect: rank 2 partial from its .prev: {got}")
    finally:
        shutil.rmtree(d, ignore_errors=True)


def log_samples(out, rank):
    """{event: [count since MPI_Init, ...]} of a rank's event log's counter records (kind
    8), in log order, each record index once."""
    recs = {}
    with open(os.path.join(out, f"papi_mpi_rank{rank}.events.jsonl"), encoding="utf-8") as f:
        for ln in f:
            try:
                d = json.loads(ln)
            except ValueError:
                continue  # a torn last line
            for k, r in enumerate(d["records"]):
                recs[d["first"] + k] = r
    # every record names its thread (12th item): this program's one thread, slot 0; and the
    # calls it stands for (13th): no polls here, one each
    check(recs and all(len(r) == 13 and r[11] == 0 and r[12] == 1 for r in recs.values()),
          f"rank {rank}: every record has its thread, 0: "
          f"{sorted({(len(r), r[11] if len(r) > 11 else None) for r in recs.values()})}")
    got = {}
    for i in sorted(recs):
        if recs[i][0] == 8:
            got.setdefault(recs[i][1], []).append(recs[i][6])
    return got


def row_cumulative(out, rank):
    """{event: [cumulative counts]} of the rank's row's series (its exit row, else its
    checkpoint), without the last sample (the row's own counts, not a sampler's), and
    the events the row has."""
    for kind in ("partial", "checkpoint", "checkpoint.prev"):
        path = os.path.join(out, f"papi_mpi_rank{rank}.{kind}.json")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                row = json.load(f)
            samples = row.get("series", {}).get("samples", [])[:-1]
            if not samples or not row.get("counters"):
                continue  # a row written in a signal handler has no counters
            cum = {}
            for ev in row["counters"]:
                total, cum[ev] = 0, []
                for s in samples:
                    total += s[ev]
                    cum[ev].append(total)
            return cum, kind
    return {}, None


def counter_samples(out, doc):
    """PAPI_INTERVAL's samples in the logs (item 3): the row's series, value for value,
    and counter tracks in the merged trace."""
    for rank in range(4):
        logged = log_samples(out, rank)
        cum, kind = row_cumulative(out, rank)
        if not check(kind is not None and cum, f"rank {rank}: a row with a series"):
            continue
        for ev, want in cum.items():
            got = logged.get(ev, [])
            n = min(len(got), len(want))  # the row and the log line are not written at once
            print(f"rank {rank} {ev}: {len(got)} logged samples, {len(want)} in its {kind} row; "
                  f"first {got[:3]} / {want[:3]}")
            check(n >= 3 and got[:n] == want[:n],
                  f"rank {rank} {ev}: the log's samples are the row's series' counts")
            track = [e["args"]["value"] for e in doc["traceEvents"]
                     if e.get("ph") == "C" and e.get("pid") == rank and e.get("name") == ev]
            check(track == got, f"rank {rank} {ev}: the merged trace's counter track holds the "
                  f"log's {len(got)} samples: {len(track)}")


def near(got, want, what, tol=TOL):
    ok = abs(got - want) <= tol
    print(f"{what}: {got:.4f} s, expected {want:.4f} s +- {tol:.3f}: {'ok' if ok else 'NO'}")
    return check(ok, f"{what}: {got:.4f} s, expected {want:.4f} +- {tol:.3f}")


KILLED = "killed after its last checkpoint (no exit path ran)"


def part_kill(args):
    """Rank 3 SIGKILLed after 500 ms of checkpoints every 50 ms (nothing simulated)."""
    out = tempfile.mkdtemp(prefix="papi_mpi_waits_kill_")
    try:
        env = {"PAPI_MPI_OUTPUT_DIR": out, "PAPI_MPI_CHECKPOINT": "0.05"}
        p = run_failing_job(args.mpirun, 4, env, [args.program, "checkpoint_kill"], "rank 3 killed")
        exp = expect_values(p.stdout)
        names = sorted(os.listdir(out))
        print("left:", names)
        check("papi_mpi_report.json" not in names, "no final report")
        check("papi_mpi_rank3.partial.json" not in names, "rank 3 ran no exit path (no partial row)")
        check("papi_mpi_rank3.checkpoint.json" in names or "papi_mpi_rank3.checkpoint.prev.json" in names,
              "rank 3 left its last checkpoint")
        log3 = os.path.join(out, "papi_mpi_rank3.events.jsonl")
        if not check(os.path.exists(log3), "rank 3's event log"):
            return
        bad = schema_check.check_file(log3)
        check(bad is None, f"rank 3's log follows mpi_event_log.schema.json: {bad}")
        with open(log3, encoding="utf-8") as f:
            lines = [json.loads(x) for x in f if x.strip()]
        check(lines and all(x["reason"] == "checkpoint" for x in lines),
              f"rank 3's log: checkpoint appends only: {[x['reason'] for x in lines]}")
        q = run_cmd(["/usr/bin/python3", REPORT, out], tail=3000)
        check(q.returncode == 0, f"papi_report DIR: status {q.returncode}")
        check(f"papi_report: rank 3 did not finish: {KILLED}" in q.stdout.splitlines(),
              "papi_report DIR: rank 3 killed after its last checkpoint")
        table = rows_table(q.stdout)  # its last snapshot (or the one before, if the kill
        # came while the checkpoint thread replaced it)
        check(table.get(3, "").startswith("checkpoint"), f"papi_report DIR: rank 3's row is its checkpoint: {table}")
        measured = exp.get(("late_sender_recv", 1))
        row = re.search(r"^\s+1\s+\d+\s+\d+\s+([0-9.]+)\s", q.stdout, re.M)
        if check(row is not None and measured is not None, "papi_report DIR: rank 1's row, EXPECT"):
            near(float(row.group(1)), measured, "papi_report DIR: rank 1 late sender")
        doc, q = merged_trace(out, "killed_job_trace.json")
        if doc is None:
            return
        other = doc["otherData"]
        gone = {r["rank"]: r["exit_reason"] for r in other["unfinished"]}
        check(gone.get(3) == KILLED, f"unfinished: rank 3 {KILLED}: {gone}")
        waits = {r["rank"]: r for r in other["wait_states"]["ranks"]}
        if measured is not None and check(1 in waits, "rank 1's waits"):
            near(waits[1]["late_sender_s"], measured, "trace: rank 1 late sender")
        for r in range(4):  # rank 3's from its log up to its last checkpoint
            m = exp.get(("split_barrier", r))
            if check(m is not None and r in waits, f"rank {r}: EXPECT split_barrier and its waits"):
                near(waits[r]["wait_barrier_s"], m, f"trace: rank {r} wait at its half's barrier")
        bars = [e for e in doc["traceEvents"] if e.get("pid") == 3 and e.get("name") == "MPI_Barrier"
                and e.get("ph") == "B"]
        check(bars, "rank 3's track holds its MPI_Barrier from the log")
    finally:
        shutil.rmtree(out, ignore_errors=True)


def merged_trace(out, name):
    """papi_report --merge-trace of the job in out, written as out/name: (the trace, checked
    against its schema and loaded, or None where it was not written; papi_report's run)."""
    trace = os.path.join(out, name)
    q = run_cmd(["/usr/bin/python3", REPORT, "--merge-trace", trace, out], tail=2000)
    check(q.returncode == 0, f"papi_report --merge-trace DIR: status {q.returncode}")
    if not check(os.path.exists(trace), "the trace written"):
        return None, q
    bad = schema_check.check_file(trace)
    check(bad is None, f"the trace follows trace_json.schema.json: {bad}")
    with open(trace, encoding="utf-8") as f:
        return json.load(f), q


def trace_calls(doc, rank, name):
    """A trace's calls of name on rank: its slices, a fold of polls as its args.calls."""
    return sum(e.get("args", {}).get("calls", 1) for e in doc["traceEvents"]
               if e.get("ph") == "B" and e.get("pid") == rank and e.get("name") == name)


def part_polls(args):
    """Folded polls counted alike in a finished job's trace and a killed job's merge."""
    env = {"PAPI_MPI_CHECKPOINT": "0.05"}
    got = {}
    for mode in ("polls", "polls_kill"):
        out = tempfile.mkdtemp(prefix="papi_mpi_%s_" % mode)
        try:
            e = dict(env, PAPI_MPI_OUTPUT_DIR=out)
            if mode == "polls":
                e["PAPI_MPI_TRACE"] = "json"
            p = run_cmd([args.mpirun, "-np", "2"] + rank_env(args.mpirun, e) + [args.program, mode],
                        tail=3000)
            wait_ranks_gone(out)
            pending = expect_values(p.stdout).get(("polls_pending", 0))
            check(pending == 500, f"{mode}: rank 0's 500 polls completed nothing ({pending})")
            if mode == "polls":
                check(p.returncode == 0, f"polls: the job finished: status {p.returncode}")
                trace = os.path.join(out, "papi_mpi_trace.json")
                with open(os.path.join(out, "papi_mpi_report.json"), encoding="utf-8") as f:
                    rep = json.load(f)
                row = [r for r in rep["ranks"] if r["rank"] == 0][0]
                got["report"] = row.get("calls", {}).get("MPI_Test", {}).get("calls")
            else:
                check(p.returncode != 0, f"polls_kill: the job failed (rank 1 killed): status {p.returncode}")
                log0 = os.path.join(out, "papi_mpi_rank0.events.jsonl")
                if not check(os.path.exists(log0), "polls_kill: rank 0's event log"):
                    continue
                bad = schema_check.check_file(log0)
                check(bad is None, f"polls_kill: rank 0's log follows mpi_event_log.schema.json: {bad}")
                trace = os.path.join(out, "killed_job_trace.json")
                q = run_cmd(["/usr/bin/python3", REPORT, "--merge-trace", trace, out], tail=2000)
                check(q.returncode == 0, f"polls_kill: papi_report --merge-trace DIR: status {q.returncode}")
            if not check(os.path.exists(trace), f"{mode}: the trace written"):
                continue
            bad = schema_check.check_file(trace)
            check(bad is None, f"{mode}: the trace follows trace_json.schema.json: {bad}")
            with open(trace, encoding="utf-8") as f:
                got[mode] = trace_calls(json.load(f), 0, "MPI_Test")
        finally:
            shutil.rmtree(out, ignore_errors=True)
    print(f"MPI_Test calls on rank 0: {got}")
    check(got.get("polls") == got.get("polls_kill") == got.get("report") == 500,
          f"the killed job's merged trace counts rank 0's MPI_Test calls as the finished job's "
          f"trace and report, 500: {got}")


def main():
    args = launch_args(options={"--part": dict(default="abort", choices=("abort", "kill", "polls"))})
    if schemas_unavailable():
        return 77
    if args.part == "kill":
        part_kill(args)
        return verdict()
    if args.part == "polls":
        part_polls(args)
        return verdict()
    out = tempfile.mkdtemp(prefix="papi_mpi_waits_log_")
    try:
        env = {"PAPI_MPI_OUTPUT_DIR": out, "PAPI_MPI_CHECKPOINT": "0.05", "PAPI_INTERVAL": "0.02"}
        p = run_failing_job(args.mpirun, 4, env, [args.program, "checkpoint_abort"], "rank 3 aborted")
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
        hostile_rows(out)
        hostile_log(out)
        prev_only(out)
        doc, q = merged_trace(out, "dead_job_trace.json")
        check(re.search(r"^papi_report: rank 3 did not finish: signal 6$", q.stdout, re.M),
              "papi_report names rank 3 and its signal")
        if doc is None:
            return verdict()
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
        counter_samples(out, doc)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
