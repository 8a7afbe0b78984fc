/* gpu_activity_switch.h: whether a process's GPU activity layer starts by itself
 * (gpu_activity_switch.c), the one decision the region API, the MPI wrapper and papi_run's
 * preloaded library share. PAPI_GPU_ACTIVITY: unset or "auto" (the default): on once the
 * program has loaded CUDA (libcuda or libcudart: its own choice, so libcupti loads no
 * driver into a program that uses none); "1": on (CUPTI loads CUDA itself); "0": off. */
#ifndef PAPI_GPU_ACTIVITY_SWITCH_H
#define PAPI_GPU_ACTIVITY_SWITCH_H

#include <stdatomic.h>
#include <stdint.h>

#include "mono_clock.h"

/* gpu_activity_switch_quiet's word: 0 (call: undecided, on, or not measured yet), the
 * tick before which a call has nothing to do, or UINT64_MAX (off, stopped). */
extern __attribute__((visibility("hidden"))) _Atomic uint64_t gpu_activity_switch_quiet_until;

/* The layer started as the switch says, once: 1 when it records, 0 when not (yet). Under
 * "auto" without CUDA loaded it looks again at a later call, at most once every 50 ms (a
 * read of the coarse clock in between, no lock), walking the loader's list only when the
 * program has loaded a library since (dl_iterate_phdr's count of loads: no file is
 * opened). A start that fails is said once on stderr, by who ("region API", "MPI
 * wrapper", "papi_run"; NULL: not said), with the layer's reason, and not tried again. */
__attribute__((visibility("hidden"))) int gpu_activity_switch_start(const char *who);
/* Whether gpu_activity_switch_start would return 0 without looking, read with no call:
 * the layer is off or stopped, or it waits for CUDA and its next look is not due (one
 * read of mono_clock.h's tick_clock; 0 until the switch has measured the ticks' ratio
 * over a look interval). A region begin of a CPU-only program stops here. */
static inline int gpu_activity_switch_quiet(void)
{
    /* 0: no tick is below it; UINT64_MAX: every tick is */
    return tick_clock() <
           atomic_load_explicit(&gpu_activity_switch_quiet_until, memory_order_relaxed);
}
/* The layer stopped (gpu_activity_stop) if it runs, by why ("PAPI_shutdown"): its sums
 * stay for the reports; it is not started again in this process. */
__attribute__((visibility("hidden"))) void gpu_activity_switch_stop(const char *why);
/* Whether the layer recorded (1: it runs, or ran until gpu_activity_switch_stop) and why
 * not, in one line ("PAPI_GPU_ACTIVITY=0", the layer's reason, "stopped by ..."); "" while
 * it runs, before the first gpu_activity_switch_start, and while it waits for the program
 * to load CUDA (a program that uses no GPU: its files say nothing of GPUs). */
__attribute__((visibility("hidden"))) int gpu_activity_switch_state(const char **why);

#endif
