/* run_sets.c: the event sets that count the program, one per component as PAPI 7 makes
 * them, so events of several components mix (perf::PAGE-FAULTS with net:::lo:rx:bytes).
 * Each is attached to the program: the CPU component's (perf_event) with inherited
 * counters, so every thread and process it creates counts; procio's then reads the
 * program's I/O; the node components (net, stealtime, powercap, coretemp ...) count the
 * node whatever the target, the attach only names the program. Only the CPU set is
 * multiplexed: the others never run out of counters. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "env.h"
#include "run.h"
#include "run_sets.h"
#include "run_threads.h"
#include "util_common.h"

static _Noreturn void cannot_count(struct run_state *s, int ret, const char *what)
{
    char why[PAPI_HUGE_STR_LEN];
    util_error_detail(ret, why, sizeof why);
    fprintf(stderr, "papi_run: cannot count the program%s%s: %s\n", what ? ": " : "",
            what ? what : "", why);
    kill(s->child, SIGKILL);
    waitpid(s->child, NULL, 0);
    exit(2);
}

static void drop_sets(struct run_state *s)
{
    for (int k = 0; k < s->nsets; k++) {
        PAPI_stop(s->set[k], NULL);
        PAPI_cleanup_eventset(s->set[k]);
        PAPI_destroy_eventset(&s->set[k]);
    }
    s->nsets = 0;
}

/* The set of component cidx attached to the child with its events (inherited and
 * multiplexed when asked: the CPU component's). PAPI_OK, or the error with what failed. */
static int make_set(struct run_state *s, int cidx, int mpx, const char **what)
{
    PAPI_option_t opt = {0};
    int es = PAPI_NULL, ret = PAPI_create_eventset(&es);
    if (ret != PAPI_OK)
        return ret;
    s->set[s->nsets] = es;
    s->set_cidx[s->nsets++] = cidx;
    ret = PAPI_assign_eventset_component(es, cidx);
    if (ret == PAPI_OK)
        ret = PAPI_attach(es, (unsigned long)s->child);
    opt.inherit.eventset = es;
    opt.inherit.inherit = PAPI_INHERIT_ALL;
    if (ret == PAPI_OK && cidx == 0)
        ret = PAPI_set_opt(PAPI_INHERIT, &opt);
    if (ret == PAPI_OK && cidx == 0 && mpx && (ret = PAPI_multiplex_init()) == PAPI_OK)
        ret = PAPI_set_multiplex(es);
    for (int i = 0; ret == PAPI_OK && i < s->opt.nevents; i++)
        if (s->opt.cidx[i] == cidx &&
            (ret = PAPI_add_named_event(es, s->opt.counted[i])) != PAPI_OK)
            *what = s->opt.events[i];
    return ret;
}

/* Every component's set, then all started. */
static int make_sets(struct run_state *s, int mpx, const char **what)
{
    int ret = PAPI_OK;
    *what = NULL;
    s->nsets = 0;
    for (int i = 0; ret == PAPI_OK && i < s->opt.nevents; i++) {
        int k = 0;
        while (k < s->nsets && s->set_cidx[k] != s->opt.cidx[i])
            k++;
        if (k == s->nsets)
            ret = make_set(s, s->opt.cidx[i], mpx, what);
    }
    for (int k = 0; ret == PAPI_OK && k < s->nsets; k++)
        if ((ret = PAPI_start(s->set[k])) != PAPI_OK)
            *what = "PAPI_start";
    return ret;
}

/* Counted as perf stat counts: PAPI_MULTIPLEX (set at all) multiplexes the CPU set;
 * events that do not fit the counters together are multiplexed too, said in the note. */
void run_add_events(struct run_state *s)
{
    const char *what;
    s->multiplexed = env_get("PAPI_MULTIPLEX") != NULL;
    int ret = make_sets(s, s->multiplexed, &what);
    if ((ret == PAPI_ECNFLCT || ret == PAPI_ECOMBO) && !s->multiplexed) {
        drop_sets(s);
        s->multiplexed = 2; /* said in the banner and the file */
        ret = make_sets(s, 1, &what);
    }
    if (ret != PAPI_OK) {
        drop_sets(s);
        cannot_count(s, ret, what);
    }
}

int run_read(const struct run_state *s, long long *value)
{
    long long v[RUN_MAX_EVENTS];
    for (int k = 0; k < s->nsets; k++) {
        int ret = PAPI_read(s->set[k], v);
        if (ret != PAPI_OK)
            return ret;
        for (int i = 0, j = 0; i < s->opt.nevents; i++)
            if (s->opt.cidx[i] == s->set_cidx[k])
                value[i] = v[j++];
    }
    return PAPI_OK;
}

int run_fractions(const struct run_state *s, double *fraction)
{
    double f[RUN_MAX_EVENTS];
    for (int i = 0; i < s->opt.nevents; i++)
        fraction[i] = 1.0;
    for (int k = 0; k < s->nsets; k++) {
        int n = RUN_MAX_EVENTS;
        if (s->set_cidx[k] != 0)
            continue;
        int ret = PAPI_get_event_running_fraction(s->set[k], f, &n);
        if (ret != PAPI_OK)
            return ret;
        for (int i = 0, j = 0; i < s->opt.nevents; i++)
            if (s->opt.cidx[i] == 0)
                fraction[i] = f[j++];
    }
    return PAPI_OK;
}

void run_stop(const struct run_state *s)
{
    long long ignored[RUN_MAX_EVENTS];
    for (int k = 0; k < s->nsets; k++)
        PAPI_stop(s->set[k], ignored);
}

void run_spread_rows(const struct run_state *s, struct run_threads *t)
{
    for (int r = 0; t && r < t->n; r++) {
        long long *v = t->row[r].value, cpu[RUN_MAX_EVENTS];
        memcpy(cpu, v, sizeof cpu); /* the CPU events' values first, in their order */
        for (int i = 0, j = 0; i < s->opt.nevents; i++)
            v[i] = s->opt.cidx[i] == 0 ? cpu[j++] : t->row[r].tid == s->child ? s->value[i] : 0;
    }
}
