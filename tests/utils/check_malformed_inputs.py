#!/usr/bin/env python3
"""check_malformed_inputs.py PYTHON HL_WRITER HL_FIXTURE MPI_COLLECT PAPI_REPORT: the Python
tools on inputs that are valid JSON of the wrong shape.

Every value of a valid input (a region file of papi_hl_output_writer; the report and the
rows papi_mpi_collect reads; the MPI report and a region file of papi_report) is in turn
deleted or replaced by a value of another type; the tool then either works (exit 0: the
change did not matter) or says what is wrong in one line naming the file, with exit
status 2: never a traceback, never another status. papi_hl_output_writer and papi_report
run as installed (their own interpreter, Debian's python3 with pandas), papi_mpi_collect
on PYTHON. Exit 0 pass, 1 fail."""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

FAILURES = []
REPLACEMENTS = [None, True, -1, 1.5, "x", [], {}, [1], {"a": 1}]


def paths(doc, prefix=()):
    """Every (path) to a value of doc, parents first."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, prefix + (i,))


def mutations(doc, limit):
    """Up to limit mutated copies of doc (deterministic, spread over every path)."""
    out = []
    for p in paths(doc):
        for r in ["<delete>"] + REPLACEMENTS:
            if not p and r == "<delete>":
                continue
            d = copy.deepcopy(doc)
            if not p:
                out.append((p, r, r))
                continue
            parent = d
            for k in p[:-1]:
                parent = parent[k]
            if r == "<delete>":
                del parent[p[-1]]
            else:
                parent[p[-1]] = copy.deepcopy(r)
            out.append((p, r, d))
    step = max(1, len(out) // limit)
    return out[::step][:limit]


def run_case(cmd, cwd, bad_file, what):
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=60)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    if p.returncode == 0:
        return "ok"
    problems = []
    if p.returncode != 2:
        problems.append("exit status %d, not 2" % p.returncode)
    if "Traceback" in p.stderr:
        problems.append("a traceback")
    if len(lines) != 1:
        problems.append("%d lines on stderr, not one" % len(lines))
    elif os.path.basename(bad_file) not in lines[0]:
        problems.append("the message does not name %s" % os.path.basename(bad_file))
    if problems:
        FAILURES.append(what)
        print("FAIL: %s: %s\n  stderr: %s" % (what, ", ".join(problems), p.stderr[-600:]))
    return "rejected"


def hl_writer(python, writer, fixture, limit):
    names = sorted(n for n in os.listdir(fixture) if n.endswith(".json"))
    target = names[0]
    with open(os.path.join(fixture, target), encoding="utf-8") as f:
        doc = json.load(f)
    counts = {"ok": 0, "rejected": 0}
    for p, r, mutated in mutations(doc, limit):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "src")
            shutil.copytree(fixture, src)
            with open(os.path.join(src, target), "w", encoding="utf-8") as f:
                json.dump(mutated, f)
            for type_ in ("summary", "detail")[len(p) % 2:][:1]:
                what = "papi_hl_output_writer --type %s, %s at %s" % (type_, json.dumps(r), list(p))
                counts[run_case([writer, "--source", src, "--type", type_], tmp,
                                os.path.join(src, target), what)] += 1
    print("papi_hl_output_writer: %d mutated runs worked, %d were rejected in one line"
          % (counts["ok"], counts["rejected"]))
    return counts


MPI_DOCS = {
    "papi_mpi_report.json": {"run_id": "1700000000.000000001-1", "nranks": 3,
                             "ranks": [{"rank": 0, "finished": True},
                                       {"rank": 1, "finished": True},
                                       {"rank": 2, "finished": False}]},
    "papi_mpi_rank2.partial.json": {"run_id": "1700000000.000000001-1", "rank": 2,
                                    "finished": False, "exit_reason": "signal SIGTERM"},
    "papi_mpi_rank2.checkpoint.json": {"run_id": "1700000000.000000001-1", "rank": 2,
                                       "finished": False},
}


def mpi_collect(python, collect, limit):
    counts = {"ok": 0, "rejected": 0}
    for target, doc in MPI_DOCS.items():
        for p, r, mutated in mutations(doc, limit // len(MPI_DOCS)):
            with tempfile.TemporaryDirectory() as tmp:
                for name, d in MPI_DOCS.items():
                    with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                        json.dump(mutated if name == target else d, f)
                what = "papi_mpi_collect, %s: %s at %s" % (target, json.dumps(r), list(p))
                counts[run_case([python, collect, tmp], tmp, os.path.join(tmp, target), what)] += 1
    print("papi_mpi_collect: %d mutated runs worked, %d were rejected in one line"
          % (counts["ok"], counts["rejected"]))
    return counts


# papi_report's MPI report: two ranks of the wrapper library's format, every table filled.
def _call(calls, time_s, sent=0, recv=0):
    return {"calls": calls, "time_s": time_s, "bytes_sent": sent, "bytes_recv": recv}


REPORT_MPI = {
    "run_id": "1700000000.000000001-1", "nranks": 2, "finished_ranks": 2,
    "callsites": {"sites": 1, "calls_without_site": 0, "per_thread_table": 1024, "top": [
        {"call": "MPI_Send", "function": "main", "file": "/src/ring.c", "line": 12,
         "object": "/bin/ring", "offset": "0x1234", "ranks": 2, "calls": 4, "time_s": 0.02,
         "bytes_sent": 800, "bytes_recv": 0, "min_call_s": 0.001, "max_call_s": 0.009,
         "max_call_rank": 1, "rank_min_s": 0.005, "rank_min": 0, "rank_max_s": 0.015,
         "rank_max": 1}]},
    "ranks": [
        {"rank": r, "finished": True, "threads": 1, "wall_s": 1.0 + r, "mpi_s": 0.25 * (r + 1),
         "counters": {"perf::PAGE-FAULTS": 100 + r, "perf::TASK-CLOCK": 900000 + r},
         "calls": {"MPI_Init": _call(1, 0.1), "MPI_Send": _call(2, 0.01 * (r + 1), 400),
                   "MPI_Recv": _call(2, 0.02, 0, 400), "MPI_Finalize": _call(1, 0.001)},
         "sizes": {"MPI_Send": [{"bucket": 9, "calls": 2, "time_s": 0.01 * (r + 1)}]},
         "partners": [{"rank": 1 - r, "sends": 2, "bytes_sent": 400, "recvs": 2,
                       "bytes_recv": 400, "time_s": 0.01}]}
        for r in (0, 1)],
}


def papi_report(tool, fixture, limit):
    """Mutations of the MPI report, then of one region file (the other one left whole)."""
    names = sorted(n for n in os.listdir(fixture) if n.endswith(".json"))
    with open(os.path.join(fixture, names[0]), encoding="utf-8") as f:
        region_doc = json.load(f)
    counts = {"ok": 0, "rejected": 0}
    for target, doc in (("papi_mpi_report.json", REPORT_MPI), (names[0], region_doc)):
        for p, r, mutated in mutations(doc, limit // 2):
            with tempfile.TemporaryDirectory() as tmp:
                regions = os.path.join(tmp, "papi_hl_output")
                shutil.copytree(fixture, regions)
                report = os.path.join(tmp, "papi_mpi_report.json")
                with open(report, "w", encoding="utf-8") as f:
                    json.dump(mutated if target == "papi_mpi_report.json" else REPORT_MPI, f)
                if target != "papi_mpi_report.json":
                    with open(os.path.join(regions, target), "w", encoding="utf-8") as f:
                        json.dump(mutated, f)
                what = "papi_report, %s: %s at %s" % (target, json.dumps(r), list(p))
                bad = report if target == "papi_mpi_report.json" else os.path.join(regions, target)
                counts[run_case([tool, "--mpi", report, "--regions", regions, "-o",
                                 os.path.join(tmp, "out")], tmp, bad, what)] += 1
    print("papi_report: %d mutated runs worked, %d were rejected in one line"
          % (counts["ok"], counts["rejected"]))
    return counts


def main(argv):
    python = argv[1]
    writer, fixture, collect, report = (os.path.abspath(a) for a in argv[2:6])
    # Mutations spread over every path of each document; papi_report draws every figure of
    # an accepted file (3 s of CPU a run), so it gets fewer.
    counts = [hl_writer(python, writer, fixture, 48), mpi_collect(python, collect, 90),
              papi_report(report, fixture, 24)]
    if any(c["rejected"] == 0 for c in counts):
        FAILURES.append("no mutation was rejected: the check tested nothing")
    print("check_malformed_inputs: %s" % ("FAILED (%d)" % len(FAILURES) if FAILURES else "PASSED"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
