#!/bin/sh
# check_debs.sh DEBDIR VERSION API SRC: run inside a sandbox (sandbox.sh): install every
# package of DEBDIR with apt-get, as an administrator would, and check what the packages
# promise: the tools name the project's release, man pages, pkg-config, CMake and the
# classic static line work, Debian's libpapi7.0 stays beside our runtime (coexist) while
# libpapi-dev and papi-tools are replaced by ours (conflict).
set -eu
debs=$1 version=$2 api=$3 src=$4
fail() { echo "FAIL: $*"; exit 1; }
had_papi7=$(dpkg-query -W -f='${Status}' libpapi7.0 2>/dev/null || true)
# The runtime, dev and tools packages first: the dev package alone must serve CMake
# (the MPI wrappers' targets come with their own packages).
set -- $(ls "$debs"/*.deb | grep -v '/libpapi-compat-mpi-')
apt-get install -y -q --no-install-recommends "$@" >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; fail "apt-get install of the packages"; }
t0=$(mktemp -d)
cmake -S "$src/examples/consumer" -B "$t0/b" >/dev/null && cmake --build "$t0/b" >/dev/null &&
  "$t0/b/consumer_pagefaults" 100 || fail "find_package(PAPI) with no MPI wrapper package installed"
apt-get install -y -q --no-install-recommends "$debs"/*.deb >>/tmp/apt.log 2>&1 || { cat /tmp/apt.log; fail "apt-get install of the MPI packages"; }
grep -E "^(Remv|Removing|The following packages will be REMOVED)" /tmp/apt.log || true
for p in libpapi-compat7 libpapi-compat-dev papi-compat-tools; do
  dpkg-query -W -f='${Status}' $p | grep -q "install ok installed" || fail "$p not installed"
done
for p in libpapi-dev papi-tools; do
  if dpkg-query -W -f='${Status}' $p 2>/dev/null | grep -q "install ok installed"; then
    fail "$p still installed beside ours (they conflict)"
  fi
done
case "$had_papi7" in *"install ok installed"*)
  dpkg-query -W -f='${Status}' libpapi7.0 | grep -q "install ok installed" || fail "libpapi7.0 was removed (it coexists)"
  echo "coexist: libpapi7.0 stays installed beside libpapi-compat7" ;;
esac
papi_avail --version | grep -qx "papi_avail (papi-compat) $version" || fail "papi_avail --version: $(papi_avail --version)"
papi_version | grep -qx "PAPI Version: $api.0" || fail "papi_version: $(papi_version)"
# Every program of the tools package names the release, the Python ones included.
for prog in $(dpkg -L papi-compat-tools | grep '^/usr/bin/'); do
  "$prog" --version 2>&1 | grep -q "^$(basename "$prog") (papi-compat) $version\$" ||
    fail "$prog --version: $("$prog" --version 2>&1 | head -n 1)"
done
papi_avail >/dev/null || fail "papi_avail does not run"
man -w PAPI_start >/dev/null && man -w papi_avail >/dev/null || fail "man pages not found"
[ "$(pkg-config --modversion papi)" = "$api" ] || fail "pkg-config --modversion papi"
[ "$(pkg-config --variable=papi_compat_version papi)" = "$version" ] || fail "papi_compat_version in papi.pc"
t=$(mktemp -d)
cc -o "$t/pc" "$src/examples/c/pagefaults.c" $(pkg-config --cflags --libs papi) && "$t/pc" 100 || fail "pkg-config build"
cc -o "$t/classic" "$src/examples/c/pagefaults.c" /usr/lib/libpapi.a -lpfm && "$t/classic" 100 || fail "classic libpapi.a -lpfm line"
cmake -S "$src/examples/consumer" -B "$t/b" >/dev/null && cmake --build "$t/b" >/dev/null && "$t/b/consumer_pagefaults" 100 || fail "find_package(PAPI) build"
for d in "$debs"/libpapi-compat-mpi-*.deb; do
  [ -e "$d" ] || continue
  p=$(dpkg-deb -f "$d" Package)
  flavor=${p#libpapi-compat-mpi-}
  lib=$(dpkg -L "$p" | grep "/libpapi_mpi_$flavor\.so\$" | head -n 1)
  [ -n "$lib" ] || fail "$p installs no libpapi_mpi_$flavor.so"
  echo "$p: $lib"
  # A program linked as the package's pkg-config file says runs under its MPI with no
  # environment set, and the wrapper writes its report.
  mpicc.$flavor -g -o "$t/ring_$flavor" "$src/examples/mpi/mpi_ring.c" \
    $(pkg-config --cflags --libs "papi_mpi_$flavor") || fail "pkg-config papi_mpi_$flavor build"
  mkdir -p "$t/out_$flavor"
  (cd "$t/out_$flavor" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
    mpirun.$flavor -np 2 "$t/ring_$flavor" >run.log 2>&1) || { cat "$t/out_$flavor/run.log"; fail "mpirun.$flavor of a program linked with papi_mpi_$flavor"; }
  [ -s "$t/out_$flavor/papi_mpi_report.json" ] || fail "papi_mpi_$flavor wrote no report"
done
echo "check_debs: PASSED"
