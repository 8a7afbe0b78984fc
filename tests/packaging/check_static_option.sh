#!/bin/sh
# check_static_option.sh CMAKE SRC WORK: -DPAPI_INSTALL_STATIC (Spack's +static/~static)
# leaves the archive libpapi.a, libpfm.a beside it and the exported PAPI::papi_static target in
# or out together: with OFF the generated install rules name none of them (a Spack ~static
# install deleted the archive while PAPIConfig still imported PAPI::papi_static from it);
# with ON all three. Configures two small trees (no MPI, Fortran, tests), builds nothing.
set -eu
cmake=$1 src=$2 work=$3
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$work"
for opt in OFF ON; do
  b=$work/static-$opt
  rm -rf "$b"
  "$cmake" -S "$src" -B "$b" -DPAPI_INSTALL_STATIC=$opt -DPAPI_WITH_MPI=OFF -DPAPI_WITH_FORTRAN=OFF \
    -DPAPI_BUILD_TESTS=OFF -DPAPI_BUILD_BENCH=OFF >"$b.log" 2>&1 || { cat "$b.log"; fail "configure with $opt"; }
  targets=$(cat "$b"/CMakeFiles/Export/*/PAPITargets*.cmake)
  rules=$(cat "$b/src-c/cmake_install.cmake")
  n=0
  printf '%s' "$targets" | grep -q "PAPI::papi_static" && n=$((n + 1))
  printf '%s' "$rules" | grep -q "/libpapi.a" && n=$((n + 1))
  printf '%s' "$rules" | grep -q "libpfm.a" && n=$((n + 1))
  printf '%s' "$targets" | grep -q "PAPI::papi\b" || fail "PAPI_INSTALL_STATIC=$opt exports no PAPI::papi"
  case $opt in
    OFF) [ $n -eq 0 ] || fail "PAPI_INSTALL_STATIC=OFF still installs or exports the static library ($n of 3)" ;;
    ON) [ $n -eq 3 ] || fail "PAPI_INSTALL_STATIC=ON installs or exports only $n of the archive, libpfm.a, target" ;;
  esac
  echo "PAPI_INSTALL_STATIC=$opt: archive, libpfm.a and PAPI::papi_static: $n of 3"
done
echo "static option: PASSED"
