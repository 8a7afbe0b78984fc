/* ompt_live.c: a sample of the OMPT tool's running sums (ompt_live.h): each slot read
 * under its sequence count, what is under way added up to now, and the interval since
 * the last sample added to the reader's sums as one region (pop_factors.c forms the
 * factors: its threads are the slots, its team the largest of the interval). */
#include <stdatomic.h>
#include <stdint.h>

#include "mono_clock.h"
#include "ompt_live.h"
#include "pop_factors.h"

struct slot_now {
    unsigned long long useful, parallel, wall_team;
    unsigned team;
    int forked; /* an instance open now */
};

/* Slot s as of now (ns since the tool's origin), read whole: retried while its writer
 * is inside an update. */
static struct slot_now read_slot(const struct papi_ompt_live_slot *s, unsigned long long now)
{
    struct slot_now r;
    for (;;) {
        unsigned seq = atomic_load_explicit(&s->seq, memory_order_acquire);
        unsigned long long since, fork;
        r.useful = atomic_load_explicit(&s->useful_ns, memory_order_relaxed);
        since = atomic_load_explicit(&s->work_since_ns, memory_order_relaxed);
        r.parallel = atomic_load_explicit(&s->parallel_ns, memory_order_relaxed);
        r.wall_team = atomic_load_explicit(&s->wall_team_ns, memory_order_relaxed);
        fork = atomic_load_explicit(&s->fork_since_ns, memory_order_relaxed);
        r.team = atomic_load_explicit(&s->team, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        if ((seq & 1) || seq != atomic_load_explicit(&s->seq, memory_order_relaxed))
            continue;
        r.useful += since && now > since ? now - since : 0;
        r.forked = fork != 0;
        if (fork && now > fork) {
            r.parallel += now - fork;
            r.wall_team += (now - fork) * r.team;
        }
        return r;
    }
}

void ompt_live_sample(const struct papi_ompt_live *l, struct ompt_live_sums *s)
{
    unsigned long long now = mono_clock_ns() - atomic_load(&l->origin_ns);
    int n = atomic_load(&l->nslots);
    n = n < 0 ? 0 : n > PAPI_OMPT_LIVE_SLOTS ? PAPI_OMPT_LIVE_SLOTS : n;
    uint64_t du[PAPI_OMPT_LIVE_SLOTS];
    unsigned long long parallel = 0, wall_team = 0;
    unsigned team = 0, active = 0;
    for (int i = 0; i < n; i++) {
        struct slot_now r = read_slot(&l->slot[i], now);
        parallel += r.parallel, wall_team += r.wall_team;
        if (r.forked && r.team > team)
            team = r.team;
        uint64_t d = r.useful > s->useful[i] ? r.useful - s->useful[i] : 0;
        s->useful[i] = r.useful;
        if (d > 0)
            du[active++] = d;
    }
    /* The interval's team: the largest open now, else the one its wall time implies. */
    double dpar = (double)parallel - s->parallel_ns, dwt = (double)wall_team - s->wall_team_ns;
    if (dpar > 0 && (double)team * dpar < dwt)
        team = (unsigned)(dwt / dpar + 0.5);
    team = team > active ? team : active;
    for (unsigned i = active; i < team && i < PAPI_OMPT_LIVE_SLOTS; i++)
        du[i] = 0; /* team threads that did no work in it */
    struct pop_omp_in in = {0, 0, 0, 0};
    if (team > 0)
        pop_omp_region(du, team, 0, &in);
    s->useful_ns += in.useful_ns, s->maxu_team_ns += in.maxu_team_ns;
    s->parallel_ns = (double)parallel, s->wall_team_ns = (double)wall_team;
}
