#!/usr/bin/env python3
"""check_malformed_inputs.py PYTHON HL_WRITER HL_FIXTURE MPI_COLLECT: the Python tools on
inputs that are valid JSON of the wrong shape.

Every value of a valid input (a region file of papi_hl_output_writer, the report and the
rows papi_mpi_collect reads) is in turn deleted or replaced by a value of another type;
the tool then either works (exit 0: the change did not matter) or says what is wrong in
one line naming the file, with exit status 2: never a traceback, never another status.
Exit 0 pass, 1 fail."""
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
                counts[run_case([python, writer, "--source", src, "--type", type_], tmp,
                                os.path.join(src, target), what)] += 1
    print("papi_hl_output_writer: %d mutated runs worked, %d were rejected in one line"
          % (counts["ok"], counts["rejected"]))
    return counts


MPI_DOCS = {
    "papi_mpi_report.json": {"run_id": "1700000000.000000001-1", "nranks": 3,
                             "ranks": [{"rank": 0, "finished": True},
                                       {"rank": 1, "finished": True}]},
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


def main(argv):
    python = argv[1]
    writer, fixture, collect = (a if a == "-" else os.path.abspath(a) for a in argv[2:5])
    # "-": papi_hl_output_writer left out (its rewrite on pandas does its own checks).
    a = hl_writer(python, writer, fixture, 80) if writer != "-" else {"rejected": 1}
    b = mpi_collect(python, collect, 90)
    if a["rejected"] == 0 or b["rejected"] == 0:
        FAILURES.append("no mutation was rejected: the check tested nothing")
    print("check_malformed_inputs: %s" % ("FAILED (%d)" % len(FAILURES) if FAILURES else "PASSED"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
