#!/usr/bin/env python3
"""The root causes of wait states (the delay analysis, papi_report DIR on a job's event
logs) on real MPI programs with known answers (mpi_root_causes.c), the logs kept past
MPI_Finalize by keep_event_log.so with checkpoints every 10 ms:
- pipeline (4 ranks): ranks 1-3 wait about 0.3 s each in MPI_Recv, all caused by rank 0's
  "assemble": 0.3 s direct, 0.6 s propagated (10 %, or a third and two thirds of the
  waits the logs give);
- allreduce (4 ranks): the MPI_Allreduce waits (0.3, 0.2, 0.1 s) are all caused by rank
  3, their costs adding to their waiting time.
- waitall (4 ranks): rank 3's one MPI_Waitall of three receives waits 0.25 s (once, though
  the log has a record per request), caused by rank 2's assemble, direct.
Every run: the conservation line (explained + residual = waiting), a banner, and
mpi_root_causes.csv checked against schema/csv_tables.schema.json; the top cause's site
named FILE:LINE (the logs' "sites"), in the CSV and the banner, not as an address.
The critical path (mpi_critical_path.csv, its schema too): through rank 0's assemble
(pipeline: 0.4 s) and rank 3's (allreduce: 0.4 s, its imbalance indicator 0.4 - 0.25 s),
its total the wall time within 5 %, no check line.
--part advice: papi_report --advise on the same program's modes (mpi_advice.csv checked
against its schema): two_imbalances, rank 3's fft (on the critical path, 0.3 s of waits)
first, rank 0's io after it, off the path, though its waits (0.5 s) are the larger;
chain, "shorten rank 0's extra", predicting 0.3 s (10 %), and --compare against the run
without it, the wall time saved within 10 % of the prediction.
--part trace: chain with PAPI_MPI_TRACE=json, its logs kept beside the traces by the wrapper
(PAPI_MPI_KEEP_EVENT_LOG=1, no checkpoint: a finished job's, each rank's last line's
reason MPI_Finalize): papi_report
--merge-trace of the index (and of the ranks' files, the logs in the directory above
them) has the critical path as a process of its own, through rank 0's extra (its slice
the region's own, about 0.3 s), its parts adding up to the wall time; each MPI_Recv wait
of ranks 1-3 caused mostly by rank 0's extra (rank 1's directly, the others' propagated
alone), a flow from rank 0's delay slice "extra" into the wait's slice, the waits' costs
in args adding up to mpi_root_causes.csv's (1e-6 s); the
trace checked against its schema; merged without the logs (another folder), the same
trace without the additions, the wrapper's papi_mpi_trace.json event for event; with logs
of another run, said on stderr and the same file byte for byte as without logs.
The same known answers for the ranks' own analysis at MPI_Finalize (the causes part, both
MPIs): the report's root_causes (computed, conserved: explained + residual = waits) and
critical_path (its total the wall time within 5 %) judged as the tables are, and the
banner's "root causes (backward replay at MPI_Finalize" and "is caused by" lines.
--part conservation: the same chain with one replay message corrupted per rank
(--shim replay_fault_shim.so): a lost and a double-counted cost each fail the check.
--part skew: chain on --np ranks with rank 1's clock 2 s ahead (--shim clock_shift_shim.so),
judged at MPI_Finalize: the offsets undo the skew.
Usage: check_mpi_root_causes.py --mpirun M --program PROG --keep-log SO [--part advice|trace|skew]"""
import argparse
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from mpi_check import check, rank_env, run_cmd, verdict
import report_check  # noqa: E402 (on the path mpi_check set: tests/common)

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "..", "python", "papi_report.py")
TOL = 0.10


def near(got, want, what, measured=None):
    """got within 10 % of want, or of what the logs measured (a loaded machine moves the
    ranks' start out of the first barrier, and the waits with it)."""
    ok = abs(got - want) <= TOL * want or \
        (measured is not None and abs(got - measured) <= TOL * measured)
    also = "" if measured is None else f" (or {measured:.3f} s, as measured)"
    return check(ok, f"{what}: {got:.3f} s, want {want:.3f} s{also} +- 10 %")


def staged(got, want, what):
    """A wait the program staged, as the logs measured it: within 25 % (the program's own
    timing, not the analysis: 4 ranks on 2 busy cores stretched the allreduce's 0.6 s of
    waits to 0.688 s). The analysis is judged against what the logs measured (near)."""
    return check(abs(got - want) <= 0.25 * want, f"{what}: {got:.3f} s, staged {want:.3f} s +- 25 %")


def launch(args, mode, scratch, more=None, finished=False):
    """One mode's run on 4 ranks, its event logs kept, its MPI report removed (the event-log
    path: a dead job's); its output folder, None when it failed. more: more environment.
    finished: the logs kept by the wrapper itself (PAPI_MPI_KEEP_EVENT_LOG=1: no
    checkpoint, no shim), each rank's last line's reason checked "MPI_Finalize"."""
    out = os.path.join(scratch, mode)
    os.makedirs(out)
    env = {"PAPI_MPI_OUTPUT_DIR": out, "PAPI_MPI_ROOT_CAUSES": "1"}
    env.update({"PAPI_MPI_KEEP_EVENT_LOG": "1"} if finished else
               {"PAPI_MPI_CHECKPOINT": "0.01", "LD_PRELOAD": os.path.abspath(args.keep_log)})
    env.update(more or {})
    p = run_cmd([args.mpirun, "-np", "4"] + rank_env(args.mpirun, env) + [args.program, mode])
    if not check(p.returncode == 0, f"{mode}: exit status {p.returncode}"):
        return None
    if finished:
        for r in range(4):
            log = os.path.join(out, "papi_mpi_rank%d.events.jsonl" % r)
            last = None
            if os.path.exists(log):
                with open(log, encoding="utf-8") as f:
                    last = json.loads(f.read().splitlines()[-1]).get("reason")
            check(last == "MPI_Finalize",
                  f"{mode}: rank {r}'s event log kept past MPI_Finalize, "
                  f"its last line's reason {last}")
    # the job's own analysis, at MPI_Finalize (in_job): its report and banner kept aside
    shutil.move(os.path.join(out, "papi_mpi_report.json"), os.path.join(scratch, mode + ".json"))
    with open(os.path.join(scratch, mode + ".banner"), "w") as f:
        f.write(p.stdout)
    return out


def in_job(mode, judge, scratch):
    """The root causes and critical path the ranks computed at MPI_Finalize (the report's
    root_causes and critical_path, the banner's lines) judged as papi_report's tables
    are: the same known answers."""
    path = os.path.join(scratch, mode + ".json")
    if not check(os.path.exists(path), f"{mode} at MPI_Finalize: the report kept"):
        return None
    with open(path) as f:
        rep = json.load(f)
    with open(os.path.join(scratch, mode + ".banner")) as f:
        banner = f.read()
    rc, cp = rep.get("root_causes", {}), rep.get("critical_path", {})
    if not check(rc.get("computed") is True,
                 f"{mode} at MPI_Finalize: root causes computed ({rc.get('why')})"):
        return None
    check(rc["conserved"] and abs(rc["explained_s"] + rc["residual_s"] - rc["waits_s"])
          <= 1e-6 * max(1.0, rc["waits_s"]),
          f"{mode} at MPI_Finalize: explained {rc['explained_s']:.6f} s + residual "
          f"{rc['residual_s']:.6f} s = waits {rc['waits_s']:.6f} s")
    check(rc["messages"] > 0 and rc["seconds"] > 0,
          f"{mode} at MPI_Finalize: {rc['messages']} messages, {rc['seconds']:.6f} s")
    check("papi_mpi: root causes (backward replay at MPI_Finalize" in banner and
          "is caused by `" in banner, f"{mode} at MPI_Finalize: the banner's lines")
    total, wall = cp.get("total_s", 0), cp.get("wall_s", 0)
    check(wall > 0 and abs(total - wall) <= 0.05 * wall + cp.get("residual_s", 0),
          f"{mode} at MPI_Finalize: the critical path's total {total:.6f} s is the wall time "
          f"{wall:.6f} s +- 5 %")
    as_csv = [{k: str(v) for k, v in row.items()} for row in rc.get("rows", [])]
    path_rows = [{k: str(v) for k, v in row.items()} for row in cp.get("rows", [])]
    print(f"== {mode}: the ranks' own analysis at MPI_Finalize")
    judge(as_csv, banner, path_rows)
    result = as_csv
    # papi_report on the finished job's report: the same rows as its tables
    job = os.path.join(scratch, mode + "_finished")
    os.makedirs(job)
    shutil.copy(path, os.path.join(job, "papi_mpi_report.json"))
    report(job, "-o", os.path.join(job, "tables"))
    for name, want in (("mpi_root_causes.csv", as_csv), ("mpi_critical_path.csv", path_rows)):
        got = table(os.path.join(job, "tables"), name, mode + " at MPI_Finalize")
        check([r.get("cause", r.get("activity")) for r in got] ==
              [r.get("cause", r.get("activity")) for r in want] and len(got) == len(want),
              f"{mode} at MPI_Finalize: papi_report's {name} has the report's {len(want)} rows")
    return result


def same_run(mode, logs, ranks):
    """One run, two analyses: papi_report's of the kept event logs and the ranks' own at
    MPI_Finalize give the same largest cause, its costs within 5 % (or 5 ms)."""
    if not logs or not ranks:
        return
    a, b = logs[0], ranks[0]
    key = ("cause_rank", "cause", "wait_kind", "wait_call", "wait_ranks")
    check(all(a[k] == b[k] for k in key),
          f"{mode}: the same largest cause from the logs and at MPI_Finalize "
          f"({[a[k] for k in key]} / {[b[k] for k in key]})")
    for k in ("direct_s", "propagated_s", "waited_s"):
        x, y = float(a[k]), float(b[k])
        check(abs(x - y) <= max(0.05 * max(x, y), 0.005),
              f"{mode}: {k} {x:.6f} s from the logs, {y:.6f} s at MPI_Finalize (5 %)")


def report(*argv, stderr=False):
    """papi_report's stdout with argv (and its stderr with stderr), its exit status checked."""
    r = subprocess.run(["/usr/bin/python3", REPORT] + list(argv), capture_output=True,
                       text=True, timeout=120)
    print(r.stdout[-4000:] + r.stderr[-2000:])
    check(r.returncode == 0, f"papi_report {' '.join(argv)}: exit status {r.returncode}")
    return (r.stdout, r.stderr) if stderr else r.stdout


def run(args, mode, scratch):
    """The rows of mpi_root_causes.csv and papi_report's text of one mode's event logs."""
    out = launch(args, mode, scratch)
    if out is None:
        return [], "", []
    tables = os.path.join(scratch, mode + "_tables")
    text = report(out, "-o", tables)
    check("s residual" in text and "papi_report: root causes:" not in text,
          f"{mode}: the conservation check passes")
    check("is caused by `" in text, f"{mode}: a root-cause banner")
    return table(tables, "mpi_root_causes.csv", mode), text, critical_path(tables, mode, text)


def table(folder, name, mode):
    """The rows of folder/name, checked against its schema; [] when it is not there."""
    path = os.path.join(folder, name)
    if not check(os.path.exists(path), f"{mode}: {path} written"):
        return []
    bad = report_check.check_paths([path])
    check(not bad, f"{mode}: {name} follows its schema {bad}")
    with open(path) as f:
        return list(csv.DictReader(f))


def critical_path(tables, mode, out):
    """The rows of mpi_critical_path.csv, its schema and total against the wall time
    checked."""
    m = re.search(r"critical path \(.*?\): ([0-9.]+) s on the path, the run's wall time "
                  r"([0-9.]+) s", out)
    if check(m is not None, f"{mode}: the critical path's line"):
        total, wall = float(m.group(1)), float(m.group(2))
        check(abs(total - wall) <= 0.05 * wall,
              f"{mode}: the critical path's total {total:.6f} s is the wall time {wall:.6f} s +- 5 %")
    check("papi_report: critical path:" not in out, f"{mode}: the critical path's check passes")
    return table(tables, "mpi_critical_path.csv", mode)


def on_path(table, rank, want_s, mode):
    """assemble on the critical path, on that rank alone, about want_s there; its row."""
    row = next((r for r in table if r["activity"] == "assemble"), None)
    if not check(row is not None, f"{mode}: assemble on the critical path"):
        return None
    check(row["path_ranks"] == str(rank),
          f"{mode}: the path's assemble is rank {rank}'s ({row['path_ranks']})")
    near(float(row["path_s"]), want_s, f"{mode}: assemble on the critical path")
    return row


def source_line(text):
    """The line of mpi_root_causes.c holding text: a cause's call site, as the rank's log
    names it (event_log/site_names.c): the site of the MPI call after the work."""
    with open(os.path.join(HERE, "mpi_root_causes.c")) as f:
        return next(n for n, line in enumerate(f, 1) if text in line)


def named_site(top, text, what):
    """The cause's site named FILE:LINE (not an address), in the CSV and the banner."""
    want = "mpi_root_causes.c:%d" % source_line(text)
    check(top["cause_site"] == want, f"{what}: cause_site {top['cause_site']!r}, want {want}")


def pipeline(rows, out, path):
    on_path(path, 0, 0.4, "pipeline")  # rank 0's extra, then the sends
    recv = [r for r in rows if r["wait_call"] == "MPI_Recv"]
    check(bool(recv), "pipeline: root causes of the MPI_Recv waits")
    if not recv:
        return
    top = recv[0]
    check(top["cause_rank"] == "0" and top["cause"] == "assemble",
          f"pipeline: the MPI_Recv waits caused by rank 0's assemble ({top['cause_rank']} {top['cause']})")
    check(top["wait_ranks"] == "1-3", f"pipeline: the waits of ranks 1-3 ({top['wait_ranks']})")
    named_site(top, "MPI_Send(&token", "pipeline")
    check("`assemble` (%s) on rank 0" % top["cause_site"] in out,
          "pipeline: the banner names rank 0's assemble by its call site's file and line")
    waited = float(top["waited_s"])
    staged(waited, 0.9, "pipeline: ranks 1-3's MPI_Recv waits")
    # each rank waits for the same 0.3 s: a third of it direct, two thirds propagated
    near(float(top["direct_s"]), 0.3, "pipeline: direct cost", waited / 3)
    near(float(top["propagated_s"]), 0.6, "pipeline: propagated cost", waited * 2 / 3)
    near(float(top["total_s"]), waited, "pipeline: the costs add up to the waits")


def allreduce(rows, out, path):
    row = on_path(path, 3, 0.4, "allreduce")  # the last arrival's work
    if row is not None:
        near(float(row["mean_s"]), 0.25, "allreduce: assemble's mean per rank",
             float(row["path_s"]) * 2.5 / 4)
        near(float(row["imbalance_s"]), 0.15, "allreduce: the imbalance indicator",
             float(row["path_s"]) - float(row["mean_s"]))
    ar = [r for r in rows if r["wait_call"] == "MPI_Allreduce"]
    check(bool(ar), "allreduce: root causes of the MPI_Allreduce waits")
    if not ar:
        return
    named_site(ar[0], "MPI_Allreduce(&in", "allreduce")
    waited = float(ar[0]["waited_s"])
    staged(waited, 0.6, "allreduce: ranks 0-2's waits")
    by3 = sum(float(r["total_s"]) for r in ar if r["cause_rank"] == "3")
    near(by3, waited, "allreduce: rank 3's costs add up to the waits")
    near(sum(float(r["direct_s"]) for r in ar if r["cause_rank"] == "3"), 0.6,
         "allreduce: rank 3's direct cost", waited)


def waitall(rows, out, path):
    wa = [r for r in rows if r["wait_call"] == "MPI_Waitall"]
    if not check(bool(wa), "waitall: root causes of the MPI_Waitall wait"):
        return
    top = wa[0]
    check(top["wait_ranks"] == "3" and top["cause_rank"] == "2" and top["cause"] == "assemble",
          f"waitall: rank 3's wait caused by rank 2's assemble ({top['wait_ranks']}: "
          f"{top['cause_rank']} {top['cause']})")
    waited = float(top["waited_s"])
    staged(waited, 0.25, "waitall: rank 3's MPI_Waitall wait, once (not per request)")
    near(float(top["direct_s"]), 0.25, "waitall: direct cost", waited)
    near(sum(float(r["total_s"]) for r in wa), waited, "waitall: the costs add up to the wait")


def advise(args, mode, scratch):
    """papi_report --advise of one mode's event logs: its findings (mpi_advice.csv, checked
    against its schema) and its output folder."""
    out = launch(args, mode, scratch)
    if out is None:
        return [], None
    text = report("--advise", out)
    check("what to fix first" in text, f"{mode}: --advise's head line")
    return table(out, "mpi_advice.csv", mode), out


def two_imbalances(args, scratch):
    """fft (rank 3, 0.3 s; 0.15 s of waits) sets the wall time, io (rank 0, 0.25 s; 0.5 s of
    waits) does not: fft first, io after it, off the path."""
    found, _out = advise(args, "two_imbalances", scratch)
    if not check(bool(found), "two_imbalances: findings"):
        return
    top = found[0]
    check(top["activity"] == "fft" and top["on_path"] == "true" and top["ranks"] == "3",
          f"two_imbalances: rank 3's fft, on the path, first ({top['activity']} {top['ranks']})")
    check(top["change"] == "balance", f"two_imbalances: balance fft ({top['change']})")
    near(float(top["saving_bound_s"]), 0.3 * 3 / 4, "two_imbalances: fft's bound",
         float(top["path_s"]) * 3 / 4)
    io = next((f for f in found if f["activity"] == "io"), None)
    if check(io is not None, "two_imbalances: io listed"):
        check(io["on_path"] == "false" and float(io["saving_bound_s"]) == 0,
              "two_imbalances: io off the path, saving 0 s of the wall time")
        check(int(io["finding"]) > int(top["finding"]), "two_imbalances: io after fft")
        check(float(io["caused_wait_s"]) > float(top["caused_wait_s"]),
              f"two_imbalances: io's waits ({io['caused_wait_s']} s) larger than fft's "
              f"({top['caused_wait_s']} s)")


def chain_pair(args, scratch):
    """--advise of chain, the run without extra, and --compare of the two: (the top finding,
    the --compare line's match), None when a run failed."""
    os.makedirs(scratch)
    found, a = advise(args, "chain", scratch)
    b = launch(args, "chain_without_extra", scratch)
    if not check(bool(found) and b is not None, "chain: findings and the run without extra"):
        return None
    text = report("--compare", a, b, "-o", os.path.join(scratch, "compare"))
    return found[0], re.search(
        r"advice 1: shorten `extra` on rank 0 or overlap the sends: predicted at most "
        r"([0-9.]+) s; B saved (-?[0-9.]+) s of the wall time, (-?[0-9.]+) s of "
        r"`extra` on the critical path", text)


def chain(args, scratch):
    """Rank 0's 0.3 s of extra before the pipeline: shorten it, saving at most 0.3 s; the
    run without it saves that (10 %), --compare giving both figures. Two runs' wall times
    are as far apart as the machine's load moves them: a miss is run once more."""
    for attempt in (1, 2):
        got = chain_pair(args, os.path.join(scratch, "chain%d" % attempt))
        if got is None:
            return
        top, m = got
        predicted = float(top["saving_bound_s"])
        saved = float(m.group(2)) if m else 0.0
        if abs(saved - predicted) <= TOL * predicted or attempt == 2:
            break
        print(f"chain: B saved {saved:.3f} s, predicted {predicted:.3f} s: once more (load)")
    check(top["activity"] == "extra" and top["change"] == "shorten" and top["ranks"] == "0",
          f"chain: shorten rank 0's extra first ({top['change']} {top['activity']} {top['ranks']})")
    named_site(dict(cause_site=top["site"]), "MPI_Send(&token", "chain")
    near(predicted, 0.3, "chain: the predicted saving", float(top["path_s"]))
    if check(m is not None, "chain: --compare gives the prediction and the saving"):
        check(abs(float(m.group(1)) - predicted) < 1e-3, "chain: --compare's prediction is --advise's")
        check(abs(saved - predicted) <= TOL * predicted,
              f"chain: B saved {saved:.3f} s of the wall time, predicted {predicted:.3f} s +- 10 %")
        near(float(m.group(3)), predicted, "chain: extra's time saved on the critical path")


DELAY_TID = 4294967294  # trace_causes.DELAY_TID: the track of a rank's delays


def merged(out, *paths):
    """papi_report --merge-trace OUT PATHS: (the trace, its text, papi_report's stdout and
    stderr), the trace checked against its schema."""
    text, err = report("--merge-trace", out, *paths, stderr=True)
    bad = report_check.check_paths([out])
    check(not bad, f"{os.path.basename(out)} follows trace_json.schema.json {bad}")
    with open(out) as f:
        raw = f.read()
    return json.loads(raw), raw, text, err


def slices(events):
    """{(pid, tid): [[name, cat, ts, end, B event]]} of the B/E pairs and X events."""
    out, open_ = {}, {}
    for e in events:
        k = (e["pid"], e["tid"])
        if e["ph"] == "B":
            open_.setdefault(k, []).append([e["name"], e["cat"], e["ts"], None, e])
        elif e["ph"] == "E":
            s = open_[k].pop()
            s[3] = e["ts"]
            out.setdefault(k, []).append(s)
        elif e["ph"] == "X":
            out.setdefault(k, []).append([e["name"], e["cat"], e["ts"], e["ts"] + e["dur"], e])
    return out


def enclosing(sl, pid, ts, cat):
    """The innermost slice of cat on pid (any track) holding ts."""
    found = [s for (p, _t), lst in sl.items() if p == pid for s in lst
             if s[1] == cat and s[2] <= ts <= s[3]]
    return min(found, key=lambda s: s[3] - s[2]) if found else None


def stripped(doc):
    """A merged trace without what the event logs added (the critical path's process, the
    delays' tracks, the flows, the waits' causes, otherData.root_causes)."""
    events = []
    for e in doc["traceEvents"]:
        if e.get("cat") in ("critical_path", "delay", "root_cause") or \
                e["pid"] == 4 or e["tid"] == DELAY_TID:
            continue
        if "causes" in e.get("args", {}):
            e = dict(e, args={k: v for k, v in e["args"].items()
                              if k not in ("causes", "others_s") and not k.endswith("_s")})
            if not e["args"]:
                del e["args"]
        events.append(e)
    other = {k: v for k, v in doc["otherData"].items() if k != "root_causes"}
    return events, other


def path_checks(doc, sl, wall_text):
    """The critical path's process: through rank 0's extra (the region's own slice, about
    0.3 s), its parts in time order adding up to the wall time."""
    names = [e for e in doc["traceEvents"] if e["ph"] == "M" and e["name"] == "process_name"
             and e["args"]["name"] == "critical path"]
    check(len(names) == 1 and names[0]["pid"] == 4, "trace: a process \"critical path\", pid 4")
    parts = sl.get((4, 0), [])
    check(all(s[1] == "critical_path" for s in parts) and len(parts) > 3,
          f"trace: the critical path's {len(parts)} slices")
    check(all(a[3] <= b[2] + 0.001 for a, b in zip(parts, parts[1:])),
          "trace: the critical path's slices in time order, none overlapping")
    found = doc["otherData"].get("root_causes", {})
    total = sum(s[3] - s[2] for s in parts) * 1e-6
    path_s, wall_s = found.get("critical_path_s", -1), found.get("wall_s", 0)
    check(abs(total - path_s) <= 1e-4 and abs(path_s - wall_s) <= 0.05 * wall_s,
          f"trace: the critical path's slices {total:.6f} s, otherData {found}")
    extra = [s for s in parts if s[0] == "extra"]
    if not check(len(extra) == 1 and extra[0][4]["args"]["rank"] == 0,
                 "trace: the critical path passes through rank 0's extra once"):
        return
    region = [s for s in sl.get((0, region_tid(doc)), [])
              if s[0] == "extra" and s[1] == "region"]
    print(f"trace: extra on the critical path {extra[0][2]:.3f} us + "
          f"{extra[0][3] - extra[0][2]:.3f} us; the region {region[0][2:4] if region else None}")
    near((extra[0][3] - extra[0][2]) * 1e-6, 0.3, "trace: extra on the critical path",
         (region[0][3] - region[0][2]) * 1e-6 if region else None)
    check(len(region) == 1 and abs(region[0][2] - extra[0][2]) <= 0.002 and
          abs(region[0][3] - extra[0][3]) <= 0.002,
          "trace: the path's extra is the region's own slice (its times on the trace's axis, 2 ns)"
          f" {region[0][2:4] if region else None} {extra[0][2:4]}")
    check(wall_text is not None, "trace: papi_report says what it added")


def region_tid(doc):
    """Rank 0's main thread's track (its process_name's tid)."""
    return next(e["tid"] for e in doc["traceEvents"] if e["ph"] == "M" and e["pid"] == 0
                and e["name"] == "process_name")


def wait_checks(doc, sl, rows):
    """The MPI_Recv waits of ranks 1-3: each caused by rank 0's extra, a flow from rank 0's
    delay slice extra to it; the costs in args adding up to the table's rows."""
    flows = {}
    for e in doc["traceEvents"]:
        if e.get("cat") == "root_cause":
            flows.setdefault(e["id"], {})[e["ph"]] = e
    waits = [s for (p, t), lst in sl.items() for s in lst
             if s[1] == "mpi" and "causes" in s[4].get("args", {})]
    for r in (1, 2, 3):
        recv = [s for s in waits if s[4]["pid"] == r and s[0] == "MPI_Recv"]
        if not check(len(recv) == 1, f"trace: rank {r}'s MPI_Recv wait has causes"):
            continue
        args = recv[0][4]["args"]
        print(f"trace: rank {r}'s MPI_Recv: {json.dumps(args)}")
        top = args["causes"][0]
        check(top["cause_rank"] == 0 and top["cause"] == "extra",
              f"trace: rank {r}'s wait caused by rank 0's extra ({top})")
        check(top["cause_site"] == "mpi_root_causes.c:%d" % source_line("MPI_Send(&token"),
              f"trace: its site {top['cause_site']}")
        # rank 1 waited for rank 0 itself (direct), ranks 2-3 through the waits before them
        # (propagated); most of each wait is extra's (the rest: the ranks' own work
        # stretched by a loaded machine)
        cost, other = (top["direct_s"], top["propagated_s"]) if r == 1 else \
            (top["propagated_s"], top["direct_s"])
        check(other == 0 and cost >= 0.5 * args["late_sender_s"],
              f"trace: rank {r}'s wait {args['late_sender_s']:.3f} s, "
              f"{'direct' if r == 1 else 'propagated'} cost of extra {cost:.3f} s (the most), "
              f"{'propagated' if r == 1 else 'direct'} {other} s (none)")
        f = flows.get(top["flow"], {})
        if not check("s" in f and "f" in f, f"trace: rank {r}'s flow {top['flow']} has both ends"):
            continue
        start = enclosing(sl, 0, f["s"]["ts"], "delay")
        check(f["s"]["pid"] == 0 and f["s"]["tid"] == DELAY_TID and start is not None and
              start[0] == "extra", f"trace: rank {r}'s flow starts on rank 0's delay slice extra")
        check(f["f"]["pid"] == r and f["f"].get("bp") == "e" and
              recv[0][2] <= f["f"]["ts"] <= recv[0][3] and f["f"]["tid"] == recv[0][4]["tid"],
              f"trace: rank {r}'s flow ends inside its MPI_Recv slice")
    # the costs: a row of mpi_root_causes.csv is the sum over its waits' causes
    checked = 0
    for row in rows:
        ranks = set()
        for run in row["wait_ranks"].split(","):  # "1-3,7"
            lo, _, hi = run.partition("-")
            ranks |= set(range(int(lo), int(hi or lo) + 1))
        mine = [s[4]["args"] for s in waits if s[4]["pid"] in ranks and s[0] == row["wait_call"]
                and row["wait_kind"] + "_s" in s[4]["args"]]
        ours = [[c for c in a["causes"] if c["cause_rank"] == int(row["cause_rank"]) and
                 c["cause"] == row["cause"]] for a in mine]
        if any(not c and "others_s" in a for c, a in zip(ours, mine)):
            continue  # past the four causes a wait lists: in its others_s
        got = [sum(c[0][k] for c in ours if c) for k in ("direct_s", "propagated_s")]
        check(abs(got[0] - float(row["direct_s"])) <= 1e-6 and
              abs(got[1] - float(row["propagated_s"])) <= 1e-6,
              f"trace: the waits' costs of {row['cause']} (rank {row['cause_rank']}) in "
              f"{row['wait_call']} ({row['wait_ranks']}): {got}, table {row['direct_s']} "
              f"{row['propagated_s']}")
        print(f"trace: {row['cause']} (rank {row['cause_rank']}) in {row['wait_call']} "
              f"({row['wait_ranks']}): direct {got[0]:.9f} s, propagated {got[1]:.9f} s; the "
              f"table {row['direct_s']}, {row['propagated_s']}")
        checked += 1
    check(checked >= 1 and rows and rows[0]["cause"] == "extra",
          f"trace: {checked} rows of the table checked, extra's first")


def skewed_clock(scratch, out, doc):
    """Rank 0's file with its times stretched by 0.1 % from its first event (the trace's
    offset to rank 0, interpolated from MPI_Init to MPI_Finalize, against the log's from
    MPI_Init alone: on a loaded node the two measurements differ by tens of us, 0.3 s
    of extra with no call in it): every wait still linked, as on the trace itself."""
    skewed = os.path.join(scratch, "skewed")
    shutil.copytree(out, skewed)
    path = os.path.join(skewed, "papi_mpi_trace.ranks", "rank_000000.json")
    with open(path) as f:
        rank0 = json.load(f)
    t0 = min(e["ts"] for e in rank0["traceEvents"] if "ts" in e)
    for e in rank0["traceEvents"]:
        if "ts" in e:
            e["ts"] = round(t0 + (e["ts"] - t0) * 1.001, 3)
        if "dur" in e:
            e["dur"] = round(e["dur"] * 1.001, 3)
    with open(path, "w") as f:
        json.dump(rank0, f)
    files = sorted(glob.glob(os.path.join(skewed, "papi_mpi_trace.ranks", "rank_*.json")))
    got, _raw, _t, _e = merged(os.path.join(scratch, "merged_skewed.json"), *files)
    want = doc["otherData"]["root_causes"]["waits_linked"]
    linked = got["otherData"].get("root_causes", {}).get("waits_linked")
    check(linked == want, f"trace: rank 0's clock 0.1 % off the log's, {linked} waits "
          f"linked, as without ({want})")


def trace(args, scratch):
    out = launch(args, "chain", scratch, {"PAPI_MPI_TRACE": "json"}, finished=True)
    if out is None:
        return
    tables = os.path.join(scratch, "chain_tables")
    said = report(out, "-o", tables)
    check("every rank's log kept past MPI_Finalize" in said,
          "trace: papi_report DIR says the logs are a finished job's, not a dead one's")
    rows = table(tables, "mpi_root_causes.csv", "trace")
    doc, raw, text, _err = merged(os.path.join(scratch, "merged.json"),
                                  os.path.join(out, "papi_mpi_trace.index.json"))
    sl = slices(doc["traceEvents"])
    said = re.search(r"with the critical path \(([0-9.]+) s of the wall time", text)
    path_checks(doc, sl, said)
    wait_checks(doc, sl, rows)
    # the ranks' files: the logs in the directory above them, the same trace
    files = sorted(glob.glob(os.path.join(out, "papi_mpi_trace.ranks", "rank_*.json")))
    doc2, _raw, _t, _e = merged(os.path.join(scratch, "merged_files.json"), *files)
    check(doc2 == doc, "trace: the ranks' files merge as the index, causes and all")
    # without the logs: the merge as it was, the trace without the additions
    bare = os.path.join(scratch, "bare")
    shutil.copytree(out, bare, ignore=shutil.ignore_patterns("*.events.jsonl"))
    doc3, raw3, text3, _e = merged(os.path.join(scratch, "merged_bare.json"),
                                   os.path.join(bare, "papi_mpi_trace.index.json"))
    with open(os.path.join(out, "papi_mpi_trace.json")) as f:
        check(doc3 == json.load(f), "trace: without event logs the index merges into the "
              "wrapper's papi_mpi_trace.json, event for event")
    check("critical path" not in text3 and '"root_causes"' not in raw3,
          "trace: without event logs nothing is added")
    check(stripped(doc) == (doc3["traceEvents"], doc3["otherData"]),
          "trace: with the logs, the same trace plus the additions")
    skewed_clock(scratch, out, doc)
    # logs of another run: said, the trace merged without them
    other = os.path.join(scratch, "other_run")
    shutil.copytree(out, other)
    for log in glob.glob(os.path.join(other, "*.events.jsonl")):
        with open(log) as f:
            text = f.read().replace(doc["otherData"]["run_id"], "1.2-3")
        with open(log, "w") as f:
            f.write(text)
    doc4, raw4, _t, err4 = merged(os.path.join(scratch, "merged_other.json"),
                                  os.path.join(other, "papi_mpi_trace.index.json"))
    check(raw4 == raw3 and "of run 1.2-3" in err4,
          f"trace: logs of another run said ({err4.strip()}) and left out")


def skewed_chain(args, scratch):
    """chain on --np ranks, rank 1's clock 2 s ahead (clock_shift_shim, offsets measured by
    ping-pong): the ranks' own analysis at MPI_Finalize finds the waits of ranks 1..N-1
    caused by rank 0's extra, 0.3 s direct and 0.3 s x (N - 2) propagated (or those shares
    of what was measured), extra on the critical path, the costs conserved."""
    n, mode = args.np, "chain on %d ranks, rank 1's clock 2 s ahead" % args.np
    out = os.path.join(scratch, "skew")
    os.makedirs(out)
    env = {"PAPI_MPI_OUTPUT_DIR": out, "PAPI_MPI_CLOCK_PINGPONG": "1", "PAPI_MPI_ROOT_CAUSES": "1",
           "LD_PRELOAD": os.path.abspath(args.shim), "PAPI_TEST_CLOCK_SHIFT_RANK": "1",
           "PAPI_TEST_CLOCK_SHIFT_NS": "2000000000"}
    p = run_cmd([args.mpirun, "-np", str(n)] + rank_env(args.mpirun, env) + [args.program, "chain"])
    if not check(p.returncode == 0, f"{mode}: exit status {p.returncode}"):
        return
    with open(os.path.join(out, "papi_mpi_report.json")) as f:
        rep = json.load(f)
    clock = rep["wait_states"]["clock"]
    check(clock["max_offset_s"] > 1.9, f"{mode}: the offsets measured ({clock['max_offset_s']} s)")
    rc, cp = rep.get("root_causes", {}), rep.get("critical_path", {})
    if not check(rc.get("computed") is True, f"{mode}: computed ({rc.get('why')})"):
        return
    check(rc["conserved"], f"{mode}: explained {rc['explained_s']:.6f} s + residual "
          f"{rc['residual_s']:.6f} s = waits {rc['waits_s']:.6f} s")
    recv = [r for r in rc["rows"] if r["wait_call"] == "MPI_Recv"]
    if not check(bool(recv), f"{mode}: root causes of the MPI_Recv waits"):
        return
    top = recv[0]
    check(top["cause_rank"] == 0 and top["cause"] == "extra" and
          top["wait_ranks"] == ("1-%d" % (n - 1) if n > 2 else "1"),
          f"{mode}: the waits of ranks 1-{n - 1} caused by rank 0's extra "
          f"({top['wait_ranks']}: {top['cause_rank']} {top['cause']})")
    waited = top["waited_s"]
    near(top["direct_s"], 0.3, f"{mode}: direct cost", waited / (n - 1))
    near(top["propagated_s"], 0.3 * (n - 2), f"{mode}: propagated cost",
         waited * (n - 2) / (n - 1))
    extra = next((r for r in cp.get("rows", []) if r["activity"] == "extra"), None)
    if check(extra is not None, f"{mode}: extra on the critical path"):
        near(extra["path_s"], 0.3, f"{mode}: extra's time on the path")
    total, wall = cp.get("total_s", 0), cp.get("wall_s", 0)
    check(wall > 0 and abs(total - wall) <= 0.05 * wall + cp.get("residual_s", 0),
          f"{mode}: the critical path's total {total:.6f} s is the wall time {wall:.6f} s +- 5 %")


def faulty_replay(args, scratch, how):
    """chain on --np ranks, the first replay message each rank receives corrupted (--shim
    replay_fault_shim.so: its first flow's time lost, or counted twice): the report says
    the costs are not conserved, and so does the banner."""
    mode = "a replay that %s a cost" % ("loses" if how == "lose" else "double-counts")
    out = os.path.join(scratch, how)
    os.makedirs(out)
    env = {"PAPI_MPI_OUTPUT_DIR": out, "LD_PRELOAD": os.path.abspath(args.shim),
           "PAPI_TEST_REPLAY_FAULT": how, "PAPI_MPI_ROOT_CAUSES": "1"}
    p = run_cmd([args.mpirun, "-np", str(args.np)] + rank_env(args.mpirun, env)
                + [args.program, "chain"])
    if not check(p.returncode == 0, f"{mode}: exit status {p.returncode}"):
        return
    applied = sum(int(n) for n in re.findall(r"^REPLAY_FAULT rank \d+ applied (\d+)$",
                                             p.stdout, re.M))
    check(applied >= 1, f"{mode}: {applied} replay messages corrupted")
    with open(os.path.join(out, "papi_mpi_report.json")) as f:
        rc = json.load(f).get("root_causes", {})
    check(rc.get("computed") is True and rc.get("conserved") is False,
          f"{mode}: the report's conserved is false (computed {rc.get('computed')}, "
          f"conserved {rc.get('conserved')})")
    check("NOT CONSERVED" in p.stdout, f"{mode}: the banner says NOT CONSERVED")


def off_by_default(args, scratch):
    """Without PAPI_MPI_ROOT_CAUSES the replay does not run: root_causes says why, no
    critical_path, no banner line of it, no replay message (the shim corrupted none)."""
    out = os.path.join(scratch, "off")
    os.makedirs(out)
    env = {"PAPI_MPI_OUTPUT_DIR": out, "LD_PRELOAD": os.path.abspath(args.shim),
           "PAPI_TEST_REPLAY_FAULT": "lose"}
    p = run_cmd([args.mpirun, "-np", str(args.np)] + rank_env(args.mpirun, env)
                + [args.program, "chain"])
    if not check(p.returncode == 0, f"off by default: exit status {p.returncode}"):
        return
    with open(os.path.join(out, "papi_mpi_report.json")) as f:
        rep = json.load(f)
    rc = rep.get("root_causes", {})
    check(rc.get("computed") is False and "PAPI_MPI_ROOT_CAUSES=1" in rc.get("why", "")
          and "critical_path" not in rep,
          f"off by default: root_causes {rc}, critical_path {'critical_path' in rep}")
    check("is caused by" not in p.stdout and "backward replay" not in p.stdout,
          "off by default: no banner line of the replay")
    applied = sum(int(n) for n in re.findall(r"^REPLAY_FAULT rank \d+ applied (\d+)$",
                                             p.stdout, re.M))
    check(applied == 0, f"off by default: {applied} replay messages (none)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--keep-log", required=True)
    ap.add_argument("--part", choices=("causes", "advice", "trace", "skew", "conservation"), default="causes")
    ap.add_argument("--np", type=int, default=8)
    ap.add_argument("--shim", help="clock_shift_shim.so (--part skew)")
    args = ap.parse_args()
    scratch = tempfile.mkdtemp(prefix="papi_root_causes_")
    try:
        if args.part == "advice":
            two_imbalances(args, scratch)
            chain(args, scratch)
        if args.part == "trace":
            trace(args, scratch)
        if args.part == "skew":
            skewed_chain(args, scratch)
        if args.part == "conservation":
            for how in ("lose", "double"):
                faulty_replay(args, scratch, how)
            off_by_default(args, scratch)
        for mode, judge in ((("pipeline", pipeline), ("allreduce", allreduce), ("waitall", waitall))
                            if args.part == "causes" else ()):
            rows, text, path = run(args, mode, scratch)
            judge(rows, text, path)
            same_run(mode, rows, in_job(mode, judge, scratch))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
