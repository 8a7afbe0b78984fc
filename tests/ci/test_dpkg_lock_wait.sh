#!/bin/sh
# test_dpkg_lock_wait.sh SRC: the dependency step's wait for the package manager's lock
# (scripts/dpkg-lock.sh), on a lock file of its own held with fcntl as dpkg holds its
# own: while held, wait_for_package_locks fails after its bound, naming the holder;
# released during the wait, it returns 0 at once.
set -u
src=$1
work=$(mktemp -d)
trap 'kill "$holder" 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
lock=$work/lock-frontend
: >"$lock"
# Holds an fcntl write lock on FILE for SECONDS (dpkg and apt lock this way).
hold() {
  python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "w"); fcntl.lockf(f, fcntl.LOCK_EX); print("held", flush=True); time.sleep(float(sys.argv[2]))' "$lock" "$1" >"$work/held" &
  holder=$!
  for _ in $(seq 50); do grep -q held "$work/held" 2>/dev/null && return 0; sleep 0.1; done
  fail "the lock holder did not start"
}
export DPKG_LOCK_FILES="$lock $work/absent"
. "$src/scripts/dpkg-lock.sh"

# Nobody holds it: no wait.
wait_for_package_locks 5 2>"$work/err0" || fail "no lock held, yet the wait failed: $(cat "$work/err0")"
[ -s "$work/err0" ] && fail "no lock held, yet it said: $(cat "$work/err0")"

# Held past the bound: fails after about 4 s, naming the holding process.
hold 30
t0=$(date +%s)
wait_for_package_locks 4 2>"$work/err1" && fail "the wait succeeded while the lock was held"
t=$(($(date +%s) - t0))
[ "$t" -ge 3 ] && [ "$t" -le 15 ] || fail "the bounded wait took $t s for a bound of 4 s"
grep -q "still held after 4 s by process $holder (python3) on $lock" "$work/err1" ||
  fail "the message does not name the holder $holder: $(cat "$work/err1")"
grep -q "waiting (up to 4 s)" "$work/err1" || fail "no waiting message: $(cat "$work/err1")"
kill "$holder"; wait "$holder" 2>/dev/null

# Released during the wait: returns 0 soon after.
hold 3
t0=$(date +%s)
wait_for_package_locks 60 2>"$work/err2" || fail "the wait failed though the lock was released: $(cat "$work/err2")"
t=$(($(date +%s) - t0))
[ "$t" -le 10 ] || fail "returned $t s after a lock held for 3 s"
echo "test_dpkg_lock_wait: PASSED"
