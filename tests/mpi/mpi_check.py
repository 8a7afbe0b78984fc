"""Shared by the MPI test checkers: record failed checks, print the verdict."""
import os
import sys

fails = []


def check(cond, msg):
    """Record msg as a failure unless cond holds."""
    if not cond:
        fails.append(msg)
        print("FAIL:", msg)
    return cond


def verdict():
    """PASSED or FAILED (n checks); the exit status for sys.exit."""
    print("PASSED" if not fails else f"FAILED ({len(fails)} checks)")
    sys.stdout.flush()
    return 1 if fails else 0


def is_openmpi(mpirun):
    """Open MPI's launcher (mpirun.openmpi, orterun), else Hydra (MPICH)."""
    return "openmpi" in os.path.basename(mpirun) or "orterun" in os.path.basename(mpirun)


def rank_env(mpirun, env):
    """mpirun arguments that set env (a dict) in the ranks only, not in the launcher:
    Hydra's -genv NAME VALUE, Open MPI's -x NAME=VALUE."""
    out = []
    for k, v in env.items():
        out += ["-x", f"{k}={v}"] if is_openmpi(mpirun) else ["-genv", k, v]
    return out
