# install_tmp.sh: sourced by the shell tests of an installed tree, after build=$1 (the build
# folder): fail MESSAGE (FAIL: line, exit 1), a scratch folder $tmp removed at exit, and
# the build installed under $tmp/prefix.
# shellcheck shell=sh disable=SC2154 # build comes from the sourcing test
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
