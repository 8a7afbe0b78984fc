/* refuse_dwarf.c: a kernel that refuses --call-graph dwarf, for check_sample.py
 * dwarf_refused. Preloaded into papi_run (and so into the program it starts), it fails
 * every perf_event_open asking for the user registers or stack with each sample with
 * EINVAL, as a kernel without PERF_SAMPLE_REGS_USER / STACK_USER support does; every
 * other system call goes through unchanged. */
#include "refuse_perf_open.h"

static int refused(const struct perf_event_attr *a)
{
    return (a->sample_type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)) ? EINVAL : 0;
}
