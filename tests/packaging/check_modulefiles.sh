#!/bin/sh
# check_modulefiles.sh TOOL PREFIX VERSION SRC: run inside a sandbox (sandbox.sh): with
# TOOL (lmod or environment-modules, which conflict with each other) installed, then in a clean
# shell (env -i, no profile) `module use DIR; module load papi-compat/VERSION` and check
# that papi_avail, man PAPI_start / papi_avail (and man ls: the system's pages stay), a
# pkg-config build, a plain `cc -lpapi` build run against the install and a
# find_package(PAPI) build work with nothing else set, that the unload unsets MANPATH
# again, for each way a site puts the modulefiles in its tree:
#   installed  DIR = PREFIX/share/modulefiles, as cmake --install wrote them;
#   copy       DIR = a site tree holding copies of the two files (README: "copy");
#   symlink    DIR = a site tree holding symbolic links to them (README: "link");
#   moved      the whole install moved to another prefix, relocate-modulefiles.sh run
#              there; before it, loading the moved tree's module fails with a message.
set -eu
tool=$1 prefix=$2 version=$3 src=$4
# lmod is installed on the machine; environment-modules (which conflicts with it) is
# installed here, in the overlay, from the package file scripts/install-deps.sh put in
# apt's cache: nothing is downloaded.
if ! dpkg-query -W -f='${Status}' "$tool" 2>/dev/null | grep -q "install ok installed"; then
  apt-get install -y -q --no-install-recommends --no-download "$tool" >/tmp/apt.log 2>&1 ||
    { cat /tmp/apt.log; echo "FAIL: $tool is neither installed nor in apt's cache (scripts/install-deps.sh)"; exit 1; }
fi
case $tool in
  lmod) init=/usr/share/lmod/lmod/init/bash ;;
  environment-modules) init=/usr/share/modules/init/bash ;;
esac
work=$(mktemp -d)
cat >"$work/job.sh" <<JOB
set -eu
moddir=\$1 want=\$2 how=\$3
ls_page=\$(man -w ls 2>/dev/null || true) # MANPATH unset here: the system's own page
. $init
module use \$moddir
module load papi-compat/$version
module list 2>&1
fail() { echo "FAIL ($tool, \$how): \$*"; exit 1; }
papi_avail --version | grep -qx "papi_avail (papi-compat) $version" || fail "papi_avail --version"
[ "\$(command -v papi_avail)" = "\$want/bin/papi_avail" ] || fail "papi_avail is \$(command -v papi_avail)"
papi_avail -a >/dev/null || fail "papi_avail"
[ "\$PAPI_ROOT" = "\$want" ] || fail "PAPI_ROOT=\$PAPI_ROOT, want \$want"
man -w PAPI_start | grep -q "^\$want/" || fail "man -w PAPI_start: \$(man -w PAPI_start)"
man -P cat papi_avail 2>/dev/null | grep -q "papi_avail" || fail "man papi_avail"
[ -z "\$ls_page" ] || [ "\$(man -w ls 2>/dev/null)" = "\$ls_page" ] || fail "man -w ls: the system's pages are gone (MANPATH=\$MANPATH)"
case "\$LD_LIBRARY_PATH:\$LIBRARY_PATH:\$CPATH" in "\$want/"*":\$want/"*":\$want/"*) ;; *) fail "LD_LIBRARY_PATH/LIBRARY_PATH/CPATH: \$LD_LIBRARY_PATH / \$LIBRARY_PATH / \$CPATH";; esac
man -P cat PAPI_start 2>/dev/null | grep -q "RETURN VALUES" || fail "man PAPI_start has no RETURN VALUES"
pkg-config --libs papi | grep -q -- "-L\$want/" || fail "pkg-config --libs papi: \$(pkg-config --libs papi)"
out=\$(mktemp -d)
cc -o \$out/pc $src/examples/c/pagefaults.c \$(pkg-config --cflags --libs papi)
\$out/pc 100 | grep -q "100 page faults" || fail "pkg-config build does not count 100 page faults"
cmake -S $src/examples/consumer -B \$out/b >/dev/null
cmake --build \$out/b >/dev/null
\$out/b/consumer_pagefaults 100 | grep -q "100 page faults" || fail "find_package(PAPI) build"
grep -q "\$want/" \$out/b/CMakeCache.txt || fail "find_package(PAPI) did not find \$want"
cc -o \$out/plain $src/examples/c/pagefaults.c -lpapi || fail "cc pagefaults.c -lpapi (CPATH, LIBRARY_PATH)"
ldd \$out/plain | grep -q "libpapi.so.* => \$want/" || fail "cc -lpapi does not run with the install's libpapi: \$(ldd \$out/plain | grep libpapi)"
module unload papi-compat
[ -z "\${MANPATH+x}" ] || fail "MANPATH after the unload: '\$MANPATH' (unset before)"
if command -v papi_avail >/dev/null && [ "\$(command -v papi_avail)" = "\$want/bin/papi_avail" ]; then
  fail "module unload left papi_avail on PATH"
fi
echo "modulefile under $tool (\$how): PASSED"
JOB
run() { env -i PATH=/usr/bin:/bin HOME=/root TERM=dumb bash --noprofile --norc "$work/job.sh" "$@"; }
mods=$prefix/share/modulefiles/papi-compat
run "$prefix/share/modulefiles" "$prefix" installed
mkdir -p "$work/site-copy/papi-compat" "$work/site-link/papi-compat"
cp "$mods/$version" "$mods/$version.lua" "$work/site-copy/papi-compat/"
ln -s "$mods/$version" "$mods/$version.lua" "$work/site-link/papi-compat/"
run "$work/site-copy" "$prefix" copy
run "$work/site-link" "$prefix" symlink
# The install moved: its modules still name the old prefix until relocated.
moved=$work/moved-prefix
mv "$prefix" "$moved"
if run "$moved/share/modulefiles" "$moved" moved-not-relocated >"$work/unrelocated.log" 2>&1; then
  mv "$moved" "$prefix"; echo "FAIL ($tool): a moved tree's module loaded without relocation"; exit 1
fi
grep -q "relocate-modulefiles.sh" "$work/unrelocated.log" || { cat "$work/unrelocated.log"; mv "$moved" "$prefix"; echo "FAIL ($tool): no relocation hint"; exit 1; }
sh "$moved/share/papi-compat/relocate-modulefiles.sh"
rc=0
run "$moved/share/modulefiles" "$moved" moved-relocated || rc=$?
mv "$moved" "$prefix"
exit $rc
