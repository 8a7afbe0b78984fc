#!/bin/sh
# check_secure_sde.sh TOOL PLANTED: papi_native_avail -sde FILE never loads FILE in a
# privileged copy. As root, TOOL (papi_native_avail) is copied to a private directory and
# PLANTED (hwloc_planted.so, whose constructor leaves a mark in the file PLANTED_MARKER
# names) beside it. Run as nobody with -sde PLANTED:
#  - the plain copy loads it (the mark appears: the plant is real), then says the library
#    exports no papi_sde_hook_list_events (exit 1);
#  - the copy given cap_perfmon+ep (the setcap our messages recommend; the kernel sets
#    AT_SECURE) never runs the constructor, and says why in one line, exit 1 as the
#    tool's other -sde refusals.
tool=$1 planted=$2
# shellcheck source=tests/reliability/secure_setcap.sh
. "$(dirname "$0")/secure_setcap.sh"
secure_setcap_needs
dir=$(mktemp -d /tmp/papi_secure_sde.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/marks" && chmod 755 "$dir" && chmod 1777 "$dir/marks" &&
  cp "$tool" "$dir/tool" && cp "$planted" "$dir/planted.so" &&
  chmod 644 "$dir/planted.so" && chmod 755 "$dir/tool" || exit 1
run() { # mark-name: the copy as nobody, listing the planted library's events
    PLANTED_MARKER="$dir/marks/$1" setpriv --reuid=nobody --regid=nogroup --clear-groups \
        "$dir/tool" -sde "$dir/planted.so" >"$dir/out" 2>"$dir/err"
}
fail=0

secure_plain_run "the plain copy did not load the planted library"
if [ $rc != 1 ] || ! grep -q "exports no papi_sde_hook_list_events" "$dir/err"; then
    echo "FAIL: the plain copy exited $rc without naming the missing hook: $(head -c 600 "$dir/err")"; fail=1
fi
echo "plain copy (exit $rc): library $([ -e "$dir/marks/plain" ] && echo loaded || echo 'not loaded')"

secure_setcap_run library
said=$(grep -c "^papi_native_avail: -sde $dir/planted.so: not loaded: this process runs with privileges" "$dir/err")
if [ $rc != 1 ] || [ "$said" != 1 ]; then
    echo "FAIL: the setcap'd copy exited $rc and said the refusal $said times (want 1 and 1):" \
         "$(head -c 600 "$dir/err")"; fail=1
fi
grep "not loaded" "$dir/err"
[ $fail = 0 ] && echo "check_secure_sde: PASSED" || echo "check_secure_sde: FAILED"
exit $fail
