#!/bin/sh
# Every test: install what is missing, build with warnings as errors, run ctest (C,
# Fortran, MPI tests and the arm64 PMU lane), then the tests labelled asan again under
# AddressSanitizer + UBSan (leaks included), then the Fortran parts (library, module,
# examples, Fortran tests) with LLVM flang, and the gfortran and flang installs in one prefix.
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
# LLVM flang: Debian's flang-new-16 does not pass -L of its own runtime libraries.
flang_ld=-L/usr/lib/llvm-16/lib
cmake -S "$top" -B "$top/build-flang" -DPAPI_WERROR=ON -DCMAKE_Fortran_COMPILER=flang-new-16 \
  -DCMAKE_EXE_LINKER_FLAGS="$flang_ld" -DCMAKE_SHARED_LINKER_FLAGS="$flang_ld" \
  -DPAPI_WITH_MPI=OFF -DPAPI_BUILD_BENCH=OFF -DPAPI_BUILD_FUZZ=OFF -DPAPI_TEST_DIRS=fortran
cmake --build "$top/build-flang" -j"$(nproc)"
(cd "$top/build-flang" && ctest --output-on-failure -j2 -L fortran)
sh "$top/tests/install/test_two_fortran_compilers.sh" "$top/build" "$top/build-flang" "$top" "$flang_ld"
