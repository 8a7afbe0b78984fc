/* ompt_live_sums.c: the running sums papi_run reads while the program runs (ompt_live_sums.h).
 * One writer per slot (its thread): the sequence count is odd while it writes, relaxed
 * stores in between, so the reader (papi_run, another process) retries a torn read. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env.h"
#include "handover_file.h"
#include "ompt_live_sums.h"

struct papi_ompt_live *ompt_live;

static void in_forked_child(void)
{
    ompt_live = NULL; /* the parent's slots are its own */
}

void ompt_live_start(uint64_t origin_ns)
{
    const char *path = env_get("PAPI_RUN_OMPT_LIVE_FILE");
    if (!path || !path[0])
        return;
    int fd = handover_open(AT_FDCWD, path, O_RDWR | O_CLOEXEC, 0);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(struct papi_ompt_live)) {
        if (fd >= 0)
            close(fd);
        return; /* not papi_run's file (or gone): no live figures, papi_run says so */
    }
    struct papi_ompt_live *l = mmap(NULL, sizeof *l, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (l == MAP_FAILED)
        return;
    int none = 0;
    if (!atomic_compare_exchange_strong(&l->owner, &none, (int)getpid())) {
        munmap(l, sizeof *l); /* another process of the program writes it */
        return;
    }
    atomic_store(&l->origin_ns, origin_ns);
    atomic_store(&l->version, PAPI_OMPT_LIVE_VERSION);
    pthread_atfork(NULL, NULL, in_forked_child);
    ompt_live = l;
}

static struct papi_ompt_live_slot *write_begin(int i)
{
    if (!ompt_live || i < 0 || i >= PAPI_OMPT_LIVE_SLOTS)
        return NULL; /* (off since: a forked child's tasks begun in its parent) */
    struct papi_ompt_live_slot *s = &ompt_live->slot[i];
    if (atomic_load_explicit(&ompt_live->nslots, memory_order_relaxed) <= i) {
        int n = atomic_load(&ompt_live->nslots);
        while (n <= i && !atomic_compare_exchange_weak(&ompt_live->nslots, &n, i + 1))
            ;
    }
    unsigned q = atomic_load_explicit(&s->seq, memory_order_relaxed);
    atomic_store_explicit(&s->seq, q + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    return s;
}

static void write_end(struct papi_ompt_live_slot *s)
{
    unsigned q = atomic_load_explicit(&s->seq, memory_order_relaxed);
    atomic_store_explicit(&s->seq, q + 1, memory_order_release);
}

/* 0 means none: a time of 0 is kept as 1. */
static uint64_t stamp(uint64_t t)
{
    return t ? t : 1;
}

void ompt_live_work_begin(int i, uint64_t t)
{
    struct papi_ompt_live_slot *s = write_begin(i);
    if (!s)
        return;
    atomic_store_explicit(&s->work_since_ns, stamp(t), memory_order_relaxed);
    write_end(s);
}

void ompt_live_work_end(int i, uint64_t t, int keep)
{
    struct papi_ompt_live_slot *s = write_begin(i);
    if (!s)
        return;
    uint64_t since = atomic_load_explicit(&s->work_since_ns, memory_order_relaxed);
    if (since && keep && t > since)
        atomic_store_explicit(
            &s->useful_ns, atomic_load_explicit(&s->useful_ns, memory_order_relaxed) + (t - since),
            memory_order_relaxed);
    atomic_store_explicit(&s->work_since_ns, 0, memory_order_relaxed);
    write_end(s);
}

void ompt_live_fork(int i, uint64_t t, unsigned team)
{
    struct papi_ompt_live_slot *s = write_begin(i);
    if (!s)
        return;
    atomic_store_explicit(&s->team, team ? team : 1, memory_order_relaxed);
    atomic_store_explicit(&s->fork_since_ns, stamp(t), memory_order_relaxed);
    write_end(s);
}

void ompt_live_join(int i, uint64_t t)
{
    struct papi_ompt_live_slot *s = write_begin(i);
    if (!s)
        return;
    uint64_t fork = atomic_load_explicit(&s->fork_since_ns, memory_order_relaxed);
    unsigned team = atomic_load_explicit(&s->team, memory_order_relaxed);
    if (fork && t > fork) {
        uint64_t wall = t - fork;
        atomic_store_explicit(&s->parallel_ns,
                              atomic_load_explicit(&s->parallel_ns, memory_order_relaxed) + wall,
                              memory_order_relaxed);
        atomic_store_explicit(&s->wall_team_ns,
                              atomic_load_explicit(&s->wall_team_ns, memory_order_relaxed) +
                                  wall * team,
                              memory_order_relaxed);
    }
    atomic_store_explicit(&s->fork_since_ns, 0, memory_order_relaxed);
    write_end(s);
}
