/* gpu_activity_switch.c: whether the GPU activity layer starts by itself
 * (gpu_activity_switch.h). Off unless CUDA is loaded, by default: starting CUPTI loads the
 * CUDA driver and creates its state, which a program that never touches a GPU must not
 * pay for; a program that loaded CUDA gets its kernels recorded unchanged.
 *
 * Whether CUDA was loaded since the last look takes a walk of the loader's list under its
 * lock (dl_iterate_phdr: no public load counter exists without it). Every region begin
 * of a CPU-only program walked it (issue 69: 300 of its 1780 instructions a region pair,
 * +389 in the arm64 guest), so a begin looks at most once every LOOK_NS of the coarse
 * clock (one vDSO read, no lock) and otherwise returns at once. Not a dlopen wrapper: one
 * in libpapi would make libpapi the caller the loader searches paths for (the program's
 * RUNPATH lost), and none is seen where libpapi is not in the global scope. CUDA's own
 * start (cuInit, a context: 100 ms and more) takes longer than LOOK_NS, so a program's
 * first kernel after it loaded CUDA still comes after the layer started, where a region
 * began in between; and a run 50-100x slower (valgrind) still walks a few times per 1,000
 * region pairs, not per pair. Between looks a begin does not even read the coarse clock
 * (61 guest instructions a pair, issue 69 item 7): gpu_activity_switch_quiet compares one
 * tick of mono_clock.h's tick_clock with the next look's, converted at each look with a
 * ratio measured against mono_clock_ns since the switch began waiting, past the coarse
 * clock's step (a begin that came before the coarse clock passed the look's time would
 * call and find nothing due: a jiffy of every 50 ms). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gpu_activity_switch.h"

#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "env.h"
#include "gpu_activity.h"
#include "mono_clock.h"

enum { UNDECIDED, WAITING, ON, OFF, STOPPED };
static pthread_mutex_t switch_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int state = UNDECIDED; /* read unlocked once decided: every region begin */
/* dlpi_adds when CUDA was last looked for: written under switch_lock, read without it */
static _Atomic unsigned long long loads_seen;
#define LOOK_NS 50000000ull /* 50 ms: the loader's list looked at no more often (above) */
static _Atomic unsigned long long next_look_ns; /* the coarse clock's, claimed by a CAS */
static char reason_line[800];
_Atomic uint64_t gpu_activity_switch_quiet_until; /* gpu_activity_switch.h */
static uint64_t wait_tick0, wait_ns0; /* when it began waiting: the ticks' ratio's origin */
static uint64_t coarse_step_ns;       /* CLOCK_MONOTONIC_COARSE's resolution */

struct cuda_find {
    unsigned long long adds;
    int found;
};

static int cuda_visit(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct cuda_find *f = arg;
    f->adds = info->dlpi_adds;
    const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    base = base ? base + 1 : info->dlpi_name;
    if (base && (strncmp(base, "libcuda.so", 10) == 0 || strncmp(base, "libcudart.so", 12) == 0))
        f->found = 1;
    return f->found;
}

/* Whether the program loaded CUDA; only when it loaded anything since the last look. */
static int cuda_loaded(void)
{
    struct cuda_find f = {0, 0};
    dl_iterate_phdr(cuda_visit, &f);
    loads_seen = f.adds;
    return f.found;
}

static unsigned long long coarse_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* Quiet (gpu_activity_switch_quiet) until the coarse clock reads coarse_until or more:
 * until the precise clock reads that plus the coarse clock's step (it lags by less),
 * in ticks at their ratio over the time since the switch began waiting (once that is
 * 1 ms or more: before, no begin is quiet). */
static void quiet_until(unsigned long long coarse_until)
{
    uint64_t tick = tick_clock(), ns = mono_clock_ns();
    if (ns < wait_ns0 + 1000000u || tick <= wait_tick0 || coarse_until + coarse_step_ns <= ns)
        return;
    double per_ns = (double)(tick - wait_tick0) / (double)(ns - wait_ns0);
    atomic_store(&gpu_activity_switch_quiet_until,
                 tick + (uint64_t)(per_ns * (double)(coarse_until + coarse_step_ns - ns)));
    int now = atomic_load(&state); /* decided meanwhile (set_state: the state first) */
    if (now != WAITING)
        atomic_store(&gpu_activity_switch_quiet_until, now == ON ? 0 : UINT64_MAX);
}

/* Whether this caller is the one to look now: LOOK_NS since the last look (one thread
 * wins the look; the others return at once). Quiet until the next look either way. */
static int look_due(void)
{
    unsigned long long now = coarse_ns(),
                       due = atomic_load_explicit(&next_look_ns, memory_order_relaxed);
    if (now < due || !atomic_compare_exchange_strong(&next_look_ns, &due, now + LOOK_NS)) {
        quiet_until(due);
        return 0;
    }
    quiet_until(now + LOOK_NS);
    return 1;
}

/* A decided state: no call has anything to do (off, stopped) or every one has (on). */
static void set_state(int decided)
{
    state = decided;
    atomic_store(&gpu_activity_switch_quiet_until, decided == ON ? 0 : UINT64_MAX);
}

static int loads_changed(void)
{
    struct cuda_find f = {0, 1}; /* found = 1: stop at the first object, read its count */
    dl_iterate_phdr(cuda_visit, &f);
    return f.adds != loads_seen;
}

static void start(const char *who)
{
    char reason[768];
    if (gpu_activity_start(NULL, 0, reason, sizeof reason) == CUPTI_LOAD_OK) {
        set_state(ON);
        reason_line[0] = '\0';
        return;
    }
    set_state(OFF);
    snprintf(reason_line, sizeof reason_line, "%s", reason);
    if (who) /* NULL: another process of the job says it */
        fprintf(stderr, "papi: %s: no GPU activity: %s\n", who, reason);
}

int gpu_activity_switch_start(const char *who)
{
    int now = atomic_load_explicit(&state, memory_order_acquire);
    if (now == ON || now == OFF || now == STOPPED)
        return now == ON;
    if (now == WAITING && (!look_due() || !loads_changed()))
        return 0; /* looked lately, or nothing loaded since: every begin of a CPU-only program */
    pthread_mutex_lock(&switch_lock);
    if (state == UNDECIDED) {
        const char *v = env_get("PAPI_GPU_ACTIVITY");
        if (v && strcmp(v, "0") == 0) {
            set_state(OFF);
            snprintf(reason_line, sizeof reason_line, "PAPI_GPU_ACTIVITY=0");
        } else if (v && strcmp(v, "1") == 0) {
            start(who);
        } else if (v && *v && strcmp(v, "auto") != 0) {
            set_state(OFF);
            snprintf(reason_line, sizeof reason_line,
                     "PAPI_GPU_ACTIVITY=%.64s: expected 0, 1 or auto", v);
            if (who)
                fprintf(stderr, "papi: %s: no GPU activity: %s\n", who, reason_line);
        } else {
            loads_seen = ~0ull; /* before WAITING: any count differs until cuda_loaded */
            struct timespec res;
            coarse_step_ns = clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0
                                 ? (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec
                                 : 10000000u; /* 10 ms: HZ=100's jiffy */
            wait_ns0 = mono_clock_ns(), wait_tick0 = tick_clock();
            atomic_store(&next_look_ns, coarse_ns() + LOOK_NS); /* this call looks now */
            state = WAITING;
            if (cuda_loaded()) /* linked at start, or loaded before the first call */
                start(who);
        }
    } else if (state == WAITING && cuda_loaded()) { /* loads changed: walked once more */
        start(who);
    }
    int on = state == ON;
    pthread_mutex_unlock(&switch_lock);
    return on;
}

void gpu_activity_switch_stop(const char *why)
{
    pthread_mutex_lock(&switch_lock);
    if (state == ON) {
        gpu_activity_stop();
        set_state(STOPPED);
        snprintf(reason_line, sizeof reason_line, "stopped by %s: later GPU work is not recorded",
                 why);
    }
    pthread_mutex_unlock(&switch_lock);
}

int gpu_activity_switch_state(const char **reason)
{
    pthread_mutex_lock(&switch_lock);
    int on = state == ON || state == STOPPED;
    *reason = reason_line;
    pthread_mutex_unlock(&switch_lock);
    return on;
}
