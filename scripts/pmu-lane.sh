#!/bin/bash
# pmu-lane.sh: the arm64 PMU lane that CI runs. Cross-builds the library and the
# hardware tests for aarch64, boots the pmu-vm guest (emulated PMUv3) once per line of
# tests/pmu/lane-configs.txt, runs every hardware test in each boot and prints one
# result line per test.
#
# Usage: scripts/pmu-lane.sh [--build-dir DIR] [--results FILE] [--record-only]
#   --build-dir DIR  cross build directory (default: <repo>/build-arm64)
#   --results FILE   where the per-test results go (default: DIR/pmu-results.txt)
#   --record-only    exit 0 once every test ran and its result is recorded, even if
#                    some failed (the `pmu` ctests then fail one by one)
# Exit: 0 all passed, 1 a test failed or the lane broke, 77 a tool or guest file is
# missing (scripts/install-deps.sh provides them; results file says LANE-SKIPPED why).
# Environment: PMU_VM_DIR (another runner's directory; default: the project's own
# scripts/guest/run-arm64 and fetch-arm64), PAPI_ARM64_SYSROOT
# (default ~/.cache/papi-arm64-sysroot), PMU_LANE_CMAKE_ARGS (extra cmake arguments).
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$REPO/build-arm64
RESULTS=
RECORD_ONLY=0
while [ $# -gt 0 ]; do
    case $1 in
        --build-dir) BUILD=$2; shift 2 ;;
        --results) RESULTS=$2; shift 2 ;;
        --record-only) RECORD_ONLY=1; shift ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "pmu-lane: unknown argument $1" >&2; exit 1 ;;
    esac
done
mkdir -p "$BUILD" || exit 1
BUILD=$(cd "$BUILD" && pwd)
RESULTS=${RESULTS:-$BUILD/pmu-results.txt}
LOG=$BUILD/pmu-lane.log
# The guest runner: the project's own (scripts/guest), or PMU_VM_DIR's run-arm64 and
# sysroot-arm64 when set (the same command lines).
if [ -n "${PMU_VM_DIR:-}" ]; then
    RUN_ARM64=$PMU_VM_DIR/run-arm64 FETCH_ARM64=$PMU_VM_DIR/sysroot-arm64
else
    RUN_ARM64=$REPO/scripts/guest/run-arm64 FETCH_ARM64=$REPO/scripts/guest/fetch-arm64
fi
export PAPI_ARM64_SYSROOT=${PAPI_ARM64_SYSROOT:-${HOME:-/root}/.cache/papi-arm64-sysroot}
T0=$(date +%s.%N)
: >"$RESULTS"

say() { echo "pmu-lane: $*" >&2; }
elapsed() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
skip() {
    echo "LANE-SKIPPED: $*" >>"$RESULTS"
    echo "SKIPPED: $*"
    exit 77
}
fail() {
    say "FAILED: $*"
    echo "LANE-FAILED: $*" >>"$RESULTS"
    exit 1
}

# 1. Host tools and guest files: the cross compilers (C, Fortran), QEMU (system for the
# guest, user mode for the build's generator programs), cpio, the arm64 libraries to
# compile against and give the guest, the guest kernel and busybox. Nothing is installed
# or downloaded here (ctest runs this lane): scripts/install-deps.sh does it beforehand,
# and what is missing is a skip naming it (build-and-test.sh fails a CI run on it).
[ -x "$RUN_ARM64" ] || skip "the guest runner is missing ($RUN_ARM64)"
command -v cmake >/dev/null || skip "cmake is not installed"
missing=
command -v aarch64-linux-gnu-gcc >/dev/null || missing="$missing gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
command -v aarch64-linux-gnu-gfortran >/dev/null || missing="$missing gfortran-aarch64-linux-gnu"
command -v qemu-system-aarch64 >/dev/null || missing="$missing qemu-system-arm"
command -v qemu-aarch64 >/dev/null || missing="$missing qemu-user"
command -v cpio >/dev/null || missing="$missing cpio"
[ -z "$missing" ] || skip "not installed:$missing (scripts/install-deps.sh installs them)"
if [ -z "${PMU_VM_DIR:-}" ]; then
    fetched=$("$FETCH_ARM64" --lane-missing) ||
        skip "$fetched (scripts/install-deps.sh fetches them: scripts/guest/fetch-arm64 --lane)"
fi
export PAPI_GUEST_OFFLINE=1

# 3. Cross build: the library, the Fortran module, the tests and the examples (no MPI).
# The hardware test programs are built first, one target each, so that a break
# elsewhere in the tree (its own result, cross_build@all) or in one test program (that
# test fails) does not hide the other hardware results.
say "cross build in $BUILD"
CLOG=$BUILD/cross-build.log
cmake -S "$REPO" -B "$BUILD" -DCMAKE_TOOLCHAIN_FILE="$REPO/cmake/toolchain-aarch64.cmake" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPAPI_WERROR=ON -DPAPI_WITH_FORTRAN=ON \
    -DPAPI_WITH_MPI=OFF -DPAPI_BUILD_BENCH=OFF -DPAPI_BUILD_FUZZ=OFF ${PMU_LANE_CMAKE_ARGS:-} \
    >"$CLOG" 2>&1 || { tail -n 30 "$CLOG" >&2; fail "configuring the aarch64 cross build failed (see $CLOG)"; }
LIST=$BUILD/tests/pmu/pmu-tests.list
[ -f "$LIST" ] || fail "no $LIST: tests/pmu was not configured for aarch64"
cmake --build "$BUILD" -j"$(nproc)" --target papi >>"$CLOG" 2>&1 ||
    { tail -n 30 "$CLOG" >&2; fail "the aarch64 cross build of libpapi failed (see $CLOG)"; }

STAGE=$BUILD/pmu-stage
rm -rf "$STAGE" && mkdir -p "$STAGE/bin" "$STAGE/lib" || exit 1
: >"$STAGE/tests.list"
# Every guest program in one build first: one start of make (about 2 s of CPU each, 29
# of them one target at a time) and both cores busy. Only where that fails are they
# built one target at a time below, to tell which one breaks.
all_built=0
# shellcheck disable=SC2046
cmake --build "$BUILD" -j"$(nproc)" --target $(cat "$LIST") papi_validate papi_run papi_ompt \
    >>"$CLOG" 2>&1 && all_built=1
build_one() { [ "$all_built" = 1 ] || cmake --build "$BUILD" -j"$(nproc)" --target "$1" >>"$CLOG" 2>&1; }
for t in $(cat "$LIST"); do
    if build_one "$t" && cp "$BUILD/tests/pmu/$t" "$STAGE/bin/"; then
        echo "$t" >>"$STAGE/tests.list"
    else
        say "FAILED: test program $t does not build (see $CLOG)"
        while read -r name cpu shift pmu nctr ua vcpus runs; do
            case $name in ''|'#'*) continue ;; esac
            [ "${runs:-tests}" = tests ] || continue
            echo "PMU-RESULT $t@$name FAILED (does not build for aarch64, see $CLOG)" >>"$RESULTS"
        done <"$REPO/tests/pmu/lane-configs.txt"
    fi
done
# papi_validate runs in the guest too (tests/validate/arm64/pmu_validate.c runs it).
if build_one papi_validate; then
    cp "$BUILD/src-c/utils/papi_validate" "$STAGE/bin/"
else
    say "FAILED: papi_validate does not build (see $CLOG)"
fi
# papi_run too (tests/run/arm64/pmu_run_multiplexed.c runs it).
if build_one papi_run; then
    cp "$BUILD/src-c/utils/papi_run/papi_run" "$STAGE/bin/"
    # and --sample's library beside it (tests/run/arm64/pmu_run_sample.c), built where the
    # sysroot has an arm64 libdw; without it that test says SKIPPED, naming the library.
    cp "$BUILD/src-c/utils/papi_run/libpapi_run_sample.so" "$STAGE/bin/" 2>/dev/null ||
        say "papi_run --sample: no arm64 libdw in $PAPI_ARM64_SYSROOT, no libpapi_run_sample.so"
else
    say "FAILED: papi_run does not build (see $CLOG)"
fi
# The OMPT tool beside libpapi (tests/ompt/arm64/pmu_ompt_insns.c runs an OpenMP program
# under it; LLVM's libomp.so.5 reaches the guest through the sysroot, libgomp through
# --cross-libs).
if build_one papi_ompt; then
    cp "$BUILD/src-c/ompt/libpapi_ompt.so" "$STAGE/lib/"
else
    say "FAILED: libpapi_ompt.so does not build (see $CLOG)"
fi
say "guest programs built ($(elapsed) s)"

# 4. What else goes into the guest: the shared libraries, the guest-side runner.
cp -P "$BUILD"/src-c/libpapi.so* "$STAGE/lib/" || fail "libpapi.so was not built"
cp -P "$BUILD"/src-fortran/libpapif.so* "$STAGE/lib/" 2>/dev/null
cp "$REPO/tests/pmu/guest-run.sh" "$STAGE/"

# The rest of the tree builds while the guests run: a boot takes one host core and its
# results do not depend on the host's load (icount: the guest's clock is its instruction
# count). Its own log; its result is written after the boots.
WLOG=$BUILD/cross-build-all.log
cmake --build "$BUILD" -j"$(nproc)" >"$WLOG" 2>&1 &
whole_tree=$!

# 5. One boot per configuration; every test runs in each.
: >"$LOG"
boots=0
while read -r name cpu shift pmu nctr ua vcpus runs; do
    case $name in ''|'#'*) continue ;; esac
    [ "${runs:-tests}" = tests ] || continue # suites: scripts/conformance-arm64.sh
    boots=$((boots + 1))
    say "boot $boots: $name (--cpu $cpu, icount shift=$shift, ${vcpus:-1} vCPU)"
    PMU_VM_QEMU_ARGS="${PMU_VM_QEMU_ARGS:-} -smp ${vcpus:-1}" \
    "$RUN_ARM64" --cpu "$cpu" --icount "shift=$shift,sleep=off" --timeout 600 \
        --sysroot "$PAPI_ARM64_SYSROOT" --cross-libs "$STAGE" -- \
        "env PMU_ICOUNT_SHIFT=$shift PMU_EXPECT_PMU=$pmu PMU_EXPECT_COUNTERS=$nctr PMU_USER_ACCESS=${ua:-0} ./guest-run.sh $name" \
        2>&1 | tee -a "$LOG" | grep -E '^(\[|PMU-RESULT|LANE-FAILED)' >>"$RESULTS"
    st=${PIPESTATUS[0]}
    case $st in
        0|1) ;;
        124) echo "LANE-FAILED: boot $name timed out" >>"$RESULTS" ;;
        *) echo "LANE-FAILED: boot $name ended with status $st (see $LOG)" >>"$RESULTS" ;;
    esac
done <"$REPO/tests/pmu/lane-configs.txt"

if wait "$whole_tree"; then
    echo "PMU-RESULT cross_build@all PASSED (library, Fortran module, tests, examples)" >>"$RESULTS"
else
    grep -E 'error|Error [0-9]' "$WLOG" | head -n 20 | sed 's/^/[cross_build@all] /' >>"$RESULTS"
    echo "PMU-RESULT cross_build@all FAILED (whole-tree aarch64 build, see $WLOG)" >>"$RESULTS"
fi
say "whole-tree cross build done ($(elapsed) s)"

# 6. Summary: one line per test and configuration.
passed=0 failed=0 skipped=0 missing=0
while read -r name cpu shift pmu nctr ua vcpus runs; do
    case $name in ''|'#'*) continue ;; esac
    [ "${runs:-tests}" = tests ] || continue
    for t in $(cat "$LIST"); do
        line=$(grep -F "PMU-RESULT $t@$name " "$RESULTS")
        case $line in
            *" PASSED "*) passed=$((passed + 1)) ;;
            *" SKIPPED "*) skipped=$((skipped + 1)) ;;
            "") missing=$((missing + 1)); line="PMU-RESULT $t@$name FAILED (no result)" ;;
            *) failed=$((failed + 1)) ;;
        esac
        echo "$line"
        grep -F "[$t@$name] " "$RESULTS" | grep -v -F ": PASSED" | sed 's/^/    /'
    done
done <"$REPO/tests/pmu/lane-configs.txt"
line=$(grep -F "PMU-RESULT cross_build@all " "$RESULTS")
echo "$line"
grep -F "[cross_build@all] " "$RESULTS" | sed 's/^/    /'
case $line in *" PASSED "*) passed=$((passed + 1)) ;; *) failed=$((failed + 1)) ;; esac
grep '^LANE-FAILED' "$RESULTS"
summary="pmu-lane: $passed passed, $failed failed, $skipped skipped, $missing missing; $boots boots; $(elapsed) s"
echo "$summary" | tee -a "$RESULTS"
if grep -q '^LANE-FAILED' "$RESULTS" || [ "$missing" -gt 0 ]; then
    exit 1
fi
[ "$RECORD_ONLY" = 1 ] && exit 0
[ "$failed" -eq 0 ] || exit 1
exit 0
