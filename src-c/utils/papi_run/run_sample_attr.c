/* run_sample_attr.c: the perf_event_attr of one event of a thread's sampling group. One
 * place for it, so that papi_run's pre-flight open (run_sample_opts.c) tries exactly what
 * each thread of the program opens later (run_sample_ring.c): a refusal, of dwarf's user
 * registers and stack above all, is then said before the program runs. */
#include <linux/perf_event.h>
#include <string.h>

#include "run_sample.h"
#include "run_sample_attr.h"

void rs_sample_attr(const struct rs_config *c, int i, int callchain, struct perf_event_attr *a)
{
    memset(a, 0, sizeof *a);
    a->size = sizeof *a;
    a->type = c->type[i];
    a->config = c->config[i];
    a->exclude_kernel = !c->kernel;
    a->exclude_hv = 1;
    if (i != 0)
        return;
    a->disabled = 1; /* the leader: its thread enables the group once the ring is mapped */
    a->freq = (unsigned)c->freq;
    if (c->freq)
        a->sample_freq = c->value;
    else
        a->sample_period = c->value;
    /* The kernel wakes the drain thread's poll once this much is waiting in the ring, so
     * a burst (a sample per page fault) is emptied as it comes, not at the next timer
     * (the kernel takes at most the ring's size). */
    a->watermark = 1;
    a->wakeup_watermark = callchain == RS_CG_DWARF ? 2 * RS_WAKEUP_BYTES : RS_WAKEUP_BYTES;
    a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
    if (callchain == RS_CG_FP || (callchain == RS_CG_DWARF && c->kernel))
        a->sample_type |= PERF_SAMPLE_CALLCHAIN;
    if (callchain == RS_CG_DWARF) { /* the kernel's chain gives its frames only */
        a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
        a->sample_regs_user = STACK_UNWIND_REGS_MASK;
        a->sample_stack_user = RS_STACK_USER;
        a->exclude_callchain_user = 1;
    }
    if (c->nread > 0) {
        a->sample_type |= PERF_SAMPLE_READ;
        a->read_format = PERF_FORMAT_GROUP;
    }
    a->exclude_callchain_kernel = !c->kernel;
}
