/* test_procio_component: the procio component's callbacks driven directly (white box,
 * linked to papi_static; component.h), after PAPI_library_init so that the library's
 * fork notification is installed as in any program:
 *  - naming, enumeration, event information and bad input, each refused with a reason;
 *  - exact counts: N bytes written to /dev/null in K calls are N wchar and K syscw; the
 *    component's own preads are the only read calls (syscr), counted where they happen;
 *    frozen while stopped, carried over a restart, slots shifting on remove, 64 at most;
 *  - a read that fails (an attached thread has ended), called in a signal handler, only
 *    records the errno: the thread's reason is untouched, and the next call outside the
 *    read path reports why;
 *  - fork: the child's copy of a context on the calling thread is refused (PAPI_ECLOST,
 *    with the reason; read() quietly) while the parent's keeps counting exactly, a
 *    context the child makes counts the child, an attached task is still read. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "component.h"
#include "papi_test.h"

extern struct papi_component procio_component;
static struct papi_component *const pc = &procio_component;

enum { RCHAR, WCHAR, SYSCR, SYSCW };

static int code_of(const char *name)
{
    int local = -1;
    CHECK(pc->name_to_code(pc, name, &local) == PAPI_OK, "%s is an event", name);
    return local;
}

static struct cmp_context *context(pid_t tid)
{
    struct cmp_context *ctx = NULL;
    struct cmp_target t = {.cpu = -1, .tid = tid, .granularity = PAPI_GRN_THR};
    CHECK(pc->ctx_create(pc, &t, &ctx) == PAPI_OK, "context for tid %d: %s", (int)tid,
          PAPI_strerror_detail());
    return ctx;
}

static int add(struct cmp_context *ctx, int local)
{
    int slot = -1;
    CHECK(pc->add(ctx, local, &slot) == PAPI_OK, "add %d", local);
    return slot;
}

/* n bytes to fd in calls write() calls. */
static void write_bytes(int fd, int calls, size_t n)
{
    static char buf[4096];
    for (int i = 0; i < calls; i++)
        if (write(fd, buf, n / (size_t)calls) != (ssize_t)(n / (size_t)calls))
            abort();
}

static void test_naming(void)
{
    const char *names[] = {
        "rchar", "wchar", "syscr", "syscw", "read_bytes", "write_bytes", "cancelled_write_bytes"};
    char name[64];
    for (int i = 0; i < 7; i++) {
        char full[64];
        snprintf(full, sizeof full, "procio:::%s", names[i]);
        CHECK_EQ_LL(code_of(full), i);
        CHECK(pc->code_to_name(pc, i, name, sizeof name) == PAPI_OK && !strcmp(name, full),
              "code %d is %s", i, name);
    }
    int local;
    CHECK_RET(pc->name_to_code(pc, "procio:::nope", &local), PAPI_ENOEVNT);
    CHECK_RET(pc->name_to_code(pc, "wchar", &local), PAPI_ENOEVNT); /* not ours without prefix */
    CHECK_RET(pc->name_to_code(pc, "perf::PAGE-FAULTS", &local), PAPI_ENOEVNT);
    CHECK_RET(pc->code_to_name(pc, 7, name, sizeof name), PAPI_ENOEVNT);
    CHECK(strstr(PAPI_strerror_detail(), "procio has no event 7"), "%s", PAPI_strerror_detail());
    CHECK_RET(pc->code_to_name(pc, 1, name, 8), PAPI_EBUF);
    int n = 0;
    for (int r = pc->enumerate(pc, &local, PAPI_ENUM_FIRST); r == PAPI_OK;
         r = pc->enumerate(pc, &local, PAPI_ENUM_EVENTS))
        CHECK_EQ_LL(local, n++);
    CHECK_EQ_LL(n, 7);
    CHECK_RET(pc->enumerate(pc, &local, PAPI_NTV_ENUM_UMASKS), PAPI_ENOEVNT);
    PAPI_event_info_t info;
    memset(&info, 0, sizeof info);
    CHECK_RET(pc->event_info(pc, WCHAR, &info), PAPI_OK);
    CHECK(!strcmp(info.symbol, "procio:::wchar") && !strcmp(info.units, "bytes") &&
              info.value_type == PAPI_VALUETYPE_RUNNING_SUM,
          "%s [%s] %d", info.symbol, info.units, info.value_type);
    CHECK_RET(pc->event_info(pc, 99, &info), PAPI_ENOEVNT);
    CHECK_RET(pc->query(pc, SYSCW, PAPI_DOM_KERNEL), PAPI_OK);
    CHECK_RET(pc->query(pc, -1, PAPI_DOM_USER), PAPI_ENOEVNT);

    struct cmp_context *ctx = NULL;
    struct cmp_target cpu = {.cpu = 0, .granularity = PAPI_GRN_THR};
    CHECK_RET(pc->ctx_create(pc, &cpu, &ctx), PAPI_EINVAL);
    CHECK(strstr(PAPI_strerror_detail(), "not a CPU"), "%s", PAPI_strerror_detail());
    struct cmp_target sys = {.cpu = -1, .granularity = PAPI_GRN_SYS};
    CHECK_RET(pc->ctx_create(pc, &sys, &ctx), PAPI_EINVAL);
    CHECK(ctx == NULL, "no context made");
}

static void test_counts(void)
{
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    struct cmp_context *ctx = context(0);
    CHECK_EQ_LL(add(ctx, WCHAR), 0);
    CHECK_EQ_LL(add(ctx, SYSCW), 1);
    CHECK_EQ_LL(add(ctx, SYSCR), 2);
    struct cmp_count v[3];
    CHECK_RET(pc->read(ctx, v), PAPI_OK); /* never started: zeros, no read of the file */
    CHECK(v[0].value == 0 && v[1].value == 0 && v[2].value == 0, "before start");

    /* start reads the file (one syscr after its snapshot); so does each read and stop. */
    CHECK_RET(pc->start(ctx), PAPI_OK);
    write_bytes(devnull, 3, 3000);
    int r1 = pc->read(ctx, v);
    CHECK_RET(r1, PAPI_OK);
    CHECK_EQ_LL(v[0].value, 3000);
    CHECK_EQ_LL(v[1].value, 3);
    CHECK_EQ_LL(v[2].value, 1); /* start's pread */
    CHECK(v[0].time_enabled == v[0].time_running && v[0].time_enabled > 0, "times");
    CHECK_RET(pc->stop(ctx), PAPI_OK); /* counts start's and the read's preads: 2 */
    write_bytes(devnull, 1, 777);
    CHECK_RET(pc->read(ctx, v), PAPI_OK);
    CHECK_EQ_LL(v[0].value, 3000); /* frozen */
    CHECK_EQ_LL(v[1].value, 3);
    CHECK_EQ_LL(v[2].value, 2);
    CHECK_RET(pc->start(ctx), PAPI_OK);
    write_bytes(devnull, 2, 500);
    CHECK_RET(pc->read(ctx, v), PAPI_OK);
    CHECK_EQ_LL(v[0].value, 3500); /* carried over */
    CHECK_EQ_LL(v[1].value, 5);
    CHECK_EQ_LL(v[2].value, 3);
    CHECK_RET(pc->stop(ctx), PAPI_OK);

    CHECK_RET(pc->remove(ctx, 0), PAPI_OK);
    CHECK_RET(pc->read(ctx, v), PAPI_OK);
    CHECK_EQ_LL(v[0].value, 5); /* syscw moved to slot 0 */
    CHECK_RET(pc->remove(ctx, 2), PAPI_EINVAL);
    int slot;
    CHECK_RET(pc->add(ctx, 7, &slot), PAPI_ENOEVNT);
    for (int i = 2; i < 64; i++)
        add(ctx, RCHAR);
    CHECK_RET(pc->add(ctx, RCHAR, &slot), PAPI_ECOUNT);
    CHECK(strstr(PAPI_strerror_detail(), "at most 64"), "%s", PAPI_strerror_detail());
    pc->ctx_destroy(ctx);
    close(devnull);
}

/* A helper thread that waits until told to end; its tid for attaching. */
static int helper_pipe[2];
static pid_t helper_tid;

static void *helper(void *arg)
{
    (void)arg;
    __atomic_store_n(&helper_tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
    char c;
    while (read(helper_pipe[0], &c, 1) < 0)
        ;
    return NULL;
}

static pthread_t start_helper(void)
{
    pthread_t th;
    helper_tid = 0;
    CHECK(pipe(helper_pipe) == 0, "pipe");
    CHECK(pthread_create(&th, NULL, helper, NULL) == 0, "helper thread");
    while (!__atomic_load_n(&helper_tid, __ATOMIC_ACQUIRE))
        usleep(1000);
    return th;
}

static void end_helper(pthread_t th)
{
    CHECK(write(helper_pipe[1], "x", 1) == 1, "tell the helper");
    pthread_join(th, NULL);
    close(helper_pipe[0]);
    close(helper_pipe[1]);
}

static struct cmp_context *sig_ctx;
static volatile int sig_ret = 1;

static void on_signal(int signo)
{
    (void)signo;
    struct cmp_count v[1];
    sig_ret = pc->read(sig_ctx, v);
}

static void test_failed_read_in_signal(void)
{
    pthread_t th = start_helper();
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/io", (int)helper_tid);
    sig_ctx = context(helper_tid);
    add(sig_ctx, WCHAR);
    CHECK_RET(pc->start(sig_ctx), PAPI_OK);
    end_helper(th); /* the attached task is gone: its file now reads ESRCH */

    papi_error(PAPI_OK, "marker: no reason since");
    struct sigaction sa = {.sa_handler = on_signal}, old;
    sigaction(SIGUSR1, &sa, &old);
    raise(SIGUSR1);
    sigaction(SIGUSR1, &old, NULL);
    CHECK_RET(sig_ret, PAPI_ECLOST);
    CHECK(!strcmp(PAPI_strerror_detail(), "marker: no reason since"),
          "read() in the signal handler wrote a reason: %s", PAPI_strerror_detail());

    int slot; /* the next call outside the read path says why */
    CHECK_RET(pc->add(sig_ctx, SYSCW, &slot), PAPI_OK);
    CHECK(strstr(PAPI_strerror_detail(), path) &&
              strstr(PAPI_strerror_detail(), "No such process (the task has ended)"),
          "reported: %s", PAPI_strerror_detail());
    papi_error(PAPI_OK, "marker: reported once");
    CHECK_RET(pc->remove(sig_ctx, 1), PAPI_OK);
    CHECK(!strcmp(PAPI_strerror_detail(), "marker: reported once"), "reported twice: %s",
          PAPI_strerror_detail());
    CHECK_RET(pc->stop(sig_ctx), PAPI_ECLOST); /* stop reads too, and says so itself */
    CHECK(strstr(PAPI_strerror_detail(), "the task has ended"), "%s", PAPI_strerror_detail());
    pc->ctx_destroy(sig_ctx);
}

static void test_fork(void)
{
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    pthread_t th = start_helper();
    struct cmp_context *mine = context(0), *attached = context(helper_tid);
    add(mine, WCHAR);
    add(attached, WCHAR);
    fflush(NULL); /* nothing of stdio is written inside the counted period */
    CHECK_RET(pc->start(mine), PAPI_OK);
    CHECK_RET(pc->start(attached), PAPI_OK);
    write_bytes(devnull, 1, 100);
    pid_t child = fork();
    if (child == 0) {
        struct cmp_count v[1];
        papi_error(PAPI_OK, "marker");
        CHECK_RET(pc->read(mine, v), PAPI_ECLOST); /* quietly: read may be in a handler */
        CHECK(!strcmp(PAPI_strerror_detail(), "marker"), "%s", PAPI_strerror_detail());
        CHECK_RET(pc->stop(mine), PAPI_ECLOST);
        CHECK(strstr(PAPI_strerror_detail(), "/proc/thread-self/io was opened by the parent "
                                             "process before a fork"),
              "%s", PAPI_strerror_detail());
        CHECK_RET(pc->start(mine), PAPI_ECLOST);
        CHECK_RET(pc->read(attached, v), PAPI_OK); /* a named task is read from anywhere */
        struct cmp_context *own = context(0);      /* the child's own thread counts */
        add(own, WCHAR);
        CHECK_RET(pc->start(own), PAPI_OK);
        write_bytes(devnull, 2, 64);
        CHECK_RET(pc->read(own, v), PAPI_OK);
        CHECK_EQ_LL(v[0].value, 64);
        pc->ctx_destroy(own);
        _exit(test_failures ? 1 : 0);
    }
    int status = -1;
    CHECK(child > 0 && waitpid(child, &status, 0) == child, "fork");
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child's checks failed (%d)", status);
    write_bytes(devnull, 1, 10);
    struct cmp_count v[1];
    CHECK_RET(pc->read(mine, v), PAPI_OK); /* the parent's context counts on, exactly */
    CHECK_EQ_LL(v[0].value, 110);
    CHECK_RET(pc->stop(mine), PAPI_OK);
    CHECK_RET(pc->stop(attached), PAPI_OK);
    pc->ctx_destroy(mine);
    pc->ctx_destroy(attached);
    end_helper(th);
    close(devnull);
}

int main(void)
{
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    struct cmp_status st;
    memset(&st, 0, sizeof st);
    CHECK_RET(pc->probe(pc, &st), PAPI_OK);
    if (st.disabled)
        test_skip(st.reason);
    CHECK_EQ_LL(st.num_counters, 7);
    PAPI_component_info_t info;
    memset(&info, 0, sizeof info);
    pc->fill_info(pc, &info);
    CHECK(info.num_native_events == 7 && info.attach &&
              info.available_granularities == (PAPI_GRN_THR | PAPI_GRN_PROC),
          "%d events, attach %d, granularities %d", info.num_native_events, info.attach,
          info.available_granularities);
    test_naming();
    test_counts();
    test_failed_read_in_signal();
    test_fork();
    PAPI_shutdown();
    return test_done("test_procio_component");
}
