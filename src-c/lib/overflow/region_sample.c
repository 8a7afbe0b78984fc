/* region_sample.c: PAPI_SAMPLE=EVENT[@PERIOD|@FREQhz] for the region API. Every thread that
 * marks regions samples EVENT (every PERIOD events, or FREQ times a second in frequency
 * mode; EVENT alone: 999 Hz) through PAPI_overflow on an event set of its own, attached to
 * the thread (so it runs beside the region's sets of the same component). Each sample is
 * filed under its program counter and the region innermost at the time, in a fixed table
 * per thread (no allocation in the signal handler; a full table counts drops). The set is
 * opened and closed as the MPI wrapper's is (src-c/sampling/thread_sampler.c). At report
 * time the addresses are named (src-c/sampling/symbolizer.c) and summed per function and region.
 * The region API sets the current region (rsample_set_region): the handler reads it on the
 * same thread, lock-free. At each region boundary where the table took new addresses, the
 * thread keeps each new one's object and file address (sym_object_of): a library the
 * program unloads before the report is then named from its file, not by address. */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "env.h"
#include "json_writer.h"
#include "overflow_signal.h"
#include "profile_writer.h"
#include "region_sample.h"
#include "sample_spec.h"
#include "sample_table.h"
#include "symbolizer.h"
#include "thread_sampler.h"
#include "warn_once.h"

#define RS_NAME    256
#define RS_REPORT  -2 /* the thread is writing the report: its samples are not filed */
#define RS_OBJECTS 64 /* objects kept per process for addresses in unloaded ones */
#define RS_PATH    512

/* The objects sampled addresses lay in (their paths), for every thread: written under
 * objects_lock at region boundaries, read at report time. */
static char objects[RS_OBJECTS][RS_PATH];
static int nobjects;
static pthread_mutex_t objects_lock = PTHREAD_MUTEX_INITIALIZER;

/* Per table entry: its object (index + 1 into objects, 0: not kept) and file address. */
struct rs_kept {
    uint16_t object[SAMPLE_TABLE_SLOTS];
    uintptr_t file_addr[SAMPLE_TABLE_SLOTS];
};

struct rsample {
    int es;
    long tid;
    int running;
    long long used; /* the period (frequency) sampled at, kept at stop */
    int slowed;
    atomic_int region;
    struct sample_table tab; /* sample_table.c: filed in the handler */
    unsigned kept_seen;      /* tab.used when the entries' objects were last kept */
    struct rs_kept *kept;    /* allocated at the first keep; the owning thread's only */
};

static struct {
    char event[PAPI_MAX_STR_LEN];
    long long n; /* period, or frequency when hz */
    int hz;
    int ok; /* PAPI_SAMPLE set and well formed */
} cfg;
static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;
static atomic_int said_spec, said_start, said_slowed;

/* PAPI_SAMPLE: EVENT, EVENT@PERIOD or EVENT@FREQhz (sample_spec.c). */
static void read_config(void)
{
    const char *v = env_get("PAPI_SAMPLE");
    if (!v || !*v)
        return;
    struct sample_spec sp;
    int bad = sample_spec_parse(v, &sp);
    if (sp.event_len == 0 || sp.event_len >= sizeof cfg.event) {
        warn_once(&said_spec,
                  "PAPI_SAMPLE=%s: no event name (EVENT[@PERIOD|@FREQhz]): not sampling", v);
        return;
    }
    if (bad || sp.n <= 0 || sp.n > 0x7fffffff) {
        warn_once(&said_spec,
                  "PAPI_SAMPLE=%s: the period or frequency after '@' must be a number from 1 "
                  "to 2147483647, a frequency ending in hz: not sampling",
                  v);
        return;
    }
    memcpy(cfg.event, sp.event, sp.event_len);
    cfg.event[sp.event_len] = '\0';
    cfg.hz = sp.hz;
    cfg.n = sp.n;
    cfg.ok = 1;
}

/* The overflow handler: the sample's address under the thread's current region. */
static void on_sample(int EventSet, void *address, long long vector, void *context)
{
    (void)vector, (void)context;
    struct rsample *s = thread_sampler_owner(EventSet);
    if (!s)
        return;
    uintptr_t pc = (uintptr_t)address;
    int region = atomic_load_explicit(&s->region, memory_order_relaxed);
    if (region == RS_REPORT)
        return;
    sample_table_add(&s->tab, pc, region, 0, 0);
}

struct rsample *rsample_thread_start(void)
{
    pthread_once(&cfg_once, read_config);
    if (!cfg.ok)
        return NULL;
    struct rsample *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    memset(&s->tab, 0, sizeof s->tab); /* touched now, not inside a region */
    atomic_store(&s->region, -1);
    s->tid = papi_gettid();
    struct sampler_spec sp = {.n = (int)cfg.n, .hz = cfg.hz, .handler = on_sample};
    char why[PAPI_HUGE_STR_LEN] = "";
    int ret = PAPI_event_name_to_code(cfg.event, &sp.code);
    if (ret != PAPI_OK || (ret = thread_sampler_open(&sp, s, &s->es, why, sizeof why)) != PAPI_OK) {
        warn_once(&said_start, "PAPI_SAMPLE=%s@%lld%s: cannot sample: %s", cfg.event, cfg.n,
                  cfg.hz ? "hz" : "", *why ? why : papi_last_error_detail());
        free(s);
        return NULL;
    }
    s->running = 1;
    return s;
}

/* The object index (+ 1) of path, added if new; 0 when the table is full. */
static uint16_t object_index(const char *path)
{
    pthread_mutex_lock(&objects_lock);
    int i = 0;
    while (i < nobjects && strcmp(objects[i], path) != 0)
        i++;
    if (i == nobjects && nobjects < RS_OBJECTS)
        snprintf(objects[nobjects++], RS_PATH, "%s", path);
    pthread_mutex_unlock(&objects_lock);
    return i < nobjects ? (uint16_t)(i + 1) : 0;
}

/* Each entry taken since the last look: its object and file address, while it is loaded. */
static void keep_objects(struct rsample *s, unsigned used)
{
    if (!s->kept && !(s->kept = calloc(1, sizeof *s->kept)))
        return;
    s->kept_seen = used;
    char path[RS_PATH];
    for (int i = 0; i < SAMPLE_TABLE_SLOTS; i++) {
        uintptr_t pc = atomic_load_explicit(&s->tab.slot[i].pc, memory_order_acquire), at;
        if (pc > 1 && !s->kept->object[i] && sym_object_of(pc, path, sizeof path, &at) == 0) {
            s->kept->file_addr[i] = at;
            s->kept->object[i] = object_index(path);
        }
    }
}

void rsample_set_region(struct rsample *s, int region)
{
    if (!s)
        return;
    atomic_store_explicit(&s->region, region, memory_order_relaxed);
    unsigned used = atomic_load_explicit(&s->tab.used, memory_order_acquire);
    if (used != s->kept_seen && s->tid == papi_gettid()) /* new addresses: rare */
        keep_objects(s, used);
}

/* The period (frequency) the thread samples at now, slower than asked where its signals
 * would pass what the overflow layer sends a thread (OVF_MAX_SIGNAL_HZ, said when it
 * configured the set) or came faster than the handler took them (*slowed times). */
static void rate_of(const struct rsample *s, long long *used, int *slowed)
{
    struct eventset *es = s->running ? es_lookup(s->es) : NULL;
    int hz;
    if (!es || ovf_rate_now(es, 0, used, &hz, slowed) != PAPI_OK) {
        *used = s->used ? s->used : cfg.n;
        *slowed = s->slowed;
    }
}

void rsample_thread_stop(struct rsample *s)
{
    if (!s || !s->running || s->tid != papi_gettid())
        return;
    rate_of(s, &s->used, &s->slowed); /* the set is gone after */
    s->running = 0;
    thread_sampler_close(&s->es);
}

int rsample_write_head(struct jw *w)
{
    if (!cfg.ok)
        return 0;
    jw_obj_begin(w, "sampling");
    jw_str(w, "event", cfg.event);
    if (cfg.hz) {
        jw_null(w, "period");
        jw_int(w, "frequency_hz", cfg.n);
    } else {
        jw_int(w, "period", cfg.n);
        jw_null(w, "frequency_hz");
    }
    jw_uint(w, "signal_queue_overflows", ovf_queue_overflows());
    jw_obj_end(w);
    return 1;
}

struct named {
    char name[RS_NAME];
    int region;
    unsigned long long count;
};

static int by_name_region(const void *a, const void *b)
{
    const struct named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->region > y->region) - (x->region < y->region);
}

static int by_count(const void *a, const void *b)
{
    const struct named *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return by_name_region(a, b);
}

/* How the addresses are named: libdw, or dladdr (exported symbols only) and why. */
static void naming(const struct symbolizer *sym, char *buf, size_t len)
{
    const char *how = sym_how(sym);
    if (!sym)
        snprintf(buf, len, "none");
    else if (strcmp(how, "libdw") == 0)
        snprintf(buf, len, "%s", how);
    else
        snprintf(buf, len, "dladdr (dynamic symbols only: %s)", how);
}

/* The function holding pc (symbolizer.c), else the exported symbol dladdr finds, else the
 * function at its kept file address in its object's file (an object unloaded since: by[]
 * the objects opened alone, one each), else pc in hex. */
static void name_of(struct symbolizer *sym, uintptr_t pc, const struct rs_kept *kept, int i,
                    struct symbolizer **by, char *out, size_t len)
{
    struct sym_where w;
    Dl_info info;
    const char *name = NULL;
    int k = kept ? kept->object[i] - 1 : -1;
    if (sym_function(sym, pc, &w) == 0 && w.symbol[0]) /* (no DWARF: the name only) */
        name = w.symbol;
    else if (dladdr((void *)pc, &info) && info.dli_sname)
        name = info.dli_sname;
    else if (k >= 0 && (by[k] || (by[k] = sym_open_object(objects[k]))) &&
             sym_function(by[k], kept->file_addr[i], &w) == 0 && w.symbol[0])
        name = w.symbol;
    if (name)
        papi_demangle(name, out, len);
    else
        snprintf(out, len, "0x%llx", (unsigned long long)pc);
}

/* The table's entries named and summed per (function, region), most samples first. */
static int name_entries(struct rsample *s, struct named **out, char *how, size_t howlen)
{
    struct named *v = malloc(SAMPLE_TABLE_SLOTS * sizeof *v);
    struct symbolizer *sym = v ? sym_open_process() : NULL, *by[RS_OBJECTS] = {0};
    int n = 0;
    naming(sym, how, howlen);
    for (int i = 0; v && sym && i < SAMPLE_TABLE_SLOTS; i++) {
        uintptr_t pc = atomic_load_explicit(&s->tab.slot[i].pc, memory_order_acquire);
        if (!pc)
            continue;
        name_of(sym, pc, s->kept, i, by, v[n].name, sizeof v[n].name);
        v[n].region = atomic_load(&s->tab.slot[i].region);
        v[n].count = atomic_load(&s->tab.slot[i].count);
        n++;
    }
    sym_close(sym);
    for (int k = 0; k < RS_OBJECTS; k++)
        if (by[k])
            sym_close(by[k]);
    if (!v)
        return 0;
    qsort(v, (size_t)n, sizeof *v, by_name_region);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && by_name_region(&v[m - 1], &v[i]) == 0)
            v[m - 1].count += v[i].count;
        else
            v[m++] = v[i];
    }
    qsort(v, (size_t)m, sizeof *v, by_count);
    *out = v;
    return m;
}

void rsample_write_thread(struct jw *w, const char *key, struct rsample *s,
                          const char *(*region_name)(void *, int), void *arg)
{
    if (!s)
        return;
    /* The report's own work (naming reads files) is not the program's: while this thread
     * writes, its samples are not filed; it samples on after (papi_hl_write_report). */
    int mine = s->tid == papi_gettid(), was = atomic_load(&s->region);
    if (mine)
        atomic_store(&s->region, RS_REPORT);
    struct named *v = NULL;
    char how[200];
    int n = name_entries(s, &v, how, sizeof how);
    if (mine)
        atomic_store(&s->region, was);
    jw_obj_begin(w, key);
    jw_int(w, "tid", s->tid);
    jw_uint(w, "samples", atomic_load(&s->tab.samples));
    jw_uint(w, "dropped", atomic_load(&s->tab.dropped));
    jw_int(w, "table_capacity", SAMPLE_TABLE_SLOTS);
    long long used;
    int slowed;
    rate_of(s, &used, &slowed);
    if (slowed > 0 && s->running) /* a stopped thread's PAPI_stop said it (overflow_signal.c) */
        warn_once(&said_slowed,
                  "PAPI_SAMPLE=%s: thread %ld's sampling was slowed %d times, to %s %lld (its "
                  "signals came faster than it took them, or each caused the next): the region "
                  "file's %s and slowed",
                  cfg.event, s->tid, slowed, cfg.hz ? "a frequency of" : "a period of", used,
                  cfg.hz ? "frequency_hz_used" : "period_used");
    jw_int(w, cfg.hz ? "frequency_hz_used" : "period_used", used);
    jw_int(w, "slowed", slowed);
    jw_str(w, "names", how);
    jw_arr_begin(w, "functions");
    for (int i = 0; i < n; i++)
        profile_function_write(w, v[i].name,
                               v[i].region >= 0 ? region_name(arg, v[i].region) : NULL, v[i].count);
    jw_arr_end(w);
    jw_obj_end(w);
    free(v);
}
