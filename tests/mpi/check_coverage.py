#!/usr/bin/env python3
"""Run mpi_coverage.c under the wrapper library and check every rank's exact calls and
bytes of the newly wrapped families, and the call sites: each reported site's file and
line is a source line that makes that call (C or Fortran caller).
Usage: check_coverage.py --mpirun M --np P --program PROG [--sites-only SOURCE]"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from mpi_check import check, verdict


def expected(rank, size, mpi3=False):
    root = rank == 0
    e = {
        "MPI_Init": (1, 0, 0), "MPI_Comm_rank": (1, 0, 0), "MPI_Comm_size": (1, 0, 0),
        "MPI_Comm_split": (1, 0, 0), "MPI_Comm_dup": (1, 0, 0), "MPI_Comm_group": (1, 0, 0),
        "MPI_Group_incl": (1, 0, 0), "MPI_Comm_create": (1, 0, 0), "MPI_Group_free": (2, 0, 0),
        "MPI_Comm_free": (3 + (1 if root else 0), 0, 0),  # + the Cartesian ring
        "MPI_Send_init": (1, 40, 0), "MPI_Recv_init": (1, 0, 40), "MPI_Startall": (3, 0, 0),
        "MPI_Waitall": (4, 0, 0), "MPI_Request_free": (3, 0, 0),
        "MPI_Allreduce_init": (1, 40, 40), "MPI_Start": (2, 0, 0), "MPI_Wait": (4, 0, 0),
        "MPI_Ibcast": (1, 40, 0) if root else (1, 0, 40),
        "MPI_Ireduce": (1, 40, 40 if root else 0),
        "MPI_Iallgather": (1, 8, 8 * size), "MPI_Ialltoall": (1, 4 * size, 4 * size),
        "MPI_Cart_create": (1, 0, 0),
        "MPI_Neighbor_allgather": (1, 24, 24), "MPI_Neighbor_alltoall": (1, 8, 8),
        "MPI_Ineighbor_allgather": (1, 24, 24),
        "MPI_Win_create": (1, 0, 0), "MPI_Win_fence": (3, 0, 0), "MPI_Put": (1, 40, 0),
        "MPI_Get": (1, 0, 20), "MPI_Accumulate": (1, 8, 0), "MPI_Win_free": (1, 0, 0),
        "MPI_Isend": (1, 7, 0), "MPI_Mprobe": (1, 0, 0), "MPI_Mrecv": (1, 0, 7),
        "MPI_File_open": (1, 0, 0), "MPI_File_write_at": (1, 16, 0), "MPI_File_sync": (1, 0, 0),
        "MPI_Barrier": (2, 0, 0), "MPI_File_read_at": (1, 0, 16), "MPI_File_close": (1, 0, 0),
        "MPI_Finalize": (1, 0, 0),
    }
    e.update({"MPI_Comm_create_keyval": (1, 0, 0), "MPI_Comm_set_attr": (1, 0, 0),
              "MPI_Comm_get_attr": (2, 0, 0), "MPI_Comm_delete_attr": (1, 0, 0),
              "MPI_Comm_free_keyval": (1, 0, 0), "MPI_Win_get_info": (1, 0, 0),
              "MPI_Win_set_info": (1, 0, 0)})
    if root:
        e["MPI_File_delete"] = (1, 0, 0)
    if mpi3:  # no MPI_Allreduce_init: its Start, Wait and Request_free go too
        del e["MPI_Allreduce_init"], e["MPI_Start"]
        e["MPI_Wait"] = (2, 0, 0)
        e["MPI_Request_free"] = (2, 0, 0)
    return e


def expected_fortran(rank, size):
    """mpi_coverage.F90 (use mpi and use mpi_f08)."""
    return {
        "MPI_Init": (1, 0, 0), "MPI_Comm_rank": (1, 0, 0), "MPI_Comm_size": (1, 0, 0),
        "MPI_Comm_split": (1, 0, 0), "MPI_Comm_dup": (1, 0, 0), "MPI_Comm_free": (2, 0, 0),
        "MPI_Send_init": (1, 40, 0), "MPI_Recv_init": (1, 0, 40), "MPI_Startall": (3, 0, 0),
        "MPI_Waitall": (3, 0, 0), "MPI_Request_free": (2, 0, 0),
        "MPI_Iallgather": (1, 8, 8 * size), "MPI_Wait": (1, 0, 0), "MPI_Finalize": (1, 0, 0),
        "MPI_File_open": (1, 0, 0), "MPI_File_close": (1, 0, 0),
    }


def calls_symbol(site):
    """The compiler's line table may put a call on another line (gfortran puts some
    mpi_f08 calls on the program's last line): then the instruction before the return
    address must be a call to that MPI function's symbol (mpi_x_, mpi_x_f08_...)."""
    off = int(site["offset"], 16)  # the return address - 1
    try:
        d = subprocess.run(["objdump", "-d", f"--start-address={off - 4}",
                            f"--stop-address={off + 1}", site["object"]],
                           stdout=subprocess.PIPE, text=True, check=False).stdout
    except OSError:
        return False
    want = site["call"].lower() + "_"
    ok = bool(re.search(rf"call\s.*<{want}(f08_|f08ts_)?(@plt)?>", d))
    print(f"site {site['call']} at line {site['line']}: call instruction checked: {ok}")
    return ok


def check_sites(rep, sources):
    """Every top site names a line of one of the sources that makes that call."""
    lines = {os.path.basename(s): open(s, encoding="utf-8").read().splitlines() for s in sources}
    sites = rep["callsites"]["top"]
    check(len(sites) > 0, "call sites reported")
    ours = 0
    for s in sites:
        base = os.path.basename(s["file"])
        if base not in lines:
            continue
        ours += 1
        src = lines[base]
        first = s["line"] - 1
        # A Fortran statement continued over lines ("&"): the line table may name its
        # last line; the call is on its first.
        while 0 < first < len(src) and src[first - 1].rstrip().endswith("&"):
            first -= 1
        text = " ".join(src[first:s["line"]]) if 0 < s["line"] <= len(src) else ""
        name = s["call"]
        hit = re.search(rf"\b{name}\s*\(", text, re.I) or calls_symbol(s)
        check(bool(hit), f"site {name} at {base}:{s['line']} is a line calling it: {text.strip()!r}")
    check(ours == len(sites), f"all {len(sites)} top sites are in the program's sources ({ours})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--fortran", action="store_true", help="mpi_coverage.F90")
    ap.add_argument("--mpi3", action="store_true",
                    help="an MPI 3.1 library (Open MPI 4.1): no persistent collectives")
    ap.add_argument("--sites-only", nargs="*", default=None,
                    help="sources of the program: check only its call sites")
    args = ap.parse_args()
    out = tempfile.mkdtemp(prefix="papi_mpi_cov_")
    try:
        env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=out, PAPI_MPI_CALLSITES="1")
        cmd = [args.mpirun, "-np", str(args.np), args.program]
        cmd += ["10"] if args.sites_only is not None else [os.path.join(out, "io.dat")]
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=120)
        print(p.stdout)
        check(p.returncode == 0, f"exit status {p.returncode}")
        with open(os.path.join(out, "papi_mpi_report.json"), encoding="utf-8") as f:
            rep = json.load(f)
        if args.sites_only is not None:
            check_sites(rep, args.sites_only)
        else:
            for r in rep["ranks"]:
                got = {n: (c["calls"], c["bytes_sent"], c["bytes_recv"])
                       for n, c in r["calls"].items()}
                want = expected_fortran(r["rank"], args.np) if args.fortran else \
                    expected(r["rank"], args.np, args.mpi3)
                for n in sorted(set(got) | set(want)):
                    check(got.get(n) == want.get(n),
                          f"rank {r['rank']} {n}: got {got.get(n)} want {want.get(n)}")
            src = "mpi_coverage.F90" if args.fortran else "mpi_coverage.c"
            check_sites(rep, [os.path.join(os.path.dirname(os.path.abspath(__file__)), src)])
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
