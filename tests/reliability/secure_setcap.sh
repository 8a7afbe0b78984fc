# secure_setcap.sh: sourced by check_secure_hwloc.sh and check_secure_sde.sh, which run a
# copy of a tool as nobody ($dir/tool, their run MARK function) beside a planted library
# whose constructor leaves $dir/marks/MARK.
# shellcheck shell=sh disable=SC2154,SC2034 # dir and run come from the sourcing test, fail goes back to it

# Skips (exit 77) unless this runs as root with setpriv, setcap and a user nobody.
secure_setcap_needs() {
    [ "$(id -u)" = 0 ] || { echo "SKIPPED: needs root to setcap a copy and run it as nobody"; exit 77; }
    command -v setpriv >/dev/null || { echo "SKIPPED: setpriv (util-linux) is not installed"; exit 77; }
    command -v setcap >/dev/null || { echo "SKIPPED: setcap (libcap2-bin) is not installed"; exit 77; }
    id nobody >/dev/null 2>&1 || { echo "SKIPPED: no user nobody"; exit 77; }
}

# secure_setcap_run WHAT: gives the copy cap_perfmon+ep (the kernel then sets AT_SECURE;
# a skip where the file system refuses it), runs it (run secure, its status in rc) and
# fails (fail=1) when the planted WHAT's constructor ran in it.
secure_setcap_run() {
    if ! setcap cap_perfmon+ep "$dir/tool" 2>"$dir/setcap.err"; then
        echo "SKIPPED: setcap refused on $dir (a file system without security xattrs?): $(cat "$dir/setcap.err")"
        exit 77
    fi
    run secure
    rc=$?
    echo "setcap'd copy (exit $rc): $(getcap "$dir/tool")"
    if [ -e "$dir/marks/secure" ]; then
        echo "FAIL: the planted $1's constructor ran in the setcap'd process"; fail=1
    fi
}

# secure_plain_run WHAT: runs the copy as it is (run plain, its status in rc) and fails
# when the planted constructor did not run there: WHAT says what did not happen.
secure_plain_run() {
    run plain
    rc=$?
    if [ ! -e "$dir/marks/plain" ]; then
        echo "FAIL: $1 (exit $rc), so this test shows nothing: $(head -c 600 "$dir/err")"; fail=1
    fi
}
