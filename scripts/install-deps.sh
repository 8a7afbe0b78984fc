#!/bin/sh
# Install what is missing on Debian 12, and only that:
#   install-deps.sh --main   what the main job (scripts/build-and-run.sh) builds and runs:
#                            compilers, libpfm4, hwloc, libdw, both MPIs, OTF2, man;
#   install-deps.sh [--all]  that, plus what every test lane needs (scripts/build-and-test.sh):
#     - the test lanes' Debian packages (the second list below: clang, flang, chromium,
#       QEMU and the arm64 cross compilers, lintian, Kokkos, PAPI 7 and its tests,
#       pandas and matplotlib for papi_report, ...);
#     - the arm64 PMU lane's guest files: the arm64 libraries of its sysroot, the guest
#       kernel and a static busybox (scripts/guest/fetch-arm64 --lane, into ~/.cache);
#     - environment-modules' package file in apt's cache (it conflicts with lmod, which is
#       installed: the packaging lane installs it in a throw-away overlay, offline).
# Runs apt-get as root (directly, or through sudo for a normal user). This is the only
# step that installs or downloads anything: the tests and lanes never do (a test that
# finds something missing says so, and a CI run fails on it).
# When another apt-get or unattended-upgrades holds the package manager's lock, it waits
# up to PAPI_DEPS_LOCK_TIMEOUT seconds (default 900), saying which process holds it, and
# fails with that reason after.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/dpkg-lock.sh"
case ${1:---all} in
  --main) all=0 ;;
  --all) all=1 ;;
  *) echo "install-deps: unknown option '$1' (--main: the main job's packages; --all, the default: every test lane's too)" >&2; exit 2 ;;
esac
timeout=${PAPI_DEPS_LOCK_TIMEOUT:-900}
case $timeout in '' | *[!0-9]*) echo "install-deps: PAPI_DEPS_LOCK_TIMEOUT must be seconds, not '$timeout'" >&2; exit 2 ;; esac
# One package per line (several changes add packages: they merge without conflicts).
# The main job: the library, tools, Fortran and Python modules, the MPI wrappers for both
# MPIs (an install serves either), the manual and the examples, and what runs them.
main_pkgs="
cmake make gcc pkg-config python3
binutils
gfortran
libpfm4-dev
libhwloc-dev
libudev-dev
mpich libmpich-dev
openmpi-bin
libopenmpi-dev
libdw-dev
librocm-smi-dev
libopen-trace-format2-dev
man-db
"
# The test lanes only.
test_pkgs="
file
hwloc
libpapi-dev papi-tools papi-examples
clang libclang-rt-14-dev
flang-16
libomp-dev
clang-format
dpkg-dev
python3-pandas
python3-matplotlib
python3-numpy
python3-pytest
python3-mpi4py
python3-pip
python3-venv
chromium
gcc-aarch64-linux-gnu libc6-dev-arm64-cross gfortran-aarch64-linux-gnu
qemu-system-arm qemu-user cpio
lmod
lintian
libtrilinos-kokkos-dev
g++
libcap2-bin
python3-jsonschema
otf2-tools
python3-otf2
"
pkgs=$main_pkgs
[ $all = 1 ] && pkgs="$main_pkgs $test_pkgs"
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
apt_get() {
  wait_for_package_locks "$timeout" || exit 1
  # The lock may be taken again between the wait and apt-get: apt waits for it too.
  $SUDO apt-get -o DPkg::Lock::Timeout="$timeout" "$@"
}
updated=0
update_once() {
  [ "$updated" = 1 ] && return 0
  apt_get update -qq
  updated=1
}
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "installing:$missing"
  update_once
  # shellcheck disable=SC2086
  apt_get install -y -qq --no-install-recommends $missing
fi
[ $all = 1 ] || exit 0
# environment-modules for the packaging lane's overlay: its .deb and its dependencies in
# apt's cache (apt-get installs it there with --no-download).
if ! ls /var/cache/apt/archives/environment-modules_*.deb >/dev/null 2>&1; then
  update_once
  apt_get install -y -qq --no-install-recommends --download-only environment-modules
fi
# The PMU lane's arm64 files (fetch-arm64 adds the arm64 architecture to apt once).
if ! lane=$("$here/guest/fetch-arm64" --lane-missing); then
  echo "fetching the arm64 guest files: $lane"
  wait_for_package_locks "$timeout" || exit 1
  "$here/guest/fetch-arm64" --lane
fi
