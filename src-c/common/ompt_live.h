/* ompt_live.h: the OMPT tool's running sums shared with papi_run for its --interval
 * series (issue 73 item 6), written by the tool (src-c/ompt/ompt_live.c) and read by
 * papi_run at each sample (ompt_live.c here). */
#ifndef PAPI_OMPT_LIVE_H
#define PAPI_OMPT_LIVE_H

#define OL_HIDDEN __attribute__((visibility("hidden")))

/* The layout, in memory papi_run shares with the program: papi_run makes a file of this size, names it
 * in PAPI_RUN_OMPT_LIVE_FILE and maps it; the first process whose tool starts (owner, by
 * compare-and-swap of its pid) maps it too and writes its slots (one per thread slot of
 * the tool, ompt_threads.h), a child forked from it stops writing. Each slot has one
 * writer, its thread, under a sequence count (odd while it writes): the useful time of
 * its outermost implicit tasks so far, and the work under way since work_since_ns (0:
 * none: waiting, or outside a region); as a master, the wall and team x wall time of the
 * outermost instances it forked and joined, and the one open since fork_since_ns (0:
 * none) with its team. Times are ns of mono_clock_ns less origin_ns. The reader adds
 * what is under way up to its own now: a region still open counts what is known. */
#define PAPI_OMPT_LIVE_VERSION 1
#define PAPI_OMPT_LIVE_SLOTS   1024
struct papi_ompt_live_slot {
    _Atomic unsigned seq;
    _Atomic unsigned team;
    _Atomic unsigned long long useful_ns, work_since_ns;
    _Atomic unsigned long long parallel_ns, wall_team_ns, fork_since_ns;
};
struct papi_ompt_live {
    _Atomic int owner; /* the pid of the process writing, 0: none yet */
    _Atomic int version, nslots;
    _Atomic unsigned long long origin_ns;
    struct papi_ompt_live_slot slot[PAPI_OMPT_LIVE_SLOTS];
};

/* A reader's running sums of a live series (cumulative, ns: differences between two
 * samples are an interval's): the pop_omp_in sums (pop_factors.h) of each interval
 * added, the intervals' largest useful time per thread slot among them; useful[] the
 * slots' useful time at the last sample. */
struct ompt_live_sums {
    double parallel_ns, useful_ns, maxu_team_ns, wall_team_ns;
    unsigned long long useful[PAPI_OMPT_LIVE_SLOTS];
};
/* One sample of l at its own now: the interval since the last sample added to s. */
OL_HIDDEN void ompt_live_sample(const struct papi_ompt_live *l, struct ompt_live_sums *s);

#endif
