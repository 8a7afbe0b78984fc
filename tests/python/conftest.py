"""Shared helpers of the pytest suite of the Python module papi (tests/python)."""

import mmap
import os
import subprocess
import sys

PAGE = mmap.PAGESIZE


def touch_fresh_pages(n):
    """Write one byte into each of n fresh anonymous pages: exactly n page faults."""
    m = mmap.mmap(-1, n * PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    for i in range(n):
        m[i * PAGE] = 1
    m.close()


def launch_under_wrapper(flavor, tmp_path, program):
    """Run program (Python source) on 4 ranks with the MPI's own launcher and its wrapper
    library preloaded (PAPI_TEST_MPIRUN, PAPI_TEST_MPI_WRAPPER), the report in tmp_path."""
    mpirun, wrapper = os.environ["PAPI_TEST_MPIRUN"], os.environ["PAPI_TEST_MPI_WRAPPER"]
    app = tmp_path / "app.py"
    app.write_text(program)
    env = {"LD_PRELOAD": wrapper, "PYTHONPATH": os.pathsep.join(sys.path),
           "PAPI_MPI_OUTPUT_DIR": str(tmp_path)}
    cmd = [mpirun, "-np", "4"]
    for k, v in env.items():
        cmd += ["-x", "%s=%s" % (k, v)] if flavor == "openmpi" else ["-genv", k, v]
    if flavor == "openmpi":
        cmd[1:1] = ["--allow-run-as-root", "--oversubscribe"]
    return subprocess.run(cmd + [sys.executable, str(app)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
