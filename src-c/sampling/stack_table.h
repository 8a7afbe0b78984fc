/* stack_table.h: the one bounded table of whole stacks (stack_table.c), papi_run's (its
 * drain thread files each sample of its process's rings). A stack is its thread and its
 * frames, leaf first, any depth from 1 to STACK_TABLE_DEPTH; each keeps its samples and
 * the sum of up to STACK_TABLE_WEIGHTS weights (papi_run: the sampled event's periods,
 * then the -e events' deltas). Its memory is reserved once at init and touched as stacks
 * come, so filing is async-signal-safe (no allocation, no lock: one writer at a time);
 * once cap stacks are kept, samples of a new stack are dropped and counted, their weight
 * too. The overflow handlers' table of single addresses is sample_table.h. */
#ifndef PAPI_STACK_TABLE_H
#define PAPI_STACK_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define STACK_TABLE_DEPTH   128 /* frames kept per stack (the kernel's default maximum is 127) */
#define STACK_TABLE_WEIGHTS 9   /* weights per stack at most */

/* One distinct stack of one thread, its frames in the table's arena (leaf first). */
struct stack_entry {
    uint64_t weight[STACK_TABLE_WEIGHTS];
    uint64_t samples;
    size_t first; /* index of its leaf frame in ips */
    uint32_t depth, hash;
    pid_t tid;
};

struct stack_table {
    struct stack_entry *stack;
    size_t n, cap;
    uint32_t *bucket; /* index + 1 of a stack, 0 empty; open addressing */
    size_t nbucket;   /* a power of two, at least 2 * cap */
    uint64_t *ips;    /* the frames' arena: room for cap stacks of STACK_TABLE_DEPTH */
    size_t nips;
    uint64_t samples, dropped, dropped_weight; /* dropped: samples past the cap */
    /* counted by the producer: records the kernel could not write, and stacks whose
     * unwinding broke before the outermost frame */
    uint64_t lost, unwind_failed;
    int nw; /* weights per stack */
};

/* Reserves room for cap stacks of nw (1..STACK_TABLE_WEIGHTS) weights; 0, or -1 (nothing
 * kept). Not in a signal handler. */
__attribute__((visibility("hidden"))) int stack_table_init(struct stack_table *t, size_t cap,
                                                           int nw);
__attribute__((visibility("hidden"))) void stack_table_free(struct stack_table *t);
/* Files one sample (ip[0] the leaf, depth frames, at most STACK_TABLE_DEPTH kept) with its
 * nw weights w: async-signal-safe, by the table's one writer. */
__attribute__((visibility("hidden"))) void stack_table_add(struct stack_table *t, pid_t tid,
                                                           const uint64_t *ip, uint32_t depth,
                                                           const uint64_t *w);

#endif
