#!/bin/sh
# test_two_fortran_compilers.sh GFORTRAN_BUILD FLANG_BUILD SRC FLANG_LINK_FLAGS
# Installs a gfortran build and a flang build into one prefix: each compiler's
# papi.mod and libpapif sit side by side, and a Fortran-only project with `use papi`
# (find_package(PAPI), PAPI::papif) builds and runs with either compiler in a clean
# environment. A compiler without a module of its own gets a message naming both.
set -eu
gbuild=$1 fbuild=$2 src=$3 fflags=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$gbuild" --prefix "$tmp/prefix" >/dev/null
cmake --install "$fbuild" --prefix "$tmp/prefix" >/dev/null
ls -d "$tmp"/prefix/include/fortran/*/
mkdir -p "$tmp/p"
cat > "$tmp/p/use_papi.f90" <<'F90'
program use_papi
  use papi
  implicit none
  integer(c_int) :: check
  character(len=PAPI_MAX_STR_LEN) :: text
  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  call PAPIF_perror(PAPI_ENOEVNT, text, check)
  if (check /= PAPI_OK) stop 2
  print '(2a)', 'use papi: ', trim(text)
end program use_papi
F90
cat > "$tmp/p/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(use_papi LANGUAGES Fortran)
find_package(PAPI REQUIRED COMPONENTS Fortran)
add_executable(use_papi use_papi.f90)
target_link_libraries(use_papi PRIVATE PAPI::papif)
CM
for fc in gfortran flang-new-16; do
  flags=""; [ "$fc" = gfortran ] || flags=$fflags
  cmake -S "$tmp/p" -B "$tmp/b-$fc" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_Fortran_COMPILER="$fc" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
  cmake --build "$tmp/b-$fc" >/dev/null
  out=$(env -i "$tmp/b-$fc/use_papi")
  echo "$fc: $out"
  case $out in "use papi: "?*) ;; *) echo "FAIL: $fc program printed no error text"; exit 1 ;; esac
done
# pkg-config: with both modules in the prefix, plain papif refuses and names the
# choices; papif-<compiler> builds with its compiler.
pc=$(dirname "$(find "$tmp/prefix" -name papi.pc | head -n 1)")
if PKG_CONFIG_PATH="$pc" pkg-config --cflags papif >"$tmp/pc.log" 2>&1; then
  echo "FAIL: plain papif.pc chose one of two compilers: $(cat "$tmp/pc.log")"; exit 1
fi
grep -q "papif-gnu-[0-9]*_or_papif-llvmflang-16" "$tmp/pc.log" ||
  { cat "$tmp/pc.log"; echo "FAIL: plain papif does not name the choices"; exit 1; }
echo "plain papif with two compilers: $(head -n 1 "$tmp/pc.log")"
gtag=$(basename "$(ls -d "$tmp"/prefix/include/fortran/gnu-*)")
# shellcheck disable=SC2046
gfortran -o "$tmp/pc-gnu" "$tmp/p/use_papi.f90" $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs "papif-$gtag")
env -i "$tmp/pc-gnu" | grep -q "use papi: " || { echo "FAIL: papif-$gtag build"; exit 1; }
# shellcheck disable=SC2046
flang-new-16 -o "$tmp/pc-flang" "$tmp/p/use_papi.f90" $fflags $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs papif-llvmflang-16)
env -i "$tmp/pc-flang" | grep -q "use papi: " || { echo "FAIL: papif-llvmflang-16 build"; exit 1; }
# Only gfortran's module installed: flang gets told which compilers the install has.
rm -rf "$tmp/prefix" "$tmp/b-flang-new-16"
cmake --install "$gbuild" --prefix "$tmp/prefix" >/dev/null
if cmake -S "$tmp/p" -B "$tmp/b-flang-new-16" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    -DCMAKE_Fortran_COMPILER=flang-new-16 -DCMAKE_EXE_LINKER_FLAGS="$fflags" >"$tmp/log" 2>&1; then
  echo "FAIL: configuring with a compiler that has no module succeeded"; exit 1
fi
grep -q "llvmflang-16" "$tmp/log" && grep -q "gnu-" "$tmp/log" ||
  { cat "$tmp/log"; echo "FAIL: the message does not name both compilers"; exit 1; }
grep -A4 "no Fortran module" "$tmp/log"
# ... and plain papif is gfortran's, which builds with gfortran.
pc=$(dirname "$(find "$tmp/prefix" -name papi.pc | head -n 1)")
# shellcheck disable=SC2046
gfortran -o "$tmp/pc-plain" "$tmp/p/use_papi.f90" $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs papif)
env -i "$tmp/pc-plain" | grep -q "use papi: " || { echo "FAIL: plain papif with one compiler"; exit 1; }
echo "test_two_fortran_compilers: PASSED"
