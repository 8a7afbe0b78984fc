#!/bin/sh
# Wrapper overhead per call (-np 1) under every MPI built, in three settings: everything
# off (PAPI_MPI_CALLSITES=0 PAPI_MPI_WAITS=0), call sites on with wait states off, and the
# default (both on); verdicts against the bars of issue 19 (at most 50 ns per call with
# call sites on and wait states off) and issue 49 (wait states add at most 150 ns per call:
# the default's overhead minus the wait-states-off one).
# Each run times the same cheap call through MPI_* (wrapped) and PMPI_* (direct) in
# alternating batches (papi_mpi_bench.c: median of 31 x 20000 calls), in the thread's
# CPU time and in wall time; ROUNDS runs per setting, interleaved (forward, backward,
# ...), and the verdicts take the median of the runs' CPU-time overheads (on a shared
# machine the wall time also holds the time the rank waited for a core). The event log
# holds LOG_RECORDS (8000000) records so that every timed call is appended, none dropped.
# Then MPI_Finalize's aggregation at -np 2, 4, 8 (skip with SCALE=0).
# The machine's load average is printed: on a shared machine the spread says how far
# the figures can be trusted. Exit status 1 when an MPI misses a bar.
# Usage: run_bench.sh BUILD_DIR [rounds=5]
set -eu
build=${1:?usage: run_bench.sh BUILD_DIR [rounds]}
rounds=${2:-5}
bar=50
waitbar=150
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Open MPI's launcher: as root, and more ranks than cores, only when allowed.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
status=0
found=0
for flavor in mpich openmpi; do
  prog=$build/bench/mpi/papi_mpi_bench_$flavor
  [ -x "$prog" ] || continue
  command -v "mpirun.$flavor" >/dev/null || { echo "== $flavor: no mpirun.$flavor"; continue; }
  found=1
  : > "$out/runs"
  for r in $(seq 1 "$rounds"); do
    # setting = call sites and wait states: 00 all off, 10 waits off, 11 the default
    if [ $((r % 2)) -eq 1 ]; then order="00 10 11"; else order="11 10 00"; fi
    for set in $order; do
      cs=${set%?} ws=${set#?}
      PAPI_MPI_CALLSITES=$cs PAPI_MPI_WAITS=$ws PAPI_MPI_LOG_RECORDS=${LOG_RECORDS:-8000000} \
        PAPI_MPI_OUTPUT_DIR=$out "mpirun.$flavor" -np 1 "$prog" > "$out/log" 2>&1 ||
        { cat "$out/log"; echo "== $flavor: the benchmark failed"; exit 1; }
      sed -n -e "s/^bench: \(MPI_.*\)/$set|wall|\1/p" -e "s/^bench-cpu: \(MPI_.*\)/$set|cpu|\1/p" \
        "$out/log" >> "$out/runs"
    done
  done
  echo "== $flavor ($("mpirun.$flavor" --version 2>&1 | grep -m1 -iE 'version|open' | tr -s ' '))"
  python3 - "$out/runs" "$bar" "$waitbar" "$flavor" <<'PY' || status=1
import statistics, sys
import re
# "10|cpu|MPI_Comm_rank   wrapped 25.8 ns  direct 3.9 ns  overhead 21.9 ns per call (...)"
pat = re.compile(r"^(\d\d)\|(wall|cpu)\|(.+?)\s+wrapped\s+([\d.]+) ns\s+direct\s+([\d.]+) ns"
                 r"\s+overhead\s+(-?[\d.]+) ns")
rows = [m.groups() for m in map(pat.match, open(sys.argv[1])) if m]
bar, waitbar, flavor = float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
names = {"00": "all off", "10": "waits off", "11": "on"}
ok = True
print(f"  {'call':<28} {'setting':>9} {'runs':>4} {'CPU: wrapped':>12} {'direct':>7} "
      f"{'overhead median [min..max]':>28}   {'wall: overhead median':>21}")
for call in dict.fromkeys(r[2] for r in rows):
    med = {}
    for s in ("00", "10", "11"):
        cpu = [r for r in rows if r[2] == call and r[0] == s and r[1] == "cpu"]
        wall = [r for r in rows if r[2] == call and r[0] == s and r[1] == "wall"]
        if not cpu:
            continue
        ov = [float(r[5]) for r in cpu]
        med[s] = m = statistics.median(ov)
        print(f"  {call:<28} {names[s]:>9} {len(cpu):>4} "
              f"{statistics.median(float(r[3]) for r in cpu):>12.1f} "
              f"{statistics.median(float(r[4]) for r in cpu):>7.1f} "
              f"{m:>12.1f} ns [{min(ov):.1f}..{max(ov):.1f}]   "
              f"{statistics.median(float(r[5]) for r in wall):>18.1f} ns")
    if med.get("10", 0) > bar:
        ok = False
        print(f"  {call}: {med['10']:.1f} ns of CPU time per call with call sites on and wait "
              f"states off, above the bar of {bar:.0f} ns")
    if "10" in med and "11" in med:
        added = med["11"] - med["10"]
        print(f"  {call:<28} wait states add {added:.1f} ns per call")
        if added > waitbar:
            ok = False
            print(f"  {call}: wait states add {added:.1f} ns, above the bar of {waitbar:.0f} ns")
print(f"  verdict {flavor}: {'meets' if ok else 'MISSES'} the bars (<= {bar:.0f} ns per call "
      f"with call sites on and wait states off, <= {waitbar:.0f} ns added by wait states: "
      "medians over the runs of each run's median thread-CPU-time overhead; wall time also "
      "counts the time the rank was not running)")
sys.exit(0 if ok else 1)
PY
  if [ "${SCALE:-1}" != 0 ]; then
    for np in 2 4 8; do
      PAPI_MPI_OUTPUT_DIR=$out "mpirun.$flavor" -np $np "$prog" > "$out/log" 2>&1 || true
      printf '  -np %s: %s\n' "$np" "$(grep -m1 -oE 'aggregation [0-9.]+ ms.*' "$out/log" || echo 'no banner')"
    done
  fi
done
[ "$found" = 1 ] || { echo "no papi_mpi_bench_<mpi> under $build/bench/mpi"; exit 1; }
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
