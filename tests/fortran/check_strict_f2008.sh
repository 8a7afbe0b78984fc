#!/bin/sh
# gfortran -std=f2008 -Wall -Wextra -Werror on the generated module and the examples,
# whatever flags the build itself used.
set -eu
fc=$1 module=$2 incdir=$3 examples=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags="-std=f2008 -Wall -Wextra -Werror"
"$fc" $flags -J "$tmp" -c "$module" -o "$tmp/papi_module.o"
for f in "$examples"/*.f90 "$examples"/*.F; do
  "$fc" $flags -I "$tmp" -I "$incdir" -fsyntax-only "$f"
done
echo "check_strict_f2008: module and examples clean"
