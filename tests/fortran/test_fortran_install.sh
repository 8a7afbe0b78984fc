#!/bin/sh
# Install the build into a fresh prefix and build the Fortran examples as a project of
# their own against it (find_package(PAPI), PAPI::papif, papi.mod and fpapi.h from the
# installed include directory), then run them.
set -eu
build_dir=$1
src_dir=$2
csv=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null
for f in papi.mod fpapi.h f77papi.h f90papi.h; do
  test -f "$tmp/prefix/include/$f" || { echo "FAIL: $f is not installed"; exit 1; }
done
cmake -S "$src_dir/examples/fortran" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
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
libdir=$(dirname "$(find "$tmp/prefix" -name 'libpapif.so' | head -n 1)")
gfortran -std=f2008 -Wall -Wextra -Werror -I"$tmp/prefix/include" -o "$tmp/hand" "$tmp/hand.f90" \
  -L"$libdir" -lpapif -lpapi -Wl,-rpath,"$libdir"
"$tmp/hand"
echo "test_fortran_install: PASSED"
