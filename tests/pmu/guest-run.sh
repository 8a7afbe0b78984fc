#!/bin/sh
# guest-run.sh CONFIG: runs inside the pmu-vm guest (busybox sh, in /t). Runs every
# hardware test of tests.list, tags its output lines "[test@CONFIG]" and ends each with
# "PMU-RESULT test@CONFIG PASSED|FAILED|SKIPPED rc=N". Exits 1 if any failed.
cfg=$1
export LD_LIBRARY_PATH=/t/lib
# kernel.perf_user_access of this configuration (lane-configs.txt); a kernel without
# the setting cannot run the configuration.
if [ -n "${PMU_USER_ACCESS:-}" ]; then
    if ! echo "$PMU_USER_ACCESS" >/proc/sys/kernel/perf_user_access 2>/dev/null &&
        [ "$PMU_USER_ACCESS" != 0 ]; then
        echo "LANE-FAILED: cannot set kernel.perf_user_access=$PMU_USER_ACCESS"
        exit 1
    fi
fi
failed=0
for t in $(cat tests.list); do
    out=$(timeout 120 "./bin/$t" 2>&1)
    rc=$?
    case $rc in
        0) st=PASSED ;;
        77) st=SKIPPED ;;
        *) st=FAILED; failed=1 ;;
    esac
    printf '%s\n' "$out" | head -n 40 | sed "s/^/[$t@$cfg] /"
    echo "PMU-RESULT $t@$cfg $st rc=$rc"
done
exit $failed
