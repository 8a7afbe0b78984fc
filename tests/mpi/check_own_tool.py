#!/usr/bin/env python3
"""Another OMPT tool than the project's under the MPI wrapper (issue 58 item 7). An OpenMP
runtime starts one tool: first an ompt_start_tool the program's objects export, else the
first library of OMP_TOOL_LIBRARIES that accepts. The wrapper names the project's tool
(libpapi_ompt.so) after the user's; it must not displace theirs, nor pass unsaid.

  program  mpi_own_tool.c (gcc's: libgomp, run under libomp.so.5 preloaded before the
           wrapper), whose own tool counts its 3 parallel regions: 2 ranks, each tool
           sees its 3 regions and each rank's answer is unchanged; the report's
           wait_states.openmp has no figures (null) and its note, and one banner line,
           name the program's own tool (ompt_start_tool in mpi_own_tool...), not libgomp;
  library  mpi_hybrid.c with OMP_TOOL_LIBRARIES naming a tool library of the user's
           (own_tool_lib.c): the same, the note naming that library and saying to name
           libpapi_ompt.so first;
  disabled mpi_own_tool.c with OMP_TOOL=disabled: the runtime starts no tool, the
           program's neither: the note says no rank ran the tool, naming none;
  papi_run (with --papi-run) mpi_own_tool.c as `mpirun -np 2 papi_run -o D -- prog`
           (papi_run names the tool, gives the program libomp and preloads the
           wrapper): the same as program.

SKIPPED (77) where LLVM's libomp.so.5 is not installed.
Usage: check_own_tool.py --mpirun M --wrapper LIB --program P --plain P2 --tool-lib L
  [--papi-run PAPI_RUN --libdir DIR]"""
import argparse
import json
import os
import sys
import tempfile

from mpi_check import check, job_report, run_cmd, verdict
import hybrid_launch
import llvm_libomp  # (tests/common, on the path by mpi_check)


def run(args, program, out, more, papi_run=False):
    cmd, env = hybrid_launch.command(args, out, "papi_run" if papi_run else "preload", program, more)
    p = run_cmd(cmd, env=env)
    check(p.returncode == 0, "exit status %d" % p.returncode)
    return p


def openmp_of(out):
    doc = job_report(out)
    if doc is None:
        return None
    check(all("openmp" not in r for r in doc.get("ranks", [])), "no rank row has OpenMP figures")
    return doc["wait_states"]["openmp"]


def no_figures(o, what):
    check(o["ranks_measured"] == 0 and all(o[k] is None for k in (
        "serialization", "load_balance", "scheduling", "parallel_efficiency", "hybrid_parallel_efficiency")),
        "%s: no OpenMP figures (null): %s" % (what, o))
    check("libgomp" not in o["note"], "%s: the note does not blame libgomp: %s" % (what, o["note"]))


def banner(p, what, start):
    said = [ln for ln in p.stdout.splitlines() if ln.startswith("papi_mpi: OpenMP:")]
    check(len(said) == 1 and said[0].startswith("papi_mpi: OpenMP: 2 of 2 ranks: " + start),
          "%s: one banner line names it: %s" % (what, said))


def part_program(args, tmp, papi_run=False):
    out = os.path.join(tmp, "papi_run" if papi_run else "program")
    p = run(args, args.program, out, {}, papi_run)
    answers = [json.loads(ln) for ln in p.stdout.splitlines() if ln.startswith('{"rank"')]
    check(sorted(a["rank"] for a in answers) == [0, 1] and all(a["threads_summed"] == 6 for a in answers),
          "each rank's answer unchanged: %s" % answers)
    check(p.stdout.count("own tool: 3 parallel regions") == 2,
          "each rank's own tool saw its 3 regions (not displaced)")
    o = openmp_of(out)
    if o is None:
        return
    name = os.path.basename(args.program)
    no_figures(o, "the program's own tool")
    start = "the program's own OMPT tool (ompt_start_tool in %s) is the one the OpenMP runtime started" % name
    check(o["note"].startswith(start), "the note names the program's own tool: %s" % o["note"])
    banner(p, "the program's own tool", start)


def part_library(args, tmp):
    out = os.path.join(tmp, "library")
    p = run(args, args.plain, out, {"OMP_TOOL_LIBRARIES": args.tool_lib})
    check(p.stdout.count("own tool: 2 parallel regions") == 2,
          "each rank's tool library was started and saw mpi_hybrid's 2 regions")
    o = openmp_of(out)
    if o is None:
        return
    no_figures(o, "a tool library named first")
    start = "the OMPT tool %s is the one the OpenMP runtime started" % os.path.basename(args.tool_lib)
    check(o["note"].startswith(start) and "name libpapi_ompt.so first" in o["note"],
          "the note names the library and what to do: %s" % o["note"])
    banner(p, "a tool library named first", start)


def part_disabled(args, tmp):
    out = os.path.join(tmp, "disabled")
    p = run(args, args.program, out, {"OMP_TOOL": "disabled"})
    check("own tool:" not in p.stdout, "OMP_TOOL=disabled: the program's own tool not started either")
    o = openmp_of(out)
    if o is not None:
        no_figures(o, "OMP_TOOL=disabled")
        check(o["note"].startswith("no rank ran the OMPT tool"), "the note names no other tool: %s" % o["note"])


def main():
    ap = argparse.ArgumentParser()
    for a in ("--mpirun", "--wrapper", "--program", "--plain", "--tool-lib"):
        ap.add_argument(a, required=True)
    ap.add_argument("--papi-run")
    ap.add_argument("--libdir")
    args = ap.parse_args()
    llvm_libomp.require()
    tmp = tempfile.mkdtemp(prefix="mpi_own_tool_")
    part_program(args, tmp)
    part_library(args, tmp)
    part_disabled(args, tmp)
    if args.papi_run:
        part_program(args, tmp, papi_run=True)
    return verdict("mpi_own_tool", scratch=tmp)


if __name__ == "__main__":
    sys.exit(main())
