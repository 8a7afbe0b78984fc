#!/usr/bin/env python3
"""Call sites and report size.
  sites200: mpi_sites200 on 2 ranks with PATH pointing nowhere on the ranks (no
    addr2line or any other program reachable): the report lists all 200 MPI_Comm_rank
    sites, each with mpi_sites200.c and a line, rank 0 calling each once and rank 1
    twice; the banner shows PAPI_MPI_TOP=3 of them.
  size: the README's ring example on 4 ranks: all report files together < 24 KB (19.5 KB
    with the wait states, 13.5 KB before them: mpi-wrappers/README.md), and
    no sentence of the counter note (the events that did not open and why) said twice
    in it or in the banner (the no-PMU reason once, not once per event).
  kinds: mpi_sites_kinds (-O2 -g) on 2 ranks: MPI_Barrier in a static inline function
    inlined twice names that function, the chain it is inlined into (sites_inlined_middle,
    main) and its line; MPI_Allreduce made in libmpi_sites_lib.so names the library as
    object, its function, mpi_sites_lib.c and the line.
  nodebug: mpi_sites_nodebug (-g0) on 2 ranks: the site's note says there is no debug
    information, the function comes from the symbol table, file "??" and line 0, and the
    object and offset are kept: the offset is the call instruction to MPI_Bcast.
  overflow: mpi_sites_overflow on --np ranks (1 or 2): 1,500 distinct MPI_Comm_rank
    sites, more than a thread's table of 1,024 holds, rank r calling each r + 1 times:
    listed sites plus sites_dropped is exactly 1,500 (with 1 rank at least 476 dropped;
    ranks may keep different ones), listed calls plus calls_without_site exactly 1,500
    times the calls per site, each listed site's calls plus calls_without_entry exactly
    the calls per site, and the banner says how many sites were dropped.
The ranks get PATH=/nonexistent (no addr2line or other program) and the environment
through the launcher's own option (Hydra's -genv, Open MPI's -x).
Usage: check_sites.py MODE --mpirun M --program PROG [--preload LIB]"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from mpi_check import check, rank_env, verdict

HERE = os.path.dirname(os.path.abspath(__file__))


def marker_line(source, tag):
    """The line of SOURCE (in this directory) holding the comment SITE TAG."""
    with open(os.path.join(HERE, source), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if f"/* SITE {tag} */" in line:
                return i
    raise SystemExit(f"no SITE {tag} marker in {source}")


def one_site(cs, call):
    sites = [s for s in cs["top"] if s["call"] == call]
    check(len(sites) == 1, f"one {call} site, got {len(sites)}: {sites}")
    return sites[0] if sites else None


def check_kinds(cs, program, np):
    s = one_site(cs, "MPI_Barrier")
    if s:
        print("inlined site:", s)
        check(s["function"] == "sites_inlined_leaf", f"function {s['function']}")
        check(s.get("inlined_into") == "sites_inlined_middle, main",
              f"inlined_into {s.get('inlined_into')!r}, want 'sites_inlined_middle, main'")
        check(os.path.basename(s["file"]) == "mpi_sites_kinds.c" and
              s["line"] == marker_line("mpi_sites_kinds.c", "inlined"),
              f"file:line {s['file']}:{s['line']}")
        check(os.path.realpath(s["object"]) == os.path.realpath(program), f"object {s['object']}")
        check(s["calls"] == np and s["ranks"] == np, f"calls {s['calls']}, ranks {s['ranks']}")
        check("note" not in s, f"no note: {s.get('note')}")
    s = one_site(cs, "MPI_Allreduce")
    if s:
        print("library site:", s)
        check(os.path.basename(s["object"]) == "libmpi_sites_lib.so",
              f"object is the library: {s['object']}")
        check(s["function"] == "sites_lib_allreduce", f"function {s['function']}")
        check(os.path.basename(s["file"]) == "mpi_sites_lib.c" and
              s["line"] == marker_line("mpi_sites_lib.c", "lib"), f"file:line {s['file']}:{s['line']}")
        check(s["calls"] == np and s["ranks"] == np, f"calls {s['calls']}, ranks {s['ranks']}")
        check("inlined_into" not in s and "note" not in s, f"not inlined, no note: {s}")


def check_nodebug(cs, program, np):
    s = one_site(cs, "MPI_Bcast")
    if not s:
        return
    print("site without debug information:", s)
    check("no debug information" in s.get("note", ""), f"the note says so: {s.get('note')!r}")
    check(s["function"] == "sites_nodebug_caller", f"function from the symbol table: {s['function']}")
    check(s["file"] == "??" and s["line"] == 0, f"no file and line: {s['file']}:{s['line']}")
    check(os.path.realpath(s["object"]) == os.path.realpath(program), f"object {s['object']}")
    check(s["calls"] == np and s["ranks"] == np, f"calls {s['calls']}, ranks {s['ranks']}")
    off = int(s["offset"], 16)  # the return address - 1: inside a 5-byte call rel32
    d = subprocess.run(["objdump", "-d", f"--start-address={off - 4}", f"--stop-address={off + 1}",
                        s["object"]], stdout=subprocess.PIPE, text=True, check=False).stdout
    check(re.search(r"call\s.*<MPI_Bcast(@plt)?>", d) is not None,
          f"the offset is the call to MPI_Bcast: {d.strip().splitlines()[-1:]}")


def check_overflow(cs, banner, np, nsites=1500, table=1024):
    calls_per_site = np * (np + 1) // 2  # rank r calls each site r + 1 times
    sites = cs["top"]
    dropped = cs.get("sites_dropped")
    print(f"listed {len(sites)}, sites_dropped {dropped}, calls_without_site "
          f"{cs['calls_without_site']}, per_thread_table {cs['per_thread_table']}")
    check(all(s["call"] == "MPI_Comm_rank" for s in sites), "only MPI_Comm_rank sites")
    check(cs["per_thread_table"] == table, f"per_thread_table {cs['per_thread_table']}")
    # Each rank keeps at most `table` (one thread each); ranks (address-space layouts)
    # may keep different ones.
    check(dropped is not None and dropped >= nsites - np * table,
          f"sites_dropped {dropped} >= {nsites - np * table}")
    check(dropped is not None and dropped > 0, "some sites dropped")
    check(dropped is not None and len(sites) + dropped == nsites,
          f"listed {len(sites)} + dropped {dropped} == {nsites}")
    listed_calls = sum(s["calls"] for s in sites)
    check(listed_calls + cs["calls_without_site"] == nsites * calls_per_site,
          f"listed calls {listed_calls} + calls_without_site {cs['calls_without_site']} == "
          f"{nsites * calls_per_site}")
    bad = [s for s in sites if s["calls"] + s.get("calls_without_entry", 0) != calls_per_site]
    check(not bad, f"each listed site: calls + calls_without_entry == {calls_per_site}: {bad[:3]}")
    check(len({s["offset"] for s in sites}) == len(sites), "listed sites distinct")
    check("note" not in cs, f"no memory note: {cs.get('note')}")
    check(f"{dropped} sites (" in banner and "call sites dropped:" in banner,
          "the banner says how many sites were dropped")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["sites200", "size", "kinds", "nodebug", "overflow"])
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--preload")
    ap.add_argument("--np", type=int, help="ranks (default: 4 for size, else 2)")
    args = ap.parse_args()
    out = tempfile.mkdtemp(prefix="papi_mpi_sites_")
    try:
        env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=out)
        np = args.np or (4 if args.mode == "size" else 2)
        cmd = [args.mpirun, "-np", str(np)]
        if args.mode != "size":
            env["PAPI_MPI_TOP"] = "3"
            cmd += rank_env(args.mpirun, {"PATH": "/nonexistent"})  # the ranks find no program
        if args.preload:
            env["LD_PRELOAD"] = args.preload
        p = subprocess.run(cmd + [args.program], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=120)
        print(p.stdout)
        check(p.returncode == 0, f"exit status {p.returncode}")
        if args.mode == "size":
            sizes = {f: os.path.getsize(os.path.join(out, f)) for f in os.listdir(out)}
            print("report files:", sizes, "total", sum(sizes.values()))
            check(len(sizes) == 3, f"report, ranks CSV and summary CSV: {sorted(sizes)}")
            check(sum(sizes.values()) < 24576, f"total {sum(sizes.values())} B >= 24 KB")
            with open(os.path.join(out, "papi_mpi_report.json"), encoding="utf-8") as f:
                note = json.load(f)["counter_note"]
            banner = [l for l in p.stdout.splitlines() if l.startswith("papi_mpi: note: ")]
            for where, text in [("report", note)] + [("banner", l) for l in banner]:
                said = [x for x in re.split(r"(?<=\.) ", text) if len(x) >= 32]
                twice = sorted({x for x in said if said.count(x) > 1})
                check(not twice, f"the {where}'s counter note says {twice} more than once")
            return verdict()
        with open(os.path.join(out, "papi_mpi_report.json"), encoding="utf-8") as f:
            rep = json.load(f)
        cs = rep["callsites"]
        if args.mode == "kinds":
            check_kinds(cs, args.program, np)
            return verdict()
        if args.mode == "nodebug":
            check_nodebug(cs, args.program, np)
            return verdict()
        if args.mode == "overflow":
            check_overflow(cs, p.stdout, np)
            return verdict()
        sites = [s for s in cs["top"] if s["call"] == "MPI_Comm_rank"]
        check(len(sites) == 200, f"{len(sites)} MPI_Comm_rank sites, want 200")
        check(cs["calls_without_site"] == 0, "no call without a site")
        check(all(s["calls"] == 3 and s["ranks"] == 2 for s in sites),
              "each site: 3 calls (1 + 2) from 2 ranks")
        check(all(os.path.basename(s["file"]) == "mpi_sites200.c" and s["line"] > 0
                  for s in sites), "each site names mpi_sites200.c and a line")
        check(len({s["offset"] for s in sites}) == 200, "200 distinct call instructions")
        check("top 3 of" in p.stdout, "the banner shows PAPI_MPI_TOP=3 sites")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
