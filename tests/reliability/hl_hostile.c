/* hl_hostile: region programs for check_hl_hostile.py (and the ThreadSanitizer lane).
 *   simple     one region "r" of 10 pages (the script makes the environment hostile)
 *   bytes      a region whose name is not valid UTF-8
 *   exit-race  threads still marking regions when main returns (the exit report runs
 *              while they change their tables)
 *   reinit     a region, PAPI_shutdown + PAPI_library_init, a user event set that gets
 *              the old handle, then a region again: the region API must not touch it
 *   flag-race  PAPI_thread_init and PAPI_register_thread racing the first region calls;
 *              the thread-level bit must survive */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "papi_test.h"

#define THREADS 4

static atomic_int stop_flag;

static void *spin_regions(void *arg)
{
    (void)arg;
    char name[32];
    for (long i = 0; !atomic_load(&stop_flag); i++) {
        snprintf(name, sizeof name, "spin_%ld", i); /* the table keeps growing (realloc) */
        if (PAPI_hl_region_begin(name) != PAPI_OK)
            break;
        PAPI_hl_read(name);
        PAPI_hl_region_end(name);
    }
    return NULL;
}

static int exit_race(void)
{
    pthread_t th[THREADS];
    CHECK_RET(PAPI_hl_region_begin("main"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_end("main"), PAPI_OK);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, spin_regions, NULL);
    usleep(50000);
    printf("exit-race: returning with %d threads in regions\n", THREADS);
    return test_failures != 0; /* the threads are still running: exit writes the report */
}

static int reinit(void)
{
    warm_up();
    CHECK_RET(PAPI_hl_region_begin("warm"), PAPI_OK); /* code and stack pages resident */
    touch_pages(1);
    CHECK_RET(PAPI_hl_region_end("warm"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_begin("before"), PAPI_OK);
    touch_pages(10);
    CHECK_RET(PAPI_hl_region_end("before"), PAPI_OK);
    PAPI_shutdown();
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    /* The first set after re-init gets the handle the region's set had. */
    int user = PAPI_NULL, code = 0, state = 0;
    CHECK_RET(PAPI_create_eventset(&user), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("perf::CONTEXT-SWITCHES", &code), PAPI_OK);
    CHECK_RET(PAPI_add_event(user, code), PAPI_OK);
    warm_up();
    CHECK_RET(PAPI_hl_region_begin("after"), PAPI_OK);
    touch_pages(20);
    CHECK_RET(PAPI_hl_region_end("after"), PAPI_OK);
    CHECK_RET(PAPI_state(user, &state), PAPI_OK);
    CHECK(state & PAPI_STOPPED, "the user's set was started by the region API (state %d)", state);
    CHECK_RET(PAPI_num_events(user), 1);
    free_set(&user);
    return test_done("hl_hostile reinit");
}

static unsigned long self_id(void)
{
    return (unsigned long)pthread_self();
}

static void *first_region(void *arg)
{
    (void)arg;
    PAPI_register_thread();
    PAPI_hl_region_begin("first");
    PAPI_hl_region_end("first");
    PAPI_unregister_thread();
    return NULL;
}

static int flag_race(void)
{
    pthread_t th[THREADS];
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, first_region, NULL);
    CHECK_RET(PAPI_thread_init(self_id), PAPI_OK);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    int st = PAPI_is_initialized();
    CHECK((st & PAPI_THREAD_LEVEL_INITED) && (st & PAPI_HIGH_LEVEL_INITED),
          "PAPI_is_initialized() = %d lost a flag", st);
    return test_done("hl_hostile flag-race");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "simple";
    if (strcmp(mode, "exit-race") == 0)
        return exit_race();
    if (strcmp(mode, "reinit") == 0)
        return reinit();
    if (strcmp(mode, "flag-race") == 0)
        return flag_race();
    const char *name = strcmp(mode, "bytes") == 0 ? "bad \xff\xfe name \xc3" : "r";
    warm_up();
    CHECK_RET(PAPI_hl_region_begin(name), PAPI_OK);
    touch_pages(10);
    CHECK_RET(PAPI_hl_region_end(name), PAPI_OK);
    return test_done("hl_hostile");
}
