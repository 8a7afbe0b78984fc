/* stack_table.c: the distinct stacks of one process, bounded (stack_table.h). Its three
 * arrays are reserved at init (MAP_NORESERVE: pages are taken as stacks fill them, zeroed
 * by the kernel), so filing a sample never allocates and memory follows what is kept. */
#include <string.h>
#include <sys/mman.h>

#include "stack_table.h"

static uint32_t hash_stack(pid_t tid, const uint64_t *ip, uint32_t depth)
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)tid;
    for (uint32_t i = 0; i < depth; i++) {
        h ^= ip[i];
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return (uint32_t)(h ^ (h >> 32));
}

static void *reserve(size_t n, size_t size)
{
    void *p = mmap(NULL, n * size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void release(void *p, size_t n, size_t size)
{
    if (p)
        munmap(p, n * size);
}

int stack_table_init(struct stack_table *t, size_t cap, int nw)
{
    memset(t, 0, sizeof *t);
    if (cap == 0 || nw < 1 || nw > STACK_TABLE_WEIGHTS)
        return -1;
    size_t nb = 64;
    while (nb < 2 * cap)
        nb *= 2;
    t->cap = cap;
    t->nbucket = nb;
    t->nw = nw;
    t->stack = reserve(cap, sizeof *t->stack);
    t->bucket = reserve(nb, sizeof *t->bucket);
    t->ips = reserve(cap, STACK_TABLE_DEPTH * sizeof *t->ips);
    if (!t->stack || !t->bucket || !t->ips) {
        stack_table_free(t);
        return -1;
    }
    return 0;
}

void stack_table_free(struct stack_table *t)
{
    release(t->stack, t->cap, sizeof *t->stack);
    release(t->bucket, t->nbucket, sizeof *t->bucket);
    release(t->ips, t->cap, STACK_TABLE_DEPTH * sizeof *t->ips);
    memset(t, 0, sizeof *t);
}

static void add_weights(struct stack_table *t, struct stack_entry *s, const uint64_t *w)
{
    for (int i = 0; i < t->nw; i++)
        s->weight[i] += w[i];
    s->samples++;
}

void stack_table_add(struct stack_table *t, pid_t tid, const uint64_t *ip, uint32_t depth,
                     const uint64_t *w)
{
    if (!t->bucket)
        return;
    t->samples++;
    depth = depth < STACK_TABLE_DEPTH ? depth : STACK_TABLE_DEPTH;
    uint32_t h = hash_stack(tid, ip, depth);
    size_t mask = t->nbucket - 1;
    for (size_t b = h & mask;; b = (b + 1) & mask) {
        uint32_t k = t->bucket[b];
        if (k == 0) {
            if (t->n >= t->cap) {
                t->dropped++;
                t->dropped_weight += w[0];
                return;
            }
            struct stack_entry *s = &t->stack[t->n];
            s->tid = tid;
            s->hash = h;
            s->depth = depth;
            s->first = t->nips;
            memcpy(t->ips + t->nips, ip, depth * sizeof *ip);
            t->nips += depth;
            t->bucket[b] = (uint32_t)++t->n;
            add_weights(t, s, w);
            return;
        }
        struct stack_entry *s = &t->stack[k - 1];
        if (s->hash == h && s->tid == tid && s->depth == depth &&
            memcmp(t->ips + s->first, ip, depth * sizeof *ip) == 0) {
            add_weights(t, s, w);
            return;
        }
    }
}
