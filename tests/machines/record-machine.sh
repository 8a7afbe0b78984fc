#!/bin/sh
# record-machine.sh DIR: record this machine's description, as far as the library reads
# it for its PMUs and presets, into DIR (a new directory), in the layout PAPI_FSROOT
# replays (tests/machines/README.md):
#   proc/cpuinfo                              vendor, family, model, flags (hypervisor)
#   proc/sys/kernel/perf_event_paranoid       and perf_user_access where it exists
#   sys/bus/event_source/devices/<pmu>/       type, cpus or cpumask, rdpmc,
#                                             perf_event_mux_interval_ms, format/*,
#                                             events/* (with .scale/.unit), caps/*
# Files are copied as the kernel shows them (the PMU directories are symbolic links in
# sysfs: their contents are copied, not the links). Nothing else is read: no host name,
# no user data. A RECORDED file says when, on which kernel and architecture.
#
# To contribute a machine: run it there (as any user; root only adds files that only
# root may read), check DIR, and add it to tests/machines with a line in README.md.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
out=$1
[ ! -e "$out" ] || { echo "$0: $out exists" >&2; exit 2; }
src=${RECORD_ROOT:-}   # another root to record from (tests of this script)

copy() { # copy() SRC DST: a regular readable file, trailing newline kept as the kernel has it
    [ -f "$1" ] && [ -r "$1" ] || return 0
    mkdir -p "$(dirname "$2")"
    cat "$1" > "$2" 2>/dev/null || rm -f "$2"
}

mkdir -p "$out/proc/sys/kernel"
copy "$src/proc/cpuinfo" "$out/proc/cpuinfo"
for f in perf_event_paranoid perf_user_access; do
    copy "$src/proc/sys/kernel/$f" "$out/proc/sys/kernel/$f"
done

devices=sys/bus/event_source/devices
mkdir -p "$out/$devices"
for pmu in "$src/$devices"/*; do
    [ -e "$pmu" ] || continue
    name=$(basename "$pmu")
    dst="$out/$devices/$name"
    mkdir -p "$dst"
    for f in type cpus cpumask rdpmc perf_event_mux_interval_ms; do
        copy "$pmu/$f" "$dst/$f"
    done
    for sub in format events caps; do
        [ -d "$pmu/$sub" ] || continue
        for f in "$pmu/$sub"/*; do
            copy "$f" "$dst/$sub/$(basename "$f")"
        done
    done
done

{
    echo "recorded by tests/machines/record-machine.sh on $(date -u +%Y-%m-%d)"
    echo "kernel: $(uname -sr), architecture: $(uname -m)"
    echo "PMUs: $(ls "$out/$devices" | tr '\n' ' ')"
} > "$out/RECORDED"
echo "$0: recorded $(ls "$out/$devices" | wc -l) PMUs into $out"
