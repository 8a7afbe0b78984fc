/* software_event.h: which perf software events a name means, for the tools and wrappers
 * that choose counting modes (papi_run, the MPI wrapper). A context switch or a CPU
 * migration happens only in the kernel: counted in user mode alone it reads 0 whatever
 * the program does, so such an event is counted in kernel mode too or refused. */
#ifndef PAPI_SOFTWARE_EVENT_H
#define PAPI_SOFTWARE_EVENT_H

#include <stddef.h>

enum software_event_kind {
    SOFTWARE_EVENT_NONE = 0,    /* not a bare perf:: software event */
    SOFTWARE_EVENT_FAULT,       /* page, alignment, emulation faults: user mode sees some */
    SOFTWARE_EVENT_KERNEL_ONLY, /* context switches, migrations: kernel mode only */
    SOFTWARE_EVENT_CLOCK        /* task or CPU clock: time in any mode */
};

/* The kind of name ("perf::CONTEXT-SWITCHES", "perf::PERF_COUNT_SW_CPU_MIGRATIONS"...):
 * a name with modifiers of its own (a second ':' after perf::) is SOFTWARE_EVENT_NONE. */
enum software_event_kind software_event_kind(const char *name);

/* name with the modifiers that count it in user and kernel mode, into out; 0, or -1 when
 * it does not fit. */
int software_event_all_modes(const char *name, char *out, size_t len);

#endif
