#!/bin/sh
# check_hl_listed_twice.sh WORKLOAD DIR: PAPI_EVENTS lists perf::PAGE-FAULTS twice; the
# region report counts it once and skips the second entry with that reason alone (no
# perf_event component note: a software event, the hardware is no reason here).
workload=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir" || exit 1
PAPI_OUTPUT_DIRECTORY=$dir PAPI_EVENTS=perf::PAGE-FAULTS,perf::PAGE-FAULTS "$workload" \
    >/dev/null 2>"$dir/stderr" || { echo "FAIL: the workload failed"; exit 1; }
f=$(ls "$dir"/papi_hl_output/*.json) || exit 1
grep -Eq '"perf::PAGE-FAULTS": [1-9]' "$f" || { echo "FAIL: no count of perf::PAGE-FAULTS"; exit 1; }
reasons=$(grep '"reason"' "$f")
[ "$(printf '%s\n' "$reasons" | grep -c .)" = 1 ] &&
    printf '%s\n' "$reasons" | grep -q '"reason": "listed twice: counted once, as the earlier entry"$' ||
    { echo "FAIL: want one reason, the listed-twice one alone: $reasons"; exit 1; }
grep -q 'listed twice' "$dir/stderr" || { echo "FAIL: the notice does not say it"; exit 1; }
echo "PASSED: counted once; skipped: listed twice: counted once, as the earlier entry"
