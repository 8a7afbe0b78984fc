#!/bin/sh
# check_main_job.sh SRC BUILD CMAKE: the README's main job (scripts/build-and-run.sh) leaves
# the checkout as it was: its reports (papi_mpi_report.json, papi_mpi_ranks.csv, any
# papi_hl_output/) go under the build tree (BUILD/main-job), none into SRC. The script's
# run part is executed as it is, from a copy whose scripts/install-deps.sh and
# scripts/build.sh do nothing (deps are installed and BUILD is built: ctest runs in it;
# install-deps.sh is asked for --main, and its main list holds none of the test lanes'
# packages),
# with build-run/ linked to BUILD and _install/ a fresh install of it; it is started with
# the checkout as working directory, as the README says. `git status --porcelain` of SRC
# before and after must be the same. The job asks build.sh for build-run/ without tests
# or benchmarks (it runs neither; build-and-test.sh builds them in build/). Exit 0 pass,
# 1 fail, 77 skipped (SRC is no git checkout, e.g. a release tarball, or git is missing).
set -eu
src=$1 build=$2 cmake=$3
command -v git >/dev/null && git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
  { echo "SKIPPED: $src is not a git checkout"; exit 77; }
# The main job runs the C, Fortran and MPI examples: a build without them cannot run it.
[ -x "$build/examples/fortran/example_fixed_form_counts" ] ||
  { echo "SKIPPED: this build has no Fortran examples, which the main job runs"; exit 77; }
status() { git -C "$src" status --porcelain --untracked-files=all --ignored=no; }
before=$(status)
top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT
mkdir -p "$top/scripts"
cp "$src/scripts/build-and-run.sh" "$top/scripts/"
printf '#!/bin/sh\necho "$*" >"%s/deps-args"\n' "$top" >"$top/scripts/install-deps.sh"
printf '#!/bin/sh\necho "$*" >"%s/build-args"\n' "$top" >"$top/scripts/build.sh"
chmod +x "$top/scripts/"*.sh
ln -s "$build" "$top/build-run"
"$cmake" --install "$build" --prefix "$top/_install" >/dev/null
rm -rf "$build/main-job"
(cd "$src" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 sh "$top/scripts/build-and-run.sh") \
  >"$top/main-job.log" 2>&1 || { cat "$top/main-job.log"; echo "FAIL: the main job failed"; exit 1; }
after=$(status)
args=$(cat "$top/build-args")
case " $args " in
  *" $top/build-run "*-DPAPI_BUILD_TESTS=OFF*-DPAPI_BUILD_BENCH=OFF*) ;;
  *) echo "FAIL: the main job builds with '$args', not build-run/ without tests and benchmarks"; exit 1 ;;
esac
# It installs the main job's packages only: the test lanes' come with build-and-test.sh.
deps=$(cat "$top/deps-args")
[ "$deps" = "--main" ] ||
  { echo "FAIL: the main job runs install-deps.sh '$deps', not --main (every test lane's packages)"; exit 1; }
main=$(sed -n '/^main_pkgs="/,/^"/p' "$src/scripts/install-deps.sh" | grep -v '"')
[ -n "$main" ] || { echo "FAIL: install-deps.sh has no main_pkgs list"; exit 1; }
for p in chromium qemu-system-arm qemu-user gcc-aarch64-linux-gnu flang-16 lintian \
         libtrilinos-kokkos-dev otf2-tools papi-examples clang; do
  case " $(echo $main) " in
    *" $p "*) echo "FAIL: install-deps.sh --main installs $p, which only the test lanes use"; exit 1 ;;
  esac
done
if [ "$before" != "$after" ]; then
  echo "FAIL: the main job changed the checkout:"
  printf '%s\n' "$after" | grep -vxF "$before" || true
  exit 1
fi
# Its reports are where it says, with the release that wrote them.
if [ -e "$build/mpi-wrappers/libpapi_mpi_mpich.so" ]; then
  grep -q '"papi_compat_version"' "$build/main-job/papi_mpi_report.json" ||
    { cat "$top/main-job.log"; echo "FAIL: no papi_mpi_report.json with papi_compat_version under $build/main-job"; exit 1; }
fi
# The Python example ran with the install's module and counted one fault per page.
grep -q "^1000 pages: 10[0-9][0-9] page faults$" "$top/main-job.log" ||
  { cat "$top/main-job.log"; echo "FAIL: the Python example did not count 1000 page faults"; exit 1; }
echo "main job: reports under $build/main-job ($(ls "$build/main-job" | tr '\n' ' ')), checkout unchanged: PASSED"
