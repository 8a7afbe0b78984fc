/* Attach to a stopped child as PAPI 7's attach tests do (zero_attach, multiattach): the
 * perf_event component says attach_must_ptrace, the test ptrace-stops its child, attaches,
 * continues it, and counts exactly the page faults the child takes while attached. */
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "papi_test.h"

#define CHILD_PAGES 300

static void child(void)
{
    if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
        _exit(3);
    warm_up(); /* the child's code and stack pages fault in before it is counted */
    raise(SIGSTOP);
    touch_pages(CHILD_PAGES);
    raise(SIGSTOP); /* the parent reads here, then lets it exit */
    _exit(0);
}

static int wait_stop(pid_t pid)
{
    int st = 0;
    if (waitpid(pid, &st, 0) != pid)
        return 0;
    return WIFSTOPPED(st);
}

int main(void)
{
    init_or_die();
    const PAPI_component_info_t *ci = PAPI_get_component_info(0);
    CHECK(ci && ci->attach, "perf_event cannot attach");
    CHECK(ci && ci->attach_must_ptrace, "attach_must_ptrace is 0 (PAPI 7: 1)");

    int es = PAPI_NULL;
    page_fault_set(&es);
    pid_t pid = fork();
    if (pid == 0)
        child();
    CHECK(pid > 0, "fork failed");
    CHECK(wait_stop(pid), "child did not stop");
    CHECK_RET(PAPI_attach(es, (unsigned long)pid), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK(ptrace(PTRACE_CONT, pid, NULL, NULL) == 0, "PTRACE_CONT failed");
    CHECK(wait_stop(pid), "child did not stop after its work");
    long long v = -1;
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    printf("attached child: %lld page faults (touched %d pages)\n", v, CHILD_PAGES);
    CHECK_EQ_LL(v, CHILD_PAGES);
    CHECK(ptrace(PTRACE_CONT, pid, NULL, NULL) == 0, "PTRACE_CONT failed");
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "child status 0x%x", st);
    CHECK_RET(PAPI_detach(es), PAPI_OK);
    free_set(&es);
    PAPI_shutdown();
    return test_done("test_attach_ptrace");
}
