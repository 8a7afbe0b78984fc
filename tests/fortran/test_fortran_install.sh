#!/bin/sh
# Install the build into a fresh prefix and build the Fortran examples as a project of
# their own against it (find_package(PAPI), PAPI::papif, papi.mod and fpapi.h from the
# installed include directory), then run them.
set -eu
build_dir=$1
src_dir=$2
csv=$3
fc=$4   # the build's Fortran compiler, and its module tag (include/fortran/<tag>)
tag=$5
fflags=${6:-} # extra link flags of that compiler (Debian's flang-16: -L of its runtime)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null
for f in "fortran/$tag/papi.mod" fpapi.h f77papi.h f90papi.h; do
  test -f "$tmp/prefix/include/$f" || { echo "FAIL: $f is not installed"; exit 1; }
done
cmake -S "$src_dir/examples/fortran" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_Fortran_COMPILER="$fc" -DCMAKE_EXE_LINKER_FLAGS="$fflags" >/dev/null
cmake --build "$tmp/b" >/dev/null
out=$("$tmp/b/example_fixed_form_counts")
echo "$out"
case "$out" in *"page faults"*) ;; *) echo "FAIL: fixed-form example printed no count"; exit 1 ;; esac
PAPI_CSV_EVENT_FILE="$csv" "$tmp/b/example_flops_matmul"
# A program compiled by hand against the installed module and library.
cat > "$tmp/hand.f90" <<'F90'
program hand
  use papi
  implicit none
  integer(c_int) :: check
  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  print '(a)', 'hand-built use papi program: initialised'
end program hand
F90
pcdir=$(dirname "$(find "$tmp/prefix" -name "papif-$tag.pc" | head -n 1)")
strict=""
case $tag in gnu-*) strict="-std=f2008 -Wall -Wextra -Werror" ;; esac
# shellcheck disable=SC2046,SC2086
"$fc" $strict -o "$tmp/hand" "$tmp/hand.f90" $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs "papif-$tag") $fflags
env -i "$tmp/hand"
libdir=$(pkg-config --variable=libdir "$pcdir/papi.pc")
# A Fortran-only project (no C): find_package(PAPI) and PAPI::papi alone for a code
# that includes f90papi.h, as PAPI's users link (-lpapi). Runs from a clean environment.
mkdir -p "$tmp/fonly"
cp "$src_dir/tests/fortran/t_perror_f90papi.f90" "$src_dir/tests/fortran/t_perror_f90papi_msg.f90" "$tmp/fonly/"
cat > "$tmp/fonly/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(fortran_only LANGUAGES Fortran)
find_package(PAPI REQUIRED)
add_executable(fonly t_perror_f90papi.f90 t_perror_f90papi_msg.f90)
target_link_libraries(fonly PRIVATE PAPI::papi)
CM
cmake -S "$tmp/fonly" -B "$tmp/fonly/b" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_Fortran_COMPILER="$fc" -DCMAKE_EXE_LINKER_FLAGS="$fflags" >/dev/null
cmake --build "$tmp/fonly/b" >/dev/null
env -i sh "$src_dir/tests/fortran/run_perror_forms.sh" "$tmp/fonly/b/fonly" f90papi.h
# By hand: fixed form with fpapi.h, -lpapi alone, RUNPATH from the link line only.
cp "$src_dir/tests/fortran/t_perror_fixed.F" "$src_dir/tests/fortran/t_perror_fixed_msg.F" "$tmp/"
# shellcheck disable=SC2086
"$fc" -I"$tmp/prefix/include" -o "$tmp/fixed" "$tmp/t_perror_fixed.F" "$tmp/t_perror_fixed_msg.F" \
  -L"$libdir" -lpapi -Wl,-rpath,"$libdir" $fflags
env -i sh "$src_dir/tests/fortran/run_perror_forms.sh" "$tmp/fixed" fpapi.h
echo "test_fortran_install: PASSED"
