/* The per-thread sampling set the region API and the MPI wrapper share
 * (src-c/sampling/thread_sampler.c): it samples into the caller's handler and finds its
 * owner, and every failure (an unknown event, a threshold or frequency of 0, the kernel
 * refusing perf_event_open, a handle past the handler's table) returns the call's PAPI
 * error code with a reason naming the step, and leaves no event set and no descriptor:
 * the next set gets the same handle as before and /proc/self/fd holds as many. */
#include "../run/refuse_perf_open.h" /* first: it defines _GNU_SOURCE for RTLD_NEXT */

#include <dirent.h>
#include <errno.h>
#include <stdatomic.h>
#include <time.h>

#include "papi_test.h"
#include "thread_sampler.h"

/* While refuse is set, perf_event_open fails with EACCES: every call (REFUSE_ALL) or a
 * sampling event's only (REFUSE_SAMPLING, as kernel.perf_event_paranoid 3 refuses). */
enum { REFUSE_NONE, REFUSE_ALL, REFUSE_SAMPLING };
static atomic_int refuse;
static int refused(const struct perf_event_attr *a)
{
    int how = atomic_load(&refuse);
    return how == REFUSE_ALL || (how == REFUSE_SAMPLING && a->sample_period) ? EACCES : 0;
}

static atomic_int samples;
static int owner_mark;

static void handler(int es, void *address, long long vector, void *context)
{
    (void)address, (void)vector, (void)context;
    if (thread_sampler_owner(es) == &owner_mark)
        atomic_fetch_add(&samples, 1);
}

static int open_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* The handle the next set gets (handles are reused lowest first). */
static int next_handle(void)
{
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    int h = es;
    CHECK_RET(PAPI_destroy_eventset(&es), PAPI_OK);
    return h;
}

/* One failing open: its code, its reason naming step, nothing left behind. */
static void expect_failure(const char *what, struct sampler_spec sp, int code, const char *step)
{
    int fds = open_fds(), handle = next_handle(), es = 12345;
    char why[PAPI_HUGE_STR_LEN] = "";
    int ret = thread_sampler_open(&sp, &owner_mark, &es, why, sizeof why);
    printf("%s: %d (%s): %s\n", what, ret, PAPI_strerror(ret), why);
    CHECK(ret == code, "%s: returned %d, want %d", what, ret, code);
    CHECK(strstr(why, step) != NULL, "%s: the reason \"%s\" does not name %s", what, why, step);
    CHECK(strlen(why) > strlen(step) + 2, "%s: the reason \"%s\" says nothing more", what, why);
    CHECK(es == PAPI_NULL, "%s: *es is %d, not PAPI_NULL", what, es);
    CHECK(thread_sampler_owner(handle) == NULL, "%s: an owner left registered", what);
    CHECK(next_handle() == handle, "%s: an event set left behind", what);
    CHECK(open_fds() == fds, "%s: %d descriptors open, %d before", what, open_fds(), fds);
}

static void spin_ms(long ms)
{
    struct timespec t0, t;
    volatile double x = 1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    do {
        for (int i = 0; i < 10000; i++)
            x = x * 1.0000001 + 1e-9;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* Opened: samples reach the handler with its owner; closed: nothing left. */
static void check_open_close(int code)
{
    int fds = open_fds(), handle = next_handle(), es = PAPI_NULL;
    char why[PAPI_HUGE_STR_LEN] = "";
    struct sampler_spec sp = {.code = code, .n = 1000000, .handler = handler}; /* every 1 ms */
    CHECK_RET(thread_sampler_open(&sp, &owner_mark, &es, why, sizeof why), PAPI_OK);
    CHECK(es == handle, "opened as set %d, the next handle was %d", es, handle);
    CHECK(thread_sampler_owner(es) == &owner_mark, "the owner is not the one registered");
    int state = 0;
    CHECK(PAPI_state(es, &state) == PAPI_OK && (state & PAPI_RUNNING), "the set is not running");
    spin_ms(100);
    int got = atomic_load(&samples);
    CHECK(got >= 20 && got <= 200, "%d samples in 100 ms of CPU at one a ms", got);
    thread_sampler_close(&es);
    CHECK(es == PAPI_NULL, "closed: *es is %d", es);
    CHECK(thread_sampler_owner(handle) == NULL, "closed: the owner still registered");
    CHECK(next_handle() == handle, "closed: the event set left behind");
    CHECK(open_fds() == fds, "closed: %d descriptors open, %d before", open_fds(), fds);
}

/* Sets held so that the next handle is THREAD_SAMPLER_SETS: the sampler's table is full. */
static void check_past_table(int code)
{
    static int held[THREAD_SAMPLER_SETS];
    int n = 0;
    for (int es = PAPI_NULL; n < THREAD_SAMPLER_SETS && next_handle() < THREAD_SAMPLER_SETS;
         es = PAPI_NULL) {
        CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
        held[n++] = es;
    }
    CHECK(next_handle() == THREAD_SAMPLER_SETS, "the next handle is %d", next_handle());
    expect_failure("past the table", (struct sampler_spec){code, 1000000, 0, handler}, PAPI_ENOMEM,
                   "beyond the 1024 sets");
    while (n > 0)
        CHECK_RET(PAPI_destroy_eventset(&held[--n]), PAPI_OK);
}

int main(void)
{
    init_or_die();
    int code, probe = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&probe), PAPI_OK);
    if (PAPI_event_name_to_code("perf::TASK-CLOCK", &code) != PAPI_OK ||
        PAPI_add_event(probe, code) != PAPI_OK || PAPI_start(probe) != PAPI_OK)
        test_skip("perf::TASK-CLOCK does not count here");
    long long v;
    CHECK_RET(PAPI_stop(probe, &v), PAPI_OK);
    CHECK_RET(PAPI_cleanup_eventset(probe), PAPI_OK);
    CHECK_RET(PAPI_destroy_eventset(&probe), PAPI_OK);

    check_open_close(code);
    expect_failure("unknown event",
                   (struct sampler_spec){PAPI_NATIVE_MASK | 0xfffff, 1000000, 0, handler},
                   PAPI_ENOEVNT, "PAPI_get_event_component: ");
    expect_failure("threshold 0", (struct sampler_spec){code, 0, 0, handler}, PAPI_EINVAL,
                   "PAPI_overflow:");
    expect_failure("frequency 0", (struct sampler_spec){code, 0, 1, handler}, PAPI_EINVAL,
                   "PAPI_overflow_frequency:");
    expect_failure("no handler", (struct sampler_spec){code, 1000000, 0, NULL}, PAPI_EINVAL,
                   "PAPI_overflow:");
    atomic_store(&refuse, REFUSE_ALL);
    expect_failure("perf_event_open refused", (struct sampler_spec){code, 1000000, 0, handler},
                   PAPI_EPERM, "PAPI_add_event: ");
    /* The event counts, its descriptor open; reopened to sample, it is refused. */
    atomic_store(&refuse, REFUSE_SAMPLING);
    expect_failure("sampling refused", (struct sampler_spec){code, 1000000, 0, handler}, PAPI_EPERM,
                   "PAPI_overflow: ");
    expect_failure("sampling refused, frequency", (struct sampler_spec){code, 100, 1, handler},
                   PAPI_EPERM, "PAPI_overflow_frequency: ");
    atomic_store(&refuse, REFUSE_NONE);
    check_past_table(code);
    check_open_close(code); /* and it samples again after every failure */
    return test_done("test_thread_sampler");
}
