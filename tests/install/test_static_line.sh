#!/bin/sh
# test_static_line.sh BUILD SRC: the static library as PAPI's users link it, against an
# install: PMlib's `-Wl,-Bstatic,-lpapi,-lpfm,-Bdynamic`, the classic
# `cc t.c <prefix>/lib/libpapi.a -lpfm`, papi-wrap's and pbdPAPI's libpfm.a beside
# libpapi.a, and `pkg-config --static`. libpapi.a is a real archive (`ar t` reads it)
# needing only libpfm4 and libc: no static hwloc, udev or libm may end up in the program
# (hwloc is loaded at run time), and each program counts and describes the machine.
# The installed libpfm.a also links into a shared object (pbdPAPI's R package), alone
# and with libpapi.a, and each such object works when dlopened.
set -eu
build=$1 src=$2
# shellcheck source=tests/common/install_tmp.sh
. "$src/tests/common/install_tmp.sh"
lib=$(dirname "$(find "$tmp/prefix" -name libpapi.a | head -n 1)")
inc=$tmp/prefix/include
[ -f "$lib/libpapi.a" ] || fail "no libpapi.a in the install"
ar t "$lib/libpapi.a" >"$tmp/members" 2>&1 || fail "ar t libpapi.a: $(cat "$tmp/members")"
grep -q '\.o$' "$tmp/members" || fail "libpapi.a has no object members"
[ -f "$lib/libpfm.a" ] || fail "no libpfm.a beside libpapi.a in $lib"
ar t "$lib/libpfm.a" >/dev/null || fail "ar t libpfm.a"
prog=$src/tests/install/static_line.c
# check NAME: the program links nothing of hwloc, udev or libm, statically or not, and runs.
check() {
  p=$tmp/$1
  if readelf -d "$p" | grep -q 'NEEDED.*libpapi'; then fail "$1 needs libpapi.so"; fi
  deps=$(ldd "$p" 2>&1 || true)
  case "$deps" in *libhwloc* | *libudev* | *libm.so*) fail "$1 loads at start: $deps" ;; esac
  static=$(nm "$p" | grep -E ' [TtDdBbRr] (udev_|hwloc_topology_init$|hwloc_bitmap_first$|__ieee754_|_dl_x86_cpu_features)' || true)
  [ -z "$static" ] || fail "$1 carries static hwloc, udev or libm: $static"
  # hwloc asked for: the archive's run-time hwloc is what this proves loads.
  env -i PAPI_TOPOLOGY=hwloc "$p" 400 || fail "$1 does not count or describe the machine"
  echo "$1: links, runs; no static hwloc, udev or libm"
}
cc -o "$tmp/bstatic" -I"$inc" -I"$src/tests/common" "$prog" -L"$lib" -Wl,-Bstatic,-lpapi,-lpfm,-Bdynamic 2>"$tmp/err" ||
  fail "-Wl,-Bstatic,-lpapi,-lpfm,-Bdynamic does not link: $(cat "$tmp/err")"
check bstatic
cc -o "$tmp/classic" -I"$inc" -I"$src/tests/common" "$prog" "$lib/libpapi.a" -lpfm 2>"$tmp/err" ||
  fail "cc t.c libpapi.a -lpfm does not link: $(cat "$tmp/err")"
check classic
cc -o "$tmp/both_archives" -I"$inc" -I"$src/tests/common" "$prog" "$lib/libpapi.a" "$lib/libpfm.a" 2>"$tmp/err" ||
  fail "cc t.c libpapi.a libpfm.a does not link: $(cat "$tmp/err")"
check both_archives
pcdir=$(dirname "$(find "$tmp/prefix" -name papi.pc | head -n 1)")
sflags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --static --cflags --libs papi)
case "$sflags" in *-lhwloc* | *-ludev* | *-lm\ * | *-lm) fail "pkg-config --static papi: $sflags" ;; esac
# shellcheck disable=SC2086
cc -o "$tmp/pkgconfig_static" -I"$src/tests/common" "$prog" $(echo " $sflags " | sed 's/ -lpapi / -Wl,-Bstatic,-lpapi,-lpfm,-Bdynamic /') ||
  fail "the pkg-config --static line does not link: $sflags"
check pkgconfig_static
# Inside a shared object (pbdPAPI's R package, a preloaded tool): libpfm.a alone, then
# libpapi.a with it, each linked with -shared and run through dlopen. Debian's libpfm.a
# cannot be (non-PIC: "relocation R_X86_64_PC32 ... recompile with -fPIC"); the install's
# is made so it can (cmake/libpfm_pic.cmake).
so_src=$src/tests/install/pfm_shared_object.c
load() { python3 -c 'import ctypes, sys; sys.exit(ctypes.CDLL(sys.argv[1]).run())' "$1"; }
cc -shared -fPIC -o "$tmp/pfm_only.so" "$so_src" "$lib/libpfm.a" 2>"$tmp/err" ||
  fail "cc -shared -fPIC x.c libpfm.a does not link: $(cat "$tmp/err")"
load "$tmp/pfm_only.so" || fail "the shared object with libpfm.a does not initialise libpfm4"
cc -shared -fPIC -DWITH_PAPI -I"$inc" -I"$src/tests/common" -o "$tmp/papi_pfm.so" "$so_src" \
  "$lib/libpapi.a" "$lib/libpfm.a" 2>"$tmp/err" ||
  fail "cc -shared -fPIC x.c libpapi.a libpfm.a does not link: $(cat "$tmp/err")"
if readelf -d "$tmp/papi_pfm.so" | grep -q 'NEEDED.*lib\(papi\|pfm\)'; then
  fail "the shared object needs libpapi.so or libpfm.so: the archives were not used"
fi
load "$tmp/papi_pfm.so" ||
  fail "the shared object with libpapi.a and libpfm.a does not count"
echo "shared objects: libpfm.a, and libpapi.a with libpfm.a, link with -shared and run"
echo "test_static_line: PASSED"
