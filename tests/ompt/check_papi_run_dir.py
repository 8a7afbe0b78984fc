#!/usr/bin/env python3
"""check_papi_run_dir.py --papi-run PAPI_RUN --tool-dir DIR --report PAPI_REPORT NAMED KILLED:
papi_run's output folder of an OpenMP program that also marks regions (issue 69 item 6).

papi_run -o D ompt_named writes papi_run's file (D/papi_run_output: the whole program and
its OpenMP tables) and the program's own region file (D/papi_hl_output), one process:

- papi_report D reads both: the OpenMP tables (openmp_processes: that process, from
  papi_run's file) and the program's regions beside papi_run's "papi_run" region, the
  process one rank (rank 0 in every region file's row; the header "1 (2 region files)");
- papi_report D/papi_hl_output D/papi_run_output: the same, one rank, not two;
- papi_run's file copied under another name than rank_*: papi_report FILE reads it as a
  region file (its OpenMP tables) and --check passes it;
- the program's region file twice (a copy) is one process twice: exit 2, one line naming
  both files and $.pid, nothing written.

papi_run on ompt_killed (a parallel region, then SIGTERM): exit 143, and the file's
"openmp" "reason" and the banner say the program was killed by signal 15 before the tool
wrote its file (not that it has a tool of its own)."""
import argparse
import csv
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
from checks import check_said as check, verdict  # noqa: E402


def papi_run(args, tool_dir, program, out):
    env = dict(os.environ, PAPI_RUN_LIBDIR=tool_dir, OMP_WAIT_POLICY="passive")
    for name in ("OMP_TOOL_LIBRARIES", "PAPI_OMPT_OUTPUT_DIR", "OMP_TOOL", "PAPI_OUTPUT_DIRECTORY"):
        env.pop(name, None)
    cmd = [args.papi_run, "-o", out, "--", program]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    print("$ %s: exit %d" % (" ".join(cmd), p.returncode))
    sys.stderr.write(p.stderr)
    return p


def report(args, paths, out, *more):
    cmd = [sys.executable, args.report] + list(paths) + ["-o", out] + list(more)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    print("$ papi_report %s: exit %d" % (" ".join(cmd[2:]), p.returncode))
    sys.stderr.write(p.stderr)
    return p


def table(out, name):
    path = os.path.join(out, name + ".csv")
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def one_process(out, pid, regions, what):
    """The report in out has the process's OpenMP tables and both files' regions, one rank."""
    procs = table(out, "openmp_processes")
    check(procs is not None and len(procs) == 1 and procs[0]["pid"] == str(pid)
          and procs[0]["source"] == "papi_run rank 0",
          "%s: openmp_processes is the process %d's table from papi_run's file: %s" % (what, pid, procs))
    omp = table(out, "openmp_regions") or []
    check(len(omp) == regions, "%s: openmp_regions has the file's %d parallel regions: %d rows"
          % (what, regions, len(omp)))
    paths = sorted(r["path"] for r in table(out, "region_tree") or [])
    check(paths == ["imbalanced", "outer", "outer/balanced", "papi_run"],
          "%s: the region tree has the program's regions and papi_run's: %s" % (what, paths))
    run = table(out, "region_run") or []
    check(len(run) == 2 and {r["rank"] for r in run} == {"0"},
          "%s: both files are rank 0's (one process): %s" % (what, [r["rank"] for r in run]))
    with open(os.path.join(out, "report.txt"), encoding="utf-8") as f:
        ranks = [ln.strip() for ln in f if ln.strip().startswith("Ranks")]
    check(ranks == ["Ranks          1 (2 region files)"], "%s: the header counts 1 rank: %s" % (what, ranks))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--papi-run", required=True)
    ap.add_argument("--tool-dir", required=True)
    ap.add_argument("--report", required=True)
    ap.add_argument("named")
    ap.add_argument("killed")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="papi_run_dir_", ignore_cleanup_errors=True) as tmp:
        d = os.path.join(tmp, "run")
        p = papi_run(args, args.tool_dir, args.named, d)
        check(p.returncode == 0, "papi_run ompt_named exits 0")
        run_files = glob.glob(os.path.join(d, "papi_run_output", "rank_*.json"))
        hl_files = glob.glob(os.path.join(d, "papi_hl_output", "rank_*.json"))
        if not check(len(run_files) == 1 and len(hl_files) == 1,
                     "one papi_run file and one region file: %s %s" % (run_files, hl_files)):
            return verdict()
        with open(run_files[0]) as f:
            doc = json.load(f)
        with open(hl_files[0]) as f:
            hl = json.load(f)
        procs = (doc.get("openmp") or {}).get("processes") or []
        if not check(len(procs) == 1 and doc["pid"] == hl["pid"],
                     "papi_run's file carries the program's OpenMP table, the process of the "
                     "region file (pid %s, %s)" % (doc.get("pid"), hl.get("pid"))):
            return verdict()
        nregions = len(procs[0]["regions"])

        out = os.path.join(tmp, "rep_dir")
        p = report(args, [d], out)
        check(p.returncode == 0, "papi_report D exits 0")
        one_process(out, doc["pid"], nregions, "papi_report D")

        out = os.path.join(tmp, "rep_both")
        p = report(args, [os.path.join(d, "papi_hl_output"), os.path.join(d, "papi_run_output")], out)
        check(p.returncode == 0, "papi_report D/papi_hl_output D/papi_run_output exits 0")
        one_process(out, doc["pid"], nregions, "both folders named")

        renamed = os.path.join(tmp, "whole_program.json")
        shutil.copy(run_files[0], renamed)
        out = os.path.join(tmp, "rep_file")
        p = report(args, [renamed], out)
        check(p.returncode == 0, "papi_report FILE (papi_run's file, another name) exits 0")
        procs = table(out, "openmp_processes")
        check(procs is not None and len(procs) == 1 and procs[0]["pid"] == str(doc["pid"]),
              "a region file named otherwise is read by its content: its OpenMP table (%s)" % procs)
        p = subprocess.run([sys.executable, args.report, "--check", renamed], capture_output=True,
                           text=True, timeout=120)
        check(p.returncode == 0, "papi_report --check FILE passes it: exit %d %s" % (p.returncode, p.stderr))

        twice = os.path.join(tmp, "twice")
        os.mkdir(twice)
        for n in ("rank_1.json", "rank_2.json"):
            shutil.copy(hl_files[0], os.path.join(twice, n))
        out = os.path.join(tmp, "rep_twice")
        p = report(args, [twice], out)
        check(p.returncode == 2 and "$.pid is %d" % hl["pid"] in p.stderr
              and "rank_1.json" in p.stderr and "rank_2.json" in p.stderr,
              "one process's region file twice: exit 2 naming both files and $.pid (exit %d: %s)"
              % (p.returncode, p.stderr.strip()))
        check(not os.path.exists(os.path.join(out, "report.html")), "nothing written for it")

        k = os.path.join(tmp, "killed")
        p = papi_run(args, args.tool_dir, args.killed, k)
        check(p.returncode == 128 + 15, "papi_run ompt_killed exits 143 (SIGTERM): %d" % p.returncode)
        files = glob.glob(os.path.join(k, "papi_run_output", "rank_*.json"))
        if check(len(files) == 1, "papi_run's file is written: %s" % files):
            with open(files[0]) as f:
                o = json.load(f).get("openmp") or {}
            want = "the program was killed by signal 15"
            check(o.get("status") == "not_reported" and want in o.get("reason", "")
                  and "tool of its own" not in o.get("reason", ""),
                  "the file's openmp reason says the program was killed: %r" % o.get("reason"))
            check(any(ln.startswith(" OpenMP: no table:") and want in ln for ln in p.stderr.splitlines()),
                  "the banner says it too")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
