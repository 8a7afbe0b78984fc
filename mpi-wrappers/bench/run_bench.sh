#!/bin/sh
# Wrapper overhead per call and MPI_Finalize aggregation at -np 1, 2, 4, 8.
# Usage: run_bench.sh BUILD_DIR [mpirun]
set -e
build=${1:?usage: run_bench.sh BUILD_DIR [mpirun]}
mpirun=${2:-mpirun.mpich}
out=$(mktemp -d)
for np in 1 2 4 8; do
  echo "== -np $np"
  PAPI_MPI_OUTPUT_DIR=$out "$mpirun" -np $np "$build/mpi-wrappers/bench/papi_mpi_bench" |
    grep -E '^bench:|aggregation'
done
rm -rf "$out"
