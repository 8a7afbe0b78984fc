#!/usr/bin/env python3
"""The wrapper's fatal-signal handlers do not outlive it (mpi_signals.c):
  restore: PROG preloaded with the wrapper on --np ranks: after MPI_Finalize every
           handled signal has the action it had before MPI_Init, on every rank (Open
           MPI's own handlers off: it installs some in MPI_Init and leaves them);
  dlclose: PROG dlopens the wrapper, ends MPI through the wrapper's MPI_Finalize
           ("finalize") or the MPI's own ("unload"), dlcloses it and raises SIGTERM,
           one process without a launcher: it must end by SIGTERM, not SIGSEGV.
Usage: check_signals.py --mpirun M --np P --program PROG --wrapper LIB"""
import os
import shutil
import signal
import sys
import tempfile

from mpi_check import check, launch_args, rank_env, run_cmd, verdict


def main():
    args = launch_args(more=["--wrapper"])
    out = tempfile.mkdtemp(prefix="papi_mpi_signals_")
    try:
        ranks = {"LD_PRELOAD": args.wrapper, "PAPI_MPI_OUTPUT_DIR": out}
        # Open MPI's own SIGSEGV/SIGBUS/SIGFPE/SIGABRT handlers (installed in MPI_Init,
        # never removed: the wrapper rightly gives them back) off, so that "as before
        # MPI_Init" is exact for every signal.
        p = run_cmd([args.mpirun, "-np", str(args.np)] + rank_env(args.mpirun, ranks) +
                [args.program, "restore"], dict(os.environ, OMPI_MCA_opal_signal=""))
        check(p.returncode == 0, f"restore: exit status {p.returncode}")
        check("FAIL" not in p.stdout, "restore: no failed check")
        n = p.stdout.count("every action as before MPI_Init")
        check(n == args.np, f"restore: every rank found its actions back ({n} of {args.np})")
        check(os.path.exists(os.path.join(out, "papi_mpi_report.json")),
              "restore: the wrapper wrote its report (it ran)")
        skipped = 0
        for how in ("finalize", "unload"):
            p = run_cmd([args.program, "dlclose", args.wrapper, how],
                    dict(os.environ, PAPI_MPI_OUTPUT_DIR=out))
            if p.returncode == 77:
                skipped += 1
                continue
            check("FAIL" not in p.stdout, f"dlclose {how}: no failed check")
            check("raising SIGTERM" in p.stdout, f"dlclose {how}: the thread ended after dlclose")
            got = -p.returncode if p.returncode < 0 else None
            check(got == signal.SIGTERM,
                  f"dlclose {how}: ended by signal {got} (status {p.returncode}), want SIGTERM")
        if skipped == 2:
            print("SKIPPED: dlclose never unmapped the wrapper (the restore checks ran)")
            return 77 if verdict() == 0 else 1
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
