#!/bin/sh
# The packaging lane: Debian packages and environment modules, as a site installs them.
#   scripts/packaging-lane.sh BUILD_DIR [PACKAGE_BUILD_DIR]
# 1. cpack -G DEB of a build configured with -DCMAKE_INSTALL_PREFIX=/usr (PACKAGE_BUILD_DIR
#    or BUILD_DIR when it is one, else BUILD_DIR/packaging-build);
#    lintian on them: no error, no warning (overrides for what is deliberate);
# 2. in a throw-away overlay of this machine (tests/packaging/sandbox.sh, nothing is
#    changed outside it): apt-get install ./*.deb, then the tools, man pages, pkg-config,
#    find_package(PAPI) and the classic static line (tests/packaging/check_debs.sh);
# 3. `cmake --install` into a prefix, then in two more overlays Debian's lmod and
#    environment-modules (they conflict with each other): module load in a clean shell
#    (tests/packaging/check_modulefiles.sh).
# Needs root and overlayfs (otherwise it prints SKIPPED with the reason and exits 77),
# lmod installed and environment-modules in apt's cache (scripts/install-deps.sh):
# nothing is downloaded here.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
version=$(sed -n 's/^project(papi-compat VERSION \([0-9.]*\).*/\1/p' "$top/CMakeLists.txt")
api=$(sed -n 's/^set(PAPI_API_VERSION \([0-9.]*\))/\1/p' "$top/CMakeLists.txt")
work=$build/packaging-lane
t0=$(date +%s)
step() { echo "packaging lane: $* ($(($(date +%s) - t0)) s)"; }
rm -rf "$work"
mkdir -p "$work/debs"
# The packages install under /usr: they are made from a build configured so (its
# libraries then go to the multiarch directory, papi.pc names /usr): PACKAGE_BUILD_DIR
# or BUILD_DIR when it is one, else a build of the same sources beside it (kept, so the
# next run is quick). The modulefiles are checked on BUILD_DIR's install.
pkgbuild=${2:-$build}
if ! grep -qx 'CMAKE_INSTALL_PREFIX:PATH=/usr' "$pkgbuild/CMakeCache.txt"; then
  pkgbuild=$build/packaging-build
  { cmake -S "$top" -B "$pkgbuild" -DCMAKE_INSTALL_PREFIX=/usr -DPAPI_BUILD_TESTS=OFF \
      -DPAPI_BUILD_BENCH=OFF && cmake --build "$pkgbuild" -j2; } >"$work/build-usr.log" 2>&1 ||
    { tail -n 40 "$work/build-usr.log"; exit 1; }
fi
(cd "$pkgbuild" && cpack -G DEB -B "$work/debs" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; exit 1; }
rm -rf "$work/debs/_CPack_Packages"
step "cpack done"
ls "$work/debs"
# Debian's own checks of the packages: no error and no warning (the deliberate ones are
# overridden in the packages, packaging/debian/README.md says why). lintian reads the
# packages on one core for over a minute: it runs beside the checks below (which wait on
# apt and the sandboxes), its verdict taken at the end.
command -v lintian >/dev/null || { echo "FAIL: lintian is not installed (scripts/install-deps.sh)"; exit 1; }
(cd "$work/debs" && lintian --tag-display-limit 0 --fail-on error,warning ./*.deb) >"$work/lintian.log" 2>&1 &
lintian_pid=$!
lintian_verdict() {
  if wait "$lintian_pid"; then
    echo "lintian: no error, no warning ($(ls "$work/debs" | wc -l) packages)"
    step "lintian done"
  else
    grep -v 'root privileges' "$work/lintian.log"; echo "FAIL: lintian reports errors or warnings"; exit 1
  fi
}
sb=$top/tests/packaging/sandbox.sh
rc=0
sh "$sb" "$work/sb-debs" sh "$top/tests/packaging/check_debs.sh" "$work/debs" "$version" "$api" "$top" || rc=$?
# 77: a skip, not a pass (build-and-test.sh reports the lane as skipped).
[ $rc -eq 77 ] && { lintian_verdict; echo "packaging lane: SKIPPED (no sandbox here: needs root and overlayfs)"; exit 77; }
[ $rc -eq 0 ] || { lintian_verdict; exit $rc; }
step "the packages checked"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
for tool in lmod environment-modules; do
  sh "$sb" "$work/sb-$tool" sh "$top/tests/packaging/check_modulefiles.sh" "$tool" "$work/prefix" "$version" "$top"
done
step "modulefiles checked"
lintian_verdict
echo "packaging lane: PASSED"
