#!/bin/sh
# Where MPI_Finalize's time goes (issue 60 items 1 and 4): papi_mpi_bench finalize-only
# with the wrapper's defaults under tests/mpi's finalize_collectives_shim
# (FINALIZE_COLLECTIVES_TIMES=1), REPS runs per rank count. Prints CSV on stdout, one
# line per run and phase of rank 0 (and the slowest rank's MPI_Finalize):
#   ranks,run,phase,value
# phases: finalize_ms (the program's MPI_Finalize, rank 0), finalize_max_ms (slowest
# rank), sequence_ms (the wrapper's sequence), <Collective>_ms (its time in each kind),
# other_ms (the sequence less its collectives: local work, point-to-point, files),
# pmpi_finalize_ms (the MPI's own), report_bytes (the three files, all on rank 0),
# exit (mpirun's status). bench/mpi/fit_finalize_model.py fits a model to it.
# Usage: run_finalize_profile.sh MPIRUN "NP..." REPS SHIM PROGRAM
#   (SHIM: build/tests/mpi/libfinalize_collectives_shim[_openmpi].so; PROGRAM:
#    build/bench/mpi/papi_mpi_bench_<mpi>; Open MPI gets --oversubscribe; MODE, default
#    finalize-only, is the benchmark's mode and its arguments: MODE="finalize-waits 100"
#    profiles a finalize with the root-cause replay (issue 72 item 6), whose own time
#    is then the phase replay_ms, from the wrapper's banner line)
set -e
mpirun=${1:?usage: run_finalize_profile.sh MPIRUN "NP..." REPS SHIM PROGRAM}
nps=${2:?} reps=${3:?} shim=${4:?} prog=${5:?}
mode=${MODE:-finalize-only}
extra=""
case $mpirun in *openmpi*|*orterun*) extra="--oversubscribe --allow-run-as-root" ;; esac
# the shim and its switch in the ranks only, not in the launcher
envs="-genv LD_PRELOAD $shim -genv FINALIZE_COLLECTIVES_TIMES 1"
case $mpirun in *openmpi*|*orterun*) envs="-x LD_PRELOAD=$shim -x FINALIZE_COLLECTIVES_TIMES=1" ;; esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "ranks,run,phase,value"
for np in $nps; do
  for r in $(seq "$reps"); do
    rm -rf "$out/d" && mkdir "$out/d"
    set +e
    PAPI_MPI_OUTPUT_DIR=$out/d "$mpirun" $extra $envs -np "$np" "$prog" $mode \
      > "$out/log" 2>&1
    rc=$?
    set -e
    bytes=$(cat "$out/d/papi_mpi_report.json" "$out/d/papi_mpi_ranks.csv" \
                "$out/d/papi_mpi_summary.csv" 2>/dev/null | wc -c)
    awk -v np="$np" -v r="$r" -v rc="$rc" -v bytes="$bytes" '
      /^papi_mpi: root causes \(backward replay/ { rep = $10 }
      /^bench: rank [0-9]+ finalize_ms/ { if ($3 == 0) r0 = $5; if ($5 > mx) mx = $5 }
      /^FINALIZE_TIMES rank 0 / {
        coll = 0
        for (i = 4; i <= NF; i++) {
          if ($i == "sequence_ms") { seq = $(i + 1); i++; continue }
          if ($i == "pmpi_finalize_ms") { pf = $(i + 1); i++; continue }
          split($i, kv, "="); t[kv[1]] = kv[2]; coll += kv[2]
        }
      }
      END {
        printf "%d,%d,finalize_ms,%s\n%d,%d,finalize_max_ms,%s\n", np, r, r0, np, r, mx
        printf "%d,%d,sequence_ms,%s\n%d,%d,pmpi_finalize_ms,%s\n", np, r, seq, np, r, pf
        for (k in t) printf "%d,%d,%s_ms,%s\n", np, r, k, t[k]
        printf "%d,%d,other_ms,%.1f\n", np, r, seq - coll
        if (rep != "") printf "%d,%d,replay_ms,%s\n", np, r, rep
        printf "%d,%d,report_bytes,%d\n%d,%d,exit,%d\n", np, r, bytes, np, r, rc
      }' "$out/log"
  done
done
