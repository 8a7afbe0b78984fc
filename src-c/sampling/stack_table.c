/* run_sample_table.c: the distinct stacks of one process, bounded. A stack is its thread
 * and its frames; each keeps the sum of the sampled event's periods and of the -e events'
 * deltas. Once cap stacks are kept, samples of a new stack are dropped and counted (their
 * weight too), so memory stays bounded whatever the program does. */
#include <stdlib.h>
#include <string.h>

#include "run_sample.h"

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

int rs_table_init(struct rs_table *t, size_t cap, int nw)
{
    memset(t, 0, sizeof *t);
    size_t nb = 64;
    while (nb < 2 * cap)
        nb *= 2;
    t->stack = calloc(cap, sizeof *t->stack);
    t->bucket = calloc(nb, sizeof *t->bucket);
    t->ipcap = 4096;
    t->ips = malloc(t->ipcap * sizeof *t->ips);
    if (!t->stack || !t->bucket || !t->ips) {
        rs_table_free(t);
        return -1;
    }
    t->cap = cap;
    t->nbucket = nb;
    t->nw = nw;
    return 0;
}

void rs_table_free(struct rs_table *t)
{
    free(t->stack);
    free(t->bucket);
    free(t->ips);
    t->stack = NULL;
    t->bucket = NULL;
    t->ips = NULL;
    t->n = t->cap = 0;
}

/* Room in the frame arena for depth more frames; 0 or -1. */
static int grow(struct rs_table *t, uint32_t depth)
{
    size_t need = t->nips + depth, ncap = t->ipcap;
    if (need <= ncap)
        return 0;
    while (ncap < need)
        ncap *= 2;
    uint64_t *grown = realloc(t->ips, ncap * sizeof *grown);
    if (!grown)
        return -1;
    t->ips = grown;
    t->ipcap = ncap;
    return 0;
}

static void add_weights(struct rs_table *t, struct rs_stack *s, const uint64_t *w)
{
    for (int i = 0; i < t->nw; i++)
        s->weight[i] += w[i];
    s->samples++;
}

void rs_table_add(struct rs_table *t, pid_t tid, const uint64_t *ip, uint32_t depth,
                  const uint64_t *w)
{
    if (!t->bucket)
        return;
    t->samples++;
    uint32_t h = hash_stack(tid, ip, depth);
    size_t mask = t->nbucket - 1;
    for (size_t b = h & mask;; b = (b + 1) & mask) {
        uint32_t k = t->bucket[b];
        if (k == 0) {
            if (t->n >= t->cap || grow(t, depth) != 0) {
                t->dropped++;
                t->dropped_weight += w[0];
                return;
            }
            struct rs_stack *s = &t->stack[t->n];
            memset(s, 0, sizeof *s);
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
        struct rs_stack *s = &t->stack[k - 1];
        if (s->hash == h && s->tid == tid && s->depth == depth &&
            memcmp(t->ips + s->first, ip, depth * sizeof *ip) == 0) {
            add_weights(t, s, w);
            return;
        }
    }
}
