/* thread_sampler.c: the calling thread's sampling event set (thread_sampler.h). Each step is
 * a public PAPI call; a failing one is undone whole (cleanup and destroy take the overflow
 * setting, the attachment and any descriptor with the set) and named in the reason. */
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "thread_sampler.h"

static _Atomic(void *) owners[THREAD_SAMPLER_SETS];

/* The reason a step failed, read before the undo's calls can replace the thread's detail. */
static int failed(int ret, const char *step, char *why, size_t len)
{
    const char *detail = PAPI_strerror_detail();
    const char *text = PAPI_strerror(ret);
    snprintf(why, len, "%s: %s%s%s", step, text ? text : "unknown error", *detail ? ": " : "",
             detail);
    return ret;
}

/* The set configured step by step; the first failure is returned, named in why. */
static int configure(const struct sampler_spec *sp, int es, char *why, size_t len)
{
    int ret = PAPI_get_event_component(sp->code);
    if (ret < 0)
        return failed(ret, "PAPI_get_event_component", why, len);
    if ((ret = PAPI_assign_eventset_component(es, ret)) != PAPI_OK)
        return failed(ret, "PAPI_assign_eventset_component", why, len);
    if ((ret = PAPI_attach(es, (unsigned long)syscall(SYS_gettid))) != PAPI_OK)
        return failed(ret, "PAPI_attach", why, len);
    if ((ret = PAPI_add_event(es, sp->code)) != PAPI_OK)
        return failed(ret, "PAPI_add_event", why, len);
    ret = sp->hz ? PAPI_overflow_frequency(es, sp->code, sp->n, 0, sp->handler)
                 : PAPI_overflow(es, sp->code, sp->n, 0, sp->handler);
    if (ret != PAPI_OK)
        return failed(ret, sp->hz ? "PAPI_overflow_frequency" : "PAPI_overflow", why, len);
    return PAPI_OK;
}

int thread_sampler_open(const struct sampler_spec *sp, void *owner, int *es, char *why, size_t len)
{
    *es = PAPI_NULL;
    int ret = PAPI_create_eventset(es);
    if (ret != PAPI_OK)
        return failed(ret, "PAPI_create_eventset", why, len);
    if (*es < 0 || *es >= THREAD_SAMPLER_SETS) {
        snprintf(why, len, "event set %d: beyond the %d sets a sampling handler finds", *es,
                 THREAD_SAMPLER_SETS);
        ret = PAPI_ENOMEM;
    } else {
        ret = configure(sp, *es, why, len);
    }
    if (ret == PAPI_OK) {
        atomic_store(&owners[*es], owner); /* before the first signal */
        if ((ret = PAPI_start(*es)) != PAPI_OK) {
            failed(ret, "PAPI_start", why, len);
            atomic_store(&owners[*es], NULL);
        }
    }
    if (ret != PAPI_OK) {
        PAPI_cleanup_eventset(*es);
        PAPI_destroy_eventset(es);
        *es = PAPI_NULL;
    }
    return ret;
}

void *thread_sampler_owner(int es)
{
    return es >= 0 && es < THREAD_SAMPLER_SETS ? atomic_load(&owners[es]) : NULL;
}

void thread_sampler_close(int *es)
{
    long long v;
    int state = 0;
    if (*es == PAPI_NULL)
        return;
    if (PAPI_state(*es, &state) == PAPI_OK && (state & PAPI_RUNNING)) /* the caller's stop kept */
        PAPI_stop(*es, &v);
    if (*es >= 0 && *es < THREAD_SAMPLER_SETS)
        atomic_store(&owners[*es], NULL);
    PAPI_cleanup_eventset(*es);
    PAPI_destroy_eventset(es);
    *es = PAPI_NULL;
}
