#!/bin/sh
# compare_sysdetect.sh OUR_DUMP [SYSTEM_DUMP]: the sysdetect API's description of this
# machine (sysdetect_dump.c) against sysfs and, when libpapi-dev is installed, against
# PAPI 7's own answers for the same attributes. Known differences are not compared:
# the status texts (ours say why a GPU type has no devices) and NUMA memory (PAPI 7.0
# does not support it).
# The caches, like with like: ours come from the kernel's sysfs (cpu0/cache/index*: on
# x86 the kernel's cpuid leaf 4 or 0x8000001D), so every level is checked against sysfs;
# where sysfs has no cpu0/cache (a VM's kernel may list none) ours come from cpuid as
# hwloc's x86 backend reads it, and every level is checked against hwloc-info's caches
# of PU 0. PAPI 7 decodes the older cpuid leaves itself (leaf 2, or 0x80000005/6 on AMD),
# which a VM may fill with values the newer leaves contradict (QEMU's EPYC-Rome: L1 8-way
# in 0x80000005, 16-way in 0x8000001D), and its L3 line count on AMD's old leaves is not
# size over line; so a PAPI 7 cache value is compared only where the reference (sysfs,
# else hwloc) says the same, and a disagreement of the two sources is printed with both.
# Both sides name the CPU from the same source: on x86 the cpuid brand string (PAPI 7 keeps
# the padding blanks of the 48-byte register copy; ours trims them, as hwloc does, so
# blanks at either end are not compared), elsewhere /proc/cpuinfo. A hypervisor may set
# cpuinfo's "model name" to something else; both are printed so a failure shows which.
set -u
ours=$("$1") || { echo "FAIL: $1 failed"; exit 1; }
echo "$ours"
val() { echo "$1" | sed -n "s/^$2=//p" | head -n 1; }
fail=0
expect() { # name got want
  if [ "$2" != "$3" ]; then echo "FAIL: $1 is '$2', want '$3'"; fail=1; fi
}
expect types "$(val "$ours" types)" 3
echo "CPU name sources: /proc/cpuinfo model name '$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)'; sysdetect (cpuid brand string on x86) '$(val "$ours" cpu0.PAPI_DEV_ATTR__CPU_CHAR_NAME)'"
expect "CPU count" "$(val "$ours" type0.count)" 1
echo "$ours" | grep -Eq '^cpu0\.[A-Za-z0-9_]+=[0-9]+ \(-[0-9]+\)$' && { echo "FAIL: a CPU attribute was refused"; fail=1; }
# sysfs: every cache of cpu0 (as key=value lines, what PAPI 7 is compared with below)
# and NUMA node 0's memory.
sysfs_caches=""
for c in /sys/devices/system/cpu/cpu0/cache/index*; do
  [ -r "$c/size" ] || continue
  case $(cat "$c/level")/$(cat "$c/type") in
    1/Instruction) l=L1I ;; 1/Data) l=L1D ;; 2/Unified) l=L2U ;; 3/Unified) l=L3U ;; *) continue ;;
  esac
  bytes=$(($(sed 's/K$//' "$c/size") * 1024)) line=$(cat "$c/coherency_line_size")
  k=cpu0.PAPI_DEV_ATTR__CPU_UINT_${l}_CACHE
  sysfs_caches="$sysfs_caches
${k}_SIZE=$bytes (0)
${k}_LINE_SIZE=$line (0)
${k}_LINE_COUNT=$((bytes / line)) (0)
${k}_ASSOC=$(cat "$c/ways_of_associativity") (0)"
done
cache_source="sysfs (the kernel's cpuid leaf 4 / 0x8000001D)"
if [ -z "$sysfs_caches" ] && command -v hwloc-info >/dev/null; then
  # No cpu0/cache in sysfs: hwloc's caches above PU 0 (its x86 backend's cpuid).
  cache_source="hwloc-info (no cpu0/cache in sysfs: hwloc's cpuid)"
  sysfs_caches=$(hwloc-info --ancestors pu:0 2>/dev/null | awk '
    function out() { if (l != "" && size > 0) {
        k = "cpu0.PAPI_DEV_ATTR__CPU_UINT_" l "_CACHE"
        printf "%s_SIZE=%d (0)\n%s_LINE_SIZE=%d (0)\n%s_LINE_COUNT=%d (0)\n%s_ASSOC=%d (0)\n",
               k, size, k, line, k, int(size / line), k, ways } l = ""; size = 0; line = 0; ways = 0 }
    / = parent #/ { out() }
    /attr cache depth = / { d = $NF }
    /attr cache type = / { t = $NF; l = ""
      if (d == 1 && t == "Instruction") l = "L1I"; else if (d == 1 && t == "Data") l = "L1D"
      else if (d == 2 && t == "Unified") l = "L2U"; else if (d == 3 && t == "Unified") l = "L3U" }
    /attr cache size = / { size = $NF }
    /attr cache line size = / { line = $NF }
    /attr cache ways = / { ways = $NF }
    END { out() }')
fi
echo "caches in $cache_source:$(echo "$sysfs_caches" | grep -c .) values"
for line in $(echo "$sysfs_caches" | sed 's/ (0)$/_(0)/'); do
  key=${line%%=*} want=$(echo "${line#*=}" | sed 's/_(0)$/ (0)/')
  expect "$key (${cache_source%% *}: $want)" "$(val "$ours" "$key")" "$want"
done
mem=/sys/devices/system/node/node0/meminfo
if [ -r "$mem" ]; then
  kb=$(awk '/MemTotal/ {print $4}' "$mem")
  expect "NUMA node 0 MB" "$(val "$ours" id0.PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE)" "$((kb / 1024)) (0)"
fi
if [ $# -ge 2 ]; then
  sys=$("$2") || { echo "FAIL: $2 (system PAPI) failed"; exit 1; }
  echo "$sys" | grep -v -e '\.status=' -e 'NUMA_MEM_SIZE' | while IFS= read -r line; do
    key=${line%%=*}
    want=${line#*=}
    got=$(val "$ours" "$key")
    case $key in *_CACHE_*)
      in_sysfs=$(val "$sysfs_caches" "$key")
      if [ -n "$in_sysfs" ] && [ "$in_sysfs" != "$want" ]; then
        echo "NOTE: $key: PAPI 7 (its own cpuid decoding) says '$want', ${cache_source%% *} '$in_sysfs': the sources differ on this CPU, ours follows ${cache_source%% *}" >&2
        continue
      fi ;;
    esac
    case $key in *CHAR_NAME) # the brand string's padding is not part of the name
      want=$(printf '%s' "$want" | sed 's/^ *//; s/ *$//; s/ *\( ([0-9-]*)\)$/\1/')
      got=$(printf '%s' "$got" | sed 's/^ *//; s/ *$//; s/ *\( ([0-9-]*)\)$/\1/') ;;
    esac
    expect "$key (PAPI 7: $want)" "$got" "$want"
  done | grep FAIL && fail=1
  echo "compared with the system PAPI: $(echo "$sys" | grep -c .) lines"
else
  echo "no system PAPI (libpapi-dev) to compare with: compared with sysfs only"
fi
[ $fail -eq 0 ] && echo "compare_sysdetect: PASSED" || echo "compare_sysdetect: FAILED"
exit $fail
