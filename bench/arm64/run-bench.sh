#!/bin/bash
# run-bench.sh: the benchmark table of the arm64 PMU guest (bench/README.md). Cross-builds
# bench_paths, fetches Debian's arm64 PAPI 7.0 (libpapi7.0, as scripts/conformance-arm64.sh
# does), boots the guest once per kernel.perf_user_access setting (0 and 1; Cortex-A57,
# 1 vCPU, icount shift 4) and runs bench_paths against our libpapi, PAPI 7.0 and PAPI 7.2
# in each boot. Prints the "BENCH label ua=U path all user pmu" lines: all = every guest
# instruction (CNTVCT under -icount, kernel included), user and pmu = the PMU's user and
# user + kernel counts (bench_paths.c). BENCH_ONLY=part,... runs only those parts of
# bench_paths (counting, mpx, overflow, profil, highlevel, flops, fortran, threads);
# BENCH_UA=0 or 1 boots only that setting; BENCH_LIBS=ours,papi7.0,papi7.2 (default all)
# only those libraries; BENCH_GUEST_ENV="VAR=VALUE ..." sets variables for bench_paths in
# the guest (PAPI_USER_READ=0, ...). A full run takes 2.5 to 5.5 minutes (bench/README.md).
#   bench/arm64/run-bench.sh [CROSS_BUILD_DIR]     exit 1 when a boot or a bench_paths run failed
# CROSS_BUILD_DIR: an aarch64 build of this repository with libpapi built (default
# build-arm64; scripts/pmu-lane.sh makes one). The guest is the project's own
# (scripts/guest/run-arm64, packages by scripts/guest/fetch-arm64). Environment:
# PAPI_ARM64_SYSROOT (the arm64 libraries libpapi needs, as scripts/pmu-lane.sh fetches
# them), BENCH_PAPI72 (a directory holding an aarch64 build of PAPI 7.2's libpapi.so and
# its papi_events.csv, and the libpfm.so.4 it was built with: measured beside 7.0 when
# set; bench/README.md says how it was built).
set -uo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
XB=${1:-$REPO/build-arm64}
RUN_ARM64=$REPO/scripts/guest/run-arm64 FETCH_ARM64=$REPO/scripts/guest/fetch-arm64
SYSROOT=${PAPI_ARM64_SYSROOT:-${HOME:-/root}/.cache/papi-arm64-sysroot}
skip() { echo "SKIPPED: $*"; exit 77; }
[ -f "$XB/src-c/libpapi.so" ] || skip "no aarch64 build of libpapi in $XB"
command -v aarch64-linux-gnu-gcc >/dev/null || skip "no aarch64 cross compiler"
STAGE=$XB/bench-stage
rm -rf "$STAGE" && mkdir -p "$STAGE/ours-lib" "$STAGE/papi7-lib" "$STAGE/papi72-lib" || exit 1
cp -P "$XB"/src-c/libpapi.so* "$STAGE/ours-lib/" || exit 1
aarch64-linux-gnu-gcc -O2 -std=gnu11 -Wall -Wextra -Werror -I"$REPO/src-c/include" \
    -I"$XB/src-c/generated" -I"$REPO/src-c/lib/components/perf_event" -I"$REPO/tests/common" \
    -o "$STAGE/bench_paths" "$REPO/bench/arm64/bench_paths.c" "$REPO/bench/arm64/bench_meter.c" -ldl -lpthread || exit 1
P7=$XB/papi7-sysroot
[ -f "$P7/.sysroot-arm64" ] || "$FETCH_ARM64" "$P7" libpapi7.0 >&2
if ls "$P7"/usr/lib/aarch64-linux-gnu/libpapi.so.* >/dev/null 2>&1; then
    cp -P "$P7"/usr/lib/aarch64-linux-gnu/libpapi.so* "$STAGE/papi7-lib/"
    cp "$P7"/usr/share/papi/*/papi_events.csv "$STAGE/papi7-lib/" 2>/dev/null ||
        cp /usr/share/papi/*/papi_events.csv "$STAGE/papi7-lib/" 2>/dev/null
fi
cp "$REPO/bench/arm64/fp_presets.csv" "$STAGE/" || exit 1
cat >"$STAGE/run.sh" <<'EOF'
#!/bin/sh
echo "$1" >/proc/sys/kernel/perf_user_access
# Overflow and profiling: a fixed sample rate (the kernel lowers it when its interrupts
# seem slow, as under QEMU); the rate first: the kernel refuses it while throttling is off.
echo 25 >/proc/sys/kernel/perf_cpu_time_max_percent
echo 100000 >/proc/sys/kernel/perf_event_max_sample_rate
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
echo 0 >/proc/sys/kernel/perf_event_paranoid # PAPI 7 disables perf_event at 3, even for root
export PAPI_EVENTS=INST_RETIRED,CPU_CYCLES PAPI_HL_OUTPUT=/tmp/hl BENCH_ICOUNT_SHIFT
libs=,${BENCH_LIBS:-ours,papi7.0,papi7.2},
only=${BENCH_ONLY:-counting,mpx,overflow,profil,highlevel,flops,fortran,threads}
main=$(echo ",$only," | sed 's/,flops,/,/; s/^,//; s/,$//')
fail=0
failed() { echo "BENCH $1 error: bench_paths ($2) failed"; fail=1; }
# lib label preset-csv library-path
run() {
    if [ -n "$main" ]; then
        env LD_LIBRARY_PATH="$4" ${3:+PAPI_CSV_EVENT_FILE=$3} BENCH_ONLY="$main" \
            ./bench_paths "$1" "$2" || failed "$2" "$main"
    fi
    case ",$only," in
    *,flops,*) env LD_LIBRARY_PATH="$4" PAPI_CSV_EVENT_FILE=/t/fp_presets.csv BENCH_ONLY=flops \
                   ./bench_paths "$1" "$2" || failed "$2" flops ;;
    esac
}
case $libs in *,ours,*) run /t/ours-lib/libpapi.so ours "" /t/ours-lib ;; esac
p7=$(ls /t/papi7-lib/libpapi.so.* 2>/dev/null | head -1)
case $libs in *,papi7.0,*) [ -n "$p7" ] && run "$p7" papi7.0 /t/papi7-lib/papi_events.csv /t/papi7-lib ;; esac
case $libs in *,papi7.2,*) [ -f /t/papi72-lib/libpapi.so ] &&
    run /t/papi72-lib/libpapi.so papi7.2 /t/papi72-lib/papi_events.csv /t/papi72-lib ;; esac
exit $fail
EOF
chmod +x "$STAGE/run.sh"
if [ -n "${BENCH_PAPI72:-}" ] && [ -f "$BENCH_PAPI72/libpapi.so" ]; then
    cp -L "$BENCH_PAPI72/libpapi.so" "$STAGE/papi72-lib/libpapi.so" &&
        cp "$BENCH_PAPI72/papi_events.csv" "$STAGE/papi72-lib/" || exit 1
    cp -P "$BENCH_PAPI72"/libpfm.so* "$STAGE/papi72-lib/" 2>/dev/null # its own libpfm4
fi
T0=$(date +%s) rc=0
for ua in ${BENCH_UA:-0 1}; do
    "$RUN_ARM64" --cpu cortex-a57 --icount "shift=4,sleep=off" --timeout "${BENCH_TIMEOUT:-3600}" \
        --sysroot "$SYSROOT" --sysroot "$P7" --cross-libs "$STAGE" -- \
        "BENCH_ICOUNT_SHIFT=4 ${BENCH_GUEST_ENV:-} BENCH_ONLY=${BENCH_ONLY:-} BENCH_LIBS=${BENCH_LIBS:-} ./run.sh $ua" |
        grep -E '^BENCH|rror|SKIP' | tr -d '\r'
    st=${PIPESTATUS[0]}
    [ "$st" = 0 ] || { echo "run-bench: boot ua=$ua failed (status $st)" >&2; rc=1; }
    echo "run-bench: boot ua=$ua done, $(($(date +%s) - T0)) s" >&2
done
exit $rc
