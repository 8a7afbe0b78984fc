#!/bin/sh
# MPI_Finalize's time with the wrapper's defaults against the same program without it
# (issue 60): papi_mpi_bench finalize-only (100 MPI_Comm_rank, a barrier, then
# MPI_Finalize timed on every rank), REPS runs per rank count and program, alternated;
# prints each run's rank-0 and slowest-rank MPI_Finalize in ms, then their medians.
# Usage: run_finalize_cost.sh MPIRUN "NP..." REPS LABEL=PROGRAM...
#   (PROGRAM: papi_mpi_bench_<mpi> for the wrapper, the same source built with the MPI's
#    compiler alone for the bare one; Open MPI gets --oversubscribe)
set -e
mpirun=${1:?usage: run_finalize_cost.sh MPIRUN "NP..." REPS LABEL=PROGRAM...}
nps=$2
reps=$3
shift 3
extra=""
case $mpirun in *openmpi*|*orterun*) extra="--oversubscribe --allow-run-as-root" ;; esac
out=$(mktemp -d)
printf '%-10s %5s %4s %12s %12s %5s\n' program ranks run rank0_ms max_ms exit
for np in $nps; do
  for r in $(seq "$reps"); do
    for lp in "$@"; do
      label=${lp%%=*} prog=${lp#*=}
      rm -rf "$out/d" && mkdir "$out/d"
      set +e
      PAPI_MPI_OUTPUT_DIR=$out/d "$mpirun" $extra -np "$np" "$prog" finalize-only > "$out/log" 2>&1
      rc=$?
      set -e
      awk -v l="$label" -v np="$np" -v r="$r" -v rc="$rc" '
        /finalize_ms/ { if ($3 == 0) r0 = $5; if ($5 > mx) mx = $5 }
        END { printf "%-10s %5d %4d %12.1f %12.1f %5d\n", l, np, r, r0, mx, rc }' "$out/log" \
        | tee -a "$out/all"
    done
  done
done
echo "medians of $reps runs (ms): program ranks rank0 slowest"
for np in $nps; do
  for lp in "$@"; do
    label=${lp%%=*}
    awk -v l="$label" -v np="$np" 'BEGIN { n = 0 } $1 == l && $2 == np { a[n] = $4; b[n] = $5; n++ }
      function med(v, n,   i, j, t) { for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
                                        if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
                                      return n % 2 ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2 }
      END { printf "%-10s %5d %12.1f %12.1f\n", l, np, med(a, n), med(b, n) }' "$out/all"
  done
done
rm -rf "$out"
