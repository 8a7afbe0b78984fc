#!/usr/bin/env python3
"""Call sites and report size.
  sites200: mpi_sites200 on 2 ranks with PATH pointing nowhere on the ranks (no
    addr2line or any other program reachable): the report lists all 200 MPI_Comm_rank
    sites, each with mpi_sites200.c and a line, rank 0 calling each once and rank 1
    twice; the banner shows PAPI_MPI_TOP=3 of them.
  size: the README's ring example on 4 ranks: all report files together < 16 KB.
Usage: check_sites.py MODE --mpirun M --program PROG [--preload LIB]"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from mpi_check import check, verdict


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["sites200", "size"])
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--preload")
    args = ap.parse_args()
    out = tempfile.mkdtemp(prefix="papi_mpi_sites_")
    try:
        env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=out)
        np = 2 if args.mode == "sites200" else 4
        cmd = [args.mpirun, "-np", str(np)]
        if args.mode == "sites200":
            env["PAPI_MPI_TOP"] = "3"
            cmd += ["-genv", "PATH", "/nonexistent"]  # the ranks find no program
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
            check(sum(sizes.values()) < 16384, f"total {sum(sizes.values())} B >= 16 KB")
            return verdict()
        with open(os.path.join(out, "papi_mpi_report.json"), encoding="utf-8") as f:
            rep = json.load(f)
        cs = rep["callsites"]
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
