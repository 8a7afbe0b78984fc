#!/bin/sh
# Application overhead of the PMPI wrapper: the mini-app (mpi_miniapp.c) with and
# without the wrapper library of one MPI, in interleaved rounds (ABBA: plain, wrapped,
# wrapped, plain, ... so a drift of the machine hits both alike), with that MPI's own
# mpirun (mpirun.mpich or mpirun.openmpi). Prints per kernel the median and the spread
# (min..max) of each side and the ratio of the medians; every run's checksum must equal
# the first's (exit 1 otherwise).
#
# Binding: each rank bound to its own core (Hydra's -bind-to core, Open MPI's --bind-to
# core) when there are at least as many cores as ranks; otherwise, or with --bind none,
# the ranks are not bound, and the output says so (never silently).
# --perf: each run under `perf stat` (context switches, CPU migrations, task clock of
# every rank), their medians printed per side: what tells a run that is faster with the
# wrapper apart from noise.
# --size tiny: a few milliseconds per run (the ctest smoke run: the script cannot rot).
# The load average before and after is printed: on a shared machine it says how far the
# figures can be trusted.
#
# Usage: run_app_bench.sh [--mpi mpich|openmpi] [--bind core|none] [--perf]
#                         [--size full|tiny] BUILD_DIR [rounds=5] [ranks=2]
set -eu
mpi=mpich
bindopt=core
perf=0
size=full
while [ $# -gt 0 ]; do
    case $1 in
        --mpi) mpi=$2; shift 2 ;;
        --bind) bindopt=$2; shift 2 ;;
        --perf) perf=1; shift ;;
        --size) size=$2; shift 2 ;;
        --*) echo "run_app_bench.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
build=${1:?usage: run_app_bench.sh [--mpi mpich|openmpi] [--bind core|none] [--perf] [--size full|tiny] BUILD_DIR [rounds] [ranks]}
rounds=${2:-5}
np=${3:-2}
case $mpi in mpich|openmpi) ;; *) echo "--mpi: mpich or openmpi, not $mpi" >&2; exit 2 ;; esac
app=$build/bench/mpi/mpi_miniapp_$mpi
wrap=$build/mpi-wrappers/libpapi_mpi_$mpi.so
mpirun=mpirun.$mpi
for f in "$app" "$wrap"; do
    [ -e "$f" ] || { echo "run_app_bench.sh: $f not built (is $mpi installed?)" >&2; exit 2; }
done
command -v "$mpirun" >/dev/null || { echo "run_app_bench.sh: no $mpirun" >&2; exit 2; }
if [ "$perf" = 1 ] && ! command -v perf >/dev/null; then
    echo "run_app_bench.sh: --perf needs perf (linux-perf)" >&2; exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cores=$(nproc)
if [ "$bindopt" = core ] && [ "$cores" -ge "$np" ]; then
    bound=1
    bindinfo="each rank bound to its own core"
else
    bound=0
    if [ "$bindopt" = core ]; then
        bindinfo="NOT bound: $np ranks on $cores cores (binding needs a core per rank)"
    else
        bindinfo="not bound (--bind none)"
    fi
fi
# The launcher's options: binding and the wrapper's environment, in each MPI's syntax.
if [ "$mpi" = openmpi ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    if [ "$bound" = 1 ]; then bind="--bind-to core --map-by core"; else bind="--bind-to none --oversubscribe"; fi
    wrapenv="-x LD_PRELOAD=$wrap -x PAPI_MPI_OUTPUT_DIR=$out"
else
    if [ "$bound" = 1 ]; then bind="-bind-to core"; else bind="-bind-to none"; fi
    wrapenv="-genv LD_PRELOAD $wrap -genv PAPI_MPI_OUTPUT_DIR $out"
fi
if [ "$size" = tiny ]; then
    cg="cg 200 200" stencil="stencil 4000 10"
else
    cg="cg 2000 20000" stencil="stencil 400000 400"
fi

echo "mpi: $mpi ($mpirun), $np ranks, $rounds rounds, $bindinfo ($bind)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $cores cores"

run() { # kernel n iters wrapped -> "time checksum [context-switches migrations task-clock-ms]"
    env=""
    [ "$4" = 1 ] && env=$wrapenv
    if [ "$perf" = 1 ]; then
        # shellcheck disable=SC2086
        perf stat -x, -o "$out/perf" -e context-switches,cpu-migrations,task-clock \
            "$mpirun" -np "$np" $bind $env "$app" "$1" "$2" "$3" > "$out/run"
        stats=$(awk -F, '$3 == "context-switches" { cs = $1 } $3 == "cpu-migrations" { mig = $1 }
                         $3 == "task-clock" { tc = $1 } END { print cs, mig, tc }' "$out/perf")
    else
        # shellcheck disable=SC2086
        "$mpirun" -np "$np" $bind $env "$app" "$1" "$2" "$3" > "$out/run"
        stats=""
    fi
    echo "$(awk '/^miniapp/ { print $6, $8 }' "$out/run") $stats"
}

printf '%-8s %5s %28s %28s %7s\n' kernel runs "plain median [min..max] s" \
    "wrapped median [min..max] s" ratio
for spec in "$cg" "$stencil"; do
    # shellcheck disable=SC2086
    set -- $spec
    : > "$out/plain"
    : > "$out/wrapped"
    ref=""
    for r in $(seq 1 "$rounds"); do
        if [ $((r % 2)) -eq 1 ]; then order="0 1"; else order="1 0"; fi
        for w in $order; do
            res=$(run "$1" "$2" "$3" "$w")
            # shellcheck disable=SC2086
            set -- "$1" "$2" "$3" $res
            [ -n "${5:-}" ] || { echo "no result from $mpirun (kernel $1)" >&2; cat "$out/run" >&2; exit 1; }
            [ -z "$ref" ] && ref=$5
            [ "$5" = "$ref" ] || { echo "checksum differs: $5 vs $ref" >&2; exit 1; }
            if [ "$w" = 1 ]; then
                # The wrapped run really ran under the wrapper: its report is there.
                [ -s "$out/papi_mpi_report.json" ] ||
                    { echo "the wrapped run wrote no report: $wrap not loaded?" >&2; exit 1; }
                rm -f "$out"/papi_mpi_*
                echo "$res" >> "$out/wrapped"
            else
                echo "$res" >> "$out/plain"
            fi
            set -- "$1" "$2" "$3"
        done
    done
    python3 - "$1" "$out/plain" "$out/wrapped" <<'PY'
import statistics, sys
k = sys.argv[1]
a, b = ([l.split() for l in open(p) if l.strip()] for p in sys.argv[2:4])
ta, tb = [float(x[0]) for x in a], [float(x[0]) for x in b]
ma, mb = statistics.median(ta), statistics.median(tb)
print(f"{k:<8} {len(ta):>5} {ma:>11.4f} [{min(ta):.4f}..{max(ta):.4f}] "
      f"{mb:>11.4f} [{min(tb):.4f}..{max(tb):.4f}] {mb / ma:>7.3f}")
if len(a[0]) >= 5:  # --perf: context switches, migrations, task clock (all ranks)
    for side, rows in (("plain", a), ("wrapped", b)):
        cs = statistics.median(float(x[2]) for x in rows)
        mig = statistics.median(float(x[3]) for x in rows)
        tc = statistics.median(float(x[4]) for x in rows)
        print(f"         {side:<8} median context switches {cs:>9.0f}, CPU migrations "
              f"{mig:>6.0f}, task clock {tc / 1000:>8.3f} s (all ranks and the launcher)")
PY
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
