#!/bin/sh
# The main job for a new user: install what is missing, build, install into _install/,
# then run papi_avail, a C example, a Fortran example, the Python example and an MPI
# example under the PMPI wrapper library.
#
# It builds what it installs and runs, in build-run/ (the library, the tools, the
# Fortran module, the Python module, the MPI wrappers, the manual and the examples):
# no tests (-DPAPI_BUILD_TESTS=OFF, about 300 programs it never runs) and no benchmarks
# (-DPAPI_BUILD_BENCH=OFF). scripts/build-and-test.sh builds those, in build/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh" --main
b=$top/build-run
# The Python the example below runs (Debian's) is the one the build uses: a python3
# found first on PATH may be a version manager's shim, which costs seconds a call.
py=""
[ -x /usr/bin/python3 ] && py=-DPython3_EXECUTABLE=/usr/bin/python3
"$top/scripts/build.sh" "$b" -DPAPI_BUILD_TESTS=OFF -DPAPI_BUILD_BENCH=OFF ${py:+"$py"}
bin=$top/_install/bin
# Every report the examples write (papi_mpi_report.json, papi_mpi_ranks.csv,
# papi_hl_output/) goes under the build tree, never into the checkout.
run=$b/main-job
mkdir -p "$run"
cd "$run"
step() { printf '\n==== %s\n' "$*"; }
step "papi_avail"
if [ -x "$bin/papi_avail" ]; then "$bin/papi_avail"; else echo "papi_avail is not built yet"; fi
step "manual pages (man PAPI_start, man papi_avail)"
MANPATH="$top/_install/share/man" man -w PAPI_start PAPIF_start papi_avail || echo "man is not installed"
step "C example: page faults"
"$b/examples/c/example_pagefaults" 1000
if [ -x "$b/examples/c/example_flops_legacy" ]; then
  step "C example: PAPI_flops (3.5 high-level API)"
  "$b/examples/c/example_flops_legacy" || true
fi
step "Fortran example: fixed-form #include \"fpapi.h\", page faults"
"$b/examples/fortran/example_fixed_form_counts"
step "Fortran example: use papi, PAPIF_flops around a matrix multiply"
"$b/examples/fortran/example_flops_matmul" || true
step "Python example: import papi (the install's module), page faults"
PYTHONPATH="$top/_install/lib/python3/dist-packages" /usr/bin/python3 "$b/examples/python/pagefaults.py" 1000
mpiex=$(ls "$b"/examples/mpi/*ring* "$b"/examples/mpi/*example* 2>/dev/null | head -n 1 || true)
wrap=$(ls "$b"/mpi-wrappers/libpapi_mpi_mpich.so 2>/dev/null | head -n 1 || true)
if [ -n "$mpiex" ] && [ -n "$wrap" ]; then
  step "MPI example: mpirun.mpich -np 2 with the PMPI wrapper"
  PAPI_MPI_OUTPUT_DIR="$run" LD_PRELOAD="$wrap" mpirun.mpich -np 2 "$mpiex"
fi
step "reports"
ls -d "$run"/* 2>/dev/null || echo "no report files"
