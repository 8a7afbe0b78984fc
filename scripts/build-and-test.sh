#!/bin/sh
# Every test: install what is missing, build with warnings as errors, run ctest (C,
# Fortran, MPI tests and the arm64 PMU lane), then the tests labelled asan again under
# AddressSanitizer + UBSan (leaks included), then PAPI 7's own test suites (conformance.sh).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
"$top/scripts/build.sh" "$top/build" -DPAPI_WERROR=ON
(cd "$top/build" && ctest --output-on-failure -j2)
cmake -S "$top" -B "$top/build-asan" -DPAPI_WERROR=ON -DPAPI_SANITIZE=ON \
  -DPAPI_WITH_MPI=OFF -DPAPI_WITH_FORTRAN=OFF -DPAPI_BUILD_BENCH=OFF
cmake --build "$top/build-asan" -j"$(nproc)"
(cd "$top/build-asan" && ASAN_OPTIONS=detect_leaks=1 \
  ctest --output-on-failure -j2 -L asan)
# PAPI 7's own ctests and ftests (papi-examples) against our install, beside PAPI 7 itself.
"$top/scripts/conformance.sh" ci "$top/build/conformance" "$top/_install" \
  "$top/tests/conformance/expected-x86.txt"
# The same suites in the arm64 PMU guest (long: opt in), on the pmu_lane's cross build.
if [ "${PAPI_CONFORMANCE_ARM64:-0}" = 1 ]; then
  "$top/scripts/conformance-arm64.sh" "$top/build/pmu-lane" "$top/build/conformance-arm64" \
    || [ $? -eq 77 ]
fi
