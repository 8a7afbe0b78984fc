#!/bin/sh
# Wrapper overhead per call (-np 1) under every MPI built, with call sites off and on,
# and a verdict against the bar of issue 19: at most 50 ns per call with call sites on.
# Each run times the same cheap call through MPI_* (wrapped) and PMPI_* (direct) in
# alternating batches (papi_mpi_bench.c: median of 31 x 20000 calls), in the thread's
# CPU time and in wall time; ROUNDS runs per setting, interleaved (off, on, on, off,
# ...), and the verdict takes the median of the runs' CPU-time overheads (on a shared
# machine the wall time also holds the time the rank waited for a core). Then MPI_Finalize's aggregation at -np 2, 4, 8 (skip with SCALE=0).
# The machine's load average is printed: on a shared machine the spread says how far
# the figures can be trusted. Exit status 1 when an MPI misses the bar.
# Usage: run_bench.sh BUILD_DIR [rounds=5]
set -eu
build=${1:?usage: run_bench.sh BUILD_DIR [rounds]}
rounds=${2:-5}
bar=50
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Open MPI's launcher: as root, and more ranks than cores, only when allowed.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
status=0
found=0
for flavor in mpich openmpi; do
  prog=$build/mpi-wrappers/bench/papi_mpi_bench_$flavor
  [ -x "$prog" ] || continue
  command -v "mpirun.$flavor" >/dev/null || { echo "== $flavor: no mpirun.$flavor"; continue; }
  found=1
  : > "$out/runs"
  for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then order="0 1"; else order="1 0"; fi
    for cs in $order; do
      PAPI_MPI_CALLSITES=$cs PAPI_MPI_OUTPUT_DIR=$out "mpirun.$flavor" -np 1 "$prog" > "$out/log" 2>&1 ||
        { cat "$out/log"; echo "== $flavor: the benchmark failed"; exit 1; }
      sed -n -e "s/^bench: \(MPI_.*\)/$cs|wall|\1/p" -e "s/^bench-cpu: \(MPI_.*\)/$cs|cpu|\1/p" \
        "$out/log" >> "$out/runs"
    done
  done
  echo "== $flavor ($("mpirun.$flavor" --version 2>&1 | grep -m1 -iE 'version|open' | tr -s ' '))"
  python3 - "$out/runs" "$bar" "$flavor" <<'PY' || status=1
import statistics, sys
import re
# "1|cpu|MPI_Comm_rank   wrapped 25.8 ns  direct 3.9 ns  overhead 21.9 ns per call (...)"
pat = re.compile(r"^(\d)\|(wall|cpu)\|(.+?)\s+wrapped\s+([\d.]+) ns\s+direct\s+([\d.]+) ns"
                 r"\s+overhead\s+(-?[\d.]+) ns")
rows = [m.groups() for m in map(pat.match, open(sys.argv[1])) if m]
bar, flavor = float(sys.argv[2]), sys.argv[3]
ok = True
print(f"  {'call':<26} {'sites':>5} {'runs':>4} {'CPU: wrapped':>12} {'direct':>7} "
      f"{'overhead median [min..max]':>28}   {'wall: overhead median':>21}")
for call in dict.fromkeys(r[2] for r in rows):
    for cs in ("0", "1"):
        cpu = [r for r in rows if r[2] == call and r[0] == cs and r[1] == "cpu"]
        wall = [r for r in rows if r[2] == call and r[0] == cs and r[1] == "wall"]
        ov = [float(r[5]) for r in cpu]
        m = statistics.median(ov)
        print(f"  {call:<26} {'on' if cs == '1' else 'off':>5} {len(cpu):>4} "
              f"{statistics.median(float(r[3]) for r in cpu):>12.1f} "
              f"{statistics.median(float(r[4]) for r in cpu):>7.1f} "
              f"{m:>12.1f} ns [{min(ov):.1f}..{max(ov):.1f}]   "
              f"{statistics.median(float(r[5]) for r in wall):>18.1f} ns")
        if cs == "1" and m > bar:
            ok = False
            print(f"  {call}: {m:.1f} ns of CPU time per call with call sites on, above the "
                  f"bar of {bar:.0f} ns")
print(f"  verdict {flavor}: {'meets' if ok else 'MISSES'} the bar (<= {bar:.0f} ns per call "
      "with call sites on: the median over the runs of each run's median thread-CPU-time "
      "overhead; wall time also counts the time the rank was not running)")
sys.exit(0 if ok else 1)
PY
  if [ "${SCALE:-1}" != 0 ]; then
    for np in 2 4 8; do
      PAPI_MPI_OUTPUT_DIR=$out "mpirun.$flavor" -np $np "$prog" > "$out/log" 2>&1 || true
      printf '  -np %s: %s\n' "$np" "$(grep -m1 -oE 'aggregation [0-9.]+ ms.*' "$out/log" || echo 'no banner')"
    done
  fi
done
[ "$found" = 1 ] || { echo "no papi_mpi_bench_<mpi> under $build/mpi-wrappers/bench"; exit 1; }
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
