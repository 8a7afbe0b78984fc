#!/bin/sh
# check-result.sh RESULTS TEST@CONFIG: one ctest of the `pmu` label. Shows what the
# hardware test printed in the guest and exits 0 if it PASSED there, 77 if it (or the
# whole lane) was skipped, 1 otherwise.
results=$1 name=$2
if [ ! -f "$results" ]; then
    echo "FAILED: no lane results ($results): the pmu_lane test did not run"
    exit 1
fi
skip=$(grep '^LANE-SKIPPED' "$results")
if [ -n "$skip" ]; then
    echo "SKIPPED: ${skip#LANE-SKIPPED: }"
    exit 77
fi
grep -F "[$name] " "$results"
line=$(grep -F "PMU-RESULT $name " "$results")
if [ -z "$line" ]; then
    echo "FAILED: $name has no result: the guest did not run it (see pmu-lane.log)"
    exit 1
fi
echo "$line"
case $line in
    *" PASSED "*) exit 0 ;;
    *" SKIPPED "*)
        why=$(grep -F "[$name] " "$results" | sed -n 's/.*SKIPPED[: ]*//p' | tail -n 1)
        echo "SKIPPED: in the guest: ${why:-$name printed no reason}"
        exit 77 ;;
    *) exit 1 ;;
esac
