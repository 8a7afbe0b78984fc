/* sample_table.c: a sample filed in a bounded table from a signal handler (sample_table.h).
 * Open addressing, SAMPLE_TABLE_PROBES probes: only the sampled thread adds, so a free
 * entry is claimed with plain stores, its address stored last (release) for the readers. */
#include "sample_table.h"

void sample_table_add(struct sample_table *t, uintptr_t pc, int region, int call, long long wall_ns)
{
    pc = pc ? pc : 1;
    atomic_fetch_add_explicit(&t->samples, 1, memory_order_relaxed);
    unsigned h =
        (unsigned)((pc >> 2) * 2654435761u + (unsigned)region * 40503u + (unsigned)call * 97u);
    for (int p = 0; p < SAMPLE_TABLE_PROBES; p++) {
        struct sample_entry *e = &t->slot[(h + (unsigned)p) % SAMPLE_TABLE_SLOTS];
        uintptr_t cur = atomic_load_explicit(&e->pc, memory_order_relaxed);
        if (cur == 0) {
            atomic_store_explicit(&e->region, region, memory_order_relaxed);
            atomic_store_explicit(&e->call, call, memory_order_relaxed);
            atomic_store_explicit(&e->count, 1, memory_order_relaxed);
            atomic_store_explicit(&e->wall_ns, wall_ns, memory_order_relaxed);
            atomic_store_explicit(&e->pc, pc, memory_order_release);
            atomic_fetch_add_explicit(&t->used, 1, memory_order_release);
            return;
        }
        if (cur == pc && atomic_load_explicit(&e->region, memory_order_relaxed) == region &&
            atomic_load_explicit(&e->call, memory_order_relaxed) == call) {
            atomic_fetch_add_explicit(&e->count, 1, memory_order_relaxed);
            if (wall_ns)
                atomic_fetch_add_explicit(&e->wall_ns, wall_ns, memory_order_relaxed);
            return;
        }
    }
    atomic_fetch_add_explicit(&t->dropped, 1, memory_order_relaxed);
}
