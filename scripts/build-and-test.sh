#!/bin/sh
# Every test: install what is missing, build with warnings as errors, run ctest (C,
# Fortran, MPI tests and the arm64 PMU lane), then the lanes:
#   asan   the tests labelled asan under AddressSanitizer + UBSan (leaks included);
#   tsan   a clang ThreadSanitizer build, the tests labelled tsan (threads, regions,
#          overflow, register/unregister, threads exiting with running sets);
#   clang  a clang build with -DPAPI_BUILD_TESTS=OFF (the library and tools alone);
#   fuzz   the libFuzzer targets (event names, postfix; the CSV parser runs in ctest
#          above), each for PAPI_FUZZ_SECONDS (15 s by default).
#   flang  the Fortran parts (library, module, examples, Fortran tests) with LLVM flang,
#          and the gfortran and flang installs in one prefix.
#   conformance  PAPI 7's own ctests and ftests (papi-examples) against our install,
#          beside PAPI 7 itself (scripts/conformance.sh), then in the arm64 PMU guest
#          (scripts/conformance-arm64.sh).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
lean="-DPAPI_WITH_MPI=OFF -DPAPI_WITH_FORTRAN=OFF -DPAPI_BUILD_BENCH=OFF"
"$top/scripts/install-deps.sh"
"$top/scripts/build.sh" "$top/build" -DPAPI_WERROR=ON
(cd "$top/build" && ctest --output-on-failure -j2)
# shellcheck disable=SC2086
cmake -S "$top" -B "$top/build-asan" -DPAPI_WERROR=ON -DPAPI_SANITIZE=ON $lean
cmake --build "$top/build-asan" -j"$(nproc)"
(cd "$top/build-asan" && ASAN_OPTIONS=detect_leaks=1 \
  ctest --output-on-failure -j2 -L asan)
# shellcheck disable=SC2086
CC=clang cmake -S "$top" -B "$top/build-tsan" -DPAPI_WERROR=ON -DPAPI_TSAN=ON $lean
cmake --build "$top/build-tsan" -j"$(nproc)"
(cd "$top/build-tsan" && TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
  ctest --output-on-failure -j2 -L tsan)
# shellcheck disable=SC2086
CC=clang cmake -S "$top" -B "$top/build-clang" -DPAPI_WERROR=ON -DPAPI_BUILD_TESTS=OFF $lean
cmake --build "$top/build-clang" -j"$(nproc)"
test ! -e "$top/build-clang/tests" || { echo "PAPI_BUILD_TESTS=OFF built tests/"; exit 1; }
# shellcheck disable=SC2086
CC=clang cmake -S "$top" -B "$top/build-fuzz" -DPAPI_WERROR=ON -DPAPI_SANITIZE=ON \
  -DPAPI_FUZZ=ON $lean
cmake --build "$top/build-fuzz" -j"$(nproc)" --target fuzz_event_names fuzz_postfix
(cd "$top/build-fuzz" && ctest --output-on-failure -L fuzz -R '_run$')
# LLVM flang: Debian's flang-new-16 does not pass -L of its own runtime libraries.
flang_ld=-L/usr/lib/llvm-16/lib
cmake -S "$top" -B "$top/build-flang" -DPAPI_WERROR=ON -DCMAKE_Fortran_COMPILER=flang-new-16 \
  -DCMAKE_EXE_LINKER_FLAGS="$flang_ld" -DCMAKE_SHARED_LINKER_FLAGS="$flang_ld" \
  -DPAPI_WITH_MPI=OFF -DPAPI_BUILD_BENCH=OFF -DPAPI_BUILD_FUZZ=OFF -DPAPI_TEST_DIRS=fortran
cmake --build "$top/build-flang" -j"$(nproc)"
(cd "$top/build-flang" && ctest --output-on-failure -j2 -L fortran)
sh "$top/tests/install/test_two_fortran_compilers.sh" "$top/build" "$top/build-flang" "$top" "$flang_ld"
# PAPI 7's own ctests and ftests (papi-examples) against our install, beside PAPI 7 itself.
"$top/scripts/conformance.sh" ci "$top/build/conformance" "$top/_install" \
  "$top/tests/conformance/expected-x86.txt"
# The same suites in the arm64 PMU guest (the smp2 lane configuration), ours only: PAPI 7's
# arm64 column is recorded in tests/conformance/papi7-arm64.txt. On the pmu_lane's cross
# build; PAPI_CONFORMANCE_ARM64=0 leaves it out.
if [ "${PAPI_CONFORMANCE_ARM64:-1}" = 1 ]; then
  CONFORMANCE_ARM64_ONLY=${CONFORMANCE_ARM64_ONLY:-ours} \
    "$top/scripts/conformance-arm64.sh" "$top/build/pmu-lane" "$top/build/conformance-arm64" \
    || [ $? -eq 77 ]
fi
