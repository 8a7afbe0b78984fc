/* perf_group.c: the perf_event backend. Each event set is one perf group (one per PMU
 * class when events of several PMUs are mixed, one per event when multiplexed), so a
 * single read() returns every count of the group. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "overflow_internal.h"
#include "papi_internal.h"

#define READ_FORMAT \
    (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

int perf_syscall_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
                      unsigned long flags)
{
    return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* Software events may join any group; hardware events of different PMU types may not. */
static int same_class(const struct perf_event_attr *a, const struct perf_event_attr *b)
{
    if (a->type == PERF_TYPE_SOFTWARE || b->type == PERF_TYPE_SOFTWARE)
        return 1;
    int core_a = a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
                 a->type == PERF_TYPE_RAW;
    int core_b = b->type == PERF_TYPE_HARDWARE || b->type == PERF_TYPE_HW_CACHE ||
                 b->type == PERF_TYPE_RAW;
    return (core_a && core_b) || a->type == b->type;
}

static void target_of(const struct eventset *es, pid_t *pid, int *cpu)
{
    *cpu = es->cpu;
    if (es->state & PAPI_ATTACHED)
        *pid = es->attach_tid;
    else if (es->granularity == PAPI_GRN_SYS || es->cidx == CMP_UNCORE)
        *pid = -1;
    else
        *pid = 0;
    if (*pid == -1 && *cpu < 0)
        *cpu = 0;
}

int perf_open_native(struct eventset *es, int ni)
{
    struct es_native *n = &es->nat[ni];
    pid_t pid;
    int cpu;
    target_of(es, &pid, &cpu);

    int g = -1;
    if (!es->multiplexed)
        for (int i = 0; i < es->ngrp && g < 0; i++)
            if (same_class(&es->nat[es->grp[i].leader].attr, &n->attr))
                g = i;
    /* A software leader cannot take a hardware member on every kernel; put hardware
     * events first by opening a new group when the current leader is software. */
    if (g >= 0 && es->nat[es->grp[g].leader].attr.type == PERF_TYPE_SOFTWARE &&
        n->attr.type != PERF_TYPE_SOFTWARE)
        g = -1;

    n->attr.read_format = READ_FORMAT;
    n->attr.inherit = es->inherit ? 1 : 0;
    /* Overflow (overflow.c): the count keeps running as a 64-bit total, the kernel
     * only signals every sample_period events, so the group read stays exact. */
    n->attr.freq = 0;
    n->attr.sample_period = n->sample_period;
    int group_fd = -1;
    if (g >= 0) {
        n->attr.disabled = 0; /* follows the leader; disabled members of an oversized
                                 group would never count instead of failing to open */
        group_fd = es->nat[es->grp[g].leader].fd;
    } else {
        n->attr.disabled = 1;
    }
    int fd = perf_syscall_open(&n->attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        if (group_fd >= 0 && (err == EINVAL || err == ENOSPC)) {
            /* Does it open alone? Then it is the group that does not fit. */
            struct perf_event_attr alone = n->attr;
            alone.disabled = 1;
            int t = perf_syscall_open(&alone, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
            if (t >= 0) {
                close(t);
                return papi_error(PAPI_ECNFLCT,
                                  "the event cannot be counted together with the %d other events "
                                  "of the set (the PMU has not enough counters)",
                                  es->grp[g].nmembers);
            }
            err = errno;
        }
        int code = papi_errno_to_papi(err);
        if (err == EACCES || err == EPERM)
            return papi_error(code, "perf_event_open refused: %s. %s", strerror(err), g_pmu.reason);
        if (err == ENOENT || err == EOPNOTSUPP)
            return papi_error(PAPI_ENOEVNT, "perf_event_open: the kernel has no such event here (%s)%s%s",
                              strerror(err), g_pmu.reason[0] ? ". " : "", g_pmu.reason);
        if (err == ESRCH)
            return papi_error(PAPI_EINVAL, "perf_event_open: no process or thread %d", (int)pid);
        return papi_error(code, "perf_event_open failed: %s", strerror(err));
    }
    n->fd = fd;
    n->baseline = n->last_raw = 0;
    n->enabled = n->running = 0;
    n->enabled_base = n->running_base = 0;
    if (g >= 0) {
        n->group = g;
        n->pos = es->grp[g].nmembers++;
    } else {
        g = es->ngrp++;
        es->grp[g].leader = ni;
        es->grp[g].nmembers = 1;
        n->group = g;
        n->pos = 0;
    }
    if (n->sample_period) {
        const struct ovf_state *o = es->overflow;
        int ret = ovf_setup_fd(es, ni, o && o->tid ? o->tid : papi_gettid());
        if (ret != PAPI_OK) {
            perf_close_native(es, ni);
            return ret;
        }
    }
    return PAPI_OK;
}

/* Close one native. Closing a leader dissolves its group in the kernel, so the other
 * members are reopened into a new group (their counts restart at their current value
 * being dropped: only done while stopped, where values are preserved via baselines). */
void perf_close_native(struct eventset *es, int ni)
{
    struct es_native *n = &es->nat[ni];
    if (n->fd < 0)
        return;
    int g = n->group;
    int was_leader = es->grp[g].leader == ni;
    if (n->sample_period)
        ovf_forget_fd(n->fd);
    close(n->fd);
    n->fd = -1;
    if (!was_leader) {
        for (int i = 0; i < es->nnat; i++)
            if (es->nat[i].fd >= 0 && es->nat[i].group == g && es->nat[i].pos > n->pos)
                es->nat[i].pos--;
        es->grp[g].nmembers--;
        return;
    }
    /* Leader gone: close the members too and let the caller reopen (es_reopen_all). */
    for (int i = 0; i < es->nnat; i++)
        if (es->nat[i].fd >= 0 && es->nat[i].group == g) {
            if (es->nat[i].sample_period)
                ovf_forget_fd(es->nat[i].fd);
            close(es->nat[i].fd);
            es->nat[i].fd = -1;
        }
    es->grp[g].nmembers = 0;
    es->grp[g].leader = -1;
}

/* While a group's leader is disabled, the arm_pmu driver (and others) checks a new
 * member against the group without the leader, so a group one event too big opens and
 * then never counts. A non-multiplexed hardware group whose time_enabled grows at enable
 * while its time_running does not (both cumulative, last seen at the previous read)
 * cannot be scheduled: say so instead of counting zeros. */
static int check_scheduled(struct eventset *es)
{
    for (int g = 0; g < es->ngrp && !es->multiplexed; g++) {
        const struct es_group *grp = &es->grp[g];
        if (es->nat[grp->leader].attr.type == PERF_TYPE_SOFTWARE)
            continue;
        size_t want = (3 + (size_t)grp->nmembers) * sizeof(uint64_t);
        if (read(es->nat[grp->leader].fd, es->readbuf, want) != (ssize_t)want)
            continue; /* perf_read_all reports read errors */
        const struct es_native *lead = &es->nat[grp->leader];
        if (es->readbuf[1] > lead->enabled && es->readbuf[2] == lead->running)
            return papi_error(PAPI_ECNFLCT,
                              "the %d hardware events of EventSet %d cannot be counted together "
                              "(the PMU has not enough counters): remove some or enable multiplexing",
                              grp->nmembers, es->handle);
    }
    return PAPI_OK;
}

int perf_enable(struct eventset *es)
{
    for (int g = 0; g < es->ngrp; g++) {
        int fd = es->nat[es->grp[g].leader].fd;
        if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0)
            return papi_error(PAPI_ESYS, "cannot enable the counters: %s", strerror(errno));
    }
    int ret = check_scheduled(es);
    if (ret != PAPI_OK)
        for (int g = 0; g < es->ngrp; g++)
            ioctl(es->nat[es->grp[g].leader].fd, PERF_EVENT_IOC_DISABLE, 0);
    return ret;
}

int perf_disable(struct eventset *es)
{
    for (int g = 0; g < es->ngrp; g++) {
        int fd = es->nat[es->grp[g].leader].fd;
        if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) != 0)
            return papi_error(PAPI_ESYS, "cannot disable the counters: %s", strerror(errno));
    }
    return PAPI_OK;
}

int perf_read_all(struct eventset *es)
{
    for (int g = 0; g < es->ngrp; g++) {
        const struct es_group *grp = &es->grp[g];
        size_t want = (3 + (size_t)grp->nmembers) * sizeof(uint64_t);
        ssize_t got = read(es->nat[grp->leader].fd, es->readbuf, want);
        if (got != (ssize_t)want) {
            if (got < 0)
                return papi_error(PAPI_ESYS, "reading the counters failed: %s", strerror(errno));
            return papi_error(PAPI_EBUG, "short counter read (%zd of %zu bytes)", got, want);
        }
        const uint64_t *v = es->readbuf + 3;
        if (es->ngrp == 1) {
            for (int i = 0; i < es->nnat; i++) {
                struct es_native *n = &es->nat[i];
                n->last_raw = v[n->pos];
                n->enabled = es->readbuf[1];
                n->running = es->readbuf[2];
            }
        } else {
            for (int i = 0; i < es->nnat; i++) {
                struct es_native *n = &es->nat[i];
                if (n->group != g)
                    continue;
                n->last_raw = v[n->pos];
                n->enabled = es->readbuf[1];
                n->running = es->readbuf[2];
            }
        }
    }
    return PAPI_OK;
}
