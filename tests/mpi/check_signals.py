#!/usr/bin/env python3
"""The wrapper's fatal-signal handlers do not outlive it (mpi_signals.c):
  restore: PROG preloaded with the wrapper on --np ranks: after MPI_Finalize every
           handled signal has the action it had before MPI_Init, on every rank (Open
           MPI's own handlers off: it installs some in MPI_Init and leaves them);
  dlclose: PROG dlopens the wrapper, ends MPI through the wrapper's MPI_Finalize
           ("finalize") or the MPI's own ("unload"), dlcloses it and raises SIGTERM,
           one process without a launcher: it must end by SIGTERM, not SIGSEGV;
  running: PROG dlopens the wrapper with PAPI_MPI_CHECKPOINT and PAPI_INTERVAL set and
           dlcloses it once both threads ran, never finalizing MPI: 8 runs of 8 exit 0
           (the threads stopped and joined by the library's destructor), each leaving a
           checkpoint and an exit row with samples (the threads did run).
Usage: check_signals.py --mpirun M --np P --program PROG --wrapper LIB"""
import json
import os
import shutil
import signal
import sys
import tempfile

from mpi_check import check, launch_args, rank_env, run_cmd, verdict


def running(args, out):
    """8 dlcloses while the checkpoint thread and the sampler run: 1 if skipped."""
    ok = 0
    for i in range(8):
        d = os.path.join(out, f"running{i}")
        os.mkdir(d)
        env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=d, PAPI_MPI_CHECKPOINT="0.001",
                   PAPI_INTERVAL="0.001")
        ckpt = os.path.join(d, "papi_mpi_rank0.checkpoint.json")
        p = run_cmd([args.program, "dlclose", args.wrapper, "running", ckpt], env)
        if p.returncode == 77:
            return 1
        ok += p.returncode == 0
        check(p.returncode == 0, f"dlclose running, run {i + 1}: exit status {p.returncode}, want 0")
        check(os.path.exists(os.path.join(d, "papi_mpi_rank0.checkpoint.json")),
              f"dlclose running, run {i + 1}: the checkpoint thread wrote a checkpoint")
        try:
            with open(os.path.join(d, "papi_mpi_rank0.partial.json")) as f:
                samples = json.load(f).get("series", {}).get("samples", [])
        except (OSError, ValueError) as e:
            samples = []
            check(False, f"dlclose running, run {i + 1}: exit row: {e}")
        check(len(samples) > 1, f"dlclose running, run {i + 1}: the sampler took samples "
              f"({len(samples)} in the exit row)")
    print(f"dlclose running: {ok} of 8 runs exited 0")
    return 0


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
        skipped += running(args, out)
        if skipped == 3:
            print("SKIPPED: dlclose never unmapped the wrapper (the restore checks ran)")
            return 77 if verdict() == 0 else 1
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
