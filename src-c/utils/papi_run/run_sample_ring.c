/* run_sample_ring.c: one thread's sampling group and its ring. The sampled event leads
 * the group and samples its thread's address, period and call chain; with -e events the
 * group's values come with each sample (PERF_SAMPLE_READ, PERF_FORMAT_GROUP), and the
 * difference to the thread's previous sample is what that stack gets. With --call-graph
 * dwarf the sample also copies the user registers and the top of the user stack, which
 * the drain thread unwinds (src-c/sampling/stack_unwind.c); the kernel's chain then gives only its
 * own frames. The ring is read in place by the drain thread: nothing runs per sample in
 * the program beyond the kernel's write; its records are walked by the one ring reader
 * (src-c/sampling/ring_walk.c, the perf_event component's too). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ring_walk.h"
#include "run_sample.h"
#include "run_sample_attr.h"
#include "run_sample_ring.h"

#define RS_RING_PAGES 32 /* data pages per thread (128 KiB): 1/4 s of deep stacks at 1 kHz */
/* dwarf's records carry RS_STACK_USER bytes of stack: 256 KiB hold 1/40 s at 1 kHz, the
 * drain thread's period then shrinks to 2 ms */
#define RS_RING_PAGES_DWARF 64
/* one record, copied out of the ring (a record's size is 16 bits); only the drain, under
 * the sampling lock, uses it */
static uint64_t record[65536 / 8];

static int open_one(const struct rs_config *c, int i, int group, int callchain)
{
    struct perf_event_attr a;
    rs_sample_attr(c, i, callchain, &a);
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

int rs_ring_open(struct rs_ring *r, const struct rs_config *c, char *why, size_t len)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i <= RS_MAX_READ; i++)
        r->fd[i] = -1;
    r->tid = (pid_t)syscall(SYS_gettid);
    r->callchain = c->callchain;
    if (r->callchain == RS_CG_DWARF && stack_unwind_regs_mask() == 0)
        r->callchain = RS_CG_FP;
    for (int i = 0; i <= c->nread; i++) {
        r->fd[i] = open_one(c, i, i == 0 ? -1 : r->fd[0], r->callchain);
        if (i == 0 && r->fd[0] < 0 && r->callchain == RS_CG_DWARF) { /* say it, take fp */
            r->callchain = RS_CG_FP;
            r->fd[0] = open_one(c, 0, -1, r->callchain);
        }
        if (r->fd[i] < 0) {
            snprintf(why, len, "perf_event_open(%s): %s", c->name[i], strerror(errno));
            rs_ring_close(r);
            return -1;
        }
    }
    /* The locked-memory limit of an unprivileged user may refuse the full ring: halve. */
    size_t first = r->callchain == RS_CG_DWARF ? RS_RING_PAGES_DWARF : RS_RING_PAGES;
    for (size_t pages = first; pages >= 2 && !r->base; pages /= 2) {
        long page = sysconf(_SC_PAGESIZE);
        void *m =
            mmap(NULL, (pages + 1) * (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd[0], 0);
        if (m != MAP_FAILED) {
            r->base = m;
            r->data_size = pages * (size_t)page;
        }
    }
    if (!r->base) {
        snprintf(why, len, "mmap of the sampling ring: %s", strerror(errno));
        rs_ring_close(r);
        return -1;
    }
    if (ioctl(r->fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) != 0) {
        snprintf(why, len, "enabling %s: %s", c->name[0], strerror(errno));
        rs_ring_close(r);
        return -1;
    }
    return 0;
}

void rs_ring_close(struct rs_ring *r)
{
    if (r->fd[0] >= 0)
        ioctl(r->fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
    if (r->base)
        munmap(r->base, r->data_size + (size_t)sysconf(_SC_PAGESIZE));
    r->base = NULL;
    for (int i = 0; i <= RS_MAX_READ; i++)
        if (r->fd[i] >= 0) {
            close(r->fd[i]);
            r->fd[i] = -1;
        }
}

/* dwarf: the user frames of a sample whose registers and stack copy start at p[k], after
 * the kernel's frames (ip[0..depth)); the new depth, or 0 when the sample has none. */
static uint32_t unwind_user(const struct rs_ring *r, struct stack_table *t, const uint64_t *p,
                            size_t k, size_t n, uint64_t *ip, uint32_t depth)
{
    uint64_t nregs = (uint64_t)__builtin_popcountll(stack_unwind_regs_mask());
    if (k >= n || p[k] != PERF_SAMPLE_REGS_ABI_64 || n - k - 1 < nregs + 1)
        return 0; /* no user registers (a 32-bit task, a sample in a kernel thread) */
    const uint64_t *regs = p + k + 1;
    k += 1 + nregs;
    uint64_t size = p[k++]; /* then the bytes, then the bytes actually copied */
    if (size > 8 * (n - k) || (size && n - k - size / 8 < 1))
        return 0;
    uint64_t dyn = size ? p[k + size / 8] : 0;
    int failed;
    uint32_t got = stack_unwind(r->tid, regs, nregs, (const unsigned char *)(p + k),
                                dyn < size ? dyn : size, ip + depth, RS_MAX_DEPTH - depth, &failed);
    t->unwind_failed += (uint64_t)(failed || got == 0);
    return got ? depth + got : 0;
}

/* One PERF_RECORD_SAMPLE (its body after the header, n words; misc: the header's) into
 * the table. */
static void take_sample(struct rs_ring *r, const struct rs_config *c, struct stack_table *t,
                        const uint64_t *p, size_t n, uint16_t misc)
{
    uint64_t ip[RS_MAX_DEPTH], w[1 + RS_MAX_READ] = {0};
    size_t k = 0;
    if (n < 3)
        return;
    uint64_t pc = p[k++];
    pid_t tid = (pid_t)(p[k++] >> 32);
    w[0] = p[k++];
    if (c->nread > 0) {
        if (k >= n || p[k] != (uint64_t)(1 + c->nread) || k + 1 + p[k] > n)
            return;
        for (int i = 1; i <= c->nread; i++) {
            uint64_t v = p[k + 1 + (size_t)i];
            w[i] = v >= r->last[i] ? v - r->last[i] : 0;
            r->last[i] = v;
        }
        k += 1 + p[k];
    }
    uint32_t depth = 0;
    int chain = r->callchain == RS_CG_FP || (r->callchain == RS_CG_DWARF && c->kernel);
    if (chain && k < n) {
        uint64_t nr = p[k++], user = 0, kernel = 0;
        for (uint64_t i = 0; i < nr && k + i < n && depth < RS_MAX_DEPTH; i++) {
            uint64_t a = p[k + i];
            if (a >= (uint64_t)PERF_CONTEXT_MAX) { /* a context marker */
                kernel = a == (uint64_t)PERF_CONTEXT_KERNEL;
                user = 0;
                continue;
            }
            if (kernel) {
                if (depth == 0 || ip[depth - 1] != FRAME_KERNEL)
                    ip[depth++] = FRAME_KERNEL; /* the kernel's frames as one */
                continue;
            }
            /* a caller's frame holds its return address: the call is the byte before */
            ip[depth++] = user++ ? a - 1 : a;
        }
        k += nr < n - k ? nr : n - k;
    }
    if (r->callchain == RS_CG_DWARF) { /* not unwound: the kernel's frames, or the address */
        uint32_t all = unwind_user(r, t, p, k, n, ip, depth);
        depth = all ? all : depth;
    }
    /* No chain: the address alone. A sample the kernel took while in kernel mode is
     * [kernel], even for an event of user mode only (its overflow interrupt came late,
     * in a system call or another interrupt): its address is no user module's. */
    if (depth == 0)
        ip[depth++] =
            (misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL ? FRAME_KERNEL : pc;
    stack_table_add(t, tid, ip, depth, w);
}

/* What one drain walks with (ring_walk.c's callback). */
struct drain {
    struct rs_ring *r;
    const struct rs_config *c;
    struct stack_table *t;
    const unsigned char *data;
};

/* One record of the walk: a sample into the table, a loss counted; others skipped. */
static void take_record(void *arg, const struct perf_event_header *h, uint64_t body)
{
    struct drain *d = arg;
    size_t n = (h->size - sizeof *h) / 8;
    if (h->type == PERF_RECORD_SAMPLE) {
        /* a record holds at most 64 KiB: record fits it */
        ring_copy(d->data, d->r->data_size, body, record, n * 8);
        take_sample(d->r, d->c, d->t, record, n, h->misc);
    } else if (h->type == PERF_RECORD_LOST && n >= 2) {
        ring_copy(d->data, d->r->data_size, body, record, 16);
        d->t->lost += record[1]; /* {id, lost} */
    }
}

size_t rs_ring_drain(struct rs_ring *r, const struct rs_config *c, struct stack_table *t)
{
    if (!r->base)
        return 0;
    struct perf_event_mmap_page *meta = (struct perf_event_mmap_page *)r->base;
    struct drain d = {r, c, t, r->base + sysconf(_SC_PAGESIZE)};
    uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
    uint64_t start = meta->data_tail;
    uint64_t tail = ring_walk(d.data, r->data_size, start, head, take_record, &d);
    __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
    return (size_t)(tail - start);
}
