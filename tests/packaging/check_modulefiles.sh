#!/bin/sh
# check_modulefiles.sh TOOL PREFIX VERSION SRC: run inside a sandbox (sandbox.sh): install
# TOOL (lmod or environment-modules, which conflict with each other), then in a clean
# shell (env -i, no profile) `module use PREFIX/share/modulefiles; module load
# papi-compat` and check that papi_avail, man PAPI_start / papi_avail, a pkg-config build
# and a find_package(PAPI) build work with nothing else set.
set -eu
tool=$1 prefix=$2 version=$3 src=$4
apt-get install -y -q --no-install-recommends "$tool" man-db >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; echo "FAIL: apt-get install $tool"; exit 1; }
case $tool in
  lmod) init=/usr/share/lmod/lmod/init/bash ;;
  environment-modules) init=/usr/share/modules/init/bash ;;
esac
work=$(mktemp -d)
cat >"$work/job.sh" <<JOB
set -eu
. $init
module use $prefix/share/modulefiles
module load papi-compat/$version
module list 2>&1
fail() { echo "FAIL ($tool): \$*"; exit 1; }
papi_avail --version | grep -qx "papi_avail (papi-compat) $version" || fail "papi_avail --version"
[ "\$(command -v papi_avail)" = "$prefix/bin/papi_avail" ] || fail "papi_avail is \$(command -v papi_avail)"
papi_avail -a >/dev/null || fail "papi_avail"
[ "\$PAPI_ROOT" = "$prefix" ] || fail "PAPI_ROOT=\$PAPI_ROOT"
man -w PAPI_start | grep -q "^$prefix/" || fail "man -w PAPI_start: \$(man -w PAPI_start)"
man -P cat papi_avail 2>/dev/null | grep -q "papi_avail" || fail "man papi_avail"
man -P cat PAPI_start 2>/dev/null | grep -q "RETURN VALUES" || fail "man PAPI_start has no RETURN VALUES"
pkg-config --libs papi | grep -q -- "-L$prefix/" || fail "pkg-config --libs papi: \$(pkg-config --libs papi)"
cc -o $work/pc $src/examples/c/pagefaults.c \$(pkg-config --cflags --libs papi)
$work/pc 100
cmake -S $src/examples/consumer -B $work/b >/dev/null
cmake --build $work/b >/dev/null
$work/b/consumer_pagefaults 100
module unload papi-compat
if command -v papi_avail >/dev/null && [ "\$(command -v papi_avail)" = "$prefix/bin/papi_avail" ]; then
  fail "module unload left papi_avail on PATH"
fi
echo "modulefile under $tool: PASSED"
JOB
env -i PATH=/usr/bin:/bin HOME=/root TERM=dumb bash --noprofile --norc "$work/job.sh"
