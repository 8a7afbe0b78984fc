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
cc -o "$tmp/pc" "$src_dir/examples/c/pagefaults.c" $flags -Wl,-rpath,"$tmp/prefix/lib"
"$tmp/pc" 300
echo "test_install_consumer: PASSED"
