#!/bin/sh
# check_secure_hwloc.sh TOOL PLUGIN XML: hwloc's variables cannot make a privileged
# program load a plugin or read a topology of the caller's choosing. As root, TOOL (a
# utility: papi_avail) is copied to a private directory and PLUGIN (hwloc_planted.so,
# whose constructor leaves a mark) is planted in a directory named by HWLOC_PLUGINS_PATH,
# with HWLOC_XMLFILE set too (which sends the library to hwloc). Run as nobody:
#  - the plain copy loads the plugin (so the plant is real: hwloc does dlopen it);
#  - the copy given cap_perfmon+ep (the kernel sets AT_SECURE) never runs the plugin's
#    constructor, describes this machine (not XML), exits 0 and says once that the
#    variables are ignored;
#  - the same with 100 other HWLOC_* and 100 LIBPFM_* variables set before the planted
#    ones (a cap on how many are hidden would leave the planted ones visible).
# LIBPFM_VERBOSE=1 is planted too: libpfm4 reads it at its initialisation (papi_avail's
# preset lookups) and then prints its encodings ("PERF[...]") on stderr; the plain copy
# must print them and the setcap'd one never.
tool=$1 plugin=$2 xml=$3
# shellcheck source=tests/reliability/secure_setcap.sh
. "$(dirname "$0")/secure_setcap.sh"
secure_setcap_needs
dir=$(mktemp -d /tmp/papi_secure_hwloc.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/plugins" "$dir/marks" && chmod 755 "$dir" "$dir/plugins" && chmod 1777 "$dir/marks" &&
  cp "$tool" "$dir/tool" && cp "$plugin" "$dir/plugins/hwloc_planted.so" &&
  cp "$xml" "$dir/topology.xml" && chmod 644 "$dir/topology.xml" "$dir/plugins/hwloc_planted.so" &&
  chmod 755 "$dir/tool" || exit 1
run() { # mark-name [NAME=value...]: run the copy as nobody with the planted variables,
    # after the given ones (env(1) appends each in order: they come first in environ)
    mark=$1
    shift
    env "$@" HWLOC_PLUGINS_PATH="$dir/plugins" HWLOC_XMLFILE="$dir/topology.xml" HWLOC_COMPONENTS=xml \
    LIBPFM_VERBOSE=1 PLANTED_MARKER="$dir/marks/$mark" setpriv --reuid=nobody --regid=nogroup --clear-groups \
        "$dir/tool" >"$dir/out" 2>"$dir/err"
}
pfm_verbose() { grep -c '^PERF\[' "$dir/err"; }
fail=0

secure_plain_run "the planted plugin did not run in an ordinary process: hwloc was not sent to it"
if [ "$(pfm_verbose)" = 0 ]; then
    echo "FAIL: LIBPFM_VERBOSE=1 printed no encoding in an ordinary process: libpfm4 did not" \
         "read it, so this test shows nothing: $(head -c 600 "$dir/err")"; fail=1
fi

secure_setcap_run plugin
if [ $rc != 0 ]; then
    echo "FAIL: the setcap'd tool exited $rc: $(head -c 600 "$dir/err")"; fail=1
fi
if [ "$(pfm_verbose)" != 0 ]; then
    echo "FAIL: libpfm4 took LIBPFM_VERBOSE in the setcap'd process: $(head -c 600 "$dir/err")"; fail=1
fi
said=$(grep -c "HWLOC_[A-Z_]*.* are ignored: this process runs with privileges" "$dir/err")
if [ "$said" != 1 ]; then
    echo "FAIL: the refusal is said $said times, not once: $(head -c 1500 "$dir/err")"; fail=1
fi
grep "are ignored" "$dir/err"

junk=$(i=0; while [ $i -lt 100 ]; do printf 'HWLOC_JUNK_%d=x LIBPFM_JUNK_%d=x ' $i $i; i=$((i + 1)); done)
# shellcheck disable=SC2086
run many $junk
rc=$?
if [ -e "$dir/marks/many" ]; then
    echo "FAIL: behind 200 other variables the planted plugin's constructor ran in the setcap'd process"; fail=1
fi
if [ $rc != 0 ]; then
    echo "FAIL: the setcap'd tool with 200 more variables exited $rc: $(head -c 600 "$dir/err")"; fail=1
fi
if [ "$(pfm_verbose)" != 0 ]; then
    echo "FAIL: behind 200 other variables libpfm4 took LIBPFM_VERBOSE in the setcap'd process"; fail=1
fi
echo "behind 100 other HWLOC_* and 100 LIBPFM_* variables (exit $rc): plugin" \
     "$([ -e "$dir/marks/many" ] && echo ran || echo 'not run'), $(pfm_verbose) libpfm4 verbose lines"
[ $fail = 0 ] && echo "check_secure_hwloc: PASSED" || echo "check_secure_hwloc: FAILED"
exit $fail
