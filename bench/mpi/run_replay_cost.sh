#!/bin/sh
# What the root-cause replay adds to MPI_Finalize (issue 72 item 6): papi_mpi_bench
# finalize-waits ROUNDS (imbalanced compute, ring exchanges, an Allreduce every 10 rounds:
# waits to replay) under the wrapper with PAPI_MPI_ROOT_CAUSES=0 and =1 alternated, REPS
# runs of each per rank count. Prints one line per run: rank 0's and the slowest rank's
# MPI_Finalize (ms), the replay's own time (papi_mpi_report.json's root_causes.seconds,
# the slowest rank's, in ms) and messages, the event log's records per rank
# (wait_states.log.records / ranks), the CPU time all ranks spent in MPI_Finalize (s,
# summed: against ranks x the wall time, what was polling or working and what sleeping)
# and mpirun's exit; then the medians and the ratio
# with / without. fit_replay_model.py reads the per-run lines (they start with "run").
# Usage: run_replay_cost.sh MPIRUN "NP..." REPS ROUNDS PROGRAM
#   (PROGRAM: build/bench/mpi/papi_mpi_bench_<mpi> of the same MPI as MPIRUN; Open MPI
#    gets --oversubscribe; KEEP=DIR keeps each run's log and report under DIR)
set -e
usage="usage: run_replay_cost.sh MPIRUN \"NP...\" REPS ROUNDS PROGRAM"
mpirun=${1:?$usage} nps=${2:?$usage} reps=${3:?$usage} rounds=${4:?$usage} prog=${5:?$usage}
extra=""
case $mpirun in *openmpi*|*orterun*) extra="--oversubscribe --allow-run-as-root" ;; esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-3s %5s %6s %3s %6s %10s %10s %10s %8s %8s %8s %4s\n' \
  '#' ranks rounds run causes rank0_ms max_ms replay_ms messages records cpu_s exit
for np in $nps; do
  for r in $(seq "$reps"); do
    for causes in 0 1; do
      d=$out/d && rm -rf "$d" && mkdir "$d"
      set +e
      PAPI_MPI_ROOT_CAUSES=$causes PAPI_MPI_OUTPUT_DIR=$d \
        "$mpirun" $extra -np "$np" "$prog" finalize-waits "$rounds" > "$d/log" 2>&1
      rc=$?
      set -e
      rep=$(python3 - "$d/papi_mpi_report.json" <<'EOF'
import json, sys
try:
    with open(sys.argv[1], encoding="utf-8") as fh:
        d = json.load(fh)
except (OSError, ValueError):
    print("nan nan nan")
    sys.exit(0)
rc = d.get("root_causes", {})
recs = d["wait_states"]["log"]["records"] / max(d["nranks"], 1)
if rc.get("computed"):
    print(f"{rc['seconds'] * 1e3:.1f} {rc['messages']} {recs:.0f}")
else:
    print(f"0 0 {recs:.0f}")
EOF
)
      awk -v np="$np" -v rd="$rounds" -v r="$r" -v c="$causes" -v rc="$rc" -v rep="$rep" '
        /^bench: rank [0-9]+ finalize_ms/ { if ($3 == 0) r0 = $5; if ($5 > mx) mx = $5
                                            cpu += $9 }
        END { split(rep, x, " ")
              printf "run %5d %6d %3d %6d %10.1f %10.1f %10s %8s %8s %8.2f %4d\n",
                     np, rd, r, c, r0, mx, x[1], x[2], x[3], cpu / 1e3, rc }' "$d/log" | tee -a "$out/all"
      if [ -n "$KEEP" ]; then
        k=$KEEP/np$np.run$r.causes$causes && mkdir -p "$k" && cp -r "$d"/. "$k"/
      fi
    done
  done
done
echo "medians of $reps runs (ms): ranks causes rank0 slowest replay; ratio with / without"
for np in $nps; do
  awk -v np="$np" '$1 == "run" && $2 == np { c = $5; k = n[c] + 0; a[c, k] = $6; b[c, k] = $7
                                             x[c, k] = $8; n[c] = k + 1 }
    function med(v, c, k,   i, j, t, w) { for (i = 0; i < k; i++) w[i] = v[c, i]
                                          for (i = 0; i < k; i++) for (j = i + 1; j < k; j++)
                                            if (w[j] < w[i]) { t = w[i]; w[i] = w[j]; w[j] = t }
                                          return k % 2 ? w[int(k / 2)] : (w[k / 2 - 1] + w[k / 2]) / 2 }
    END { for (c = 0; c <= 1; c++) {
            r0[c] = med(a, c, n[c]); mx[c] = med(b, c, n[c])
            printf "median %5d %6d %10.1f %10.1f %10.1f\n", np, c, r0[c], mx[c], med(x, c, n[c]) }
          printf "ratio  %5d  rank 0 %.2f  slowest %.2f\n", np,
                 (r0[0] > 0 ? r0[1] / r0[0] : 0), (mx[0] > 0 ? mx[1] / mx[0] : 0) }' "$out/all"
done
