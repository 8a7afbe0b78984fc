/* bench_sde: ns per papi_sde_inc_counter and per PAPI_read of an event set of 1 and 4
 * software-defined events (created counters, PAPI_SDE_DELTA), ours (libsde and libpapi,
 * linked) against the system's PAPI 7 (Debian's libsde.so.1 and libpapi.so, loaded with
 * dlopen), in the same run. Fairness as bench_timing.h: warm-up, pairs of batches in
 * ABBA order, the median of the per-pair ratios; both sides are called through function
 * pointers and count the same events of a library registered the same way.
 *
 *   bench_sde [--reps N] */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_timing.h"
#include "papi.h"
#include "sde_lib.h"

#ifndef SYSTEM_PAPI_LIBRARY
#define SYSTEM_PAPI_LIBRARY "libpapi.so.7.0"
#endif
#ifndef SYSTEM_SDE_LIBRARY
#define SYSTEM_SDE_LIBRARY "libsde.so.1"
#endif
#define INC_BATCH  1000
#define READ_BATCH 64

/* One side: a libsde and a libpapi. */
struct side {
    papi_handle_t (*init)(const char *);
    int (*create_counter)(papi_handle_t, const char *, int, void **);
    int (*inc_counter)(void *, long long);
    int (*library_init)(int);
    int (*create_eventset)(int *);
    int (*add_named_event)(int, const char *);
    int (*start)(int);
    int (*stop)(int, long long *);
    int (*read)(int, long long *);
    void *counter[4];
    int es[2]; /* sets of 1 and 4 events */
    long long v[4];
    int set; /* the set read by run_read */
};

static struct side ours = {.init = papi_sde_init,
                           .create_counter = papi_sde_create_counter,
                           .inc_counter = papi_sde_inc_counter,
                           .library_init = PAPI_library_init,
                           .create_eventset = PAPI_create_eventset,
                           .add_named_event = PAPI_add_named_event,
                           .start = PAPI_start,
                           .stop = PAPI_stop,
                           .read = PAPI_read};

/* The system's libsde goes into the global scope, where the system libpapi's sde
 * component finds it (PAPI 7 binds libsde's sde_ti_* calls so); our binary's own calls
 * were bound to our libsde at start and stay there. */
static int load_system(struct side *s, char *why, size_t len)
{
    void *sde = dlopen(SYSTEM_SDE_LIBRARY, RTLD_NOW | RTLD_GLOBAL);
    void *papi = sde ? dlopen(SYSTEM_PAPI_LIBRARY, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND) : NULL;
    if (!papi) {
        snprintf(why, len, "not installed (%s)", dlerror());
        return -1;
    }
#define LOAD(h, field, sym)                       \
    if (!(*(void **)&s->field = dlsym(h, sym))) { \
        snprintf(why, len, "no %s", sym);         \
        return -1;                                \
    }
    LOAD(sde, init, "papi_sde_init")
    LOAD(sde, create_counter, "papi_sde_create_counter")
    LOAD(sde, inc_counter, "papi_sde_inc_counter")
    LOAD(papi, library_init, "PAPI_library_init")
    LOAD(papi, create_eventset, "PAPI_create_eventset")
    LOAD(papi, add_named_event, "PAPI_add_named_event")
    LOAD(papi, start, "PAPI_start")
    LOAD(papi, stop, "PAPI_stop")
    LOAD(papi, read, "PAPI_read")
#undef LOAD
    return 0;
}

/* The library "benchlib" with counters c0 .. c3, and two sets of them (one runs at a
 * time, as PAPI allows). */
static int setup(struct side *s, char *why, size_t len)
{
    static const char *const names[4] = {"c0", "c1", "c2", "c3"};
    char name[64];
    if (s->library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        snprintf(why, len, "PAPI_library_init failed");
        return -1;
    }
    papi_handle_t h = s->init("benchlib");
    for (int i = 0; i < 4; i++)
        if (!h || s->create_counter(h, names[i], PAPI_SDE_DELTA, &s->counter[i]) != SDE_OK) {
            snprintf(why, len, "papi_sde_create_counter failed");
            return -1;
        }
    for (int k = 0; k < 2; k++) {
        s->es[k] = PAPI_NULL;
        if (s->create_eventset(&s->es[k]) != PAPI_OK)
            return snprintf(why, len, "PAPI_create_eventset failed"), -1;
        for (int i = 0; i < (k ? 4 : 1); i++) {
            snprintf(name, sizeof name, "sde:::benchlib::%s", names[i]);
            if (s->add_named_event(s->es[k], name) != PAPI_OK)
                return snprintf(why, len, "cannot add %s", name), -1;
        }
    }
    return 0;
}

static long long run_inc(void *arg)
{
    struct side *s = arg;
    long long t0 = now_ns();
    for (int k = 0; k < INC_BATCH; k++)
        s->inc_counter(s->counter[0], 1);
    return now_ns() - t0;
}

static long long run_read(void *arg)
{
    struct side *s = arg;
    long long t0 = now_ns();
    for (int k = 0; k < READ_BATCH; k++)
        s->read(s->es[s->set], s->v);
    return now_ns() - t0;
}

/* Both sides really count: 5 increments of c0 read as 5 in the running set k. */
static int counts(struct side *s, int k)
{
    for (int i = 0; i < 5; i++)
        s->inc_counter(s->counter[0], 1);
    return s->read(s->es[k], s->v) == PAPI_OK && s->v[0] == 5;
}

static void row(const char *label, long long (*run)(void *), int per, struct side *sys, int pairs)
{
    struct bench_side a = {run, &ours, per}, b = {run, sys, per};
    struct bench_compare r;
    if (bench_abba(&a, &b, pairs, pairs / 10 + 10, &r) == 0)
        printf("%-28s %9.1f %9.1f %8.2f\n", label, r.a_ns, r.b_ns, r.ratio);
}

int main(int argc, char **argv)
{
    int pairs = 2001;
    if (argc == 3 && strcmp(argv[1], "--reps") == 0)
        pairs = atoi(argv[2]) > 0 ? atoi(argv[2]) : pairs;
    char why[256];
    static struct side sys;
    if (setup(&ours, why, sizeof why) != 0) {
        fprintf(stderr, "ours: %s\n", why);
        return 1;
    }
    if (load_system(&sys, why, sizeof why) != 0 || setup(&sys, why, sizeof why) != 0) {
        printf("system PAPI (%s, %s) not compared: %s\n", SYSTEM_SDE_LIBRARY, SYSTEM_PAPI_LIBRARY,
               why);
        return 0;
    }
    printf("ns per call: median of %d pairs in ABBA order after warm-up; ratio = median of "
           "the per-pair ratios (< 1: ours is faster)\n",
           pairs);
    printf("%-28s %9s %9s %8s\n", "operation", "ours", "sys PAPI", "ours/sys");
    row("papi_sde_inc_counter", run_inc, INC_BATCH, &sys, pairs);
    for (int k = 0; k < 2; k++) {
        ours.set = sys.set = k;
        if (ours.start(ours.es[k]) != PAPI_OK || sys.start(sys.es[k]) != PAPI_OK) {
            fprintf(stderr, "PAPI_start failed\n");
            return 1;
        }
        if (!counts(&ours, k) || !counts(&sys, k)) {
            fprintf(stderr, "a side does not count its SDEs: the comparison would be void\n");
            return 1;
        }
        row(k ? "PAPI_read, 4 SDEs" : "PAPI_read, 1 SDE", run_read, READ_BATCH, &sys, pairs);
        ours.stop(ours.es[k], ours.v);
        sys.stop(sys.es[k], sys.v);
    }
    return 0;
}
