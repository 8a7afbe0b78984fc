#!/bin/sh
# Every test: install what is missing, build with warnings as errors, run ctest (C,
# Fortran, MPI tests and the arm64 PMU lane), then the lanes:
#   asan   the tests labelled asan under AddressSanitizer + UBSan (leaks included);
#   tsan   a clang ThreadSanitizer build, the tests labelled tsan (threads, regions,
#          overflow, register/unregister, threads exiting with running sets), and clang's
#          -Werror build of src-c and mpi-wrappers (what users build);
#   fuzz   the libFuzzer targets (event names, postfix, the hand-over readers; the CSV parser runs in ctest
#          above), each for PAPI_FUZZ_SECONDS (15 s by default).
#   flang  the Fortran parts (library, module, examples, Fortran tests) with LLVM flang,
#          and the gfortran and flang installs in one prefix.
#   release  a Release (-O3) build with gcc, warnings as errors, of what a distribution
#          builds (MPI wrappers for MPICH and Open MPI, Fortran with gfortran; -O3 finds
#          -Wmaybe-uninitialized that -O2 does not), -DPAPI_BUILD_TESTS=OFF building
#          nothing of tests/ (clang builds in the tsan and fuzz lanes).
#   packaging  Debian packages (cpack), installed with apt-get in a throw-away overlay of
#          this machine, and the modulefiles under Debian's lmod and environment-modules
#          (scripts/packaging-lane.sh).
#   conformance  PAPI 7's own ctests and ftests (papi-examples) against our install,
#          beside PAPI 7 itself (scripts/conformance.sh), then in the arm64 PMU guest
#          (scripts/conformance-arm64.sh).
#
# Every lane runs even when an earlier one fails (a failing ctest must not hide the
# sanitizer or arm64 results); the failures are listed at the end and the script exits
# 1 if there was any. A lane whose prerequisite failed (its build) is reported as such.
# A lane that cannot run here (exit 77, or exit 0 with a last line saying SKIPPED, as
# packaging-lane.sh and conformance.sh print) is listed apart as skipped: neither passed
# nor failed.
#
# Skips: every skipped lane and every skipped ctest (and every SKIPPED line of a test
# that passed) is listed at the end with its reason, each either a fact of this machine
# (tests/ci/skip-facts.txt: no hardware PMU in a VM, ...) or fixable (a package, a
# download, a lock). With CI=true a fixable skip fails the run (lane "skips"): the
# hardware paths cannot drop out of CI without a red light. Only the first lane, deps
# (scripts/install-deps.sh), installs or downloads anything.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# The scripts' "env python3" is Debian's (pandas, jsonschema from apt), not a shim or a
# venv that comes earlier on PATH (a pyenv shim costs seconds per start).
PATH=/usr/bin:$PATH
export PATH
lean="-DPAPI_WITH_MPI=OFF -DPAPI_WITH_FORTRAN=OFF -DPAPI_BUILD_BENCH=OFF"
failed=""
skipped=""
lane_log=$(mktemp) lane_rc=$(mktemp) lane_skips=$(mktemp) arm64_out=$(mktemp) arm64_rc=$(mktemp)
lane_tails=$(mktemp)
trap 'rm -f "$lane_log" "$lane_rc" "$lane_skips" "$arm64_out" "$arm64_rc" "$lane_tails"' EXIT
# Each ctest lane writes its per-test results (with their output) into its build
# directory (--output-junit is relative to it), where the skip check below reads them.
junit=ctest-results.xml junits="" junit_files=""
for d in build build-asan build-tsan build-fuzz build-flang; do
  rm -f "$top/$d/$junit"
  junits="$junits --junit $top/$d/$junit"
  junit_files="$junit_files $top/$d/$junit"
done
# lane NAME COMMAND...: run one step, remember it when it fails or skips, go on.
# Returns 0 passed, 1 failed, 2 skipped (a lane that needs this one then does not run).
lane() {
  name=$1; shift
  echo "=== lane $name: $*"
  lane_start=$(date +%s)
  { "$@"; echo $? >"$lane_rc"; } 2>&1 | tee "$lane_log"
  rc=$(cat "$lane_rc")
  last=$(grep -v '^[[:space:]]*$' "$lane_log" | tail -n 1)
  if [ "$rc" -eq 77 ] || { [ "$rc" -eq 0 ] && printf '%s\n' "$last" | grep -Eq '(^|: )SKIPPED'; }; then
    echo "=== lane $name: SKIPPED (exit $rc: $last)"
    printf '%s\t%s\n' "$name" "$last" >>"$lane_skips"
    skipped="$skipped $name"
    return 2
  fi
  if [ "$rc" -eq 0 ]; then
    echo "=== lane $name: passed ($(($(date +%s) - lane_start)) s)"
    return 0
  fi
  echo "=== lane $name: FAILED (exit $rc, $(($(date +%s) - lane_start)) s)"
  failed="$failed $name"
  # Its last lines again at the very end: a CI log that keeps only its tail says why.
  { echo "--- the end of lane $name:"; grep -v '^[[:space:]]*$' "$lane_log" | tail -n 25; } >>"$lane_tails"
  return 1
}
in_dir() { (cd "$1" && shift && "$@"); }

lane deps "$top/scripts/install-deps.sh" --all
if lane build "$top/scripts/build.sh" "$top/build" -DPAPI_WERROR=ON; then
  lane ctest in_dir "$top/build" ctest --output-on-failure -j2 --output-junit $junit
fi
# PAPI 7's suites in the arm64 PMU guest (the smp2 lane configuration), ours only: PAPI
# 7's arm64 column is recorded in tests/conformance/papi7-arm64.txt. On the pmu_lane's
# cross build, so after ctest; PAPI_CONFORMANCE_ARM64=0 leaves it out. Its guest runs on
# one host core for about 7 minutes (icount: one thread for both vCPUs), so it runs in the
# background beside the lanes below (their builds take the other core), its output held
# for its turn in the list; 77 (the guest cannot run here) is a skipped lane.
arm64_pid=""
if [ "${PAPI_CONFORMANCE_ARM64:-1}" = 1 ]; then
  ( arm64_start=$(date +%s)
    CONFORMANCE_ARM64_ONLY=${CONFORMANCE_ARM64_ONLY:-ours} "$top/scripts/conformance-arm64.sh" \
      "$top/build/pmu-lane" "$top/build/conformance-arm64" >"$arm64_out" 2>&1
    echo "$? $(($(date +%s) - arm64_start))" >"$arm64_rc" ) &
  arm64_pid=$!
fi
# The sanitizer lanes build only what their labelled tests run (build-for-label.py): gcc
# builds the rest in the main build. TSan's is also clang's -Werror build of what users
# build (src-c: the library, its tools, the OMPT tool, GPU activity; mpi-wrappers): the
# whole tree under TSan cost CI 5 minutes.
# shellcheck disable=SC2086
if lane asan-build sh -c "cmake -S '$top' -B '$top/build-asan' -DPAPI_WERROR=ON -DPAPI_SANITIZE=ON $lean &&
    python3 '$top/scripts/build-for-label.py' '$top/build-asan' asan $(nproc)"; then
  lane asan in_dir "$top/build-asan" env ASAN_OPTIONS=detect_leaks=1 \
    ctest --output-on-failure -j2 -L asan --output-junit $junit
fi
# With the MPI wrapper (tests/mpi's tsan test: MPI_THREAD_MULTIPLE with checkpoints).
if lane tsan-build sh -c "CC=clang cmake -S '$top' -B '$top/build-tsan' -DPAPI_WERROR=ON -DPAPI_TSAN=ON \
    -DPAPI_WITH_FORTRAN=OFF -DPAPI_BUILD_BENCH=OFF &&
    python3 '$top/scripts/build-for-label.py' '$top/build-tsan' tsan $(nproc) &&
    cmake --build '$top/build-tsan/src-c' -j$(nproc) && cmake --build '$top/build-tsan/mpi-wrappers' -j$(nproc)"; then
  lane tsan in_dir "$top/build-tsan" env TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
    ctest --output-on-failure -j2 -L tsan --output-junit $junit
fi
if lane fuzz-build sh -c "CC=clang cmake -S '$top' -B '$top/build-fuzz' -DPAPI_WERROR=ON -DPAPI_SANITIZE=ON \
    -DPAPI_FUZZ=ON $lean && cmake --build '$top/build-fuzz' -j$(nproc) --target fuzz_event_names fuzz_postfix fuzz_handover"; then
  lane fuzz in_dir "$top/build-fuzz" ctest --output-on-failure -L fuzz -R '_run$' --output-junit $junit
fi
# Release (-O3), gcc, -Werror: all a distribution builds (the MPI wrapper for both MPIs,
# the Fortran module, the tools, the manual), configured for /usr (the packaging lane
# makes its Debian packages from it); no tests or bench. Clang's -Werror build of the
# same is the TSan lane's: clang's warnings come from its front end, the same at -O3 (a
# second clang build of the library cost CI 4 minutes).
rel=$top/build-release-gcc
lane release-gcc sh -c "CC=gcc cmake -S '$top' -B '$rel' -DCMAKE_BUILD_TYPE=Release -DPAPI_WERROR=ON \
    -DCMAKE_INSTALL_PREFIX=/usr \
    -DPAPI_BUILD_TESTS=OFF -DPAPI_BUILD_BENCH=OFF -DPAPI_WITH_MPI=ON '-DPAPI_MPI_FLAVORS=mpich;openmpi' \
    -DPAPI_WITH_FORTRAN=ON -DCMAKE_Fortran_COMPILER=gfortran && cmake --build '$rel' -j$(nproc) &&
    ls '$rel/mpi-wrappers/libpapi_mpi_mpich.so' '$rel/mpi-wrappers/libpapi_mpi_openmpi.so' '$rel/src-fortran/libpapif.so' &&
    { test ! -e '$rel/tests' || { echo 'PAPI_BUILD_TESTS=OFF built tests/'; exit 1; }; }"
# Debian packages from the gcc release build, modulefiles from the main build's install.
lane packaging "$top/scripts/packaging-lane.sh" "$top/build" "$top/build-release-gcc"
# LLVM flang: Debian's flang-new-16 does not pass -L of its own runtime libraries.
flang_ld=-L/usr/lib/llvm-16/lib
if lane flang-build sh -c "cmake -S '$top' -B '$top/build-flang' -DPAPI_WERROR=ON -DCMAKE_Fortran_COMPILER=flang-new-16 \
    -DCMAKE_EXE_LINKER_FLAGS='$flang_ld' -DCMAKE_SHARED_LINKER_FLAGS='$flang_ld' \
    -DPAPI_WITH_MPI=OFF -DPAPI_BUILD_BENCH=OFF -DPAPI_BUILD_FUZZ=OFF -DPAPI_TEST_DIRS=fortran &&
    cmake --build '$top/build-flang' -j$(nproc)"; then
  lane flang in_dir "$top/build-flang" ctest --output-on-failure -j2 -L fortran --output-junit $junit
  lane two-fortran-compilers sh "$top/tests/install/test_two_fortran_compilers.sh" \
    "$top/build" "$top/build-flang" "$top" "$flang_ld"
fi
# PAPI 7's own ctests and ftests (papi-examples) against our install, beside PAPI 7 itself.
lane conformance "$top/scripts/conformance.sh" ci "$top/build/conformance" "$top/_install" \
  "$top/tests/conformance/expected-x86.txt"
# The arm64 suites started after ctest (above): their result in its turn.
if [ -n "$arm64_pid" ]; then
  wait "$arm64_pid"
  # shellcheck disable=SC2016
  lane conformance-arm64 sh -c 'read -r rc secs <"$2"; echo "(it ran beside the lanes above: $secs s)"
    cat "$1"; exit "$rc"' sh "$arm64_out" "$arm64_rc"
fi
[ -z "$skipped" ] || echo "build-and-test: skipped lanes (could not run here, not passed):$skipped"
# Every skip with its reason; under CI=true a fixable one fails the run.
# shellcheck disable=SC2086
lane skips python3 "$top/scripts/check-skips.py" "$top/tests/ci/skip-facts.txt" $junits --lanes "$lane_skips"
if [ -n "$failed" ]; then
  # shellcheck disable=SC2086
  python3 "$top/scripts/list-failed-tests.py" $junit_files
  cat "$lane_tails"
  echo "build-and-test: FAILED lanes:$failed"
  exit 1
fi
echo "build-and-test: every lane that ran passed${skipped:+ (skipped:$skipped)}"
