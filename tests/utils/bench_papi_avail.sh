#!/bin/sh
# bench_papi_avail.sh BUILD_DIR: papi_avail as a whole process, this project's against
# the system's PAPI 7 (/usr/bin/papi_avail, Debian package papi-tools), side by side.
# Wall time with hyperfine when installed (else a loop), CPU time with perf stat when
# installed. Not a ctest: timings depend on the machine's load.
set -eu
ours=${1:?usage: bench_papi_avail.sh BUILD_DIR}/src-c/utils/papi_avail
theirs=${PAPI7_AVAIL:-/usr/bin/papi_avail}
[ -x "$ours" ] || { echo "no $ours"; exit 1; }
[ -x "$theirs" ] || { echo "no $theirs (install papi-tools)"; exit 77; }
if command -v hyperfine >/dev/null; then
    hyperfine -N -w 10 -r "${RUNS:-200}" "$theirs" "$ours"
else
    for b in "$theirs" "$ours"; do
        t0=$(date +%s%N)
        i=0; while [ $i -lt 100 ]; do "$b" >/dev/null; i=$((i + 1)); done
        echo "$b: $(( ($(date +%s%N) - t0) / 100000 )) us per run"
    done
fi
if command -v perf >/dev/null; then
    for b in "$theirs" "$ours"; do
        echo "$b:"; perf stat -r 100 "$b" 2>&1 >/dev/null | grep -E "task-clock|elapsed"
    done
fi
