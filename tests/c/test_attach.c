/* Third-party counting: attach an event set to a forked child that touches N pages. */
#include <sys/wait.h>

#include "papi_test.h"

int main(void)
{
    init_or_die();
    int go[2], done[2];
    if (pipe(go) || pipe(done))
        return 2;
    pid_t child = fork();
    if (child == 0) {
        char c;
        warm_up();
        if (write(done[1], "r", 1) != 1) /* ready: warmed up */
            _exit(3);
        if (read(go[0], &c, 1) != 1)
            _exit(3);
        touch_pages(321);
        if (write(done[1], "d", 1) != 1)
            _exit(3);
        if (read(go[0], &c, 1) != 1) /* wait until the parent has read */
            _exit(3);
        _exit(0);
    }
    char c;
    CHECK(read(done[0], &c, 1) == 1, "child ready");
    int es = PAPI_NULL;
    long long v[1] = {0};
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_attach(es, (unsigned long)child), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK);
    int state = 0;
    CHECK_RET(PAPI_state(es, &state), PAPI_OK);
    CHECK(state & PAPI_ATTACHED, "state 0x%x has PAPI_ATTACHED", state);
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    opt.attach.eventset = es;
    CHECK_RET(PAPI_get_opt(PAPI_ATTACH, &opt), 1);
    CHECK_EQ_LL(opt.attach.tid, child);

    touch_pages(50); /* the parent's own faults are not counted */
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK(write(go[1], "g", 1) == 1, "go");
    CHECK(read(done[0], &c, 1) == 1, "child done");
    touch_pages(50);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK(v[0] == 321, "attached child touched 321 pages, counted %lld", v[0]);
    printf("attached child: %lld page faults (want 321)\n", v[0]);
    CHECK(write(go[1], "x", 1) == 1, "release");
    int status;
    waitpid(child, &status, 0);

    CHECK_RET(PAPI_detach(es), PAPI_OK);
    CHECK_RET(PAPI_detach(es), PAPI_EINVAL);
    CHECK_RET(PAPI_start(es), PAPI_OK); /* now counts this thread again */
    touch_pages(11);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 11);
    CHECK_RET(PAPI_attach(es, 0x7ffffff0UL), PAPI_EINVAL); /* no such process */
    free_set(&es);
    PAPI_shutdown();
    return test_done("test_attach");
}
