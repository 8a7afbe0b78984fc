#!/usr/bin/env python3
"""papi_report's timeline figure (issue 49 item 5) on synthetic JSON traces with known
answers, validated by schema/trace_json.schema.json first:
- the wrapper's rules where a first reading of the trace differs (wrapper_rules()):
  MPI_Scan and MPI_Exscan wait for nothing, nor does a nonblocking collective or one on
  another communicator; a blocking send of 64 KiB or more waits for its receive.
- 4 ranks, rank r enters MPI_Barrier at r x 100 ms (it leaves at 300 ms): each rank's
  barrier-wait span is exactly (3 - r) x 100 ms; an Allreduce and a Bcast/Reduce with
  known waits; a late sender through a flow (the receive 50 ms before its send) and an
  MPI_Ssend 30 ms before its receive; computation the gaps; a region band; a counter
  track. Checked on timeline_spans, the table the figure draws.
- per-rank region traces (trace_rank_*.json in papi_hl_output/) with different base_ns:
  put on one axis; a second thread of a rank gets a lane of its own ("rank.thread").
- 256 ranks x 200 calls: the title says it merges and that the lanes are thin; drawing
  (the figure from its tables) within 30 s on a loaded 2-core machine.
- no trace: the figure says why and names PAPI_MPI_TRACE; a broken trace: its reason.
Usage: check_timeline.py PYTHON_DIR SCHEMA_DIR (python/: papi_report.py and its package)"""
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)


def trace(events, base_ns=1000, ranks=4):
    meta = [{"ph": "M", "pid": r, "tid": 7, "name": "process_name", "args": {"name": "rank %d" % r}}
            for r in range(ranks)]
    return {"traceEvents": meta + events, "displayTimeUnit": "ns",
            "otherData": {"format": "papi-compat trace", "version": 1, "base_ns": base_ns,
                          "ranks": ranks, "dropped": 0}}


def call(rank, name, t0_ms, t1_ms, tid=7, cat="mpi"):
    return [{"ph": "B", "pid": rank, "tid": tid, "name": name, "cat": cat, "ts": t0_ms * 1000.0},
            {"ph": "E", "pid": rank, "tid": tid, "name": name, "cat": cat, "ts": t1_ms * 1000.0}]


def coll(rank, name, t0_ms, t1_ms, root=-1):
    return call(rank, name, t0_ms, t1_ms) + [
        {"ph": "X", "pid": rank, "tid": 7, "name": name, "cat": "mpi_collective",
         "ts": t0_ms * 1000.0, "dur": (t1_ms - t0_ms) * 1000.0,
         "args": {"comm": 0, "root": root, "sent": 8, "received": 8}}]


def flow(src, dst, send_ms, recv_ms, fid):
    args = {"tag": 5, "comm": 0, "bytes": 4}
    return [{"ph": "s", "pid": src, "tid": 7, "name": "message", "cat": "mpi_message",
             "ts": send_ms * 1000.0, "id": fid, "args": dict(args, to=dst)},
            {"ph": "f", "pid": dst, "tid": 7, "name": "message", "cat": "mpi_message",
             "ts": recv_ms * 1000.0, "id": fid, "bp": "e", "args": dict(args, **{"from": src})}]


def staged():
    ev = []
    for r in range(4):
        ev += call(r, "main", 0, 1000, cat="region")
        ev += coll(r, "MPI_Barrier", 100 * r, 310)              # waits (3 - r) x 100 ms
        ev += coll(r, "MPI_Allreduce", 320 + 10 * r, 360)       # waits (3 - r) x 10 ms
        ev += coll(r, "MPI_Bcast", 400 + (20 if r == 0 else 0), 430, root=0)  # late root 20 ms
        ev += coll(r, "MPI_Reduce", 450 + (0 if r == 0 else 40), 500, root=0)  # early reduce 40 ms
        for k in range(11):
            ev.append({"ph": "C", "pid": r, "tid": 7, "name": "PAPI_TOT_INS", "cat": "counter",
                       "ts": 100.0 * k * 1000, "args": {"value": k * 1000000 * (r + 1)}})
    # rank 1 receives at 600 ms, rank 0 sends at 650 ms: late sender 50 ms
    ev += call(1, "MPI_Recv", 600, 660)
    ev += call(0, "MPI_Send", 650, 655)
    ev += flow(0, 1, 650, 660, 11)
    # rank 2 Ssends at 700 ms, rank 3 receives at 730 ms: late receiver 30 ms
    ev += call(2, "MPI_Ssend", 700, 740)
    ev += call(3, "MPI_Recv", 730, 740)
    ev += flow(2, 3, 700, 740, 12)
    ev.sort(key=lambda e: (e["pid"], e["ts"], 0 if e["ph"] in "BX" else 1))
    return trace(ev)


def wrapper_rules():
    """Where the trace's first reading and the wrapper's rules (mpi-wrappers/waits/
    wait_rules.c, load/wait_match.py) differ, 4 ranks staggered by r x 100 or 10 ms at each:
    MPI_Scan and MPI_Exscan (no wait kind in mpi_calls.list: no wait), an MPI_Iallreduce
    (its collective event is named MPI_Allreduce; its wait is in its MPI_Wait, which the
    trace does not link: none here), an MPI_Barrier on another communicator (comm 1:
    matched by a group the trace does not name: none), then one on the world (waits
    (3 - r) x 10 ms, its order unshifted by the one before); a 1 MiB MPI_Send posted 30 ms
    before its receive (a rendezvous: late receiver 30 ms) and an 8-byte one (eager: none)."""
    ev = []
    for r in range(4):
        ev += coll(r, "MPI_Scan", 100 * r, 310)
        ev += coll(r, "MPI_Exscan", 320 + 10 * r, 360)
        ev += call(r, "MPI_Iallreduce", 400 + 10 * r, 440)
        ev.append({"ph": "X", "pid": r, "tid": 7, "name": "MPI_Allreduce", "cat": "mpi_collective",
                   "ts": (400 + 10 * r) * 1000.0, "dur": (40 - 10 * r) * 1000.0,
                   "args": {"comm": 0, "root": -1, "sent": 8, "received": 8}})
        ev += [dict(e, args=dict(e["args"], comm=1)) if e["ph"] == "X" else e
               for e in coll(r, "MPI_Barrier", 500 + 10 * r, 540)]
        ev += coll(r, "MPI_Barrier", 600 + 10 * r, 640)
    for src, dst, nbytes, fid in ((0, 1, 1 << 20, 21), (2, 3, 8, 22)):
        ev += call(src, "MPI_Send", 700, 750) + call(dst, "MPI_Recv", 730, 750)
        for ph, rank, ts, peer in (("s", src, 700, dst), ("f", dst, 750, src)):
            e = {"ph": ph, "pid": rank, "tid": 7, "name": "message", "cat": "mpi_message",
                 "ts": ts * 1000.0, "id": fid, "args": {"tag": 1, "comm": 0, "bytes": nbytes}}
            e["args"]["to" if ph == "s" else "from"] = peer
            if ph == "f":
                e["bp"] = "e"
            ev.append(e)
    ev.sort(key=lambda e: (e["pid"], e["ts"], 0 if e["ph"] in "BX" else 1))
    return trace(ev)


def per_kind(spans, rank, kind):
    s = spans[(spans["rank"] == rank) & (spans["kind"] == kind)]
    return float((s["t1_s"] - s["t0_s"]).sum())


def near(got, want, what, tol=1e-6):
    return check(abs(got - want) <= tol, "%s: %.6f s, expected %.6f s" % (what, got, want))


def write(path, doc, validate):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    bad = validate(path, doc)
    check(bad is None, "%s follows trace_json.schema.json: %s" % (os.path.basename(path), bad))


def report(mpi_dir):
    """A 4-rank MPI report with nothing but its rows (the timeline needs its path)."""
    ranks = [{"rank": r, "wall_s": 1.0, "mpi_s": 0.3, "calls": {}} for r in range(4)]
    with open(os.path.join(mpi_dir, "papi_mpi_report.json"), "w", encoding="utf-8") as f:
        json.dump({"tool": "papi_mpi", "nranks": 4, "ranks": ranks}, f)
    return os.path.join(mpi_dir, "papi_mpi_report.json")


def main():
    sys.path.insert(0, sys.argv[1])
    import papi_report
    from papi_report.load import schema_check
    from papi_report.figures import timeline
    from papi_report.tables import timeline_data
    try:
        schema_check.validators()
    except schema_check.SchemaUnavailable as e:
        print("SKIPPED: %s" % e)
        return 77

    def validate(path, doc):
        return schema_check.check_document(path, doc, "trace_json")

    tmp = tempfile.mkdtemp(prefix="papi_timeline_")
    try:
        # 1. the staged trace, beside its report
        d = os.path.join(tmp, "staged")
        os.makedirs(d)
        rep = report(d)
        write(os.path.join(d, "papi_mpi_trace.json"), staged(), validate)
        t = papi_report.tables(mpi=rep)
        spans = t["timeline_spans"]
        for r in range(4):
            near(per_kind(spans, r, "wait_barrier"), (3 - r) * 0.100, "rank %d wait at barrier" % r)
            near(per_kind(spans, r, "wait_nxn"), (3 - r) * 0.010, "rank %d wait at N x N" % r)
            near(per_kind(spans, r, "late_root"), 0.020 if r else 0.0, "rank %d late root" % r)
            near(per_kind(spans, r, "early_reduce"), 0.040 if r == 0 else 0.0, "rank %d early reduce" % r)
        near(per_kind(spans, 1, "late_sender"), 0.050, "rank 1 late sender")
        near(per_kind(spans, 2, "late_receiver"), 0.030, "rank 2 late receiver")
        check(per_kind(spans, 0, "late_sender") == 0, "rank 0 no late sender")
        b = spans[(spans["rank"] == 3) & (spans["name"] == "MPI_Barrier")]
        check(list(b["kind"]) == ["other_mpi"], "rank 3 (last in) has no barrier wait: %s" % list(b["kind"]))
        # rank 0: MPI 0..310, 320..360, 420..430, 450..500, 650..655 of 0..1000 ms
        near(per_kind(spans, 0, "computation"), 1.0 - 0.310 - 0.040 - 0.010 - 0.050 - 0.005,
             "rank 0 computation (the gaps)")
        check(len(spans[spans["kind"] == "region"]) == 4, "a region span per rank")
        check(len(t["timeline_counters"]) == 44, "44 counter samples: %d" % len(t["timeline_counters"]))
        fig = timeline.timeline(t)
        check(not isinstance(fig, str), "the figure is drawn: %s" % (fig if isinstance(fig, str) else ""))
        state, region, names = timeline.raster(spans, 0.0, 1.0, 1000)
        kinds = timeline_data.KINDS
        check(state[0][150] == kinds.index("wait_barrier") and state[3][150] == kinds.index("computation"),
              "pixel 150 ms: rank 0 waits at the barrier, rank 3 computes")
        check(names == ["main"] and (region[:, 500] == 0).all(), "the region band shows main")
        out = os.path.join(tmp, "page")
        import subprocess
        p = subprocess.run([sys.executable, os.path.join(sys.argv[1], "papi_report.py"), d, "-o", out],
                           capture_output=True, text=True)
        check(p.returncode == 0, "papi_report exits 0: %s" % p.stderr[-500:])
        page = open(os.path.join(out, "report.html"), encoding="utf-8").read()
        check('data-figure="timeline"' in page and "one pixel column" in page,
              "the page holds the timeline and says its column width")
        check(os.path.exists(os.path.join(out, "timeline_spans.csv")), "timeline_spans.csv written")

        # 1b. the wrapper's rules where a first reading of the trace differs
        d1 = os.path.join(tmp, "rules")
        os.makedirs(d1)
        rep1 = report(d1)
        write(os.path.join(d1, "papi_mpi_trace.json"), wrapper_rules(), validate)
        s1 = papi_report.tables(mpi=rep1)["timeline_spans"]
        for r in range(4):
            near(per_kind(s1, r, "wait_nxn"), 0.0, "rank %d: no wait at MPI_Scan, MPI_Exscan, "
                 "MPI_Iallreduce" % r)
            near(per_kind(s1, r, "wait_barrier"), (3 - r) * 0.010, "rank %d: the world's barrier "
                 "waits, the other communicator's not" % r)
        near(per_kind(s1, 0, "late_receiver"), 0.030, "rank 0: 1 MiB MPI_Send, late receiver")
        near(per_kind(s1, 2, "late_receiver"), 0.0, "rank 2: 8-byte MPI_Send, no late receiver")
        near(per_kind(s1, 3, "late_sender"), 0.0, "rank 3: its message sent before, no late sender")

        # 2. per-rank region traces, different bases: one axis
        d2 = os.path.join(tmp, "regions")
        os.makedirs(os.path.join(d2, "papi_hl_output"))
        rep2 = report(d2)
        for r in range(2):
            ev = call(r, "solve", 0, 100 + 100 * r, tid=40 + r, cat="region")
            if r == 0:  # a second thread of rank 0: a lane of its own
                ev += call(r, "worker", 10, 50, tid=99, cat="region")
            doc = trace(sorted(ev, key=lambda e: e["ts"]), base_ns=5_000_000_000 + r * 50_000_000, ranks=1)
            doc["traceEvents"] = [e for e in doc["traceEvents"] if e["ph"] != "M"]
            for e in doc["traceEvents"]:
                e["pid"] = r
            write(os.path.join(d2, "papi_hl_output", "trace_rank_%06d.json" % r), doc, validate)
        s2 = papi_report.tables(mpi=rep2)["timeline_spans"]
        got = sorted((int(r.rank), round(r.t0_s, 6), round(r.t1_s, 6)) for r in s2[s2["kind"] == "region"].itertuples())
        check(got == [(0, 0.0, 0.1), (0, 0.01, 0.05), (1, 0.05, 0.25)], "region traces on one axis: %s" % got)
        lanes = sorted(set((int(r.rank), int(r.thread), int(r.lane)) for r in s2.itertuples()))
        check(lanes == [(0, 40, 0), (0, 99, 1), (1, 41, 2)], "a lane per rank and thread: %s" % lanes)
        fig = timeline.timeline(papi_report.tables(mpi=rep2))
        labels = [x.get_text() for x in fig.axes[0].get_yticklabels()] if not isinstance(fig, str) else fig
        check(labels == ["0.40", "0.99", "1.41"] and fig.axes[0].get_ylabel() == "rank.thread",
              "lanes labelled rank.thread: %s" % labels)

        # 3. 256 ranks x 200 calls: bounded
        d3 = os.path.join(tmp, "large")
        os.makedirs(d3)
        rep3 = report(d3)
        ev = []
        for r in range(256):
            for k in range(200):
                ev += coll(r, "MPI_Allreduce", k * 1.0 + 0.001 * r, k * 1.0 + 0.5)
        write(os.path.join(d3, "papi_mpi_trace.json"), trace(ev, ranks=256), lambda p, d: None)
        t0 = time.monotonic()
        t3 = papi_report.tables(mpi=rep3)
        t1 = time.monotonic()
        fig = timeline.timeline(t3)
        took = time.monotonic() - t1
        print("256 ranks x 200 calls: trace read in %.1f s, figure drawn in %.1f s" % (t1 - t0, took))
        check(not isinstance(fig, str), "256 ranks drawn")
        title = fig.axes[0].get_title() if not isinstance(fig, str) else ""
        check("merged" in title and "256 lanes, thin" in title, "the title says it merges: %r" % title)
        check(took < 30, "256 ranks x 200 calls: figure drawn in %.1f s (< 30)" % took)
        near(per_kind(t3["timeline_spans"], 0, "wait_nxn"), 200 * 0.255e-3, "rank 0 of 256: N x N waits", 1e-6)

        # 4. no trace, a broken trace
        d4 = os.path.join(tmp, "none")
        os.makedirs(d4)
        why = timeline.timeline(papi_report.tables(mpi=report(d4)))
        check(isinstance(why, str) and "PAPI_MPI_TRACE=json" in why, "no trace: says why: %r" % why)
        report_check.broken(os.path.join(d4, "papi_mpi_trace.json"))  # broken on purpose
        with open(os.path.join(d4, "papi_mpi_trace.json"), "w") as f:
            f.write("{not json")
        why = timeline.timeline(papi_report.tables(mpi=os.path.join(d4, "papi_mpi_report.json")))
        check(isinstance(why, str) and "not JSON" in why, "a broken trace: says why: %r" % why)
        doc = staged()
        doc["traceEvents"].append({"ph": "B", "pid": "rank one", "tid": 7, "name": "x", "cat": "mpi", "ts": 1.0})
        with open(os.path.join(d4, "papi_mpi_trace.json"), "w") as f:
            json.dump(doc, f)
        why = timeline.timeline(papi_report.tables(mpi=os.path.join(d4, "papi_mpi_report.json")))
        # Refused on load by trace_json.schema.json: the file, the JSON path and the rule.
        check(isinstance(why, str) and "papi_mpi_trace.json" in why and ".pid" in why and "trace_json.schema.json" in why,
              "a pid that is no number: the file, JSON path and rule: %r" % why)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
