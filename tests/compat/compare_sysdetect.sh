#!/bin/sh
# compare_sysdetect.sh OUR_DUMP [SYSTEM_DUMP]: the sysdetect API's description of this
# machine (sysdetect_dump.c) against sysfs and, when libpapi-dev is installed, against
# PAPI 7's own answers for the same attributes. Known differences are not compared:
# the status texts (ours say why a GPU type has no devices), the L3 cache (PAPI 7
# reads cpuid, which a VM may fill with values sysfs contradicts: it is checked
# against sysfs instead) and NUMA memory (PAPI 7.0 does not support it).
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
echo "$ours" | grep -q '^cpu0\..*([^0])' && { echo "FAIL: a CPU attribute was refused"; fail=1; }
# sysfs: the L3 cache and NUMA node 0's memory.
l3=/sys/devices/system/cpu/cpu0/cache/index3
if [ -r "$l3/size" ] && [ "$(cat "$l3/level")" = 3 ]; then
  kb=$(sed 's/K$//' "$l3/size")
  expect "L3 size" "$(val "$ours" cpu0.PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_SIZE)" "$((kb * 1024)) (0)"
  expect "L3 ways" "$(val "$ours" cpu0.PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_ASSOC)" "$(cat "$l3/ways_of_associativity") (0)"
fi
mem=/sys/devices/system/node/node0/meminfo
if [ -r "$mem" ]; then
  kb=$(awk '/MemTotal/ {print $4}' "$mem")
  expect "NUMA node 0 MB" "$(val "$ours" id0.PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE)" "$((kb / 1024)) (0)"
fi
if [ $# -ge 2 ]; then
  sys=$("$2") || { echo "FAIL: $2 (system PAPI) failed"; exit 1; }
  echo "$sys" | grep -v -e '\.status=' -e 'L3U' -e 'NUMA_MEM_SIZE' | while IFS= read -r line; do
    key=${line%%=*}
    want=${line#*=}
    got=$(val "$ours" "$key")
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
