/* overflow_callchain.c: PAPI_get_overflow_callchain, the call chain of the overflow being
 * dispatched, for the user's handler (an extension of this library, not in PAPI).
 *
 * A handler runs on the signal of the overflow (a user handler always takes signals: the
 * sample ring serves PAPI_profil only), so the chain is a frame-pointer walk of the
 * interrupted context: the PC, then the return address of each frame. The walk reads only
 * inside the thread's stack (bounds taken at PAPI_start, on that thread), each frame above
 * the last and aligned, so a frame without a frame pointer ends the chain early instead of
 * faulting. Async-signal-safe: loads and the lookup of the dispatch (no lock, no TLS). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <ucontext.h>

#include "overflow_signal.h"

/* The interrupted PC, frame pointer and stack pointer (0 where the architecture is not
 * known here). */
static void registers(const ucontext_t *uc, uintptr_t *pc, uintptr_t *fp, uintptr_t *sp)
{
#if defined(__x86_64__)
    *pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    *fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
    *sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    *pc = (uintptr_t)uc->uc_mcontext.pc;
    *fp = (uintptr_t)uc->uc_mcontext.regs[29];
    *sp = (uintptr_t)uc->uc_mcontext.sp;
#else
    (void)uc;
    *pc = *fp = *sp = 0;
#endif
}

/* The frame record at fp (both x86-64 and AArch64 keep {caller's fp, return address}
 * there) when it lies whole in [lo, hi) above floor. */
static int frame_ok(uintptr_t fp, uintptr_t floor, uintptr_t lo, uintptr_t hi)
{
    return fp >= floor && fp >= lo && fp % sizeof(uintptr_t) == 0 &&
           fp + 2 * sizeof(uintptr_t) <= hi;
}

int PAPI_get_overflow_callchain(void **pcs, int max)
{
    void *ctx;
    uintptr_t lo, hi;
    if (!ovf_dispatch_context(&ctx, &lo, &hi))
        return papi_error(PAPI_EINVAL, "PAPI_get_overflow_callchain is called from an "
                                       "overflow handler only (none runs on this thread)");
    /* In the handler: no papi_error (its reason buffer is thread-local storage, which a
     * shared library may allocate on first touch). */
    if (!pcs || max < 1)
        return PAPI_EINVAL;
    uintptr_t pc, fp, sp;
    registers(ctx, &pc, &fp, &sp);
    if (!pc)
        return PAPI_ENOSUPP;
    int n = 0;
    pcs[n++] = (void *)pc;
    uintptr_t floor = sp;
    while (n < max && hi && frame_ok(fp, floor, lo, hi)) {
        const uintptr_t *rec = (const uintptr_t *)fp;
        uintptr_t next = rec[0], ret = rec[1];
        if (!ret)
            break;
        pcs[n++] = (void *)ret;
        if (next <= fp) /* frames go up the stack: anything else ends the chain */
            break;
        floor = fp + 2 * sizeof(uintptr_t);
        fp = next;
    }
    return n;
}
