#!/bin/sh
# Configure, build and install into _install/ inside the checkout.
#   scripts/build.sh [build-dir] [extra cmake args...]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
[ $# -gt 0 ] && shift
cmake -S "$top" -B "$build" -DCMAKE_INSTALL_PREFIX="$top/_install" "$@"
cmake --build "$build" -j"$(nproc)"
cmake --install "$build" >/dev/null
