"""The command line of the papi_report checkers of an MPI job (papi_report_mpi_test in
tests/report/CMakeLists.txt): --mpirun, --program, --tool, more options, and OUT, the
folder emptied for this run and kept for the page tests (its reports checked at exit)."""
import argparse
import shutil

import report_check


def job_args(*more, optional=()):
    """The parsed options: the three, each of more (required) and of optional; OUT made
    ready."""
    p = argparse.ArgumentParser()
    for opt in ("--mpirun", "--program", "--tool") + more:
        p.add_argument(opt, required=True)
    for opt in optional:
        p.add_argument(opt)
    p.add_argument("out")
    a = p.parse_args()
    shutil.rmtree(a.out, ignore_errors=True)
    report_check.keep(a.out)  # left for the page tests: checked at exit
    return a


def plotting_missing():
    """True, the SKIPPED line printed, where pandas or matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401
        import pandas  # noqa: F401
    except ImportError as e:
        print("SKIPPED: %s (Debian: apt-get install python3-pandas python3-matplotlib)" % e)
        return True
    return False
