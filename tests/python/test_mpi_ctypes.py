"""The module in an MPI program without mpi4py, under each MPI (MPICH too, for which
Debian has no mpi4py): the program calls MPI_Init and MPI_Finalize through ctypes in the
process's global scope, where the preloaded wrapper library's MPI_* come first; the
wrapper writes its report of 4 ranks and each rank's EventSet counts its own faults."""

import os

import pytest

from conftest import launch_under_wrapper
from test_mpi4py import check_mpi_report

APP = """
import ctypes, mmap, os
import papi
mpi = ctypes.CDLL(None)     # the global scope: the preloaded wrapper's MPI_Init first
assert mpi.MPI_Init(None, None) == 0
n = 100
with papi.EventSet(["perf::PAGE-FAULTS"]) as es:
    m = mmap.mmap(-1, n * mmap.PAGESIZE)
    for i in range(n):
        m[i * mmap.PAGESIZE] = 1
with open("faults.%d" % os.getpid(), "w") as f:   # ranks' stdout lines may interleave
    f.write(str(es.values[0]))
assert mpi.MPI_Finalize() == 0
"""


def test_ctypes_mpi_under_wrapper(tmp_path):
    flavor = os.environ.get("PAPI_TEST_MPI")
    if not flavor:
        pytest.skip("PAPI_TEST_MPI not set (ctest sets it per MPI)")
    run = launch_under_wrapper(flavor, tmp_path, APP)
    assert run.returncode == 0, run.stdout + run.stderr
    faults = [int(p.read_text()) for p in tmp_path.glob("faults.*")]
    assert len(faults) == 4 and all(100 <= f <= 110 for f in faults), faults
    check_mpi_report(run, tmp_path)
