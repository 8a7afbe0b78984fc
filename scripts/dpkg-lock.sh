# dpkg-lock.sh: sourced by install-deps.sh. Waits for the package manager's locks.
#
# Another apt-get, or unattended-upgrades (cloud images run it at boot), may hold the
# dpkg and apt locks for minutes. apt-get then fails at once ("Could not get lock"), and a
# build that went on without its packages would skip the lanes that need them. So the
# dependency step waits, up to a bound, saying who holds the lock, and fails with that
# reason when the bound passes.
#
#   wait_for_package_locks TIMEOUT   0 when no lock is held (within TIMEOUT seconds);
#                                    1 with a message naming the holder otherwise
# DPKG_LOCK_FILES (space-separated) overrides the lock files watched (for the test).
# Its variables start with dl_ (it is sourced into the caller's shell).

DPKG_LOCK_FILES=${DPKG_LOCK_FILES:-/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock}

# Print "PID (command) on FILE" for the first lock file a process holds an fcntl lock
# on (dpkg and apt lock with fcntl: /proc/locks lists them by inode), nothing if none.
package_lock_holder() {
  for dl_f in $DPKG_LOCK_FILES; do
    [ -e "$dl_f" ] || continue
    dl_ino=$(stat -c %i "$dl_f") || continue
    # /proc/locks: "1: POSIX  ADVISORY  WRITE 1234 fd:01:5678 0 EOF" (pid, dev:inode)
    dl_pid=$(awk -v ino="$dl_ino" '{ n = split($6, d, ":"); if (d[n] == ino && $5 > 0) { print $5; exit } }' /proc/locks)
    [ -n "$dl_pid" ] || continue
    dl_comm=$(cat "/proc/$dl_pid/comm" 2>/dev/null || echo "gone")
    echo "$dl_pid ($dl_comm) on $dl_f"
    return 0
  done
  return 0
}

wait_for_package_locks() {
  dl_limit=$1 dl_waited=0 dl_said=""
  while :; do
    dl_holder=$(package_lock_holder)
    [ -z "$dl_holder" ] && return 0
    if [ "$dl_waited" -ge "$dl_limit" ]; then
      echo "install-deps: FAILED: the package manager's lock is still held after ${dl_limit} s by process $dl_holder;" \
        "wait for it to finish (unattended-upgrades?) or raise PAPI_DEPS_LOCK_TIMEOUT" >&2
      return 1
    fi
    if [ "$dl_holder" != "$dl_said" ]; then
      echo "install-deps: waiting (up to ${dl_limit} s) for the package manager's lock, held by process $dl_holder" >&2
      dl_said=$dl_holder
    fi
    sleep 2
    dl_waited=$((dl_waited + 2))
  done
}
