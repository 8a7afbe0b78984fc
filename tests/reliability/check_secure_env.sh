#!/bin/sh
# check_secure_env.sh PROBE TREE: PAPI_FSROOT (read with env_get: secure_getenv) is
# ignored in a privileged process and the refusal is said once. As root, the probe is
# copied to a private directory, made setgid (group root) and run as nobody (setpriv):
# the kernel then sets AT_SECURE, as for a setuid, setgid or setcap'd program. The same
# copy without the setgid bit, run as nobody, replays TREE.
probe=$1 tree=$2
[ "$(id -u)" = 0 ] || { echo "SKIPPED: needs root to make a setgid copy and run it as nobody"; exit 77; }
command -v setpriv >/dev/null || { echo "SKIPPED: setpriv (util-linux) is not installed"; exit 77; }
id nobody >/dev/null 2>&1 || { echo "SKIPPED: no user nobody"; exit 77; }
dir=$(mktemp -d /tmp/papi_secure_env.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir" && cp "$probe" "$dir/probe" && chown root:root "$dir/probe" || exit 1
as_nobody() {
    PAPI_FSROOT="$tree" setpriv --reuid=nobody --regid=nogroup --clear-groups "$dir/probe" \
        >"$dir/out" 2>"$dir/err"
}
fail=0

chmod 755 "$dir/probe" && as_nobody
if ! grep -qx "init=ok root=$tree" "$dir/out"; then
    echo "FAIL: an ordinary process does not replay $tree: $(cat "$dir/out" "$dir/err")"; fail=1
fi
if grep -q "is ignored" "$dir/err"; then
    echo "FAIL: an ordinary process says the variable is ignored: $(cat "$dir/err")"; fail=1
fi

chmod 2755 "$dir/probe" && as_nobody
if ! grep -qx "init=ok root=" "$dir/out"; then
    echo "FAIL: a setgid process took PAPI_FSROOT: $(cat "$dir/out" "$dir/err")"; fail=1
fi
said=$(grep -c "PAPI Warning: PAPI_FSROOT is ignored: this process runs with privileges" "$dir/err")
if [ "$said" != 1 ]; then
    echo "FAIL: the refusal is said $said times, not once: $(cat "$dir/err")"; fail=1
fi
[ $fail = 0 ] && echo "check_secure_env: PASSED" || echo "check_secure_env: FAILED"
exit $fail
