#!/bin/sh
# guest-run.sh CONFIG: runs inside the pmu-vm guest (busybox sh, in /t). Runs every
# hardware test of tests.list, tags its output lines "[test@CONFIG]" (40 of a test that
# passed, its start and end; 400 of one that failed) and ends each with
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
# Keeps at most $1 lines of a test's output: its first quarter and the rest from its end
# (where a test prints its summary and verdict), saying how many lines were cut.
keep_lines() {
    awk -v max="$1" '{ l[NR] = $0 }
        END { h = int(max / 4)
              for (i = 1; i <= NR; i++)
                  if (NR <= max || i <= h || i > NR - (max - h)) print l[i]
                  else if (i == h + 1) print "... " NR - max " lines cut ..." }'
}
failed=0
for t in $(cat tests.list); do
    out=$(timeout 120 "./bin/$t" 2>&1)
    rc=$?
    case $rc in
        0) st=PASSED ;;
        77) st=SKIPPED ;;
        *) st=FAILED; failed=1 ;;
    esac
    keep=40
    [ $st = FAILED ] && keep=400 # a failure's whole story
    printf '%s\n' "$out" | keep_lines $keep | sed "s/^/[$t@$cfg] /"
    echo "PMU-RESULT $t@$cfg $st rc=$rc"
done
exit $failed
