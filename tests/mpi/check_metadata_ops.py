#!/usr/bin/env python3
"""File-system metadata operations of a job on its output directory (issue 28 item 5).

Runs the program on --np ranks, each rank under strace (-y: the directory a descriptor
names), with PAPI_MPI_OUTPUT_DIR a fresh directory k components deep, and counts per
rank the operations that touch that directory or a file in it: opens, creates, mkdirs,
unlinks, renames, links. Rank 0 alone writes the report: it must make exactly k + 10
(a mkdir per component, the open of the directory, 3 unlinks of an earlier report, 3
creates of the temporaries, 3 renames), every other rank none. Then the report must be
published with every rank's row, in rank order, in the JSON and both CSVs.
SKIPPED (77) when strace cannot trace here (no ptrace in the container)."""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpi_check import check, verdict  # noqa: E402

META = {"open", "openat", "openat2", "creat", "mkdir", "mkdirat", "unlink", "unlinkat",
        "rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "rmdir"}
CALL = re.compile(r"^(?:\[pid\s+\d+\]\s+|\d+\s+)?(\w+)\((.*)$")


def ops_on(trace, outdir):
    """(syscall, arguments) of the metadata operations of one rank's trace that name
    outdir, a file in it, or (mkdir) one of its parent directories."""
    prefixes = set()
    p = outdir
    while p not in ("/", ""):
        prefixes.add(p)
        p = os.path.dirname(p)
    out = []
    with open(trace, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = CALL.match(line)
            if not m or m.group(1) not in META:
                continue
            name, rest = m.group(1), m.group(2)
            args = re.split(r"\)\s+= ", rest)[0].split(" <unfinished")[0].rstrip()
            inside = re.search(re.escape(outdir) + r'(["/>]|$)', args)
            # Ours are mode 0755 (output_file.c); Open MPI makes its session directory
            # under /tmp with mode 0700, "/tmp" included.
            parent = (name in ("mkdir", "mkdirat") and args.endswith("0755")
                      and any(f'"{q}"' in args for q in prefixes))
            if inside or parent:
                out.append((name, args))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--np", type=int, default=4)
    ap.add_argument("--program", required=True)
    ap.add_argument("extra", nargs="*", help="the program's arguments")
    args = ap.parse_args()
    strace = shutil.which("strace")
    if not strace:
        print("SKIPPED: no strace")
        return 77
    if subprocess.run([strace, "-qq", "-o", os.devnull, "true"]).returncode != 0:
        print("SKIPPED: strace cannot trace here (ptrace refused)")
        return 77
    top = tempfile.mkdtemp(prefix="papi_mpi_meta_")
    try:
        outdir = os.path.join(top, "a", "out")  # made by rank 0: every component counted
        k = len([c for c in outdir.split("/") if c])
        traces = os.path.join(top, "traces")
        work = os.path.join(top, "cwd")  # the ranks' cwd: not the output directory
        os.makedirs(traces)
        os.makedirs(work)
        env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=outdir)
        script = ('exec "$1" -f -qq -y -e trace=%file -o "$0/trace.${PMI_RANK:-$OMPI_COMM_WORLD_RANK}" '
                  '"$2" "$3" "$4"')
        cmd = [args.mpirun, "-np", str(args.np), "sh", "-c", script, traces, strace,
               os.path.abspath(args.program)] + (args.extra or ["100"])[:2]
        p = subprocess.run(cmd, env=env, cwd=work, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=300)
        sys.stdout.write(p.stdout[-4000:])
        check(p.returncode == 0, f"the run ends with status 0 ({p.returncode})")
        for r in range(args.np):
            trace = os.path.join(traces, f"trace.{r}")
            if not check(os.path.exists(trace), f"rank {r}: a trace"):
                continue
            ops = ops_on(trace, outdir)
            names = [n for n, _ in ops]
            print(f"rank {r}: {len(ops)} metadata operations on {outdir}: "
                  + ", ".join(f"{n}" for n in names))
            if r:
                check(not ops, f"rank {r}: no metadata operation ({ops})")
                continue
            mk = [a for n, a in ops if n in ("mkdir", "mkdirat")]
            opens = [a for n, a in ops if n in ("open", "openat", "openat2", "creat")]
            creates = [a for a in opens if "O_CREAT" in a]
            check(len(mk) == k, f"rank 0: a mkdir per component ({len(mk)} of {k})")
            check(len(opens) - len(creates) == 1, f"rank 0: one open of the directory ({opens})")
            check(len(creates) == 3 and all("O_EXCL" in a for a in creates),
                  f"rank 0: 3 exclusive creates ({creates})")
            check(names.count("unlinkat") + names.count("unlink") == 3, "rank 0: 3 unlinks")
            check(sum(names.count(x) for x in ("rename", "renameat", "renameat2")) == 3,
                  "rank 0: 3 renames")
            check(len(ops) == k + 10, f"rank 0: k + 10 = {k + 10} operations ({len(ops)})")
        # The report: every rank's row, in rank order, in each file.
        try:
            with open(os.path.join(outdir, "papi_mpi_report.json"), encoding="utf-8") as f:
                rep = json.load(f)
            check([r["rank"] for r in rep["ranks"]] == list(range(args.np)),
                  "JSON: a row per rank, in rank order")
            with open(os.path.join(outdir, "papi_mpi_summary.csv"), encoding="utf-8") as f:
                rows = [int(r["rank"]) for r in csv.DictReader(f)]
            check(rows == list(range(args.np)), f"summary CSV: ranks in order ({rows})")
            with open(os.path.join(outdir, "papi_mpi_ranks.csv"), encoding="utf-8") as f:
                ranks = [int(r["rank"]) for r in csv.DictReader(f)]
            check(ranks == sorted(ranks) and set(ranks) == set(range(args.np)),
                  "calls CSV: every rank's lines, in rank order")
            left = [n for n in os.listdir(outdir) if n.startswith(".")]
            check(not left, f"no temporary left ({left})")
        except (OSError, ValueError, KeyError) as e:
            check(False, f"the report: {e}")
    finally:
        shutil.rmtree(top, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
