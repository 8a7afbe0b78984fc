/* thread_sampler.c: the calling thread's sampling event set (thread_sampler.h), a public
 * PAPI call a step. A failure is undone whole by the close (cleanup and destroy take the
 * overflow setting, the attachment and any descriptor with the set). */
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "thread_sampler.h"

static _Atomic(void *) owners[THREAD_SAMPLER_SETS];

int thread_sampler_open(const struct sampler_spec *sp, void *owner, int *es, char *why, size_t len)
{
    const char *step = "PAPI_get_event_component";
    int cidx = PAPI_get_event_component(sp->code), ret = cidx;
    *es = PAPI_NULL;
    if (cidx >= 0 && (ret = PAPI_create_eventset(es)) != PAPI_OK)
        step = "PAPI_create_eventset";
    if (ret == PAPI_OK && (*es < 0 || *es >= THREAD_SAMPLER_SETS))
        step = NULL, ret = PAPI_ENOMEM;
    if (ret == PAPI_OK && (ret = PAPI_assign_eventset_component(*es, cidx)) != PAPI_OK)
        step = "PAPI_assign_eventset_component";
    if (ret == PAPI_OK && (ret = PAPI_attach(*es, (unsigned long)syscall(SYS_gettid))) != PAPI_OK)
        step = "PAPI_attach";
    if (ret == PAPI_OK && (ret = PAPI_add_event(*es, sp->code)) != PAPI_OK)
        step = "PAPI_add_event";
    if (ret == PAPI_OK &&
        (ret = sp->hz ? PAPI_overflow_frequency(*es, sp->code, sp->n, 0, sp->handler)
                      : PAPI_overflow(*es, sp->code, sp->n, 0, sp->handler)) != PAPI_OK)
        step = sp->hz ? "PAPI_overflow_frequency" : "PAPI_overflow";
    if (ret == PAPI_OK)
        atomic_store(&owners[*es], owner); /* before the first signal */
    if (ret == PAPI_OK && (ret = PAPI_start(*es)) != PAPI_OK)
        step = "PAPI_start";
    if (ret == PAPI_OK)
        return PAPI_OK;
    const char *text = PAPI_strerror(ret), *detail = PAPI_strerror_detail(); /* before the undo */
    if (step)
        snprintf(why, len, "%s: %s%s%s", step, text ? text : "?", *detail ? ": " : "", detail);
    else
        snprintf(why, len, "event set %d: beyond the %d sets a sampling handler finds", *es,
                 THREAD_SAMPLER_SETS);
    thread_sampler_close(es);
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
    if (PAPI_state(*es, &state) == PAPI_OK && (state & PAPI_RUNNING)) /* not when stopped */
        PAPI_stop(*es, &v);
    if (*es >= 0 && *es < THREAD_SAMPLER_SETS)
        atomic_store(&owners[*es], NULL);
    PAPI_cleanup_eventset(*es);
    PAPI_destroy_eventset(es);
    *es = PAPI_NULL;
}
