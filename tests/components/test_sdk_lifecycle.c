/* test_sdk_lifecycle: the lifecycle registry every layer and component registers with
 * (sdk/lifecycle.c, papi_sdk.h), driven directly, white box. The library is never
 * initialised here, so the table holds only what this test registers: stage order
 * (SETS, NAMES, BACKENDS, MACHINE whatever the registration order; registration order
 * within a stage), de-duplication (again is a no-op, also from threads racing), the
 * event handed to every callback, the fork event only to those registered for it, a full stage (8) refusing the ninth with PAPI_ENOMEM
 * and its reason and changing nothing, and bad input refused with PAPI_EINVAL. */
#include <pthread.h>

#include "papi_sdk.h"
#include "papi_test.h"

static char seen[256];
static int nseen;
static struct papi_life last_ev;

static void note(char c, const struct papi_life *ev)
{
    if (nseen < (int)sizeof seen - 1)
        seen[nseen++] = c;
    seen[nseen] = '\0';
    last_ev = *ev;
}

/* One distinct callback per letter: the sequence of letters is the call order. */
#define CB(c)                                      \
    static void cb_##c(const struct papi_life *ev) \
    {                                              \
        note(#c[0], ev);                           \
    }
CB(S)
CB(T)
CB(N)
CB(B)
CB(M)
CB(a)
CB(b)
CB(c)
CB(d)
CB(e)
CB(f)
CB(g)
CB(h)
CB(w)
CB(x)
CB(y)
CB(z)

/* Run every callback for one event; the letters they noted. */
static const char *notify(enum papi_life_event event, int keep_machine)
{
    nseen = 0;
    seen[0] = '\0';
    memset(&last_ev, 0xff, sizeof last_ev);
    papi_lifecycle_notify(&(struct papi_life){.event = event, .keep_machine = keep_machine});
    return seen;
}

static void expect_calls(const char *got, const char *want, const char *what)
{
    CHECK(strcmp(got, want) == 0, "%s: called %s, want %s", what, got, want);
}

static void *race(void *arg)
{
    const papi_life_fn order[2][4] = {{cb_w, cb_x, cb_y, cb_z}, {cb_z, cb_y, cb_x, cb_w}};
    const papi_life_fn *mine = order[(int)(long)arg % 2];
    long failed = 0;
    for (int round = 0; round < 1000; round++)
        for (int i = 0; i < 4; i++)
            failed += papi_lifecycle_register(PAPI_LIFE_STAGE_NAMES, mine[i]) != PAPI_OK;
    return (void *)failed;
}

int main(void)
{
    expect_calls(notify(PAPI_LIFE_SHUTDOWN, 0), "", "an empty table");

    /* Stage order whatever the registration order; registration order within a stage;
     * a second registration of the same callback in a stage is a no-op. */
    CHECK_RET(papi_lifecycle_register(PAPI_LIFE_STAGE_MACHINE, cb_M), PAPI_OK);
    CHECK_RET(papi_lifecycle_register(PAPI_LIFE_STAGE_BACKENDS, cb_B), PAPI_OK);
    CHECK_RET(papi_lifecycle_register(PAPI_LIFE_STAGE_NAMES, cb_N), PAPI_OK);
    CHECK_RET(papi_lifecycle_register(PAPI_LIFE_STAGE_SETS, cb_T), PAPI_OK);
    CHECK_RET(papi_lifecycle_register(PAPI_LIFE_STAGE_SETS, cb_S), PAPI_OK);
    CHECK_RET(papi_lifecycle_register(PAPI_LIFE_STAGE_SETS, cb_T), PAPI_OK);
    CHECK_RET(papi_lifecycle_register(PAPI_LIFE_STAGE_MACHINE, cb_M), PAPI_OK);
    expect_calls(notify(PAPI_LIFE_SHUTDOWN, 0), "TSNBM", "stage order, once each");
    CHECK(last_ev.event == PAPI_LIFE_SHUTDOWN && last_ev.keep_machine == 0, "event %d keep %d",
          (int)last_ev.event, last_ev.keep_machine);
    /* FORK_CHILD reaches only the callbacks registered for it (nothing else runs, so
     * touches no page, in a forked child), with the event as notified; registering one
     * again is a no-op, and the stages' callbacks still get SHUTDOWN only. */
    expect_calls(notify(PAPI_LIFE_FORK_CHILD, 0), "", "a fork child's event, none registered");
    CHECK_RET(papi_lifecycle_register_fork(cb_T), PAPI_OK);
    CHECK_RET(papi_lifecycle_register_fork(cb_T), PAPI_OK);
    expect_calls(notify(PAPI_LIFE_FORK_CHILD, 0), "T", "a fork child's event");
    CHECK(last_ev.event == PAPI_LIFE_FORK_CHILD && last_ev.keep_machine == 0, "event %d keep %d",
          (int)last_ev.event, last_ev.keep_machine);
    CHECK_RET(papi_lifecycle_register_fork(NULL), PAPI_EINVAL);
    expect_calls(notify(PAPI_LIFE_SHUTDOWN, 1), "TSNBM", "a child's shutdown");
    CHECK(last_ev.event == PAPI_LIFE_SHUTDOWN && last_ev.keep_machine == 1, "event %d keep %d",
          (int)last_ev.event, last_ev.keep_machine);

    /* A full stage: B and seven more fill BACKENDS; the ninth is refused with the reason
     * and is never called; one already there is still accepted (a no-op). */
    const papi_life_fn more[] = {cb_a, cb_b, cb_c, cb_d, cb_e, cb_f, cb_g};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        CHECK_RET(papi_lifecycle_register(PAPI_LIFE_STAGE_BACKENDS, more[i]), PAPI_OK);
    CHECK_RET(papi_lifecycle_register(PAPI_LIFE_STAGE_BACKENDS, cb_h), PAPI_ENOMEM);
    CHECK(strstr(PAPI_strerror_detail(), "already has 8 callbacks") != NULL, "reason: %s",
          PAPI_strerror_detail());
    CHECK_RET(papi_lifecycle_register(PAPI_LIFE_STAGE_BACKENDS, cb_e), PAPI_OK);
    expect_calls(notify(PAPI_LIFE_SHUTDOWN, 0), "TSNBabcdefgM", "a full stage");
    /* the other stages still take callbacks */
    CHECK_RET(papi_lifecycle_register(PAPI_LIFE_STAGE_MACHINE, cb_h), PAPI_OK);
    expect_calls(notify(PAPI_LIFE_SHUTDOWN, 0), "TSNBabcdefgMh", "after the full stage");

    /* Bad input: refused with the reason, the table unchanged. */
    CHECK_RET(papi_lifecycle_register(PAPI_LIFE_STAGES, cb_w), PAPI_EINVAL);
    CHECK(strstr(PAPI_strerror_detail(), "not valid") != NULL, "reason: %s",
          PAPI_strerror_detail());
    CHECK_RET(papi_lifecycle_register((enum papi_life_stage) - 1, cb_w), PAPI_EINVAL);
    CHECK_RET(papi_lifecycle_register(PAPI_LIFE_STAGE_SETS, NULL), PAPI_EINVAL);
    expect_calls(notify(PAPI_LIFE_SHUTDOWN, 0), "TSNBabcdefgMh", "after bad input");

    /* Threads racing to register the same four callbacks (in opposite orders): each
     * lands in NAMES exactly once, after N. */
    pthread_t th[4];
    for (long i = 0; i < 4; i++)
        CHECK(pthread_create(&th[i], NULL, race, (void *)i) == 0, "thread %ld", i);
    for (int i = 0; i < 4; i++) {
        void *failed = NULL;
        pthread_join(th[i], &failed);
        CHECK(failed == NULL, "thread %d: %ld registrations failed", i, (long)failed);
    }
    const char *got = notify(PAPI_LIFE_SHUTDOWN, 0);
    CHECK(strlen(got) == 17 && strncmp(got, "TSN", 3) == 0 &&
              strcmp(got + 7, "Babcdefg"
                              "Mh") == 0,
          "after the race: %s", got);
    for (const char *c = "wxyz"; *c; c++)
        CHECK(strchr(got + 3, *c) && strchr(got + 3, *c) < got + 7 &&
                  strchr(strchr(got + 3, *c) + 1, *c) == NULL,
              "%c once in NAMES: %s", *c, got);
    return test_done("test_sdk_lifecycle");
}
