#!/bin/sh
# check_perf_boundary.sh LIBDIR CC: the perf_event component owns every perf descriptor.
# Fails when a .c or .h file of the library outside components/perf_event/ calls
# perf_event_open (or the syscall, or perf_syscall_open), ioctl, mmap or a plain read()
# (the core reads counters through its component: es->cmp->read). Comments are
# stripped first with the C preprocessor (-fpreprocessed: no includes, no macros).
lib=$1 cc=${2:-cc}
[ -d "$lib/components/perf_event" ] || { echo "FAILED: $lib is not the library's source folder"; exit 1; }
pattern='perf_event_open|SYS_perf_event_open|perf_syscall_open|PERF_EVENT_IOC_|(^|[^A-Za-z0-9_>.])(ioctl|mmap|read)[[:space:]]*\('
bad=0 n=0
for f in $(find "$lib" \( -name '*.c' -o -name '*.h' \) ! -path "$lib/components/perf_event/*" | sort); do
    n=$((n + 1))
    hits=$("$cc" -fpreprocessed -dD -E -P -x c "$f" 2>/dev/null | grep -nE "$pattern")
    if [ -n "$hits" ]; then
        echo "$f:"
        echo "$hits" | sed 's/^/    /'
        bad=$((bad + 1))
    fi
done
[ "$n" -gt 20 ] || { echo "FAILED: only $n source files found under $lib"; exit 1; }
if [ "$bad" -gt 0 ]; then
    echo "FAILED: $bad file(s) outside components/perf_event touch perf descriptors"
    exit 1
fi
echo "PASSED: none of $n library files outside components/perf_event calls perf_event_open, ioctl, mmap or read()"
