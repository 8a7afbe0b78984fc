#!/bin/sh
# Install the build into a fresh prefix and build a user's project against it, with
# find_package(PAPI) (shared and static) and with pkg-config: a broken install fails here.
set -eu
build_dir=$1
src_dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/include/papi.h"
test -f "$tmp/prefix/include/papiStdEventDefs.h"
cmake -S "$src_dir/examples/consumer" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/b" >/dev/null
"$tmp/b/consumer_pagefaults" 500
"$tmp/b/consumer_pagefaults_static" 500
pcdir=$(dirname "$(find "$tmp/prefix" -name papi.pc | head -n 1)")
flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs papi)
case "$flags" in *"$tmp/prefix"*) ;; *) echo "papi.pc does not point into the install prefix: $flags"; exit 1 ;; esac
# papi.pc's RUNPATH: the program runs from a clean environment.
cc -o "$tmp/pc" "$src_dir/examples/c/pagefaults.c" $flags
env -i "$tmp/pc" 300
# A static libpapi from `pkg-config --static`: libpfm4 comes with it (hwloc is loaded at
# run time; test_static_line.sh checks the static lines in detail).
sflags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --static --cflags --libs papi)
case "$sflags" in *-lpfm*) ;; *) echo "FAIL: pkg-config --static papi lacks libpfm4: $sflags"; exit 1 ;; esac
# shellcheck disable=SC2086
cc -o "$tmp/pc_static" "$src_dir/examples/c/pagefaults.c" $(echo " $sflags " | sed 's/ -lpapi / -l:libpapi.a /')
if readelf -d "$tmp/pc_static" | grep -q 'libpapi\.so'; then echo "FAIL: not linked statically"; exit 1; fi
env -i "$tmp/pc_static" 300
# The classic line of PAPI's users (PMlib, papi-wrap): libpapi.a by path and -lpfm alone
# (libpapi.a is an archive, as PAPI's).
inc=$(dirname "$(find "$tmp/prefix" -name papi.h | head -n 1)")
lib=$(dirname "$(find "$tmp/prefix" -name libpapi.a | head -n 1)")
cc -o "$tmp/classic" -I"$inc" "$src_dir/examples/c/pagefaults.c" "$lib/libpapi.a" -lpfm
if readelf -d "$tmp/classic" | grep -q 'libpapi\.so'; then echo "FAIL: classic line linked libpapi.so"; exit 1; fi
env -i "$tmp/classic" 300
# RUNPATH on what is installed and needs a library of the install: the utilities and
# the libraries run in a clean shell. (The utilities linked with libpapi.a need none, and
# carry none: an empty one made the loader search the current directory.)
for f in "$tmp"/prefix/bin/papi_avail "$tmp"/prefix/lib*/libpapi_mpi.so "$tmp"/prefix/lib*/libpapif.so; do
  [ -e "$f" ] || continue
  readelf -d "$f" | grep -q 'NEEDED.*libpapi' || continue
  readelf -d "$f" | grep -q 'RUNPATH.*\$ORIGIN' || { echo "FAIL: $f has no RUNPATH"; exit 1; }
done
if readelf -d "$tmp/prefix/bin/papi_avail" | grep -q 'RUNPATH.*\[:'; then
  echo "FAIL: papi_avail's RUNPATH has an empty entry (the current directory)"; exit 1
fi
env -i "$tmp/prefix/bin/papi_avail" >/dev/null || { echo "FAIL: installed papi_avail does not run"; exit 1; }
# The installed PMPI wrapper LD_PRELOADed into every rank, from a clean environment.
if [ $# -ge 3 ] && command -v mpirun.mpich >/dev/null; then
  wrap=$(find "$tmp/prefix" -name libpapi_mpi.so | head -n 1)
  mkdir -p "$tmp/mpi"
  (cd "$tmp/mpi" && env -i PATH=/usr/bin:/bin HOME="$tmp" timeout 120 \
    mpirun.mpich -np 2 -genv LD_PRELOAD "$wrap" "$3" >"$tmp/mpi/out" 2>&1) ||
    { cat "$tmp/mpi/out"; echo "FAIL: the installed wrapper does not run under mpirun"; exit 1; }
  test -s "$tmp/mpi/papi_mpi_report.json" || { cat "$tmp/mpi/out"; echo "FAIL: no MPI report"; exit 1; }
  # the report follows its schema (tests/common/report_check.py)
  if [ -x /usr/bin/python3 ] && ! /usr/bin/python3 "$src_dir/tests/common/report_check.py" "$tmp/mpi"; then
    echo "FAIL: the MPI report breaks its schema"; exit 1
  fi
  # ... and the installed schemas validate it with plain python3-jsonschema, its $ref to
  # region.schema.json resolved from a store of the installed files (schema/README.md)
  if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
    /usr/bin/python3 - "$tmp/prefix/share/papi/schema" "$tmp/mpi/papi_mpi_report.json" <<'EOF_PY' ||
import glob, json, os, sys
import jsonschema
store = {}
for f in glob.glob(os.path.join(sys.argv[1], "*.schema.json")):
    with open(f) as fh:
        s = json.load(fh)
    store[s["$id"]] = s
schema = store["https://papi-compat.invalid/schema/mpi_report.schema.json"]
resolver = jsonschema.RefResolver.from_schema(schema, store=store)
with open(sys.argv[2]) as fh:
    jsonschema.Draft202012Validator(schema, resolver=resolver).validate(json.load(fh))
EOF_PY
      { echo "FAIL: plain jsonschema with the installed schemas refuses the MPI report"; exit 1; }
  fi
  echo "installed libpapi_mpi.so under mpirun.mpich -np 2: report written"
fi
# The installed papi_report --check reads the installed schemas (share/papi/schema): a real
# report (the installed papi_run's file) passes, a copy broken on purpose is refused with
# its JSON path, and with the installed schemas moved away it has none to check with.
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
  schemas="$tmp/prefix/share/papi/schema"
  test -f "$schemas/region.schema.json" || { echo "FAIL: no schemas installed in $schemas"; exit 1; }
  env -i PATH=/usr/bin:/bin "$tmp/prefix/bin/papi_run" -e perf::TASK-CLOCK,perf::PAGE-FAULTS \
    -o "$tmp/run" -- true >"$tmp/run.out" 2>&1 || { cat "$tmp/run.out"; echo "FAIL: installed papi_run"; exit 1; }
  check="env -i PATH=/usr/bin:/bin $tmp/prefix/bin/papi_report --check"
  out=$($check "$tmp/run" 2>&1) || { echo "FAIL: installed papi_report --check: $out"; exit 1; }
  case "$out" in *"1 of 1 files follow their schema"*) ;;
    *) echo "FAIL: installed papi_report --check on papi_run's file: $out"; exit 1 ;; esac
  real=$(find "$tmp/run" -name 'rank_*.json' | head -n 1)
  /usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["rank"] = -3
json.dump(d, open(sys.argv[2], "w"))' "$real" "$tmp/rank_000000.json"
  if out=$($check "$tmp/rank_000000.json" 2>&1); then
    echo "FAIL: installed papi_report --check passed a broken file: $out"; exit 1
  fi
  case "$out" in *"$tmp/rank_000000.json: \$.rank:"*) ;;
    *) echo "FAIL: the broken file's path is not named: $out"; exit 1 ;; esac
  mv "$schemas" "$schemas.away"
  if out=$($check "$tmp/run" 2>&1); then
    echo "FAIL: papi_report --check passed with the installed schemas moved away: $out"; exit 1
  fi
  case "$out" in *"no schema directory"*) ;;
    *) echo "FAIL: without its installed schemas: $out"; exit 1 ;; esac
  mv "$schemas.away" "$schemas"
  echo "installed papi_report --check with the installed schemas: real file passed, broken refused"
fi
echo "test_install_consumer: PASSED"
