#!/bin/sh
# test_sde_install.sh BUILD SRC: software-defined events as PAPI 7's users build them,
# against an install: a library written for sde_lib.h (linked -lsde) and a program
# linked -lpapi -lsde, both from the installed headers and libraries only; the program
# counts the library's registered, created and callback counters and a SUM group
# exactly. Then the same with the static libsde.a in the library, and with a library
# linked -lsde without a run path: on a machine with Debian's libsde1 the loader gives it
# Debian's libsde.so.1, whose counters our libpapi reads through PAPI 7's interface.
set -eu
build=$1 src=$2
# shellcheck source=tests/common/install_tmp.sh
. "$src/tests/common/install_tmp.sh"
inc=$tmp/prefix/include
lib=$(dirname "$(find "$tmp/prefix" -name 'libsde.so' | head -n 1)")
for f in "$inc/sde_lib.h" "$inc/sde_lib.hpp" "$lib/libsde.so" "$lib/libsde.so.1"; do
  [ -e "$f" ] || fail "$f is not installed"
done
soname=$(objdump -p "$lib/libsde.so" | awk '/SONAME/ {print $2}')
[ "$soname" = libsde.so.1 ] || fail "libsde's soname is '$soname', not libsde.so.1 (Debian's)"
run() { # NAME LIBSDE [ENV]: build the library (with LIBSDE) and the program, run it
  d=$tmp/$1 && mkdir -p "$d"
  cc -shared -fPIC -o "$d/libilib.so" -I"$inc" "$src/tests/sde/install_sdelib.c" $2 2>"$d/err" ||
    fail "$1: the library does not build: $(cat "$d/err")"
  cc -o "$d/prog" -I"$inc" "$src/tests/sde/install_sdeprog.c" -L"$d" -lilib -L"$lib" -lpapi -lsde \
    -Wl,-rpath,"$d" -Wl,-rpath,"$lib" 2>"$d/err" || fail "$1: the program does not link: $(cat "$d/err")"
  env -i PATH=/usr/bin:/bin ${3:-} "$d/prog" || fail "$1: the counts are not exact"
}
run shared "-L$lib -lsde -Wl,-rpath,$lib"
[ -f "$lib/libsde.a" ] && run static_libsde "$lib/libsde.a -lpthread"
run ld_library_path "-L$lib -lsde" "LD_LIBRARY_PATH=$lib"
if ldconfig -p | grep -q 'libsde\.so\.1 '; then
  run system_libsde "-L$lib -lsde"
  used=$(ldd "$tmp/system_libsde/prog" | awk '/libsde\.so\.1/ {print $3}')
  echo "system_libsde: the library ran with $used"
else
  echo "system_libsde: no libsde.so.1 in the loader's cache: not run"
fi
echo "test_sde_install: PASSED"
