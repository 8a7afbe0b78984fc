#!/bin/sh
# The report's cost per rank from 2 to 64 ranks (oversubscribed on this machine), call
# sites on: rank 0's aggregation and file times and MPI_Finalize, and the largest growth
# of a rank's peak memory across MPI_Finalize, and the report's bytes (the three files)
# per rank. Every rank contributes the same data.
# Usage: run_scale.sh BUILD_DIR [mpirun] [rank counts...]
set -e
build=${1:?usage: run_scale.sh BUILD_DIR [mpirun] [np...]}
mpirun=${2:-mpirun.mpich}
shift 2 2>/dev/null || shift $#
nps=${*:-2 4 8 16 32 64}
# Each MPI's own benchmark binary (papi_mpi_bench_<flavor>); Open MPI oversubscribes
# only when told.
bench=$build/bench/mpi/papi_mpi_bench_mpich
extra=""
case $mpirun in
  *openmpi*|*orterun*) bench=$build/bench/mpi/papi_mpi_bench_openmpi
                       extra="--oversubscribe --allow-run-as-root" ;;
esac
[ -x "$bench" ] || bench=$build/bench/mpi/papi_mpi_bench
out=$(mktemp -d)
printf '%5s %14s %14s %14s %16s %16s %16s\n' ranks aggregation_ms with_files_ms finalize_ms \
  rank0_rss_kb max_rss_kb report_b_per_rank
for np in $nps; do
  PAPI_MPI_CALLSITES=1 PAPI_MPI_OUTPUT_DIR=$out "$mpirun" $extra -np "$np" \
    "$bench" finalize-only > "$out/log" 2>&1
  bytes=$(cat "$out/papi_mpi_report.json" "$out/papi_mpi_ranks.csv" "$out/papi_mpi_summary.csv" | wc -c)
  awk -v np="$np" -v bytes="$bytes" '
    /aggregation/ { for (i = 1; i <= NF; i++) { if ($i == "aggregation") agg = $(i + 1);
                                                if ($i == "files") files = $(i + 1) } }
    /finalize_ms/ { if ($3 == 0) { fin = $5; r0 = $7 } if ($7 > mx) mx = $7 }
    END { printf "%5d %14s %14s %14s %16s %16s %16d\n", np, agg, files, fin, r0, mx, bytes / np }' "$out/log"
done
rm -rf "$out"
