/* overflow_signal.c: signal delivery for overflow and profiling.
 *
 * One real-time signal (PAPI_get_component_info(0)->hardware_intr_sig) carries both
 * kinds of overflow to the counting thread:
 *   - hardware: the component routes each overflowing event to the thread
 *     (arm_overflow; perf_event: F_SETOWN_EX, F_SETSIG, O_ASYNC on the sampling fd), so
 *     the kernel queues one signal per overflow with si_fd = the source it returned;
 *   - software: a POSIX timer on the thread's CPU clock (SIGEV_THREAD_ID), si_code
 *     SI_TIMER and si_value = the event set handle.
 * Real-time signals queue instead of merging, so no overflow is lost to coalescing.
 * Events profiled into the component's sample ring (set_sampling: profil.c) take no
 * signal at all; ovf_start only names their receiver (arm_sampling).
 *
 * SIGNAL-SAFETY REVIEW of everything reachable from ovf_signal_handler:
 *   - system calls: the component's read (software tick; async-signal-safe by the
 *     contract of component.h) only; errno is saved/restored.
 *   - no malloc/free, no stdio, no locks, no pthread calls, no TLS (a _Thread_local in
 *     a shared library may allocate on first touch: only ovf_start, ordinary code, keeps
 *     one, the thread's stack bounds).
 *   - fd -> event set lookup: a fixed array of atomics written under a mutex by
 *     ordinary code and read lock-free by the handler; the handler then revalidates
 *     through es_lookup (an atomic load of the set table) and checks the set's overflow
 *     state still names that source, so a stale slot or a destroyed set is ignored.
 *   - state touched: the set's struct ovf_state (software next/last, scratch buffers),
 *     written only by the handler while the set runs; configuration changes require a
 *     stopped set, and PAPI_stop's disable ioctl returns only after pending signals
 *     for this thread have been delivered (the kernel delivers them on that return).
 *   - preset_compute (pure arithmetic), profil_sample (arithmetic on the user's
 *     buffers, a per-set xorshift generator), and the user's handler (the user's duty).
 *   - bounded work: one scan of OVF_FD_SLOTS per hardware signal; a software tick
 *     reads each group once and calls the handler at most SW_MAX_CALLS_PER_TICK times.
 *   - a signal that is not ours (another user of the same signal number) is passed to
 *     the handler that was installed before ours.
 *   - shutdown (ovf_quiesce, then ovf_restore_handlers): each running handler is listed
 *     in `inside` (its thread pointer: a register, no system call); once `closing` is set
 *     the handler touches no set, only the fd slots (static), and the shutdown waits for
 *     the handlers already inside before the sets are freed.
 * Known limit: an event set whose overflow signals are routed to one thread should be
 * started, stopped and reconfigured from that thread (as PAPI requires). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#include "overflow_signal.h"
#include "profil_histogram.h"
#include "thread_pointer.h"
#include "warn_once.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define OVF_FD_SLOTS          1024
#define SW_MAX_CALLS_PER_TICK 64
#define PACE_SLOWER           4 /* how much slower an event goes when it cannot be kept up with */
#define PACE_MAX_PERIOD       (1LL << 40)

struct fd_slot {
    atomic_int fd_plus1; /* 0 = free */
    atomic_int handle;
    atomic_int native;
};
static struct fd_slot slots[OVF_FD_SLOTS];
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;
/* The signals our handler is installed for (the overflow signal, and PAPI_DEF_ITIMER's
 * when it names another), each once, with the action it replaced. */
#define HANDLED_SIGS 9
static struct sigaction previous[HANDLED_SIGS];
static atomic_int handled_sig[HANDLED_SIGS];
static const struct sigaction no_previous; /* SIG_DFL: nothing to pass a signal on to */

/* The threads inside ovf_signal_handler (their thread pointers, 0 = free), counted apart
 * when more are inside at once than there are slots; and the shutdown's mark: from
 * ovf_quiesce until the handler is installed again, it reads no set (they are being
 * freed). Sequentially consistent on both sides: a handler either sees closing or is seen
 * inside by the shutdown. */
#define INSIDE_SLOTS 64
static _Atomic uintptr_t inside[INSIDE_SLOTS];
static atomic_int inside_unslotted;
static atomic_int closing;
/* What the thread in inside[i] hands its user handler (PAPI_get_overflow_callchain): the
 * signal's context and the thread's stack, set around the call; only that thread reads or
 * writes its slot's entry while it holds the slot. */
struct dispatch {
    _Atomic(void *) ctx; /* atomic so that ovf_start may write its page in (below) */
    uintptr_t stack_lo, stack_hi;
};
static struct dispatch dispatching[INSIDE_SLOTS];

/* A forked child's first write to a page of these arrays is a copy-on-write page fault,
 * and one a handler takes is counted as the program's (a child's PAGE-FAULTS set counted
 * 201 for 200 pages, in some runs: which page a thread's slot is on follows its thread
 * pointer). The starting thread writes each of their pages in first, outside the count,
 * by exchanging a word with itself, which leaves what a running handler wrote as it is. */
static void write_in_handler_pages(void)
{
    uintptr_t last = 0, last_d = 0;
    for (int i = 0; i < INSIDE_SLOTS; i++) {
        uintptr_t v = atomic_load(&inside[i]), page = (uintptr_t)&inside[i] >> 12;
        if (page != last && atomic_compare_exchange_strong(&inside[i], &v, v))
            last = page;
        void *c = atomic_load(&dispatching[i].ctx);
        page = (uintptr_t)&dispatching[i] >> 12;
        if (page != last_d && atomic_compare_exchange_strong(&dispatching[i].ctx, &c, c))
            last_d = page;
    }
}
/* Plain SIGIOs the kernel sent while overflow sources were live: each stands for a
 * notification it could not queue (RLIMIT_SIGPENDING), and the last count said. */
static atomic_ullong queue_full, queue_full_said;
static atomic_int said_slowed, said_queue_full;

static const struct sigaction *previous_action(int sig)
{
    for (int i = 0; i < HANDLED_SIGS; i++)
        if (atomic_load(&handled_sig[i]) == sig)
            return &previous[i];
    return &no_previous;
}

int ovf_signal_number(void)
{
    return PAPI_get_component_info(0)->hardware_intr_sig;
}

static uintptr_t pc_of(void *ctx)
{
    const ucontext_t *uc = ctx;
    if (!uc)
        return 0;
#if defined(__x86_64__)
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
    return (uintptr_t)uc->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
    return (uintptr_t)uc->uc_mcontext.pc;
#elif defined(__powerpc64__)
    return (uintptr_t)uc->uc_mcontext.gp_regs[32];
#elif defined(__riscv)
    return (uintptr_t)uc->uc_mcontext.__gregs[0];
#else
    return 0;
#endif
}

/* Does the set still take overflow signals of source on native ni? */
static int source_live(const struct eventset *es, int ni, int source)
{
    const struct ovf_state *o = es ? es->overflow : NULL;
    if (!o || o->mode != OVF_HW)
        return 0;
    for (int k = 0; k < o->nevents; k++)
        if (o->ev[k].native == ni && o->ev[k].source == source)
            return 1;
    return 0;
}

/* Remember that signals carrying source belong to native ni of es. */
static int register_source(struct eventset *es, int ni, int source)
{
    pthread_mutex_lock(&slot_lock);
    int free_slot = -1;
    for (int i = 0; i < OVF_FD_SLOTS; i++) {
        if (atomic_load(&slots[i].fd_plus1) == source + 1) {
            free_slot = i;
            break;
        }
        /* Only free slots: a set gives its slots back itself (ovf_stop), so no thread
         * ever looks into another thread's sets here. */
        if (free_slot < 0 && atomic_load(&slots[i].fd_plus1) == 0)
            free_slot = i;
    }
    if (free_slot >= 0) {
        atomic_store(&slots[free_slot].fd_plus1, 0);
        atomic_store(&slots[free_slot].handle, es->handle);
        atomic_store(&slots[free_slot].native, ni);
        atomic_store(&slots[free_slot].fd_plus1, source + 1);
    }
    pthread_mutex_unlock(&slot_lock);
    if (free_slot < 0)
        return papi_error(PAPI_ENOMEM, "more than %d overflowing events are open at once",
                          OVF_FD_SLOTS);
    return PAPI_OK;
}

static void deliver(struct eventset *es, struct ovf_state *o, long long vector, uintptr_t pc,
                    void *ctx, int slot)
{
    if (!vector || !o->handler)
        return;
    struct dispatch *d = slot >= 0 ? &dispatching[slot] : NULL;
    if (d) {
        d->stack_lo = o->stack_lo;
        d->stack_hi = o->stack_hi;
        atomic_store(&d->ctx, ctx);
    }
    o->handler(es->handle, (void *)pc, vector, ctx);
    if (d)
        atomic_store(&d->ctx, NULL);
}

int ovf_dispatch_context(void **ctx, uintptr_t *stack_lo, uintptr_t *stack_hi)
{
    uintptr_t me = papi_thread_pointer();
    for (int i = 0; i < INSIDE_SLOTS; i++)
        if (atomic_load(&inside[i]) == me && atomic_load(&dispatching[i].ctx)) {
            *ctx = atomic_load(&dispatching[i].ctx);
            *stack_lo = dispatching[i].stack_lo;
            *stack_hi = dispatching[i].stack_hi;
            return 1;
        }
    return 0;
}

/* The interrupted context's registers as one word (FNV-1a over the general registers, the
 * program counter and the stack pointer): equal for two signals when the thread ran no
 * instruction between them. Where the registers are not known, the program counter alone. */
static uint64_t context_word(const void *ctx, uintptr_t pc)
{
    const uint64_t *w = NULL;
    size_t n = 0;
    const ucontext_t *uc = ctx;
#if defined(__x86_64__)
    if (uc) {
        w = (const uint64_t *)(const void *)uc->uc_mcontext.gregs; /* up to REG_EFL */
        n = (size_t)REG_EFL + 1;
    }
#elif defined(__aarch64__)
    if (uc) { /* regs[31], sp, pc, pstate: contiguous */
        w = (const uint64_t *)(const void *)uc->uc_mcontext.regs;
        n = 34;
    }
#else
    (void)uc;
#endif
    uint64_t h = (1469598103934665603ull ^ (uint64_t)pc) * 1099511628211ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ w[i]) * 1099511628211ull;
    return h;
}

/* Does the event cause its own signals? A fault the kernel gives up on because a signal
 * is pending (a page fault under the VMA lock that needs the mmap lock: the first touch of a
 * new anonymous mapping or of the vDSO's data page) is taken again when the handler
 * returns, and counted again: with perf::PAGE-FAULTS@1 each attempt overflows, queues the
 * next signal and gives up again, for ever (issue 69: the program never got past
 * PAPI_hl_region_begin, 5,500 signals a second, no queue overflow). The mark: signal after
 * signal at the same context (every register the same: not one instruction ran between
 * them) with none of ours queued behind when it comes, before the user's handler runs (a
 * burst of signals queued while the thread was away also comes at one context; a handler
 * that faults itself queues the next one while it runs). OVF_STALLED_SIGNALS in a row: the
 * thread is not moving. Judged only at a period of at most OVF_STALLED_PERIOD: a wait loop
 * also shows one context at every sample (mpi_sample_rate's rank 0 in a barrier, sampled on
 * the task clock at 10 kHz, was slowed twice). */
static int no_progress(struct ovf_event *ev, const void *ctx, uintptr_t pc, int sig)
{
    uint64_t w = context_word(ctx, pc);
    if (w != ev->context) {
        ev->context = w;
        ev->repeats = 0;
        return 0;
    }
    sigset_t p;
    if (sigpending(&p) == 0 && sigismember(&p, sig) == 1)
        return 0; /* queued ones: a burst, not a loop */
    if (++ev->repeats < OVF_STALLED_SIGNALS)
        return 0;
    ev->repeats = 0;
    return 1;
}

/* Signals faster than the thread takes them pile up in the kernel's queue (real-time
 * signals queue) until the per-user limit (RLIMIT_SIGPENDING) is reached, and the program
 * makes hardly any progress meanwhile: a signal every 10 us of task clock made a region
 * program 50-200x slower, then the kernel's plain SIGIO ended it. A queue that overflowed
 * (a SIGIO counted by on_sigio since the event's last look: overflows are being lost
 * already; a pending one is taken when this handler returns), or signals that come back at
 * a thread that ran nothing between them (no_progress: each causes the next), slow an
 * event PACE_SLOWER times at once (a longer period, a lower frequency) through its
 * component; signals that merely bunch (an overflow interrupt taken late, as QEMU raises
 * it at the next timer tick) keep every overflow the program asked for. The signals queued
 * before are taken before it is judged again. PAPI_stop says so. */
static void pace(struct eventset *es, struct ovf_event *ev, int stalled, int sig)
{
    unsigned long long lost = atomic_load_explicit(&queue_full, memory_order_relaxed);
    if (ev->draining) { /* after a slow-down only: the signals queued before are not judged */
        sigset_t p;
        ev->draining = sigpending(&p) == 0 && sigismember(&p, sig) == 1;
        ev->lost_seen = lost;
        return;
    }
    if (lost == ev->lost_seen && !stalled) /* the common case: one load, no system call */
        return;
    ev->lost_seen = lost;
    long long now = atomic_load_explicit(&ev->now, memory_order_relaxed);
    long long next = ev->hz ? now / PACE_SLOWER : now * PACE_SLOWER;
    if (!es->cmp->retune_overflow || next < 1 || next > PACE_MAX_PERIOD)
        return;
    if (es->cmp->retune_overflow(es->ctx, ev->native,
                                 (uint64_t)next | (ev->hz ? CMP_PERIOD_HZ : 0)) == PAPI_OK) {
        atomic_store_explicit(&ev->now, next, memory_order_relaxed);
        atomic_fetch_add_explicit(&ev->slowed, 1, memory_order_relaxed);
        atomic_fetch_or_explicit(&ev->slowed_why, stalled ? OVF_SLOWED_STALLED : OVF_SLOWED_LOST,
                                 memory_order_relaxed);
        ev->draining = 1;
    }
}

/* What one overflow of a paced event stands for, in overflows at the threshold asked. */
static long long weight_of(const struct ovf_event *ev)
{
    long long now = atomic_load_explicit(&ev->now, memory_order_relaxed);
    return ev->hz || now <= ev->threshold ? 1 : now / ev->threshold;
}

static int hardware_overflow(int fd, int sig, void *ctx, int slot)
{
    for (int i = 0; i < OVF_FD_SLOTS; i++) {
        if (atomic_load(&slots[i].fd_plus1) != fd + 1)
            continue;
        struct eventset *es = es_lookup(atomic_load(&slots[i].handle));
        int ni = atomic_load(&slots[i].native);
        if (!source_live(es, ni, fd))
            return 1; /* ours, but the set is gone or no longer overflows: drop it */
        struct ovf_state *o = es->overflow;
        uintptr_t pc = pc_of(ctx);
        long long vector = 0;
        struct ovf_event *first = NULL;
        for (int k = 0; k < o->nevents; k++) {
            if (o->ev[k].native != ni)
                continue;
            first = first ? first : &o->ev[k];
            if (o->ev[k].profiled)
                profil_sample(es, o->ev[k].pos, pc, weight_of(&o->ev[k]));
            else
                vector |= 1LL << o->ev[k].pos;
        }
        /* judged before the user's handler runs: a fault of its own queues the next signal */
        int stalled =
            first && !first->hz &&
                    atomic_load_explicit(&first->now, memory_order_relaxed) <= OVF_STALLED_PERIOD
                ? no_progress(first, ctx, pc, sig)
                : 0;
        deliver(es, o, vector, pc, ctx, slot);
        if (first && !atomic_load(&closing)) {
            pace(es, first, stalled, sig);
            for (int k = 0; k < o->nevents; k++) /* the others on the counter go with it */
                if (o->ev[k].native == ni && &o->ev[k] != first) {
                    atomic_store(&o->ev[k].now, atomic_load(&first->now));
                    atomic_store(&o->ev[k].slowed, atomic_load(&first->slowed));
                    atomic_store(&o->ev[k].slowed_why, atomic_load(&first->slowed_why));
                }
        }
        return 1;
    }
    return 0;
}

static long long entry_value(const struct eventset *es, const struct ovf_state *o, int pos)
{
    const struct es_entry *ent = &es->ent[pos];
    if (!ent->preset || ent->preset->op == DERIVE_NONE)
        return o->raw[ent->term[0]];
    long long t[PRESET_MAX_TERMS];
    for (int i = 0; i < ent->nterms; i++)
        t[i] = o->raw[ent->term[i]];
    return preset_compute(ent->preset, t);
}

static void software_tick(int handle, void *ctx, int slot)
{
    struct eventset *es = es_lookup(handle);
    if (!es || !(es->state & PAPI_RUNNING))
        return;
    struct ovf_state *o = es->overflow;
    if (!o || o->mode != OVF_SW)
        return;
    if (!es->ctx || es->cmp->read(es->ctx, o->cnt) != PAPI_OK)
        return;
    for (int i = 0; i < es->nnat; i++)
        o->raw[i] = (long long)(o->cnt[i].value - es->base[i]);
    uintptr_t pc = pc_of(ctx);
    long long pending[OVF_MAX_EVENTS];
    long long most = 0;
    for (int k = 0; k < o->nevents; k++) {
        struct ovf_event *ev = &o->ev[k];
        long long v = entry_value(es, o, ev->pos);
        pending[k] = 0;
        if (v < ev->last) /* PAPI_reset or PAPI_write moved the baseline */
            ev->next = v + ev->threshold;
        ev->last = v;
        if (v < ev->next)
            continue;
        long long crossed = (v - ev->next) / ev->threshold + 1;
        ev->next += crossed * ev->threshold;
        if (ev->profiled) {
            profil_sample(es, ev->pos, pc, crossed);
        } else {
            pending[k] = crossed;
            most = crossed > most ? crossed : most;
        }
    }
    /* One call per threshold crossed, as a hardware counter would interrupt (a tick
     * can cover several when ticks are late or coalesced), bounded per tick. */
    if (most > SW_MAX_CALLS_PER_TICK)
        most = SW_MAX_CALLS_PER_TICK;
    for (long long c = 0; c < most; c++) {
        long long vector = 0;
        for (int k = 0; k < o->nevents; k++)
            if (pending[k] > c)
                vector |= 1LL << o->ev[k].pos;
        deliver(es, o, vector, pc, ctx, slot);
        if (atomic_load(&closing)) /* the user's handler shut the library down */
            return;
    }
}

/* Does a signal of fd belong to an overflow source (fd -1: any)? (Shutdown: the set is
 * not looked at.) */
static int fd_registered(int fd)
{
    for (int i = 0; i < OVF_FD_SLOTS; i++) {
        int f = atomic_load(&slots[i].fd_plus1);
        if (f == fd + 1 || (fd < 0 && f != 0))
            return 1;
    }
    return 0;
}

/* The program's own handler of sig, the one before ours, called: 1, or 0 when its
 * action was SIG_DFL or SIG_IGN (nothing called). */
static int chain_previous(int sig, siginfo_t *si, void *ctx)
{
    const struct sigaction *prev = previous_action(sig);
    if (prev->sa_flags & SA_SIGINFO) {
        if (prev->sa_sigaction)
            prev->sa_sigaction(sig, si, ctx);
        return 1;
    }
    if (prev->sa_handler == SIG_DFL || prev->sa_handler == SIG_IGN)
        return 0;
    prev->sa_handler(sig);
    return 1;
}

/* SIGIO, installed with the overflow sources: the kernel sends it (SI_KERNEL) when it
 * cannot queue an overflow's signal, and its default action would end the process. It is
 * counted (PAPI_stop says so; the notification itself is gone) and handed to a handler
 * the program installed (its own descriptors may send SIGIO too); one not ours whose
 * action was the default gets it. */
static void on_sigio(int sig, siginfo_t *si, void *ctx)
{
    int ours = si->si_code == SI_KERNEL && fd_registered(-1);
    if (ours)
        atomic_fetch_add(&queue_full, 1);
    if (!chain_previous(sig, si, ctx) && !ours && previous_action(sig)->sa_handler == SIG_DFL) {
        signal(sig, SIG_DFL); /* delivered when the handler returns: the default action */
        raise(sig);
    }
}

/* This thread into `inside` (the slot it took, or -1: counted apart). */
static int enter_handler(uintptr_t me)
{
    unsigned first = (unsigned)(me >> 12) % INSIDE_SLOTS; /* threads spread over the slots */
    for (unsigned n = 0; n < INSIDE_SLOTS; n++) {
        unsigned i = (first + n) % INSIDE_SLOTS;
        uintptr_t free_slot = 0;
        if (atomic_compare_exchange_strong(&inside[i], &free_slot, me))
            return (int)i;
    }
    atomic_fetch_add(&inside_unslotted, 1);
    return -1;
}

static void leave_handler(int slot)
{
    if (slot >= 0)
        atomic_store(&inside[slot], 0);
    else
        atomic_fetch_sub(&inside_unslotted, 1);
}

static void ovf_signal_handler(int sig, siginfo_t *si, void *ctx)
{
    int saved = errno;
    if (sig == SIGIO) {
        on_sigio(sig, si, ctx);
        errno = saved;
        return;
    }
    int slot = enter_handler(papi_thread_pointer());
    int ours;
    if (atomic_load(&closing)) /* the sets are being freed: drop what is ours */
        ours = si->si_code == SI_TIMER || fd_registered(si->si_fd);
    else if (si->si_code == SI_TIMER) {
        software_tick(si->si_value.sival_int, ctx, slot);
        ours = 1;
    } else {
        ours = hardware_overflow(si->si_fd, sig, ctx, slot);
    }
    leave_handler(slot);
    if (!ours)
        chain_previous(sig, si, ctx);
    errno = saved;
}

/* Install ovf_signal_handler for sig once, remembering the action it replaces. */
static int install_handler_for(int sig)
{
    if (previous_action(sig) != &no_previous)
        return PAPI_OK;
    pthread_mutex_lock(&slot_lock);
    int ret = PAPI_OK, i = 0;
    while (i < HANDLED_SIGS && atomic_load(&handled_sig[i]) != 0 &&
           atomic_load(&handled_sig[i]) != sig)
        i++;
    if (i == HANDLED_SIGS) {
        ret = papi_error(PAPI_ECNFLCT, "overflow already uses %d other signals, not %d too",
                         HANDLED_SIGS, sig);
    } else if (atomic_load(&handled_sig[i]) == 0) {
        atomic_store(&closing, 0); /* a new session: the sets are live again */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = ovf_signal_handler;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        if (sigaction(sig, &sa, &previous[i]) != 0)
            ret = papi_error(PAPI_ESYS, "cannot install the overflow handler for signal %d: %s",
                             sig, strerror(errno));
        else
            atomic_store(&handled_sig[i], sig);
    }
    pthread_mutex_unlock(&slot_lock);
    return ret;
}

int ovf_install_handler(void)
{
    /* The handler's calls into the C library bound now: a lazy binding's lookup inside the
     * handler took seconds at a signal every 10 us (the timer's interrupts left it little). */
    sigset_t bind_now;
    sigpending(&bind_now);
    return install_handler_for(ovf_signal_number());
}

/* Until no handler is inside ovf_signal_handler in another thread (this one may be:
 * PAPI_shutdown called from the user's overflow handler). */
static void wait_handlers_out(void)
{
    uintptr_t me = papi_thread_pointer();
    const struct timespec pause = {0, 50000};
    for (int i = 0; i < INSIDE_SLOTS; i++) {
        uintptr_t t;
        while ((t = atomic_load(&inside[i])) != 0 && t != me)
            nanosleep(&pause, NULL);
    }
    while (atomic_load(&inside_unslotted) > 0)
        nanosleep(&pause, NULL);
}

/* No overflow source signals any more (their descriptors are closed later, with the
 * sets): until then a short period (20 us of task clock: 50,000 signals a second) would
 * go on queueing real-time signals, and once the kernel cannot queue another
 * (RLIMIT_SIGPENDING, counted per user over all of the user's processes) it sends a plain
 * SIGIO instead, whose default action ends the process (seen in test_shutdown_overflow
 * beside other tests). */
static void silence_sources(void)
{
    pthread_mutex_lock(&slot_lock);
    for (int i = 0; i < OVF_FD_SLOTS; i++) {
        int fd = atomic_load(&slots[i].fd_plus1) - 1;
        int fl = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
        if (fl >= 0 && (fl & O_ASYNC))
            fcntl(fd, F_SETFL, fl & ~O_ASYNC);
    }
    pthread_mutex_unlock(&slot_lock);
}

/* Shutdown, before the sets are freed: no source signals any more, the handler reads no
 * set from now on, and the handlers already inside one finish first. A forked child
 * dropping its parent's sets (inherited) leaves the sources alone: O_ASYNC is a flag of
 * the open file the parent shares, and clearing it stopped the parent's overflow signals
 * (PAPI's fork_overflow failed in the arm64 guest). */
void ovf_quiesce(int inherited)
{
    if (!inherited)
        silence_sources();
    atomic_store(&closing, 1);
    wait_handlers_out();
}

/* Put back every action install_handler_for replaced (PAPI_shutdown, and the library's
 * destructor before dlclose unmaps ovf_signal_handler: a signal arriving later would
 * jump into unmapped memory). Runs after every set's timer and overflow source is gone;
 * signals they queued before that may still wait in any thread (a thread that was not
 * scheduled, or inside the handler with the signal blocked): setting the action to
 * SIG_IGN discards them in every thread (POSIX), so none meets the default action
 * (SIGRTMIN+2 terminates the process). A handler that someone installed over ours is
 * theirs to keep: it is left alone. */
void ovf_restore_handlers(void)
{
    pthread_mutex_lock(&slot_lock);
    for (int i = 0; i < HANDLED_SIGS; i++) {
        int sig = atomic_load(&handled_sig[i]);
        if (sig == 0)
            continue;
        struct sigaction cur, ignore;
        memset(&ignore, 0, sizeof ignore);
        ignore.sa_handler = SIG_IGN;
        if (sigaction(sig, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
            cur.sa_sigaction == ovf_signal_handler) {
            sigaction(sig, &ignore, NULL);
            sigaction(sig, &previous[i], NULL);
        }
        atomic_store(&handled_sig[i], 0);
    }
    /* previous[] stays as it is: a handler that began before the action was put back may
     * still pass a signal to it; the next install_handler_for writes it. */
    wait_handlers_out();
    for (int i = 0; i < OVF_FD_SLOTS; i++)
        atomic_store(&slots[i].fd_plus1, 0);
    pthread_mutex_unlock(&slot_lock);
}

static int arm_timer(struct eventset *es, struct ovf_state *o)
{
    /* PAPI_DEF_ITIMER: ITIMER_REAL runs on wall-clock time, the others on the thread's
     * CPU time; the signal as given. By default the CPU clock and the overflow signal. */
    int sig = g_papi.itimer_sig ? g_papi.itimer_sig : ovf_signal_number();
    clockid_t clock = g_papi.itimer_sig && g_papi.itimer_num == ITIMER_REAL
                          ? CLOCK_MONOTONIC
                          : CLOCK_THREAD_CPUTIME_ID;
    int ret = install_handler_for(sig); /* PAPI_DEF_ITIMER's signal, handled alike */
    if (ret != PAPI_OK)
        return ret;
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = sig;
    sev.sigev_value.sival_int = es->handle;
    sev.sigev_notify_thread_id = o->tid;
    if (timer_create(clock, &sev, &o->timer) != 0)
        return papi_error(PAPI_ESYS, "cannot create the software overflow timer: %s",
                          strerror(errno));
    o->tick_ns = g_papi.mpx_slice_ns > 0 ? g_papi.mpx_slice_ns : 10000000;
    struct itimerspec its;
    its.it_interval.tv_sec = o->tick_ns / 1000000000LL;
    its.it_interval.tv_nsec = o->tick_ns % 1000000000LL;
    its.it_value = its.it_interval;
    if (timer_settime(o->timer, 0, &its, NULL) != 0) {
        int err = errno;
        timer_delete(o->timer);
        return papi_error(PAPI_ESYS, "cannot arm the software overflow timer: %s", strerror(err));
    }
    o->timer_armed = 1;
    return PAPI_OK;
}

/* The calling thread's stack, where the call chain's walk may read (0, 0 unknown): read
 * once per thread and kept here (pthread_getattr_np reads /proc/self/maps for the main
 * thread, about 230,000 instructions, which every profiling start paid). Ordinary code
 * only (PAPI_start): the handler reads the copy in the set's ovf_state. A forked child's
 * thread has another id: it reads its own. */
static _Thread_local struct {
    pid_t tid;
    uintptr_t lo, hi;
} stack_seen;

static void thread_stack(uintptr_t *lo, uintptr_t *hi)
{
    pid_t me = papi_gettid();
    if (stack_seen.tid != me) {
        pthread_attr_t attr;
        void *addr;
        size_t size;
        stack_seen.lo = stack_seen.hi = 0;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
                stack_seen.lo = (uintptr_t)addr;
                stack_seen.hi = (uintptr_t)addr + size;
            }
            pthread_attr_destroy(&attr);
        }
        stack_seen.tid = me;
    }
    *lo = stack_seen.lo;
    *hi = stack_seen.hi;
}

int ovf_start(struct eventset *es)
{
    struct ovf_state *o = es->overflow;
    int ret = ovf_install_handler();
    if (ret != PAPI_OK)
        return ret;
    o->tid = papi_gettid();
    write_in_handler_pages();
    o->stack_lo = o->stack_hi = 0;
    if (o->handler) /* only a handler may ask for the call chain (PAPI_profil has none) */
        thread_stack(&o->stack_lo, &o->stack_hi);
    if (o->mode == OVF_SW) {
        for (int k = 0; k < o->nevents; k++) {
            o->ev[k].next = o->ev[k].threshold;
            o->ev[k].last = 0;
        }
        return arm_timer(es, o);
    }
    /* Restart every period at zero and route the signals to the starting thread; a ring's
     * samples go to profil.c, no signal. */
    for (int k = 0; k < o->nevents; k++) {
        struct ovf_event *ev = &o->ev[k];
        int src;
        ev->source = -1;
        atomic_store(&ev->now, ev->limit ? ev->limit : ev->threshold);
        atomic_store(&ev->slowed, 0);
        atomic_store(&ev->slowed_why, 0);
        ev->context = 0;
        ev->repeats = 0;
        ev->draining = 0;
        ev->lost_seen = atomic_load(&queue_full);
        if (ev->ring) {
            ret = es->cmp->arm_sampling(es->ctx, ev->native, profil_ring_samples, es);
            if (ret != PAPI_OK)
                return ret;
            continue;
        }
        ret = install_handler_for(SIGIO); /* a full signal queue must not end the process */
        if (ret == PAPI_OK)
            ret = es->cmp->arm_overflow(es->ctx, ev->native, ovf_signal_number(), o->tid, &src);
        if (ret == PAPI_OK)
            ret = register_source(es, ev->native, src);
        if (ret != PAPI_OK)
            return ret;
        ev->source = src;
    }
    return PAPI_OK;
}

/* Give back the signal slots of es's hardware overflow (its events no longer count). */
static void release_sources(struct ovf_state *o)
{
    pthread_mutex_lock(&slot_lock);
    for (int k = 0; k < o->nevents; k++) {
        int src = atomic_load(&o->ev[k].source);
        for (int i = 0; src >= 0 && i < OVF_FD_SLOTS; i++)
            if (atomic_load(&slots[i].fd_plus1) == src + 1)
                atomic_store(&slots[i].fd_plus1, 0);
    }
    pthread_mutex_unlock(&slot_lock);
}

/* PAPI_stop: one line when an event was slowed or notifications were lost to a full
 * signal queue (the first time in the process; the region report has the figures). */
static void say_pacing(const struct eventset *es, const struct ovf_state *o)
{
    for (int k = 0; k < o->nevents; k++) {
        const struct ovf_event *ev = &o->ev[k];
        int n = atomic_load(&ev->slowed), why = atomic_load(&ev->slowed_why);
        if (n > 0)
            warn_once(&said_slowed,
                      "overflow of event 0x%x in EventSet %d: thread %d %s%s%s; slowed %d times, "
                      "to %s %lld%s (asked %lld)",
                      (unsigned)ev->code, es->handle, (int)o->tid,
                      why & OVF_SLOWED_LOST ? "could not take its signals as fast as they came"
                                            : "",
                      why == (OVF_SLOWED_LOST | OVF_SLOWED_STALLED) ? ", and " : "",
                      why & OVF_SLOWED_STALLED
                          ? "made no progress between its signals (each caused the next)"
                          : "",
                      n, ev->hz ? "a frequency of" : "a threshold of", atomic_load(&ev->now),
                      ev->hz ? " Hz" : "", ev->threshold);
    }
    unsigned long long full = atomic_load(&queue_full);
    if (full > atomic_exchange(&queue_full_said, full))
        warn_once(&said_queue_full,
                  "the kernel's queue of signals was full (RLIMIT_SIGPENDING) %llu times: as "
                  "many overflow notifications were lost",
                  full);
}

unsigned long long ovf_queue_overflows(void)
{
    return atomic_load(&queue_full);
}

int ovf_rate_now(const struct eventset *es, int pos, long long *now, int *hz, int *slowed)
{
    const struct ovf_state *o = es->overflow;
    int k = ovf_find(o, pos);
    if (k < 0)
        return PAPI_ENOEVNT;
    const struct ovf_event *ev = &o->ev[k];
    *now = atomic_load(&ev->now);
    *now = *now ? *now : ev->limit ? ev->limit : ev->threshold; /* not started yet */
    *hz = ev->hz;
    *slowed = atomic_load(&ev->slowed);
    return PAPI_OK;
}

void ovf_stop(struct eventset *es)
{
    struct ovf_state *o = es->overflow;
    if (o && o->mode == OVF_HW) {
        release_sources(o);
        profil_report_lost(es); /* the component's stop() delivered the rings' last samples */
        say_pacing(es, o);
    }
    if (o && o->timer_armed) {
        timer_delete(o->timer);
        o->timer_armed = 0;
    }
}
