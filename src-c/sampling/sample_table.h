/* sample_table.h: the one bounded table of samples that an overflow handler fills
 * (sample_table.c), for the region API's and the MPI wrapper's per-thread samplers: a
 * fixed array (no allocation in the handler), an entry per (address, region, MPI call),
 * its count and the wall time its samples stand for; a full table counts drops. One
 * writer, the sampled thread in its signal handler; readers at report time. */
#ifndef PAPI_SAMPLE_TABLE_H
#define PAPI_SAMPLE_TABLE_H

#include <stdatomic.h>
#include <stdint.h>

#define SAMPLE_TABLE_SLOTS  4096 /* distinct (address, region, call) per thread */
#define SAMPLE_TABLE_PROBES 64

struct sample_entry {
    _Atomic uintptr_t pc; /* the sampled address (1 for address 0); 0: free */
    atomic_int region;    /* the producer's region index, -1: none */
    atomic_int call;      /* the producer's call id + 1, 0: none */
    atomic_uint count;
    _Atomic long long wall_ns; /* the wall time its samples stand for, summed */
};

struct sample_table {
    atomic_ullong samples, dropped; /* every sample filed; those a full table dropped */
    atomic_uint used;               /* entries taken: a reader sees new addresses came */
    struct sample_entry slot[SAMPLE_TABLE_SLOTS];
};

/* Files one sample: async-signal-safe and lock-free, by the table's one writer. */
__attribute__((visibility("hidden"))) void sample_table_add(struct sample_table *t, uintptr_t pc,
                                                            int region, int call,
                                                            long long wall_ns);

#endif
