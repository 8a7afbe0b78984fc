#!/bin/sh
# check_sandbox.sh ERRNO SECCOMP_RUN PROGRAM [ARGS...]: run PROGRAM with perf_event_open
# refused by a seccomp filter (ENOSYS or EPERM) and check what it says: the cause is named
# (seccomp, or perf_event_paranoid when that refuses first: an unprivileged process at
# level 3), the advice fits it, and nothing claims that software events count; for
# sandbox_probe, the region API's own notice says the same.
set -u
err=$1 runner=$2
shift 2
out=$("$runner" "$err" "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 77 ] && exit 77
fail() { echo "FAIL: $*"; exit 1; }
[ "$rc" -lt 128 ] || fail "$* died of signal $((rc - 128)) under the seccomp filter"
[ "$rc" -eq 0 ] || fail "$* exited with $rc under the seccomp filter"
# Who is bound by perf_event_paranoid: without CAP_PERFMON/CAP_SYS_ADMIN (bits 38, 21)
# at level 3 the kernel refuses first, and saying so is the right diagnosis.
capeff=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
privileged=0
if [ -n "$capeff" ] && [ $(( (0x$capeff >> 38) & 1 | (0x$capeff >> 21) & 1 )) -eq 1 ]; then
  privileged=1
fi
if [ "$err" = ENOSYS ] || [ "$privileged" = 1 ] || [ "$paranoid" -le 2 ]; then
  printf '%s\n' "$out" | grep -q 'seccomp' || fail "the output does not name seccomp"
  if printf '%s\n' "$out" | grep -q 'lower kernel.perf_event_paranoid\|Lower kernel.perf_event_paranoid\|grant CAP_PERFMON'; then
    fail "the advice is about perf_event_paranoid or CAP_PERFMON, which are not in the way"
  fi
else
  printf '%s\n' "$out" | grep -q 'perf_event_paranoid' || fail "the output does not name perf_event_paranoid"
fi
claims='software events (perf::\|counting software events\|software events count'
if printf '%s\n' "$out" | grep -q "$claims"; then
  fail "the output claims that software events count, but perf_event_open is refused"
fi
# The region API (sandbox_probe calls it): its own one-line notice must say why on its own.
if printf '%s\n' "$out" | grep -q '^PAPI_hl_region_begin = '; then
  notice=$(printf '%s\n' "$out" | grep '^PAPI: PAPI_hl_region_begin: ')
  [ -n "$notice" ] || fail "PAPI_hl_region_begin printed no notice of what it cannot count"
  if [ "$err" = ENOSYS ] || [ "$privileged" = 1 ] || [ "$paranoid" -le 2 ]; then
    printf '%s\n' "$notice" | grep -q 'seccomp\|perf_event_open' ||
      fail "the region API's notice names neither seccomp nor perf_event_open: $notice"
  else
    printf '%s\n' "$notice" | grep -q 'perf_event_paranoid' ||
      fail "the region API's notice does not name perf_event_paranoid: $notice"
  fi
  if printf '%s\n' "$notice" | grep -q "$claims"; then
    fail "the region API's notice claims that software events count: $notice"
  fi
fi
echo "check_sandbox ($err): PASSED"
