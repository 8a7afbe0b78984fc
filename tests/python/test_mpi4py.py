"""The module beside mpi4py under the MPI wrapper library: `mpirun -np 4 python3 app.py`
with the wrapper preloaded gives the MPI report, each rank's EventSet counts its own page
faults. Run once per MPI (PAPI_TEST_MPI = openmpi or mpich, PAPI_TEST_MPI_WRAPPER = the
wrapper library, PAPI_TEST_MPIRUN = that MPI's launcher); mpi4py must be built against
that MPI (Debian's python3-mpi4py is built against Open MPI)."""

import json
import os

import pytest

from conftest import launch_under_wrapper

APP = """
import mmap, sys
from mpi4py import MPI
import papi
comm = MPI.COMM_WORLD
n = 100 * (comm.Get_rank() + 1)
with papi.EventSet(["perf::PAGE-FAULTS"]) as es:
    m = mmap.mmap(-1, n * mmap.PAGESIZE)
    for i in range(n):
        m[i * mmap.PAGESIZE] = 1
counts = comm.gather(es.values[0], root=0)
total = comm.allreduce(n, op=MPI.SUM)
if comm.Get_rank() == 0:
    print("COUNTS", counts, total)
"""


def mpi4py_links(flavor):
    """Whether mpi4py's MPI module links this MPI's library (read from the ELF file)."""
    mpi4py = pytest.importorskip("mpi4py")
    folder = os.path.dirname(mpi4py.__file__)
    module = [f for f in os.listdir(folder) if f.startswith("MPI.") and f.endswith(".so")]
    with open(os.path.join(folder, module[0]), "rb") as f:
        data = f.read()
    return (b"libmpich.so" in data) if flavor == "mpich" else (b"libmpi.so.40" in data)


def test_mpi4py_under_wrapper(tmp_path):
    flavor = os.environ.get("PAPI_TEST_MPI")
    if not flavor:
        pytest.skip("PAPI_TEST_MPI not set (ctest sets it per MPI)")
    if not mpi4py_links(flavor):
        pytest.skip("python3-mpi4py is built against another MPI than %s (Debian builds it "
                    "against Open MPI only)" % flavor)
    run = launch_under_wrapper(flavor, tmp_path, APP)
    assert run.returncode == 0, run.stdout + run.stderr
    line = [x for x in run.stdout.splitlines() if x.startswith("COUNTS")][0]
    counts = json.loads(line.split(" ", 1)[1].rsplit(" ", 1)[0])
    assert len(counts) == 4
    for rank, c in enumerate(counts):
        assert 100 * (rank + 1) <= c <= 110 * (rank + 1), counts
    check_mpi_report(run, tmp_path)


def check_mpi_report(run, tmp_path):
    """The wrapper's banner and its report of 4 ranks."""
    banner = run.stdout + run.stderr
    assert "papi_mpi: 4 ranks finished" in banner, banner
    report = json.loads((tmp_path / "papi_mpi_report.json").read_text())
    assert len(report["ranks"]) == 4
