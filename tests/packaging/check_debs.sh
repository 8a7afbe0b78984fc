#!/bin/sh
# check_debs.sh DEBDIR VERSION API SRC: run inside a sandbox (sandbox.sh): install every
# package of DEBDIR with apt-get, as an administrator would, and check what the packages
# promise: the tools name the project's release, man pages, pkg-config, CMake and the
# static lines work (libpapi.a needs libpfm4 alone), the libraries are in the multiarch
# directory, papi.pc's paths are clean, Debian's papi-examples stays installed and
# `dpkg -r` leaves nothing behind, Debian's libpapi7.0 stays beside our runtime (coexist: a
# program linked with Debian's PAPI still runs on Debian's library, ours on ours) while
# libpapi-dev and papi-tools are replaced by ours (conflict).
set -eu
debs=$1 version=$2 api=$3 src=$4
fail() { echo "FAIL: $*"; exit 1; }
# Coexistence is tested with a program linked against Debian's own PAPI: built now, from
# Debian's papi.h and its libpapi.so.7.0 (scripts/install-deps.sh installs them), and run
# again after our packages are in.
dpkg-query -W -f='${Status}' libpapi-dev 2>/dev/null | grep -q "install ok installed" ||
  fail "Debian's libpapi-dev is not installed (scripts/install-deps.sh installs it)"
t0=$(mktemp -d)
cat >"$t0/which_papi.c" <<'C'
/* Which libpapi this program runs with, and that it initialises. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <papi.h>
#include <stdio.h>
int main(void)
{
    Dl_info info;
    int v = PAPI_library_init(PAPI_VER_CURRENT);
    if (!dladdr((void *)PAPI_library_init, &info) || !info.dli_fname)
        return 2;
    printf("%s %s\n", info.dli_fname, v == PAPI_VER_CURRENT ? "initialised" : "init failed");
    return v == PAPI_VER_CURRENT ? 0 : 1;
}
C
cc -o "$t0/debian_prog" "$t0/which_papi.c" -I/usr/include -l:libpapi.so.7.0 -ldl ||
  fail "a program against Debian's papi.h and libpapi.so.7.0 does not build"
debian_lib=$(readlink -f "$(ldd "$t0/debian_prog" | sed -n 's/.*libpapi\.so\.7\.0 => \([^ ]*\).*/\1/p')")
[ -n "$debian_lib" ] || fail "ldd debian_prog names no libpapi.so.7.0: $(ldd "$t0/debian_prog")"
"$t0/debian_prog" || fail "the program linked with Debian's PAPI does not run before ours is installed"
# papi-examples (Debian's, installed on this machine) depends on libpapi-dev of its own
# revision: ours Provides a libpapi-dev that satisfies it, so it stays installed.
examples_before=no
dpkg-query -W -f='${Status}' papi-examples 2>/dev/null | grep -q "install ok installed" && examples_before=yes
# Our packages are local .deb files whose dependencies scripts/install-deps.sh installed:
# nothing is downloaded (apt-get refuses --no-download with local files).
# The runtime, dev and tools packages first: the dev package alone must serve CMake
# (the MPI wrappers' targets come with their own packages).
set -- $(ls "$debs"/*.deb | grep -v '/libpapi-compat-mpi-')
apt-get install -y -q --no-install-recommends "$@" >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; fail "apt-get install of the packages"; }  # local .deb files
cmake -S "$src/examples/consumer" -B "$t0/b" >/dev/null && cmake --build "$t0/b" >/dev/null &&
  "$t0/b/consumer_pagefaults" 100 || fail "find_package(PAPI) with no MPI wrapper package installed"
apt-get install -y -q --no-install-recommends "$debs"/*.deb >>/tmp/apt.log 2>&1 || { cat /tmp/apt.log; fail "apt-get install of the MPI packages"; }  # local .deb files
grep -E "^(Remv|Removing|The following packages will be REMOVED)" /tmp/apt.log || true
for p in libpapi-compat7 libpapi-compat-dev papi-compat-tools libsde-compat1; do
  dpkg-query -W -f='${Status}' $p | grep -q "install ok installed" || fail "$p not installed"
done
for p in libpapi-dev papi-tools libsde1; do
  if dpkg-query -W -f='${Status}' $p 2>/dev/null | grep -q "install ok installed"; then
    fail "$p still installed beside ours (they conflict)"
  fi
done
dpkg-query -W -f='${Status}' libpapi7.0 | grep -q "install ok installed" || fail "libpapi7.0 was removed (it coexists)"
if [ $examples_before = yes ]; then
  dpkg-query -W -f='${Status}' papi-examples 2>/dev/null | grep -q "install ok installed" ||
    fail "installing ours removed Debian's papi-examples (our Provides: $(dpkg-query -W -f='${Provides}' libpapi-compat-dev))"
  echo "papi-examples stays installed beside ours"
else
  echo "papi-examples was not installed before: its coexistence is not checked"
fi
# The libraries are in the multiarch directory, as Debian's.
multi=$(gcc -print-multiarch)
libdir=/usr/lib/$multi
dpkg -L libpapi-compat7 | grep -qx "$libdir/libpapi.so.7" || fail "libpapi.so.7 is not in $libdir: $(dpkg -L libpapi-compat7 | grep libpapi)"
dpkg -L libpapi-compat-dev | grep -qx "$libdir/libpapi.a" || fail "libpapi.a is not in $libdir"
# The Kokkos Tools connector Kokkos dlopens, with the runtime, finding our libpapi.so.7.
dpkg -L libpapi-compat7 | grep -qx "$libdir/libpapi_kokkos.so" || fail "libpapi_kokkos.so is not in libpapi-compat7"
nm -D --defined-only "$libdir/libpapi_kokkos.so" | grep -q ' kokkosp_begin_parallel_for$' ||
  fail "$libdir/libpapi_kokkos.so exports no kokkosp_begin_parallel_for"
ldd "$libdir/libpapi_kokkos.so" | grep -q "libpapi.so.7 => $libdir/libpapi.so.7" ||
  fail "libpapi_kokkos.so does not resolve our libpapi.so.7: $(ldd "$libdir/libpapi_kokkos.so")"
# Software-defined events: our libsde.so.1 (the one libpapi reads) replaces Debian's,
# and the dev package carries sde_lib.h, sde_lib.hpp and the libsde.so link.
dpkg -L libsde-compat1 | grep -qx "$libdir/libsde.so.1" || fail "libsde.so.1 is not in libsde-compat1"
nm -D "$libdir/libsde.so.1" | grep -q ' papi_compat_sde_registry$' || fail "$libdir/libsde.so.1 is not ours"
for f in /usr/include/sde_lib.h /usr/include/sde_lib.hpp "$libdir/libsde.so" "$libdir/libsde.a"; do
  dpkg -L libpapi-compat-dev | grep -qx "$f" || fail "$f is not in libpapi-compat-dev"
done
# Each program keeps its own library: the Debian-linked one Debian's, ours ours (ldd and
# the library each finds itself in at run time).
got=$(readlink -f "$(ldd "$t0/debian_prog" | sed -n 's/.*libpapi\.so\.7\.0 => \([^ ]*\).*/\1/p')")
[ "$got" = "$debian_lib" ] || fail "debian_prog now resolves libpapi.so.7.0 to '$got', was $debian_lib"
# runs: "<the library file it was loaded from> initialised"
runs_on() { out=$("$1") || fail "$1 beside ours: $out"; readlink -f "${out% initialised}"; }
[ "$(runs_on "$t0/debian_prog")" = "$debian_lib" ] || fail "debian_prog runs on $(runs_on "$t0/debian_prog"), not $debian_lib"
cc -o "$t0/our_prog" "$t0/which_papi.c" $(pkg-config --cflags --libs papi) -ldl || fail "which_papi.c against our papi.pc"
ours=$(ldd "$t0/our_prog" | sed -n 's/.*libpapi\.so\.7 => \([^ ]*\).*/\1/p')
[ "$(readlink -f "$ours")" = "$(readlink -f "$libdir/libpapi.so.7")" ] || fail "our_prog resolves libpapi.so.7 to '$ours': $(ldd "$t0/our_prog")"
[ "$(runs_on "$t0/our_prog")" = "$(readlink -f "$libdir/libpapi.so.7")" ] || fail "our_prog runs on $(runs_on "$t0/our_prog")"
echo "coexist: Debian's libpapi7.0 stays; a program linked with it runs on $debian_lib, ours on $ours"
papi_avail --version | grep -qx "papi_avail (papi-compat) $version" || fail "papi_avail --version: $(papi_avail --version)"
papi_version | grep -qx "PAPI Version: $api.0" || fail "papi_version: $(papi_version)"
# Every program of the tools package names the release, the Python ones included.
for prog in $(dpkg -L papi-compat-tools | grep '^/usr/bin/'); do
  "$prog" --version 2>&1 | grep -q "^$(basename "$prog") (papi-compat) $version\$" ||
    fail "$prog --version: $("$prog" --version 2>&1 | head -n 1)"
done
papi_avail >/dev/null || fail "papi_avail does not run"
# The Python module (tools package): Debian's python3 imports it with no PYTHONPATH and
# it loads the package's libpapi, counting 100 page faults exactly.
py=$(env -u PYTHONPATH /usr/bin/python3 -c 'import mmap, papi
with papi.EventSet(["perf::PAGE-FAULTS"]) as es:
    m = mmap.mmap(-1, 100 * mmap.PAGESIZE)
    for i in range(100): m[i * mmap.PAGESIZE] = 1
print(papi.__file__, papi.lib._name, es.values[0])' 2>&1) || fail "import papi: $py"
case $py in "/usr/lib/python3/dist-packages/papi/__init__.py /usr/lib/"*"/libpapi.so.7 10"[0-9]) ;;
  *) fail "import papi from the package: $py" ;; esac
dpkg -S /usr/lib/python3/dist-packages/papi/__init__.py | grep -q '^papi-compat-tools:' ||
  fail "the Python module is not in papi-compat-tools"
echo "python3: $py"
man -w PAPI_start >/dev/null && man -w papi_avail >/dev/null || fail "man pages not found"
[ "$(pkg-config --modversion papi)" = "$api" ] || fail "pkg-config --modversion papi"
[ "$(pkg-config --variable=papi_compat_version papi)" = "$version" ] || fail "papi_compat_version in papi.pc"
t=$(mktemp -d)
cc -o "$t/pc" "$src/examples/c/pagefaults.c" $(pkg-config --cflags --libs papi) && "$t/pc" 100 || fail "pkg-config build"
# Clean paths under /usr: no RUNPATH to a system directory, nothing like "../..//lib".
libs=$(pkg-config --libs papi)
case "$libs" in *rpath* | *..* | *//*) fail "pkg-config --libs papi: $libs" ;; esac
[ "$(pkg-config --variable=libdir papi)" = "$libdir" ] || fail "papi.pc libdir: $(pkg-config --variable=libdir papi)"
# The static library needs libpfm4 alone (hwloc is loaded at run time): no -ludev that
# no package provides, and each static line links and runs.
slibs=$(pkg-config --static --libs papi)
case "$slibs" in *-ludev* | *-lhwloc*) fail "pkg-config --static --libs papi: $slibs" ;; esac
ar t "$libdir/libpapi.a" >/dev/null || fail "ar t $libdir/libpapi.a"
[ -f "$libdir/libpfm.a" ] || fail "no libpfm.a beside libpapi.a in $libdir"
cc -o "$t/classic" "$src/examples/c/pagefaults.c" "$libdir/libpapi.a" -lpfm && "$t/classic" 100 || fail "classic libpapi.a -lpfm line"
cc -o "$t/bstatic" "$src/examples/c/pagefaults.c" -Wl,-Bstatic,-lpapi,-lpfm,-Bdynamic && "$t/bstatic" 100 ||
  fail "-Wl,-Bstatic,-lpapi,-lpfm,-Bdynamic"
# shellcheck disable=SC2086
cc -o "$t/pcstatic" "$src/examples/c/pagefaults.c" $(echo " $slibs " | sed 's/ -lpapi / -Wl,-Bstatic,-lpapi,-lpfm,-Bdynamic /') &&
  "$t/pcstatic" 100 || fail "the pkg-config --static line: $slibs"
echo "static lines: libpapi.a -lpfm, -Bstatic, pkg-config --static ($slibs) link and run"
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
# Removed, then purged, ours leave nothing behind: no maintainer script or conffile keeps
# a package in the rc state (papi-examples, which needs a libpapi-dev, goes first).
ours=$(for d in "$debs"/*.deb; do dpkg-deb -f "$d" Package; done)
dpkg -r papi-examples >/dev/null 2>&1 || true
# shellcheck disable=SC2086
dpkg -r $ours >/tmp/dpkg-r.log 2>&1 || { cat /tmp/dpkg-r.log; fail "dpkg -r of our packages"; }
left=$(dpkg -l | grep papi-compat || true)
[ -z "$left" ] || fail "after dpkg -r: $left"
# shellcheck disable=SC2086
dpkg -P $ours >/tmp/dpkg-p.log 2>&1 || true # already purged by -r: nothing to do
left=$(dpkg -l | grep papi-compat || true)
[ -z "$left" ] || fail "after dpkg -P: $left"
echo "dpkg -r then -P: nothing of papi-compat left"
echo "check_debs: PASSED"
