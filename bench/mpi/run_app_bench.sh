#!/bin/sh
# Application overhead of the PMPI wrapper: the mini-app (mpi_miniapp.c) with and
# without libpapi_mpi, in interleaved rounds (ABBA: plain, wrapped, wrapped, plain, ...
# so a drift of the machine hits both alike), each rank bound to its own core, MPICH
# named explicitly. Prints per kernel the median and the spread (min..max) of each
# side, and the ratio of the medians; every run's checksum must equal the first's.
# Usage: run_app_bench.sh BUILD_DIR [rounds=5] [ranks=2]
set -eu
build=${1:?usage: run_app_bench.sh BUILD_DIR [rounds] [ranks]}
rounds=${2:-5}
np=${3:-2}
app=$build/bench/mpi/mpi_miniapp
wrap=$build/mpi-wrappers/libpapi_mpi_mpich.so
mpirun=mpirun.mpich
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Each rank on its own core (Hydra's binding); fewer cores than ranks: no binding.
bind="-bind-to core"
[ "$(nproc)" -ge "$np" ] || bind=""

run() { # kernel n iters wrapped -> "time checksum"
    if [ "$4" = 1 ]; then
        PAPI_MPI_OUTPUT_DIR=$out $mpirun -np "$np" $bind -genv LD_PRELOAD "$wrap" "$app" "$1" "$2" "$3"
    else
        $mpirun -np "$np" $bind "$app" "$1" "$2" "$3"
    fi | awk '/^miniapp/ { print $6, $8 }'
}

printf '%-8s %6s %28s %28s %8s\n' kernel runs "plain median [min..max] s" \
    "wrapped median [min..max] s" ratio
for spec in "cg 2000 20000" "stencil 400000 400"; do
    set -- $spec
    : > "$out/plain" ; : > "$out/wrapped"
    ref=""
    for r in $(seq 1 "$rounds"); do
        if [ $((r % 2)) -eq 1 ]; then order="0 1"; else order="1 0"; fi
        for w in $order; do
            res=$(run "$1" "$2" "$3" "$w")
            sum=${res#* }
            [ -z "$ref" ] && ref=$sum
            [ "$sum" = "$ref" ] || { echo "checksum differs: $sum vs $ref" >&2; exit 1; }
            if [ "$w" = 1 ]; then echo "${res% *}" >> "$out/wrapped"; else echo "${res% *}" >> "$out/plain"; fi
        done
    done
    python3 - "$1" "$out/plain" "$out/wrapped" <<'PY'
import statistics, sys
k, a, b = sys.argv[1], [float(x) for x in open(sys.argv[2])], [float(x) for x in open(sys.argv[3])]
ma, mb = statistics.median(a), statistics.median(b)
print(f"{k:<8} {len(a):>6} {ma:>12.4f} [{min(a):.4f}..{max(a):.4f}] {mb:>11.4f} [{min(b):.4f}..{max(b):.4f}] {mb / ma:>8.3f}")
PY
done
