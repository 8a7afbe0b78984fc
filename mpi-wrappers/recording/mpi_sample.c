/* mpi_sample.c: PAPI_SAMPLE under the MPI wrapper (mpi_sample.h). Each thread that claims
 * a recording slot samples EVENT through PAPI_overflow (PAPI_overflow_frequency for
 * @FREQhz) on an event set attached to itself (so it runs beside the thread's counters).
 * The handler files a sample in the thread's fixed table (no allocation, no lock; a full
 * table counts drops) under (program counter, region) or, while the thread is inside an
 * MPI call (pmpi_scall, set by the wrappers), under (call site, call, region): the site is
 * the wrapper's, the caller's return address, so the MPI's own frames never need
 * unwinding. At MPI_Finalize the addresses are named with libdw (site_resolve.c) and
 * summed per function and region, and per call site, joined with the wrapper's own
 * calls and time at that site. When PAPI_SAMPLE is unset nothing here runs: the wrappers
 * test one flag (record.h).
 * The hand-written entry points (lifecycle.c) mark their calls too, since samples do land
 * in them: MPI_Pcontrol's region marks read the counters (a loop of 100,000 region
 * pairs at 1 ms of task clock had every sample in read_values_group, mpi_totals and
 * pmpi_log_region, none under the call); MPI_Init's tail after the thread's sampler starts
 * (pmpi_after_init) and MPI_Finalize's head before it stops (pmpi_sample_finish) are a
 * few microseconds, sampled only at periods that short. MPI_Init marks itself with
 * pmpi_sample_hand_enter, unconditionally: PAPI_SAMPLE is read inside it. The Fortran
 * forwarders gen_wrappers.py writes for these calls (mpi_f08's; Open MPI's mpif.h Init and
 * Finalize) do not mark theirs yet. */
#include <papi.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "env.h"
#include "demangle.h"
#include "mpi_sample.h"
#include "record.h"
#include "sample_spec.h"
#include "sample_table.h"
#include "region_state.h"
#include "pmpi_identity.h"
#include "site_resolve.h"
#include "json_writer.h"
#include "thread_sampler.h"

#define OBJ_LEN 256

struct table {
    int es;
    long tid;
    int running;
    long long last_ns;                 /* the previous sample (or the start), CLOCK_MONOTONIC */
    _Atomic long long unattributed_ns; /* the part of long gaps no sample stands for */
    /* The rate in force (PAPI_get_overflow_rate) at the start, then at the end; reading:
     * pmpi_sample_finish reads a running set's, which stop() waits out. */
    long long rate, queue_overflows;
    int slowed;
    atomic_int reading;
    struct sample_table tab; /* sample_table.c: filed in the handler */
};

static struct {
    int state; /* 0 unset, -1 not in force, 1 sampling */
    char why[256];
    char event[PMPI_NAME_LEN];
    long long n;
    int hz, top, code;
    int time_event;
    _Atomic long long used; /* the rate the first thread started at; 0 before */
    double seconds;         /* per sample as asked, for a time event */
    long long cap_ns;       /* the most wall time one sample stands for */
} cfg;

static struct table *tables[PMPI_MAX_THREADS];
static atomic_int cur_region = -1;
static int region_stack[PMPI_MAX_REGIONS], region_depth; /* under pmpi_state_lock */
static struct pmpi_sample_rank rank_tables;
static int finished;

/* task-clock and cpu-clock count nanoseconds of the thread's CPU time. */
static int is_time_event(const char *name)
{
    static const char *const time_events[] = {"task-clock", "cpu-clock", "perf_count_sw_task_clock",
                                              "perf_count_sw_cpu_clock"};
    const char *p = strncmp(name, "perf::", 6) == 0 ? name + 6 : name;
    size_t len = strcspn(p, ":");
    for (size_t i = 0; i < sizeof time_events / sizeof time_events[0]; i++)
        if (len == strlen(time_events[i]) && strncasecmp(p, time_events[i], len) == 0)
            return 1;
    return 0;
}

/* Not sampling: why, kept for the report and said once (rank 0: every rank reads the
 * same PAPI_SAMPLE). */
static void refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void refuse(const char *fmt, ...)
{
    va_list ap;
    cfg.state = -1;
    va_start(ap, fmt);
    vsnprintf(cfg.why, sizeof cfg.why, fmt, ap);
    va_end(ap);
    if (pmpi_id()->rank == 0)
        fprintf(stderr, "papi_mpi: %s\n", cfg.why);
}

/* PAPI_SAMPLE: EVENT, EVENT@PERIOD or EVENT@FREQhz (EVENT alone: 999 Hz; sample_spec.c). */
static int parse(const char *v)
{
    struct sample_spec sp;
    int bad = sample_spec_parse(v, &sp);
    if (sp.event_len == 0 || sp.event_len >= sizeof cfg.event) {
        refuse("PAPI_SAMPLE=%s: %s (EVENT[@PERIOD|@FREQhz]): not sampling", v,
               sp.event_len ? "the event name is too long" : "no event name");
        return -1;
    }
    if (bad || sp.n <= 0 || sp.n > 0x7fffffff) {
        refuse("PAPI_SAMPLE=%s: the period or frequency after '@' must be a number from 1 "
               "to 2147483647 (a frequency ends in hz): not sampling",
               v);
        return -1;
    }
    memcpy(cfg.event, sp.event, sp.event_len);
    cfg.event[sp.event_len] = '\0';
    cfg.hz = sp.hz;
    cfg.n = sp.n;
    return 0;
}

/* PAPI_MPI_SAMPLE_TOP: entries per rank in the report (default 20; at most 200, so that a
 * row with its partners still fits its fixed buffer, aggregate.c). */
static int env_top(void)
{
    const char *v = env_get("PAPI_MPI_SAMPLE_TOP");
    char *end = NULL;
    long n = v && *v ? strtol(v, &end, 10) : 20;
    if (v && *v && (*end || n < 1 || n > 200)) {
        if (pmpi_id()->rank == 0)
            fprintf(stderr,
                    "papi_mpi: PAPI_MPI_SAMPLE_TOP=%s: expected a number from 1 to "
                    "200; 20 listed\n",
                    v);
        n = 20;
    }
    return (int)n;
}

void pmpi_sample_init(void)
{
    const char *v = env_get("PAPI_SAMPLE");
    cfg.top = env_top();
    if (!v || !*v)
        return;
    if (parse(v) != 0)
        return;
    if (PAPI_tool_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) { /* started, or why not */
        refuse("PAPI_SAMPLE=%s: libpapi is not initialised (see the counter note): not "
               "sampling",
               v);
        return;
    }
    if (PAPI_event_name_to_code(cfg.event, &cfg.code) != PAPI_OK) {
        refuse("PAPI_SAMPLE=%s: no such event here (%s): not sampling", v, PAPI_strerror_detail());
        return;
    }
    cfg.cap_ns = 0x7fffffffffffffffLL;
    if (is_time_event(cfg.event)) {
        cfg.time_event = 1;
        cfg.seconds = cfg.hz ? 1.0 / (double)cfg.n : (double)cfg.n * 1e-9;
        cfg.cap_ns = 10 * (long long)(cfg.seconds * 1e9);
        if (cfg.cap_ns < 50000000)
            cfg.cap_ns = 50000000;
    }
    cfg.state = 1;
    pmpi_sampling = 1;
}

void pmpi_sample_hand_enter(int id, void *site)
{
    if (pmpi_scall.depth++ == 0) {
        pmpi_scall.site = site;
        atomic_signal_fence(memory_order_seq_cst); /* the site before the id, for the handler */
        pmpi_scall.id = id + 1;
    }
}

void pmpi_sample_hand_leave(void)
{
    if (pmpi_scall.depth > 0 && --pmpi_scall.depth == 0)
        pmpi_scall.id = 0;
}

/* The overflow handler, on the sampled thread: file the sample in its table. */
static void on_sample(int es, void *address, long long vector, void *context)
{
    (void)vector, (void)context;
    struct table *s = thread_sampler_owner(es);
    if (!s)
        return;
    int call = pmpi_scall.id;
    atomic_signal_fence(memory_order_seq_cst);
    uintptr_t pc = call ? (uintptr_t)pmpi_scall.site : (uintptr_t)address;
    int region = atomic_load_explicit(&cur_region, memory_order_relaxed);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe */
    long long now = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec, wall = now - s->last_ns;
    s->last_ns = now;
    if (wall > cfg.cap_ns) { /* the thread slept or waited for a CPU: not all of it here */
        atomic_fetch_add_explicit(&s->unattributed_ns, wall - cfg.cap_ns, memory_order_relaxed);
        wall = cfg.cap_ns;
    }
    sample_table_add(&s->tab, pc, region, call, wall);
}

/* s's rate in force: the library lowers one that would pass 10,000 signals a second, and
 * slows one whose handler could not keep up; a report says the one used. */
static void read_rate(struct table *s)
{
    long long rate, full;
    int hz, slowed;
    if (PAPI_get_overflow_rate(s->es, cfg.code, &rate, &hz, &slowed, &full) != PAPI_OK)
        return;
    s->rate = rate;
    s->slowed = slowed;
    s->queue_overflows = full;
}

void pmpi_sample_thread_start(int slot)
{
    static atomic_int said;
    if (cfg.state != 1 || slot < 0 || slot >= PMPI_MAX_THREADS || tables[slot])
        return;
    struct table *s = calloc(1, sizeof *s);
    if (!s)
        return;
    memset(&s->tab, 0, sizeof s->tab); /* its pages touched now, not in the handler */
    s->tid = syscall(SYS_gettid);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    s->last_ns = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
    struct sampler_spec sp = {cfg.code, (int)cfg.n, cfg.hz, on_sample};
    char why[PAPI_HUGE_STR_LEN];
    if (thread_sampler_open(&sp, s, &s->es, why, sizeof why) != PAPI_OK) {
        if (pmpi_id()->rank == 0 && !atomic_exchange(&said, 1))
            fprintf(stderr,
                    "papi_mpi: PAPI_SAMPLE=%s: cannot sample (%s): a thread is not sampled\n",
                    cfg.event, why);
        free(s);
        return;
    }
    long long none = 0;
    read_rate(s);
    if (s->rate > 0)
        atomic_compare_exchange_strong(&cfg.used, &none, s->rate);
    s->running = 1;
    __atomic_store_n(&tables[slot], s, __ATOMIC_RELEASE);
}

static void stop(struct table *s)
{
    long long v;
    if (!s || !s->running || s->tid != syscall(SYS_gettid))
        return;
    __atomic_store_n(&s->running, 0, __ATOMIC_SEQ_CST);
    PAPI_stop(s->es, &v);
    while (atomic_load(&s->reading)) /* pmpi_sample_finish reading the set: microseconds */
        ;
    read_rate(s);
    thread_sampler_close(&s->es);
}

void pmpi_sample_thread_exit(int slot)
{
    if (slot >= 0 && slot < PMPI_MAX_THREADS)
        stop(__atomic_load_n(&tables[slot], __ATOMIC_ACQUIRE));
}

void pmpi_sample_region(int slot, int open)
{
    if (cfg.state != 1)
        return;
    if (open && region_depth < PMPI_MAX_REGIONS) {
        region_stack[region_depth++] = slot;
    } else if (!open) {
        int i = region_depth - 1;
        while (i >= 0 && region_stack[i] != slot)
            i--;
        if (i < 0)
            return;
        memmove(&region_stack[i], &region_stack[i + 1],
                (size_t)(region_depth - i - 1) * sizeof region_stack[0]);
        region_depth--;
    }
    atomic_store(&cur_region, region_depth ? region_stack[region_depth - 1] : -1);
}

/* ---- naming and summing, at MPI_Finalize ---- */

/* One table entry on its way to a name. */
struct raw {
    uintptr_t pc;
    int region, call;
    long long count, wall_ns;
    char obj[OBJ_LEN];
    long long offset;
    struct pmpi_where where;
};

/* Object file and offset of an address (a call site: the call instruction, ret - 1). */
static void locate(struct raw *r)
{
    uintptr_t a = r->call ? r->pc - 1 : r->pc;
    r->offset = pmpi_locate(a, r->obj, sizeof r->obj);
}

static int by_obj(const void *a, const void *b)
{
    return strcmp(((const struct raw *)a)->obj, ((const struct raw *)b)->obj);
}

/* Every entry's function (and file, line), one libdw session per object file. */
static void resolve_all(struct raw *r, int n)
{
    qsort(r, (size_t)n, sizeof *r, by_obj);
    long long *offs = malloc((size_t)(n ? n : 1) * sizeof *offs);
    struct pmpi_where *w = malloc((size_t)(n ? n : 1) * sizeof *w);
    for (int i = 0, j; i < n; i = j) {
        for (j = i; j < n && strcmp(r[j].obj, r[i].obj) == 0; j++)
            if (offs)
                offs[j - i] = r[j].offset;
        if (offs && w && strcmp(r[i].obj, "?") != 0)
            pmpi_resolve_object(r[i].obj, offs, w, (size_t)(j - i));
        for (int k = i; k < j; k++) {
            if (offs && w && strcmp(r[i].obj, "?") != 0)
                r[k].where = w[k - i];
            else
                snprintf(r[k].where.function, sizeof r[k].where.function, "??");
            if (strcmp(r[k].where.function, "??") == 0) { /* no symbol: the object's name */
                const char *base = strrchr(r[k].obj, '/');
                snprintf(r[k].where.function, sizeof r[k].where.function, "[%s]",
                         base ? base + 1 : r[k].obj);
            }
        }
    }
    free(offs);
    free(w);
}

int pmpi_sample_fn_cmp(const void *a, const void *b)
{
    const struct pmpi_sample_fn *x = a, *y = b;
    int c = strcmp(x->function, y->function);
    return c ? c : strcmp(x->region, y->region);
}

int pmpi_sample_fn_by_samples(const void *a, const void *b)
{
    const struct pmpi_sample_fn *x = a, *y = b;
    if (x->samples != y->samples)
        return x->samples < y->samples ? 1 : -1;
    return pmpi_sample_fn_cmp(a, b);
}

int pmpi_sample_mpi_cmp(const void *a, const void *b)
{
    const struct pmpi_sample_mpi *x = a, *y = b;
    int c = strcmp(x->function, y->function);
    if (!c)
        c = strcmp(x->file, y->file);
    if (!c)
        c = (x->line > y->line) - (x->line < y->line);
    return c ? c : (x->call > y->call) - (x->call < y->call);
}

/* The same, then by call site: a site's entries (one per region) end up together. */
static int mpi_site_cmp(const void *a, const void *b)
{
    const struct pmpi_sample_mpi *x = a, *y = b;
    int c = pmpi_sample_mpi_cmp(a, b);
    return c ? c : (x->site > y->site) - (x->site < y->site);
}

int pmpi_sample_mpi_by_samples(const void *a, const void *b)
{
    const struct pmpi_sample_mpi *x = a, *y = b;
    if (x->samples != y->samples)
        return x->samples < y->samples ? 1 : -1;
    return pmpi_sample_mpi_cmp(a, b);
}

/* The wrapper's calls and time at (call, site), summed over the rank's threads (found as
 * pmpi_site_add files them: its hash, its probes); calls -1 when call sites are off. */
static void measured(uintptr_t site, int id, long long *calls, long long *ticks)
{
    uint64_t key = (uint64_t)site | ((uint64_t)(id + 1) << 48);
    uint64_t h = (key * 0x9E3779B97F4A7C15ULL) >> 54;
    *calls = pmpi_rec.callsites ? 0 : -1;
    *ticks = 0;
    for (int t = 0; t < pmpi_record_nslots(); t++) {
        const struct pmpi_site *tab = pmpi_slot_sites(&pmpi_rec.threads[t]);
        for (int p = 0; tab && p < PMPI_SITE_PROBES; p++) {
            const struct pmpi_site *e = &tab[(h + (uint64_t)p) & (PMPI_SITE_SLOTS - 1)];
            if (atomic_load_explicit(&e->key, memory_order_acquire) == key) {
                *calls += atomic_load(&e->calls);
                *ticks += atomic_load(&e->ticks);
                break;
            }
        }
    }
}

/* A sample's function: the one it is in after inlining (the symbol's), not an inlined
 * helper; an MPI call's caller stays the innermost (the call site's function). */
static const char *outermost(const struct pmpi_where *w)
{
    return w->outermost[0] ? w->outermost : w->function;
}

/* Names as the source reads them (demangle.c): a sample's function is the symbol holding
 * it when that is a C++ or Fortran module name (DWARF's name lacks the namespace or
 * module), else as outermost() says; an MPI call's caller is the innermost function by its
 * linkage name, or the symbol when nothing is inlined there. C names stay DWARF's (a
 * clone's symbol, heavy.constprop.0, would not). */
static void sample_name(const struct pmpi_where *w, char *out, size_t len)
{
    if (!w->symbol[0] || !papi_demangle(w->symbol, out, len))
        snprintf(out, len, "%s", outermost(w));
}

static void caller_name(const struct pmpi_where *w, char *out, size_t len)
{
    if (w->linkage[0] && papi_demangle(w->linkage, out, len))
        return;
    if (!w->inlined_into[0] && w->symbol[0] && papi_demangle(w->symbol, out, len))
        return;
    snprintf(out, len, "%s", w->function);
}

static const char *region_of(int r)
{
    return r >= 0 && r < pmpi_regions()->nregions ? pmpi_regions()->regions[r].name : "";
}

/* Entries with the same key summed (sorted by key first), then by samples. */
static int sum_fn(struct pmpi_sample_fn *v, int n)
{
    int m = 0;
    qsort(v, (size_t)n, sizeof *v, pmpi_sample_fn_cmp);
    for (int i = 0; i < n; i++) {
        if (m > 0 && pmpi_sample_fn_cmp(&v[m - 1], &v[i]) == 0) {
            v[m - 1].samples += v[i].samples;
            v[m - 1].wall_ns += v[i].wall_ns;
        } else
            v[m++] = v[i];
    }
    qsort(v, (size_t)m, sizeof *v, pmpi_sample_fn_by_samples);
    return m;
}

static int sum_mpi(struct pmpi_sample_mpi *v, int n)
{
    int m = 0;
    uintptr_t last = 0;
    qsort(v, (size_t)n, sizeof *v, mpi_site_cmp);
    for (int i = 0; i < n; i++) {
        if (m > 0 && pmpi_sample_mpi_cmp(&v[m - 1], &v[i]) == 0) {
            v[m - 1].samples += v[i].samples;
            v[m - 1].wall_ns += v[i].wall_ns;
            /* another site on the same line adds its measure; the same site sampled in
             * another region was measured once */
            if (v[i].calls >= 0 && v[i].site != last) {
                v[m - 1].calls += v[i].calls;
                v[m - 1].measured_ns += v[i].measured_ns;
            }
        } else {
            v[m++] = v[i];
        }
        last = v[i].site;
    }
    qsort(v, (size_t)m, sizeof *v, pmpi_sample_mpi_by_samples);
    return m;
}

void pmpi_sample_finish(void)
{
    if (cfg.state != 1 || finished)
        return;
    for (int t = 0; t < PMPI_MAX_THREADS; t++) /* this thread's sampling ends */
        if (tables[t] && tables[t]->tid == syscall(SYS_gettid))
            stop(tables[t]);
    struct pmpi_sample_rank *R = &rank_tables;
    int n = 0;
    for (int t = 0; t < PMPI_MAX_THREADS; t++) {
        struct table *s = __atomic_load_n(&tables[t], __ATOMIC_ACQUIRE);
        if (!s)
            continue;
        atomic_store(&s->reading, 1); /* a thread still sampling: its rate now */
        if (__atomic_load_n(&s->running, __ATOMIC_SEQ_CST))
            read_rate(s);
        atomic_store(&s->reading, 0);
        R->slowed += s->slowed;
        if (s->queue_overflows > R->queue_overflows) /* one count per process */
            R->queue_overflows = s->queue_overflows;
        R->threads++;
        R->samples += (long long)atomic_load(&s->tab.samples);
        R->dropped += (long long)atomic_load(&s->tab.dropped);
        R->unattributed_ns += atomic_load(&s->unattributed_ns);
        for (int i = 0; i < SAMPLE_TABLE_SLOTS; i++)
            n += atomic_load_explicit(&s->tab.slot[i].pc, memory_order_acquire) != 0;
    }
    struct raw *r = calloc((size_t)(n ? n : 1), sizeof *r);
    R->fn = calloc((size_t)(n ? n : 1), sizeof *R->fn);
    R->mpi = calloc((size_t)(n ? n : 1), sizeof *R->mpi);
    finished = 1;
    if (!r || !R->fn || !R->mpi)
        goto out;
    int k = 0;
    for (int t = 0; t < PMPI_MAX_THREADS && k < n; t++) {
        const struct table *s = __atomic_load_n(&tables[t], __ATOMIC_ACQUIRE);
        for (int i = 0; s && i < SAMPLE_TABLE_SLOTS && k < n; i++) {
            const struct sample_entry *e = &s->tab.slot[i];
            uintptr_t pc = atomic_load_explicit(&e->pc, memory_order_acquire);
            if (!pc)
                continue;
            r[k] = (struct raw){.pc = pc,
                                .region = atomic_load(&e->region),
                                .call = atomic_load(&e->call),
                                .count = atomic_load(&e->count),
                                .wall_ns = atomic_load(&e->wall_ns)};
            locate(&r[k++]);
        }
    }
    resolve_all(r, k);
    for (int i = 0; i < k; i++) {
        struct pmpi_sample_fn *f = &R->fn[R->nfn++];
        int id = r[i].call - 1;
        if (r[i].call)
            snprintf(f->function, sizeof f->function, "%s", pmpi_calls[id].name);
        else
            sample_name(&r[i].where, f->function, sizeof f->function);
        snprintf(f->region, sizeof f->region, "%s", region_of(r[i].region));
        f->samples = r[i].count;
        f->wall_ns = r[i].wall_ns;
        if (!r[i].call)
            continue;
        struct pmpi_sample_mpi *m = &R->mpi[R->nmpi++];
        long long ticks;
        caller_name(&r[i].where, m->function, sizeof m->function);
        snprintf(m->file, sizeof m->file, "%s", r[i].where.file[0] ? r[i].where.file : "??");
        m->line = r[i].where.line;
        m->call = id;
        m->samples = r[i].count;
        m->wall_ns = r[i].wall_ns;
        m->site = r[i].pc;
        measured(r[i].pc, id, &m->calls, &ticks);
        m->measured_ns = (long long)((double)ticks *
                                     pmpi_ns_per_tick(pmpi_end()->t_final, pmpi_end()->tick_final));
    }
    R->nfn = sum_fn(R->fn, R->nfn);
    R->nmpi = sum_mpi(R->mpi, R->nmpi);
out:
    free(r);
}

int pmpi_sample_state(const char **why)
{
    if (why)
        *why = cfg.why;
    return cfg.state;
}

const char *pmpi_sample_event(void)
{
    return cfg.event;
}

long long pmpi_sample_period(int *hz)
{
    *hz = cfg.hz;
    return cfg.n;
}

long long pmpi_sample_used(void)
{
    long long used = atomic_load(&cfg.used);
    return used > 0 ? used : cfg.n;
}

double pmpi_sample_seconds(void)
{
    if (!cfg.time_event)
        return 0;
    long long used = pmpi_sample_used();
    return cfg.hz ? 1.0 / (double)used : (double)used * 1e-9;
}

int pmpi_sample_top(void)
{
    return cfg.top;
}

const struct pmpi_sample_rank *pmpi_sample_rank(void)
{
    return cfg.state == 1 && finished ? &rank_tables : NULL;
}

/* key: the samples' time in seconds, null when the event is not a time. */
static void time_json(struct jw *w, const char *key, long long samples)
{
    double seconds = pmpi_sample_seconds();
    if (seconds > 0)
        jw_fixed(w, key, (double)samples * seconds, 9);
    else
        jw_null(w, key);
}

/* The sampled functions past the top, summed: "key": {"entries", "samples"}. */
static void other_json(struct jw *w, const char *key, int entries, long long samples)
{
    jw_obj_begin(w, key);
    jw_int(w, "entries", entries);
    jw_int(w, "samples", samples);
    jw_obj_end(w);
}

static void functions_json(struct jw *w, const struct pmpi_sample_rank *R, int top)
{
    long long rest = 0;
    jw_arr_begin(w, "functions");
    for (int i = 0; i < R->nfn; i++) {
        if (i >= top) {
            rest += R->fn[i].samples;
            continue;
        }
        jw_obj_begin(w, NULL);
        jw_str(w, "function", R->fn[i].function);
        if (R->fn[i].region[0])
            jw_str(w, "region", R->fn[i].region);
        else
            jw_null(w, "region");
        jw_int(w, "samples", R->fn[i].samples);
        time_json(w, "time_s", R->fn[i].samples);
        jw_secs(w, "wall_s", R->fn[i].wall_ns);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    other_json(w, "functions_other", R->nfn > top ? R->nfn - top : 0, rest);
}

static void mpi_by_caller_json(struct jw *w, const struct pmpi_sample_rank *R, int top)
{
    long long rest = 0;
    jw_arr_begin(w, "mpi_by_caller");
    for (int i = 0; i < R->nmpi; i++) {
        const struct pmpi_sample_mpi *m = &R->mpi[i];
        if (i >= top) {
            rest += m->samples;
            continue;
        }
        jw_obj_begin(w, NULL);
        jw_str(w, "function", m->function);
        jw_str(w, "file", m->file);
        jw_int(w, "line", m->line);
        jw_str(w, "call", pmpi_calls[m->call].name);
        jw_int(w, "samples", m->samples);
        jw_secs(w, "mpi_time_s", m->wall_ns);
        time_json(w, "event_s", m->samples);
        if (m->calls >= 0) {
            jw_int(w, "calls", m->calls);
            jw_secs(w, "measured_s", m->measured_ns);
        } else {
            jw_null(w, "calls");
            jw_null(w, "measured_s");
        }
        jw_obj_end(w);
    }
    jw_arr_end(w);
    other_json(w, "mpi_by_caller_other", R->nmpi > top ? R->nmpi - top : 0, rest);
}

void pmpi_sample_row_json(struct jw *w)
{
    const struct pmpi_sample_rank *R = pmpi_sample_rank();
    if (!R)
        return;
    jw_obj_begin(w, "sampling");
    jw_int(w, "threads", R->threads);
    jw_int(w, "samples", R->samples);
    jw_int(w, "dropped", R->dropped);
    jw_int(w, "table_capacity", SAMPLE_TABLE_SLOTS);
    jw_int(w, cfg.hz ? "frequency_hz_used" : "period_used", pmpi_sample_used());
    jw_int(w, "slowed", R->slowed);
    jw_int(w, "signal_queue_overflows", R->queue_overflows);
    jw_secs(w, "unattributed_wall_s", R->unattributed_ns);
    functions_json(w, R, cfg.top);
    mpi_by_caller_json(w, R, cfg.top);
    jw_obj_end(w);
}
