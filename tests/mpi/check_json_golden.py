#!/usr/bin/env python3
"""Every JSON file the MPI wrapper writes, of fixed runs, against the shapes recorded
before its writers moved onto the one JSON writer (issue 70 item 2): keys, punctuation,
line breaks and number forms byte for byte (json_shape.py says what a run may vary).

The runs (2 ranks each): the call pattern (mpi_pattern.c) with a counter series, wait
states, call sites, traffic and the JSON trace, its event logs kept (keep_event_log); the
replayed two-socket machine's energy per region (mpi_region_energy.c); sampling
(mpi_sample.c); an MPI x OpenMP program under LLVM's libomp (mpi_hybrid.c), where it is
installed. Software events only, so that the files do not depend on the machine's PMU.

Usage: check_json_golden.py --mpirun M --wrapper LIB --keep-log LIB --pattern P
  --energy P --machines DIR --sample P [--hybrid P] --golden DIR [--update]
Exit 0 pass, 1 fail, 77 skip."""
import argparse
import difflib
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from mpi_check import is_openmpi, rank_env, run_cmd  # noqa: E402
import llvm_libomp  # noqa: E402 (tests/common, on the path by mpi_check)
import json_shape  # noqa: E402

EVENTS = "perf::PAGE-FAULTS,perf::TASK-CLOCK"

ap = argparse.ArgumentParser()
for opt in ("--mpirun", "--wrapper", "--keep-log", "--pattern", "--energy", "--machines",
            "--sample", "--golden"):
    ap.add_argument(opt, required=True)
ap.add_argument("--hybrid")
ap.add_argument("--update", action="store_true", help="record the shapes anew")
args = ap.parse_args()
for name in ("wrapper", "keep_log", "pattern", "energy", "machines", "sample", "hybrid", "golden"):
    if getattr(args, name):  # the runs start in their output directories
        setattr(args, name, os.path.abspath(getattr(args, name)))


def runs(machine):
    """(name, program and arguments, the ranks' environment) of each fixed run."""
    base = {"PAPI_MPI_EVENTS": EVENTS, "PAPI_MPI_METRICS": "CPU_UTILIZATION",
            "PAPI_MPI_REPORT_PIECE": "65536"}
    out = [("pattern", [args.pattern],
            dict(base, LD_PRELOAD=args.keep_log + ":" + args.wrapper, PAPI_INTERVAL="0.05",
                 PAPI_MPI_CHECKPOINT="0.02", PAPI_MPI_TRACE="json")),
           ("energy", [args.energy, os.path.join(machine, "sys/class/powercap")],
            {"PAPI_FSROOT": machine, "PAPI_MPI_METRICS": "CPU_ENERGY,DRAM_ENERGY",
             "PAPI_MPI_EVENTS": "powercap:::ENERGY_UJ:ZONE0"}),
           ("sample", [args.sample],
            dict(base, LD_PRELOAD=args.wrapper, PAPI_SAMPLE="perf::TASK-CLOCK@100000"))]
    if args.hybrid and llvm_libomp.installed():
        out.append(("hybrid", [args.hybrid],
                    dict(base, LD_PRELOAD="libomp.so.5:" + args.wrapper, OMP_NUM_THREADS="2")))
    return out


def shapes(outdir):
    """{relative path: shape} of every JSON file the wrapper wrote under outdir."""
    got = {}
    for root, _, files in os.walk(outdir):
        for f in files:
            path = os.path.join(root, f)
            rel = os.path.relpath(path, outdir)
            if rel.startswith("papi_mpi") and f.endswith((".json", ".jsonl")):
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
                got[rel] = json_shape.shape_file(path, text)
    return got


def run(name, prog, env, d):
    """The shapes of one run's files, or None when it failed."""
    out = os.path.join(d, name)
    shutil.rmtree(out, ignore_errors=True)
    os.mkdir(out)
    env = dict(env, PAPI_MPI_OUTPUT_DIR=out)
    flags = ["--oversubscribe"] if is_openmpi(args.mpirun) else []
    p = run_cmd([args.mpirun, "-np", "2"] + flags + rank_env(args.mpirun, env) + prog,
                cwd=out, tail=1500)  # the OpenMP tool's own files land in out too
    return shapes(out) if p.returncode == 0 else None


def recorded(name):
    gold, want = os.path.join(args.golden, name), {}
    for root, _, files in os.walk(gold):
        for f in files:
            with open(os.path.join(root, f), encoding="utf-8") as fh:
                rel = os.path.relpath(os.path.join(root, f), gold)
                # under json_shape's rules as they are now (a shape reads as a document)
                want[rel] = json_shape.shape_file(rel, fh.read())
    return want


def record(name, got):
    gold = os.path.join(args.golden, name)
    shutil.rmtree(gold, ignore_errors=True)
    for rel, text in got.items():
        os.makedirs(os.path.dirname(os.path.join(gold, rel)), exist_ok=True)
        with open(os.path.join(gold, rel), "w", encoding="utf-8") as fh:
            fh.write(text)
    print("recorded %s: %s" % (name, sorted(got)))


def alike(rel, want, got):
    """A file's shape as recorded. A .jsonl file's lines: each of this run's line shapes
    among the recorded ones, and one at least: which kinds of line a run wrote varies (an
    event log's line names the call sites no earlier line named, so its first line has
    "sites" and a later one may have none, and a short run writes one line)."""
    if not rel.endswith(".jsonl") or want is None or got is None:
        return want == got
    lines = set(got.splitlines())
    return bool(lines) and lines <= set(want.splitlines())


def differences(name, want, got, quiet=False):
    """How many files differ (each said, with its diff, unless quiet)."""
    bad = 0
    for rel in sorted(set(want) | set(got)):
        if alike(rel, want.get(rel), got.get(rel)):
            if not quiet:
                print("ok   %s/%s" % (name, rel))
            continue
        bad += 1
        if quiet:
            continue
        print("FAIL %s/%s differs from its recorded shape:" % (name, rel))
        sys.stdout.writelines(list(difflib.unified_diff(
            (want.get(rel) or "").splitlines(True), (got.get(rel) or "").splitlines(True),
            "recorded", "this run", n=1))[:60])
    return bad


failed = 0
with tempfile.TemporaryDirectory() as d:
    machine = os.path.join(d, "machine")
    shutil.copytree(os.path.join(args.machines, "rapl_two_socket"), machine)
    for name, prog, env in runs(machine):
        got = run(name, prog, env, d)
        if got is None:
            print("FAIL: run %s failed" % name)
            failed += 1
        elif args.update:
            record(name, got)
        elif differences(name, recorded(name), got, quiet=True):
            # Where samples fell (a list present or empty) can differ from run to run: a
            # second run decides; a writer's change differs both times.
            print("     %s: its shapes differ; running it again" % name)
            got = run(name, prog, env, d)
            failed += 1 if got is None else differences(name, recorded(name), got)
        else:
            differences(name, recorded(name), got)
print("FAIL" if failed else "PASS")
sys.exit(1 if failed else 0)
