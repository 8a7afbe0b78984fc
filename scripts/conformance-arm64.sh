#!/bin/bash
# conformance-arm64.sh: PAPI 7's ctests and ftests (papi-examples) in the arm64 PMU guest,
# ours and Debian's arm64 PAPI 7.0.0 side by side, in ONE boot with 2 vCPUs (so that
# attach_cpu_validate and attach_cpu_sys_validate run), a per-test timeout, one line per
# test; fails when ours does worse than tests/conformance/expected-arm64.txt.
#   scripts/conformance-arm64.sh [CROSS_BUILD_DIR] [OUT_DIR]
# CROSS_BUILD_DIR: an aarch64 build of this repository with libpapi and libpapif built
# (scripts/pmu-lane.sh makes one; default build/pmu-lane, else build-arm64). The headers
# are the host install's (_install/include: generated, the same on every architecture).
# Environment: PMU_VM_DIR, PAPI_ARM64_SYSROOT (as pmu-lane.sh), CONFORMANCE_TIMEOUT (per
# test, default 300 s of guest time: multiplex3_pthreads needs 157 s under TCG),
# CONFORMANCE_SHORT_TIMEOUT (tests listed as TIMEOUT, default 20 s), CONFORMANCE_ARM64_ONLY
# (ours or papi7; CI runs ours against PAPI 7's recorded tests/conformance/papi7-arm64.txt), CONFORMANCE_CPU, CONFORMANCE_ICOUNT_SHIFT and
# CONFORMANCE_VCPUS (default: the suites configuration of tests/pmu/lane-configs.txt).
set -uo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
XB=${1:-$REPO/build/pmu-lane}
[ -f "$XB/src-c/libpapi.so" ] || XB=$REPO/build-arm64
OUT=${2:-$REPO/build/conformance-arm64}
# The guest runner: the project's own (scripts/guest), or PMU_VM_DIR's run-arm64 and
# sysroot-arm64 when set (the same command lines).
if [ -n "${PMU_VM_DIR:-}" ]; then
    RUN_ARM64=$PMU_VM_DIR/run-arm64 FETCH_ARM64=$PMU_VM_DIR/sysroot-arm64
else
    RUN_ARM64=$REPO/scripts/guest/run-arm64 FETCH_ARM64=$REPO/scripts/guest/fetch-arm64
fi
SYSROOT=${PAPI_ARM64_SYSROOT:-${HOME:-/root}/.cache/papi-arm64-sysroot}
LIMIT=${CONFORMANCE_TIMEOUT:-300}
skip() { echo "SKIPPED: $*"; exit 77; }
[ -f "$XB/src-c/libpapi.so" ] || skip "no aarch64 build of libpapi in $XB (run scripts/pmu-lane.sh)"
[ -x "$RUN_ARM64" ] || skip "the guest runner is missing ($RUN_ARM64)"
[ -d /usr/share/doc/papi-examples/examples/ctests ] || skip "papi-examples is not installed"
command -v aarch64-linux-gnu-gfortran >/dev/null || skip "no aarch64 cross compilers"
[ -f "$REPO/_install/include/papi.h" ] || skip "no host install in $REPO/_install"
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
STAGE=$OUT/stage
rm -rf "$STAGE" && mkdir -p "$STAGE/ours-lib" "$STAGE/papi7-lib" || exit 1
cp -P "$XB"/src-c/libpapi.so* "$XB"/src-fortran/libpapif.so* "$STAGE/ours-lib/" || exit 1
cp "$REPO/scripts/conformance.sh" "$STAGE/"
export CC=aarch64-linux-gnu-gcc F77=aarch64-linux-gnu-gfortran NM=aarch64-linux-gnu-nm
CONFORMANCE_LDFLAGS="-Wl,-rpath-link,$SYSROOT/usr/lib/aarch64-linux-gnu" \
  "$REPO/scripts/conformance.sh" build "$STAGE/ours" "$REPO/_install" "$REPO/_install/include" \
  "$STAGE/ours-lib/libpapi.so" || exit 1
# Debian's arm64 PAPI 7.0.0, the reference (skipped when it cannot be fetched or when
# CONFORMANCE_ARM64_ONLY=ours).
P7=$OUT/papi7-sysroot p7lib=
if [ "${CONFORMANCE_ARM64_ONLY:-}" != ours ]; then
  [ -f "$P7/.sysroot-arm64" ] || "$FETCH_ARM64" "$P7" libpapi7.0 >&2
  p7lib=$(ls "$P7"/usr/lib/aarch64-linux-gnu/libpapi.so.*.*.* 2>/dev/null | head -1)
fi
if [ -n "$p7lib" ]; then
  cp -P "$P7"/usr/lib/aarch64-linux-gnu/libpapi.so* "$STAGE/papi7-lib/"
  # Its preset table (the guest has no /usr/share/papi): without it PAPI 7 has no presets.
  cp "$P7"/usr/share/papi/*/papi_events.csv "$STAGE/papi7-lib/" 2>/dev/null ||
    cp /usr/share/papi/*/papi_events.csv "$STAGE/papi7-lib/"
  CONFORMANCE_LDFLAGS="-Wl,-rpath-link,$SYSROOT/usr/lib/aarch64-linux-gnu" \
    "$REPO/scripts/conformance.sh" build "$STAGE/papi7" /usr /usr/include "$p7lib" || exit 1
fi
# CONFORMANCE_ARM64_ONLY=ours|papi7 runs one of the two (half the guest time).
[ "${CONFORMANCE_ARM64_ONLY:-}" = ours ] && rm -rf "$STAGE/papi7"
[ "${CONFORMANCE_ARM64_ONLY:-}" = papi7 ] && rm -rf "$STAGE/ours"
# Tests listed as TIMEOUT (emulation only) get CONFORMANCE_SHORT_TIMEOUT seconds.
for d in "$STAGE/ours" "$STAGE/papi7"; do
  [ -d "$d" ] && awk -v s="${CONFORMANCE_SHORT_TIMEOUT:-20}" '$2 == "TIMEOUT" { print $1, s }' \
    "$REPO/tests/conformance/expected-arm64.txt" >"$d/short-limits.txt"
done
cat >"$STAGE/guest.sh" <<GUEST
#!/bin/sh
cd /t
# OpenMP threads wait passively: spinning on 2 emulated vCPUs starves the other thread.
export OMP_WAIT_POLICY=passive
[ -d ours ] && LD_LIBRARY_PATH=/t/ours-lib sh ./conformance.sh run /t/ours $LIMIT | sed 's/^/ours: /'
# PAPI 7 disables perf_event at perf_event_paranoid 3 (the guest's), even for root.
[ -d papi7 ] && echo 0 >/proc/sys/kernel/perf_event_paranoid
[ -d papi7 ] && LD_LIBRARY_PATH=/t/papi7-lib PAPI_CSV_EVENT_FILE=/t/papi7-lib/papi_events.csv \
  sh ./conformance.sh run /t/papi7 $LIMIT | sed 's/^/papi7: /'
exit 0
GUEST
chmod +x "$STAGE/guest.sh"
LOG=$OUT/guest.log
# The boot: the lane configuration that runs "suites" in tests/pmu/lane-configs.txt (2
# vCPUs); CONFORMANCE_CPU, CONFORMANCE_ICOUNT_SHIFT and CONFORMANCE_VCPUS override it.
cfg=$(awk '$1 !~ /^#/ && NF >= 8 && $8 == "suites" { print $1, $2, $3, $7; exit }' \
  "$REPO/tests/pmu/lane-configs.txt")
[ -n "$cfg" ] || { echo "no suites configuration in tests/pmu/lane-configs.txt"; exit 1; }
set -- $cfg
cpu=${CONFORMANCE_CPU:-$2} shift_=${CONFORMANCE_ICOUNT_SHIFT:-$3} vcpus=${CONFORMANCE_VCPUS:-$4}
echo "arm64 suites: lane configuration $1 (--cpu $cpu, icount shift=$shift_, $vcpus vCPUs)"
PMU_VM_QEMU_ARGS="-smp $vcpus" "$RUN_ARM64" --cpu "$cpu" \
  --icount "shift=$shift_,sleep=off" \
  --timeout 3000 --mem 2G --sysroot "$SYSROOT" --cross-libs "$STAGE" -- ./guest.sh >"$LOG" 2>&1
st=$?
sed -n 's/^ours: //p' "$LOG" >"$OUT/ours.txt"
sed -n 's/^papi7: //p' "$LOG" >"$OUT/papi7.txt"
[ "$st" = 0 ] || { tail -20 "$LOG"; echo "guest run ended with status $st (see $LOG)"; exit 1; }
if [ "${CONFORMANCE_ARM64_ONLY:-}" = papi7 ]; then
  tail -n 1 "$OUT/papi7.txt"
  exit 0
fi
# PAPI 7's column: measured in this boot, else the one recorded in the same configuration.
other=$REPO/tests/conformance/papi7-arm64.txt
[ -s "$OUT/papi7.txt" ] && other=$OUT/papi7.txt
grep -v '^RESULT\|^TOTAL' "$OUT/ours.txt" | head -40
"$REPO/scripts/conformance.sh" compare "$REPO/tests/conformance/expected-arm64.txt" \
  "$OUT/ours.txt" ${other:+"$other"}
