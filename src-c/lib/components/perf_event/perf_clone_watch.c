/* perf_clone_watch.c: clone_watch (component.h). A dummy software event of the calling
 * thread with task records: the kernel writes a PERF_RECORD_FORK into its buffer in the
 * clone(2) that creates a thread or a process, before the new task runs. The buffer is
 * mapped read-only, so the kernel writes over old records and never stops (overwrite
 * mode): its data_head moves at every clone the thread makes, and one load of it tells
 * whether the thread created any since. One per process, of the first thread that asks,
 * kept open until PAPI_shutdown; a forked child opens its own (the copy it inherits
 * watches the parent). */
#include <linux/perf_event.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pe_types.h"
#include "perf_clone_watch.h"

static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    pid_t pid, tid; /* whose: a forked child's copy is not its own */
    int fd;
    void *map;
    size_t len;
} watch = {0, 0, -1, NULL, 0};

static void close_watch(void)
{
    if (watch.fd < 0)
        return;
    munmap(watch.map, watch.len);
    close(watch.fd);
    watch.fd = -1;
    watch.map = NULL;
}

/* PAPI_shutdown (or a forked child dropping its parent's state): closed; its next caller
 * (the region API's next set-up, in the next library generation) opens it again. */
static void watch_lifecycle(const struct papi_life *ev)
{
    if (ev->event != PAPI_LIFE_SHUTDOWN)
        return;
    pthread_mutex_lock(&watch_lock);
    close_watch();
    pthread_mutex_unlock(&watch_lock);
}

static int open_watch(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_DUMMY;
    a.task = 1; /* fork and exit records, nothing else */
    a.exclude_kernel = a.exclude_hv = 1;
    int fd = perf_syscall_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0)
        return papi_error(PAPI_ESYS, "clone watch: perf_event_open: %s", strerror(errno));
    size_t len = 2 * (size_t)sysconf(_SC_PAGESIZE); /* the header and one page of records */
    void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        int err = errno;
        close(fd);
        return papi_error(PAPI_ESYS, "clone watch: mmap: %s", strerror(err));
    }
    close_watch(); /* the parent's, inherited by this forked child */
    papi_lifecycle_register(PAPI_LIFE_STAGE_BACKENDS, watch_lifecycle);
    watch.fd = fd;
    watch.map = map;
    watch.len = len;
    watch.pid = getpid();
    watch.tid = (pid_t)syscall(SYS_gettid);
    return PAPI_OK;
}

int pe_clone_watch(const struct papi_component *self, const volatile uint64_t **word)
{
    (void)self;
    int ret = PAPI_OK;
    pthread_mutex_lock(&watch_lock);
    if (watch.fd < 0 || watch.pid != getpid())
        ret = open_watch();
    if (ret == PAPI_OK && watch.tid != (pid_t)syscall(SYS_gettid))
        ret = papi_error(PAPI_ECNFLCT, "clone watch: kept for thread %ld", (long)watch.tid);
    if (ret == PAPI_OK)
        *word = (const volatile uint64_t *)&((volatile struct perf_event_mmap_page *)watch.map)
                    ->data_head;
    pthread_mutex_unlock(&watch_lock);
    return ret;
}
