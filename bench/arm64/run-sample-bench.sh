#!/bin/bash
# run-sample-bench.sh: papi_run --sample's per-sample cost in the arm64 guest against the
# raw ring floor (issue 48's 1.2x goal; bench/README.md). Uses the stage of the PMU lane
# (scripts/pmu-lane.sh: papi_run, libpapi_run_sample.so, libpapi.so for aarch64), adds
# bench_sample_ring (bench_sample_ring.c says how a figure is made) and boots the guest
# once (Cortex-A57, 1 vCPU, icount shift 4: CNTVCT counts every guest instruction).
# Prints one "SAMPLE-BENCH" line per path: guest instructions per sample, the samples of
# the two loop sizes and the ratio to the floor.
#   bench/arm64/run-sample-bench.sh [PMU_STAGE]   (default build/pmu-lane/pmu-stage)
set -uo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
STAGE=${1:-$REPO/build/pmu-lane/pmu-stage}
SYSROOT=${PAPI_ARM64_SYSROOT:-${HOME:-/root}/.cache/papi-arm64-sysroot}
skip() { echo "SKIPPED: $*"; exit 77; }
[ -x "$STAGE/bin/papi_run" ] && [ -f "$STAGE/bin/libpapi_run_sample.so" ] ||
    skip "no PMU-lane stage with papi_run and libpapi_run_sample.so in $STAGE (scripts/pmu-lane.sh)"
command -v aarch64-linux-gnu-gcc >/dev/null || skip "no aarch64 cross compiler"
W=$(mktemp -d) && trap 'rm -rf "$W"' EXIT
cp -a "$STAGE/." "$W/" || exit 1
aarch64-linux-gnu-gcc -O2 -std=gnu11 -Wall -Wextra -Werror -fno-omit-frame-pointer -I"$REPO/tests/common" \
    -o "$W/bin/bench_sample_ring" "$REPO/bench/arm64/bench_sample_ring.c" || exit 1
cat >"$W/sample.sh" <<'GUEST'
#!/bin/sh
# In the guest: a fixed sample rate, as run-bench.sh sets it (no throttling).
echo 25 >/proc/sys/kernel/perf_cpu_time_max_percent
echo 100000 >/proc/sys/kernel/perf_event_max_sample_rate
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
echo 0 >/proc/sys/kernel/perf_event_paranoid
export LD_LIBRARY_PATH=/t/lib
B=/t/bin/bench_sample_ring N=${N:-10000000} P=${P:-160000}
t() { $B meter "$@" | sed -n 's/^cntvct \([0-9]*\).*/\1/p'; }
for k in 1 2; do
    n=$((N * k))
    echo "RAW plain$k $(t $B plain $n)"
    out=$($B meter $B floor $n $P)
    echo "RAW floor$k $(echo "$out" | sed -n 's/^cntvct \([0-9]*\).*/\1/p') $(echo "$out" | sed -n 's/^samples //p')"
    for cg in fp none; do
        rm -rf /tmp/s$k$cg
        c=$(t /t/bin/papi_run --quiet --sample CPU_CYCLES@$P --call-graph $cg -o /tmp/s$k$cg -- $B plain $n)
        s=$(cat /tmp/s$k$cg/*/profile.folded 2>/dev/null | awk -v p=$P '{ w += $NF } END { printf "%d", w / p }')
        echo "RAW $cg$k $c $s"
    done
done
GUEST
chmod +x "$W/sample.sh"
"$REPO/scripts/guest/run-arm64" --cpu cortex-a57 --icount "shift=4,sleep=off" --timeout 1200 \
    --sysroot "$SYSROOT" --cross-libs "$W" -- "N=${N:-10000000} P=${P:-160000} ./sample.sh" |
    tr -d '\r' | tee "$W/out" | grep -E '^RAW|rror|SKIP'
python3 - "$W/out" <<'PY'
import sys
raw = {}
for line in open(sys.argv[1]):
    f = line.split()
    if f and f[0] == "RAW" and len(f) >= 3 and f[2].isdigit():
        raw[f[1]] = [int(x) for x in f[2:] if x.isdigit()]
if not all(k in raw for k in ("plain1", "plain2", "floor1", "floor2")):
    sys.exit("run-sample-bench: the guest's figures are incomplete: %s" % raw)
base = raw["plain2"][0] - raw["plain1"][0]
def per(path):
    a, b = raw.get(path + "1"), raw.get(path + "2")
    if not a or not b or len(a) < 2 or len(b) < 2 or b[1] <= a[1]:
        return None, None
    return (b[0] - a[0] - base) / (b[1] - a[1]), (a[1], b[1])
floor, fs = per("floor")
for path in ("floor", "fp", "none"):
    c, s = per(path)
    if c is None:
        print("SAMPLE-BENCH %s: no figure (%s)" % (path, raw.get(path + "1")))
        continue
    print("SAMPLE-BENCH %-5s %.0f guest instructions per sample (samples %d and %d)%s" % (
        path, c, s[0], s[1], "" if path == "floor" else ", %.2fx the floor" % (c / floor)))
PY
