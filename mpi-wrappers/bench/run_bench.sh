#!/bin/sh
# Wrapper overhead per call with call sites off and on (-np 1), then MPI_Finalize
# aggregation at -np 1, 2, 4, 8.
# Usage: run_bench.sh BUILD_DIR [mpirun]
set -e
build=${1:?usage: run_bench.sh BUILD_DIR [mpirun]}
mpirun=${2:-mpirun.mpich}
out=$(mktemp -d)
for cs in 0 1; do
  echo "== -np 1, PAPI_MPI_CALLSITES=$cs"
  PAPI_MPI_CALLSITES=$cs PAPI_MPI_OUTPUT_DIR=$out "$mpirun" -np 1 \
    "$build/mpi-wrappers/bench/papi_mpi_bench" | grep -E '^bench:'
done
for np in 2 4 8; do
  echo "== -np $np"
  PAPI_MPI_OUTPUT_DIR=$out "$mpirun" -np $np "$build/mpi-wrappers/bench/papi_mpi_bench" |
    grep -E '^bench:|aggregation'
done
rm -rf "$out"
