#!/bin/sh
# The installed PMPI wrappers, one per MPI built (FLAVOR...: mpich, openmpi): for each, the
# README's ring example in C and Fortran linked as a user would, with
# `pkg-config papi_mpi_<flavor>` and with CMake's PAPI::papi_mpi_<flavor>
# (find_package(PAPI) from the install prefix, examples/mpi/consumer), on a toolchain
# that links --as-needed (Ubuntu's default: the wrapper and the MPI's Fortran libraries
# must stay needed), each run under mpirun.<flavor> -np 2 from a clean environment
# (env -i, no LD_LIBRARY_PATH): the program finds the wrapper and libpapi through its
# RUNPATH and writes its report, which the installed papi_mpi_collect reads (finished: 0, 1).
# Usage: test_install_mpi.sh BUILD_DIR SOURCE_DIR FLAVOR...
set -eu
build_dir=$1
src_dir=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null
pcdir=$(dirname "$(find "$tmp/prefix" -name papi.pc | head -n 1)")
ring="$src_dir/examples/mpi/mpi_ring.c"
ringf="$src_dir/examples/mpi/mpi_ring.f90"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# run FLAVOR PROGRAM: under mpirun.FLAVOR -np 2 from env -i; the report must be there.
run() {
  flavor=$1 prog=$2
  dir="$tmp/run_$(basename "$prog")"
  mkdir -p "$dir"
  readelf -d "$prog" | grep -q "NEEDED.*libpapi_mpi_$flavor\.so" ||
    { fail "$prog: libpapi_mpi_$flavor.so not needed"; return; }
  extra=""
  [ "$flavor" = openmpi ] && extra="--allow-run-as-root --oversubscribe"
  # shellcheck disable=SC2086
  if ! (cd "$dir" && env -i PATH=/usr/bin:/bin HOME="$tmp" timeout 120 \
      "mpirun.$flavor" $extra -np 2 "$prog" >"$dir/out" 2>&1); then
    cat "$dir/out"; fail "$prog does not run under mpirun.$flavor"; return
  fi
  if ! grep -q '"MPI_Sendrecv_replace"' "$dir/papi_mpi_report.json" 2>/dev/null ||
     ! grep -q "papi_mpi: 2 ranks finished" "$dir/out"; then
    cat "$dir/out"; fail "$prog under mpirun.$flavor: no report of 2 ranks"; return
  fi
  # the reports follow their schemas (tests/common/report_check.py)
  if [ -x /usr/bin/python3 ] && ! /usr/bin/python3 "$src_dir/tests/common/report_check.py" "$dir"; then
    fail "$prog under mpirun.$flavor: a report breaks its schema"; return
  fi
  # the installed papi_mpi_collect reads it through papi_report's reader (share/papi/python)
  if [ -x /usr/bin/python3 ] && ! env -i PATH=/usr/bin:/bin "$tmp/prefix/bin/papi_mpi_collect" "$dir" \
      >"$dir/collect" 2>&1 || ! grep -q '"finished": \[0, 1\], "partial": \[\]' "$dir/collect"; then
    cat "$dir/collect"; fail "$prog under mpirun.$flavor: the installed papi_mpi_collect"; return
  fi
  echo "ok: $(basename "$prog") under mpirun.$flavor -np 2 (env -i): report written"
}

for flavor in "$@"; do
  command -v "mpirun.$flavor" >/dev/null || { fail "no mpirun.$flavor"; continue; }
  pc=papi_mpi_$flavor
  PKG_CONFIG_PATH="$pcdir" pkg-config --exists "$pc" || { fail "no $pc.pc installed"; continue; }
  libs=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs "$pc")
  case "$libs" in *"$tmp/prefix"*) ;; *) fail "$pc.pc does not point into the prefix: $libs" ;; esac
  # shellcheck disable=SC2086
  cc -Wl,--as-needed -o "$tmp/ring_pc_$flavor" "$ring" $libs
  run "$flavor" "$tmp/ring_pc_$flavor"
  if command -v "mpifort.$flavor" >/dev/null; then
    mkdir -p "$tmp/mod_$flavor"
    # shellcheck disable=SC2086
    "mpifort.$flavor" -Wl,--as-needed -J "$tmp/mod_$flavor" -o "$tmp/ring_pc_f_$flavor" "$ringf" \
      $(PKG_CONFIG_PATH="$pcdir" pkg-config --libs "$pc")
    run "$flavor" "$tmp/ring_pc_f_$flavor"
    fc="-DCMAKE_Fortran_COMPILER=$(command -v "mpifort.$flavor")"
  else
    fc=""
  fi
  b="$tmp/cmake_$flavor"
  # shellcheck disable=SC2086
  cmake -S "$src_dir/examples/mpi/consumer" -B "$b" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    -DPAPI_MPI="$flavor" -DCMAKE_EXE_LINKER_FLAGS=-Wl,--as-needed $fc >"$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log"; fail "find_package(PAPI) with PAPI::$pc"; continue; }
  cmake --build "$b" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "build with PAPI::$pc"; continue; }
  run "$flavor" "$b/ring"
  [ -z "$fc" ] || run "$flavor" "$b/ring_f"
done
[ "$fails" -eq 0 ] || { echo "test_install_mpi: FAILED ($fails)"; exit 1; }
echo "test_install_mpi: PASSED"
