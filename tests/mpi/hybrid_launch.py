"""How the MPI x OpenMP checkers start their program on 2 ranks (check_hybrid.py,
check_hybrid_regions.py, check_own_tool.py): under papi_run (launch "papi_run"), or with
the MPI wrapper preloaded, behind LLVM's libomp.so.5 (launch "preload": its OMPT) or
alone (launch "gomp": the program's libgomp, which has no OMPT)."""
import argparse
import os

from mpi_check import rank_env


def parse_args():
    """--mpirun, --program and --launch (required); --papi-run, --libdir (papi_run's
    launch) and --wrapper (the others)."""
    ap = argparse.ArgumentParser()
    for a in ("--mpirun", "--program", "--launch"):
        ap.add_argument(a, required=True)
    for a in ("--papi-run", "--libdir", "--wrapper"):
        ap.add_argument(a)
    return ap.parse_args()


def command(args, out, launch, program, ranks_env=None):
    """(command line, environment) that runs program on 2 ranks writing to out, launched
    as launch says; ranks_env: more variables of the ranks (not under papi_run). The
    OpenMP runtime waits passively and no other tool is named."""
    env = dict(os.environ, OMP_WAIT_POLICY="passive")
    env.pop("OMP_TOOL_LIBRARIES", None)
    if launch == "papi_run":
        env["PAPI_RUN_LIBDIR"] = args.libdir
        return [args.mpirun, "-np", "2", args.papi_run, "--quiet", "-o", out, "--", program], env
    preload = args.wrapper if launch == "gomp" else "libomp.so.5:" + args.wrapper
    ranks = dict({"LD_PRELOAD": preload, "PAPI_MPI_OUTPUT_DIR": out}, **(ranks_env or {}))
    return [args.mpirun, "-np", "2"] + rank_env(args.mpirun, ranks) + [program], env
