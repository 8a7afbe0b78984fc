/* hl_session.c: the per-thread session shared by the 3.5 and 7.x high-level calls. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "env.h"
#include "call_guard.h"
#include "eventset.h"
#include "hl_clock.h"
#include "hl_init.h"
#include "hl_notice.h"
#include "hl_session.h"
#include "threads.h"

static _Thread_local struct hl_session session = {.eventset = PAPI_NULL};
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

/* A thread that ends with its counters running: close them (no fd outlives it). */
static void session_thread_exit(void *arg)
{
    struct hl_session *s = arg;
    const struct eventset *es = s->mode != HL_IDLE ? es_lookup(s->eventset) : NULL;
    if (es && es->owner_tid == papi_gettid())
        hl_session_stop(s, NULL);
}

static void make_exit_key(void)
{
    thread_exit_key_create(&exit_key, session_thread_exit); /* deleted at unload */
}

struct hl_session *hl_session_get(void)
{
    /* The thread record's high-level slot points at our session while the library
     * lives; PAPI_shutdown frees the records (and every event set), so a slot that no
     * longer points here means the session's event set is gone. */
    void **slot = thread_hl_slot();
    if (slot && *slot != &session) {
        memset(&session, 0, sizeof session);
        session.eventset = PAPI_NULL;
        *slot = &session;
    }
    return &session;
}

const char *hl_mode_name(enum hl_mode mode)
{
    switch (mode) {
    case HL_COUNTERS:
        return "PAPI_start_counters";
    case HL_FLOPS:
        return "PAPI_flops";
    case HL_FLIPS:
        return "PAPI_flips";
    case HL_IPC:
        return "PAPI_ipc";
    case HL_FLOPS_RATE:
        return "PAPI_flops_rate";
    case HL_FLIPS_RATE:
        return "PAPI_flips_rate";
    case HL_EPC:
        return "PAPI_epc";
    default:
        return "nothing";
    }
}

static void fail_notice(const char *caller, int code, int err)
{
    char name[PAPI_MAX_STR_LEN] = "?", *msg = NULL;
    if (PAPI_event_code_to_name(code, name) != PAPI_OK)
        snprintf(name, sizeof name, "0x%x", (unsigned)code);
    char *why = hl_missing_reason(code);
    if (asprintf(&msg, "%s: event %s is not available (%s): %s", caller, name,
                 PAPI_strerror(err) ? PAPI_strerror(err) : "error",
                 why ? why : "no memory to say why") < 0)
        msg = NULL;
    free(why);
    hl_notice_once(msg ? msg : "an event is not available (no memory to say why)");
    /* Keep the detail for PAPI_perror and the verbose debug levels too. */
    papi_error(err, "%s", msg ? msg : "an event is not available");
    free(msg);
}

int hl_session_start(struct hl_session *s, enum hl_mode mode, int event, const int *events,
                     const int *required, int n, const char *caller)
{
    int es = PAPI_NULL, ret, added = 0;
    if (n < 1 || n > HL_MAX_EVENTS)
        return papi_error(PAPI_EINVAL, "%s: %d events (1 to %d are allowed)", caller, n,
                          HL_MAX_EVENTS);
    ret = PAPI_create_eventset(&es);
    if (ret != PAPI_OK)
        return ret;
    for (int i = 0; i < n; i++) {
        ret = PAPI_add_event(es, events[i]);
        if (ret == PAPI_OK) {
            added++;
            continue;
        }
        if (required && !required[i])
            continue;
        if (mode != HL_COUNTERS)
            fail_notice(caller, events[i], ret);
        goto fail;
    }
    ret = PAPI_start(es);
    if (ret != PAPI_OK) {
        if (ret == PAPI_EISRUN && mode != HL_COUNTERS)
            ret = papi_error(PAPI_EINVAL,
                             "%s: another event set is already counting in this "
                             "thread; stop it first",
                             caller);
        goto fail;
    }
    pthread_once(&exit_once, make_exit_key);
    pthread_setspecific(exit_key, s);
    s->mode = mode;
    s->event = event;
    s->eventset = es;
    s->nevents = added;
    s->start_real_ns = s->last_real_ns = hl_real_ns();
    s->last_proc_ns = 0;
    memset(s->last, 0, sizeof s->last);
    return PAPI_OK;
fail:
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return ret;
}

int hl_session_stop(struct hl_session *s, long long *values)
{
    long long tmp[HL_MAX_EVENTS];
    int ret = PAPI_stop(s->eventset, tmp);
    if (ret == PAPI_OK && values)
        memcpy(values, tmp, (size_t)s->nevents * sizeof *values);
    PAPI_cleanup_eventset(s->eventset);
    PAPI_destroy_eventset(&s->eventset);
    s->eventset = PAPI_NULL;
    s->mode = HL_IDLE;
    s->nevents = 0;
    return ret;
}

int hl_session_read(struct hl_session *s, long long *counts, long long *proc_ns)
{
    PAPI_CALL_GUARD(); /* a PAPI_shutdown in another thread waits, or this call fails */
    /* PAPI_read without its argument checks: the session's set is known to be ours. */
    struct eventset *es = es_lookup(s->eventset);
    if (__builtin_expect(!es || !(es->state & PAPI_RUNNING), 0))
        return papi_error(PAPI_ENOTRUN, "the high-level counters of this thread are not running");
    int ret = es_read_values(es, counts);
    if (__builtin_expect(ret != PAPI_OK, 0))
        return ret;
    *proc_ns = es->nnat > 0 ? (long long)es->cnt[0].time_enabled : 0;
    return PAPI_OK;
}

int hl_rate_sample(enum hl_mode mode, int event, const int *events, const int *required, int n,
                   const char *caller, struct hl_sample *out)
{
    int ret = hl_self_init();
    if (__builtin_expect(ret != PAPI_OK, 0))
        return ret;
    struct hl_session *s = hl_session_get();
    if (s->mode == HL_IDLE) {
        ret = hl_session_start(s, mode, event, events, required, n, caller);
        if (ret != PAPI_OK)
            return ret;
        memset(out, 0, sizeof *out);
        out->first = 1;
        return PAPI_OK;
    }
    if (__builtin_expect(s->mode != mode || s->event != event, 0)) {
        char name[PAPI_MAX_STR_LEN] = "";
        if (s->event)
            PAPI_event_code_to_name(s->event, name);
        return papi_error(PAPI_EINVAL, "%s: the counters were started by %s%s%s%s; call %s first",
                          caller, hl_mode_name(s->mode), name[0] ? "(" : "", name,
                          name[0] ? ")" : "",
                          s->mode == HL_COUNTERS ? "PAPI_stop_counters" : "PAPI_rate_stop");
    }
    long long counts[HL_MAX_EVENTS], proc = 0; /* set when PAPI_OK (gcc -O3 cannot see it) */
    ret = hl_session_read(s, counts, &proc);
    if (__builtin_expect(ret != PAPI_OK, 0))
        return ret;
    long long now = hl_real_ns();
    out->first = 0;
    out->real_total_ns = now - s->start_real_ns;
    out->real_delta_ns = now - s->last_real_ns;
    out->proc_total_ns = proc;
    out->proc_delta_ns = proc - s->last_proc_ns;
    for (int i = 0; i < s->nevents; i++) {
        out->total[i] = counts[i];
        out->delta[i] = counts[i] - s->last[i];
        s->last[i] = counts[i];
    }
    for (int i = s->nevents; i < n; i++) /* optional events that did not open */
        out->total[i] = out->delta[i] = 0;
    s->last_real_ns = now;
    s->last_proc_ns = proc;
    return PAPI_OK;
}
