#!/bin/sh
# Install what the build and the tests need on Debian 12, only what is missing.
# Runs apt-get as root (directly, or through sudo for a normal user).
set -eu
# One package per line (several changes add packages: they merge without conflicts).
pkgs="
cmake make gcc pkg-config python3 file
gfortran
libpfm4-dev
libhwloc-dev hwloc
mpich libmpich-dev
openmpi-bin
libopenmpi-dev
libdw-dev
libpapi-dev papi-tools papi-examples
clang libclang-rt-14-dev
binutils
man-db
libudev-dev
flang-16
clang-format
dpkg-dev
python3-pandas
python3-matplotlib
chromium
"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends $missing
