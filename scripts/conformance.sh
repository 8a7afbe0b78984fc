#!/bin/sh
# PAPI 7's own test suites (Debian package papi-examples: ctests and ftests) built against
# a PAPI installation and run one by one, one line per test and the totals.
#   scripts/conformance.sh build   WORKDIR PREFIX [INCDIR LIB]   copy the sources, build
#   scripts/conformance.sh run     WORKDIR [TIMEOUT]              run, print RESULT lines
#   scripts/conformance.sh compare EXPECTED RESULTS [OTHER]       fail if worse than expected
#                                                                  or than PAPI 7 (OTHER)
#   scripts/conformance.sh ci      OUTDIR PREFIX EXPECTED           all of it, ours and PAPI 7
# PREFIX is an install prefix (include/, lib/libpapi.so); INCDIR and LIB override them
# (the system's PAPI 7: /usr/include /usr/lib/x86_64-linux-gnu/libpapi.so). The package's
# sources are test data: copied into WORKDIR, never into the repository.
# Environment: PAPI_EXAMPLES (default /usr/share/doc/papi-examples/examples); CC, F77, NM
# and CONFORMANCE_LDFLAGS to build for another machine (scripts/conformance-arm64.sh).
set -eu
examples=${PAPI_EXAMPLES:-/usr/share/doc/papi-examples/examples}

build() {
  work=$(mkdir -p "$1" && cd "$1" && pwd) prefix=$2 inc=${3:-$2/include} lib=${4:-$2/lib/libpapi.so}
  cc=${CC:-cc} f77=${F77:-gfortran}
  [ -d "$examples/ctests" ] || { echo "SKIPPED: $examples missing (apt-get install papi-examples)"; exit 77; }
  rm -rf "$work"; mkdir -p "$work"
  cp -r "$examples/ctests" "$examples/ftests" "$examples/testlib" "$examples/validation_tests" "$work/"
  chmod -R u+w "$work"
  libdir=$(dirname "$lib")
  flags="-g -O1 -w -I$inc -I$work/testlib -I$work/validation_tests"
  # libtestlib.a: the test library plus the validation helpers without a main().
  # shellcheck disable=SC2086
  (cd "$work/testlib" && for f in test_utils clockcore do_loops; do
     $cc $flags -c $f.c -o $f.o; done
   $f77 -g -O1 -w -I"$inc" -I. -Dlinux -ffixed-line-length-132 -c ftests_util.F -o ftests_util.o
   for f in ../validation_tests/*.c; do
     o=v_$(basename "$f" .c).o
     $cc $flags -c "$f" -o "$o" 2>/dev/null || continue
     ${NM:-nm} "$o" | grep -q ' T main$' && rm -f "$o"
   done
   ar rcs libtestlib.a ./*.o)
  common="CC=$cc F77=$f77 CC_R=$cc\ -pthread TESTLIB=$work/testlib/libtestlib.a PAPILIB=$lib \
TOPTFLAGS=-O1 DOLOOPS= TESTINS= TESTFLOPS= TESTCYCLES= CLOCKCORE= LDL=-ldl SMPLIBS= \
MPICC= NO_MPI_TESTS=yes testlibdir=$work/testlib"
  ldflags="-Wl,-rpath,$libdir ${CONFORMANCE_LDFLAGS:-} -lpthread -lm"
  # Ours keeps the Fortran wrappers in libpapif (PAPI 7 has them in libpapi).
  flib=""; [ -e "$libdir/libpapif.so" ] && flib="$libdir/libpapif.so"
  # The package's Makefiles name every test and its variant flags; paths are ours.
  # shellcheck disable=SC2086
  eval make -k -j"$(nproc)" -C "$work/ctests" $common \
    "INCLUDE='-I. $flags'" "CFLAGS='-g -w'" "LDFLAGS='$ldflags'" all \
    >"$work/ctests-build.log" 2>&1 || true
  # shellcheck disable=SC2086
  eval make -k -j"$(nproc)" -C "$work/ftests" $common \
    "INCLUDE='-I. -I$inc -I$work/testlib'" "LDFLAGS='$flib $ldflags'" \
    "FFLAGS='-g -w -Dlinux -ffixed-line-length-132'" all \
    >"$work/ftests-build.log" 2>&1 || true
  # Names every test the Makefiles define, built or not (an unbuilt one is a failure).
  : >"$work/tests.txt"
  for d in ctests ftests; do
    # shellcheck disable=SC2016
    printf 'print-all:\n\t@echo $(ALL)\n' | eval make -s -C "$work/$d" -f Makefile -f - \
      $common print-all | tr ' ' '\n' | grep . | awk '!seen[$0]++' | sed "s|^|$d/|" >>"$work/tests.txt"
  done
  echo "built $(for t in $(cat "$work/tests.txt"); do [ -x "$work/$t" ] && echo "$t"; done | wc -l) of $(wc -l <"$work/tests.txt") tests in $work"
}

# Support programs other tests start (burn, attach_target) and the MPI tests, which this
# build leaves out (NO_MPI_TESTS): not tests here. PAPI's run_tests_exclude.txt also
# leaves out the long ones (pthrtough2, timer_overflow, omptough); they run here, so the
# totals count the 104 ctests the package defines besides those.
not_a_test() {
  case $1 in ctests/burn|ctests/attach_target|ctests/mpi_hl|ctests/mpi_omp_hl|ctests/mpifirst|\
ctests/pernode|ctests/val_omp)
    return 0;; esac
  return 1
}

run() {
  work=$1 limit=${2:-60}
  pass=0 fail=0 skip=0
  # busybox's timeout (the arm64 guest) may lack -k.
  if timeout -k 1 5 true 2>/dev/null; then to="timeout -k 5"; else to="timeout -s KILL"; fi
  for t in $(cat "$work/tests.txt"); do
    not_a_test "$t" && continue
    name=$(basename "$t") dir=$work/$(dirname "$t")
    if [ ! -x "$work/$t" ]; then
      echo "RESULT $t NOTBUILT"; fail=$((fail + 1)); continue
    fi
    log=$work/$t.out
    rc=0
    # Tests expected to time out only under emulation get a shorter bound (short-limits.txt:
    # "test seconds" lines, written by conformance-arm64.sh from the expectation file).
    lim=$limit
    if [ -f "$work/short-limits.txt" ]; then
      while read -r st sl; do [ "$st" = "$t" ] && lim=$sl; done <"$work/short-limits.txt"
    fi
    # OpenMP threads wait passively: spinning threads of a busy 2-core machine made
    # omptough (3 s alone) outlast the limit; both libraries run the same way.
    # shellcheck disable=SC2086
    (cd "$dir" && OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive $to "$lim" "./$name" TESTS_QUIET) \
      >"$log" 2>&1 </dev/null || rc=$?
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] || [ "$rc" -eq 143 ]; then r=TIMEOUT
    elif grep -q 'FAILED' "$log" || [ "$rc" -ne 0 ]; then r=FAILED
    elif grep -q 'SKIPPED' "$log"; then r=SKIPPED
    else r=PASSED; fi
    case $r in PASSED) pass=$((pass + 1));; SKIPPED) skip=$((skip + 1));; *) fail=$((fail + 1));; esac
    echo "RESULT $t $r"
    [ "$r" = PASSED ] || [ "$r" = SKIPPED ] || sed -n '1,3s/^/    /p' "$log" | cut -c1-160
  done
  echo "TOTAL passed $pass failed $fail skipped $skip"
}

rank() { case $1 in PASSED) echo 2;; SKIPPED) echo 1;; *) echo 0;; esac; }

# EXPECTED: "name result reason..." lines. Fails when a test does worse than expected or
# when OTHER (PAPI 7's results, measured now or recorded) has it PASSED and ours not.
compare() {
  expected=$1 results=$2 other=${3:-}
  bad=0 regressions=""
  grep -q '^RESULT ' "$results" || { echo "no test results in $results"; return 1; }
  for t in $(sed -n 's/^RESULT \([^ ]*\) .*/\1/p' "$results"); do
    now=$(sed -n "s|^RESULT $t \([A-Z]*\).*|\1|p" "$results")
    want=$(awk -v t="$t" '$1 == t { print $2; exit }' "$expected")
    ref=""
    [ -n "$other" ] && ref=$(sed -n "s|^RESULT $t \([A-Z]*\).*|\1|p" "$other")
    line="$t ours $now"
    [ -n "$other" ] && line="$line PAPI7 ${ref:-none}"
    [ -z "$want" ] && want=PASSED
    if [ "$(rank "$now")" -lt "$(rank "$want")" ]; then
      echo "REGRESSION $line (expected $want)"; bad=1 regressions="$regressions $t"
    elif [ "$ref" = PASSED ] && [ "$now" != PASSED ]; then
      echo "REGRESSION $line (PAPI 7 passes it)"; bad=1 regressions="$regressions $t"
    elif [ "$want" != "$now" ]; then
      echo "CHANGED $line (expected $want: update the expectation file)"
    else
      echo "$line"
    fi
  done
  for s in c f; do
    echo "${s}tests: ours $(grep -c "^RESULT ${s}tests/.* PASSED" "$results") passed of $(grep -c "^RESULT ${s}tests/" "$results")${other:+, PAPI 7 $(grep -c "^RESULT ${s}tests/.* PASSED" "$other") passed}"
  done
  # Named again last: a log that keeps only its tail says which.
  [ -z "$regressions" ] || echo "regressions:$regressions"
  return $bad
}

# Ours and, when installed, the system's PAPI 7 side by side; fails on a regression of ours.
ci() {
  out=$(mkdir -p "$1" && cd "$1" && pwd) prefix=$2 expected=$3
  [ -d "$examples/ctests" ] || { echo "SKIPPED: papi-examples is not installed"; return 0; }
  build "$out/ours" "$prefix"
  run "$out/ours" 20 >"$out/ours.txt"
  other=""
  p7=/usr/lib/$(gcc -print-multiarch 2>/dev/null)/libpapi.so
  if [ -e "$p7" ] && [ -e /usr/include/papi.h ]; then
    build "$out/papi7" /usr /usr/include "$p7"
    run "$out/papi7" 20 >"$out/papi7.txt"
    other=$out/papi7.txt
  fi
  grep -v '^RESULT\|^TOTAL' "$out/ours.txt" | head -40 || true
  compare "$expected" "$out/ours.txt" ${other:+"$other"}
}

cmd=${1:-}; [ $# -gt 0 ] && shift
case $cmd in
  build) build "$@";;
  run) run "$@";;
  compare) compare "$@";;
  ci) ci "$@";;
  *) sed -n '2,11p' "$0"; exit 2;;
esac
