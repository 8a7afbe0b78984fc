#!/bin/sh
# check_hl_notice.sh WORKLOAD DIR: PAPI_EVENTS entries that do not count give one short
# notice on stderr naming every one (at most 320 characters a line), and the region
# report keeps each one's whole reason (skipped_events).
set -u
prog=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
PAPI_OUTPUT_DIRECTORY=$dir PAPI_EVENTS='perf::PAGE-FAULTS,NO_SUCH_ONE,NO_SUCH_TWO,perf::NO_SUCH_THREE' \
  "$prog" >/dev/null 2>"$dir/stderr" || { cat "$dir/stderr"; echo "FAIL: the workload failed"; exit 1; }
cat "$dir/stderr"
fail() { echo "FAIL: $*"; exit 1; }
[ "$(grep -c 'entries not counted (3): NO_SUCH_ONE, NO_SUCH_TWO, perf::NO_SUCH_THREE (' "$dir/stderr")" = 1 ] ||
  fail "no one-line notice naming the three entries"
[ "$(awk 'length($0) > 320' "$dir/stderr" | wc -l)" = 0 ] || fail "a notice line over 320 characters"
f=$(ls "$dir"/papi_hl_output/*.json) || fail "no region report"
[ "$(grep -o '"reason"' $f | wc -l)" = 3 ] || fail "the report does not keep three skipped reasons"
echo "check_hl_notice: PASSED"
