/* gpu_activity.c: CUPTI's activity records, buffered, drained and summed (gpu_activity.h).
 *
 * Threads. CUPTI asks for buffers on the thread that launches work (buffer_requested:
 * a free buffer of the pool under the pool lock, nothing else) and hands them back on its
 * own thread or on the one flushing (buffer_completed: queued, the drain thread woken).
 * The drain thread alone parses records (demangling names costs) into the table under
 * the table lock, then returns the buffer to the pool. The callbacks never take the table
 * lock: refusals and drops are atomics, copied into the table when a reader locks it.
 * Lock order: flush_lock, then pool.lock; table_lock is never held with pool.lock. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gpu_activity.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mono_clock.h"

static const CUpti_ActivityKind enabled_kinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_SYNCHRONIZATION};
#define NKINDS ((int)(sizeof enabled_kinds / sizeof enabled_kinds[0]))

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* the drain thread: a buffer queued, or stop */
    pthread_cond_t idle; /* a flush: the queue drained */
    uint8_t *buf[GPU_ACTIVITY_BUFFERS];
    int free_list[GPU_ACTIVITY_BUFFERS], nfree, nmade;
    struct {
        uint8_t *buf;
        size_t valid;
    } queue[GPU_ACTIVITY_BUFFERS];
    int head, count, parsing, stop;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER,
          .wake = PTHREAD_COND_INITIALIZER,
          .idle = PTHREAD_COND_INITIALIZER};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t flush_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gpu_table *table;
static struct cupti_lib lib;
static CUpti_SubscriberHandle subscriber;
static pthread_t drain_thread;
static int started, kinds_on, exit_registered;
static _Atomic uint64_t first_start_ns; /* the run's start: the first successful start */
static int linking; /* the last start links launches to regions (external correlation) */
/* The process that started: a forked child has no drain thread (and CUPTI does not follow
 * a fork), so its flushes and its exit leave CUPTI alone rather than wait for nobody. */
static pid_t owner;
static int64_t clock_offset; /* CUPTI's clock minus CLOCK_MONOTONIC */
/* Counted by CUPTI's callbacks without the table's lock (a launching thread must not
 * wait for the drain thread's parse); copied into the table under it. */
static _Atomic uint64_t refused, dropped_records;
static int clock_by_callback;
static char last_reason[768];

static uint64_t mono_timestamp(void)
{
    return mono_clock_ns();
}

static void buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = NULL;
    *size = 0;
    *max_records = 0; /* as many as fit */
    pthread_mutex_lock(&pool.lock);
    if (pool.nfree > 0) {
        *buffer = pool.buf[pool.free_list[--pool.nfree]];
    } else if (pool.nmade < GPU_ACTIVITY_BUFFERS) {
        uint8_t *b = aligned_alloc(8, GPU_ACTIVITY_BUFFER_SIZE);
        if (b)
            pool.buf[pool.nmade++] = *buffer = b;
    }
    if (*buffer)
        *size = GPU_ACTIVITY_BUFFER_SIZE;
    pthread_mutex_unlock(&pool.lock);
    if (!*buffer)
        atomic_fetch_add(&refused, 1);
}

static void buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                             size_t valid)
{
    (void)size;
    size_t dropped = 0;
    if (lib.cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
        atomic_fetch_add(&dropped_records, dropped);
    if (!buffer)
        return;
    pthread_mutex_lock(&pool.lock);
    int tail = (pool.head + pool.count) % GPU_ACTIVITY_BUFFERS;
    pool.queue[tail].buf = buffer; /* never full: at most the pool's buffers are out */
    pool.queue[tail].valid = valid;
    pool.count++;
    pthread_cond_signal(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
}

static int buffer_index(const uint8_t *b)
{
    for (int i = 0; i < pool.nmade; i++)
        if (pool.buf[i] == b)
            return i;
    return -1;
}

static struct gpu_tracelog *tracelog; /* under table_lock; NULL until a trace asks */

static void parse_buffer(uint8_t *buffer, size_t valid)
{
    cupti_record_head *rec = NULL;
    pthread_mutex_lock(&table_lock);
    while (lib.cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        int row = gpu_table_file(table, rec, clock_offset);
        if (tracelog)
            gpu_tracelog_add(tracelog, rec, row, clock_offset);
    }
    pthread_mutex_unlock(&table_lock);
}

int gpu_activity_trace_keep(void)
{
    pthread_mutex_lock(&table_lock);
    if (!tracelog)
        tracelog = calloc(1, sizeof *tracelog);
    int ok = tracelog != NULL;
    pthread_mutex_unlock(&table_lock);
    return ok;
}

const struct gpu_tracelog *gpu_activity_tracelog(void)
{
    return tracelog;
}

long long gpu_activity_trace_kept(void)
{
    pthread_mutex_lock(&table_lock);
    long long n = tracelog ? (long long)tracelog->n + (long long)tracelog->dropped : -1;
    pthread_mutex_unlock(&table_lock);
    return n;
}

uint64_t gpu_activity_run_start_ns(void)
{
    return atomic_load(&first_start_ns);
}

int gpu_activity_trace_ops(struct trace_gpu_ops *g, struct trace_gpu_since *since)
{
    if (!tracelog)
        return 1;
    gpu_activity_flush();
    pthread_mutex_lock(&table_lock);
    int rc = table ? gpu_tracelog_ops(tracelog, table, since, g) : 1;
    pthread_mutex_unlock(&table_lock);
    if (rc == 0)
        trace_gpu_ops_order(g);
    return rc;
}

static void *drain(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (pool.count == 0 && !pool.stop)
            pthread_cond_wait(&pool.wake, &pool.lock);
        if (pool.count == 0) /* stopping, and nothing left */
            break;
        uint8_t *b = pool.queue[pool.head].buf;
        size_t valid = pool.queue[pool.head].valid;
        pool.head = (pool.head + 1) % GPU_ACTIVITY_BUFFERS;
        pool.count--;
        pool.parsing = 1;
        pthread_mutex_unlock(&pool.lock);
        parse_buffer(b, valid);
        pthread_mutex_lock(&pool.lock);
        pool.parsing = 0;
        int i = buffer_index(b);
        if (i >= 0)
            pool.free_list[pool.nfree++] = i;
        if (pool.count == 0)
            pthread_cond_broadcast(&pool.idle);
    }
    pthread_mutex_unlock(&pool.lock);
    return NULL;
}

/* CUPTI's times onto CLOCK_MONOTONIC: CUPTI reads our clock where it takes a timestamp
 * callback; else the offset between the two clocks, read where the bracket of two
 * CLOCK_MONOTONIC reads around one CUPTI read is the narrowest of a few. */
static void set_clock(void)
{
    clock_offset = 0;
    clock_by_callback = lib.cuptiActivityRegisterTimestampCallback &&
                        lib.cuptiActivityRegisterTimestampCallback(mono_timestamp) == CUPTI_SUCCESS;
    if (clock_by_callback)
        return;
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 7; i++) {
        uint64_t c = 0, a = mono_clock_ns();
        CUptiResult r = lib.cuptiGetTimestamp(&c);
        uint64_t b = mono_clock_ns();
        if (r == CUPTI_SUCCESS && b - a < best) {
            best = b - a;
            clock_offset = (int64_t)(c - (a + (b - a) / 2));
        }
    }
}

static void at_exit(void)
{
    gpu_activity_flush();
}

/* A call of CUPTI's that failed, as a reason: no device where the driver or a GPU is
 * missing (CUPTI says unknown, not initialised or invalid device), else CUPTI's refusal
 * in its own words (no permission, a virtual or MIG device ...). */
static enum cupti_status refusal(const char *call, CUptiResult r, char *reason, size_t len)
{
    int no_device = r == CUPTI_ERROR_UNKNOWN || r == CUPTI_ERROR_NOT_INITIALIZED ||
                    r == CUPTI_ERROR_INVALID_DEVICE;
    snprintf(reason, len, "%s: %s of %s (CUPTI %u) failed: %s",
             no_device ? "no NVIDIA device" : "CUPTI refused to record here", call, lib.path,
             lib.version, cupti_result_words(&lib, r));
    return no_device ? CUPTI_LOAD_NO_DEVICE : CUPTI_LOAD_REFUSED;
}

/* The contexts' watcher (gpu_activity_watch_contexts): told of each context made and of
 * each about to be destroyed, through the layer's own subscription (CUPTI takes one). */
static void (*_Atomic context_watcher)(CUcontext ctx, int device, int created);

static void on_cupti_callback(void *userdata, int domain, uint32_t cbid, const void *cbdata)
{
    (void)userdata;
    void (*watcher)(CUcontext, int, int) = atomic_load(&context_watcher);
    if (!watcher || domain != CUPTI_CB_DOMAIN_RESOURCE || !cbdata ||
        (cbid != CUPTI_CBID_RESOURCE_CONTEXT_CREATED &&
         cbid != CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING))
        return;
    CUcontext ctx = ((const CUpti_ResourceData *)cbdata)->context;
    uint32_t device = 0;
    int known = lib.cuptiGetDeviceId && lib.cuptiGetDeviceId(ctx, &device) == CUPTI_SUCCESS;
    watcher(ctx, known ? (int)device : -1, cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
}

int gpu_activity_watch_contexts(void (*watcher)(CUcontext ctx, int device, int created), char *why,
                                size_t len)
{
    if (!subscriber) {
        snprintf(why, len, "the GPU activity layer holds no CUPTI subscription (%s)",
                 gpu_activity_reason()[0] ? gpu_activity_reason() : "it did not start");
        return -1;
    }
    if (!lib.cuptiEnableCallback || !lib.cuptiGetDeviceId) {
        snprintf(why, len, "%s (CUPTI %u) lacks cuptiEnableCallback or cuptiGetDeviceId", lib.path,
                 lib.version);
        return -1;
    }
    atomic_store(&context_watcher, watcher);
    CUptiResult r = lib.cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                            CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    if (r == CUPTI_SUCCESS)
        r = lib.cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                    CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    if (r != CUPTI_SUCCESS) {
        atomic_store(&context_watcher, NULL);
        snprintf(why, len, "cuptiEnableCallback (resource domain) of %s failed: %s", lib.path,
                 cupti_result_words(&lib, r));
        return -1;
    }
    return 0;
}

/* Subscribing tells whether another tool holds CUPTI (one subscriber at a time). */
static enum cupti_status claim(char *reason, size_t len)
{
    CUptiResult r = lib.cuptiSubscribe(&subscriber, on_cupti_callback, NULL);
    if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
        subscriber = NULL;
        snprintf(reason, len,
                 "another tool already subscribed to CUPTI (cuptiSubscribe of %s, CUPTI %u: %s): "
                 "no GPU activity; run without the other profiler",
                 lib.path, lib.version, cupti_result_words(&lib, r));
        return CUPTI_LOAD_SUBSCRIBED;
    }
    if (r != CUPTI_SUCCESS) {
        subscriber = NULL;
        return refusal("cuptiSubscribe", r, reason, len);
    }
    r = lib.cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (r != CUPTI_SUCCESS)
        return refusal("cuptiActivityRegisterCallbacks", r, reason, len);
    set_clock();
    for (kinds_on = 0; kinds_on < NKINDS; kinds_on++) {
        r = lib.cuptiActivityEnable(enabled_kinds[kinds_on]);
        if (r != CUPTI_SUCCESS) {
            char call[48];
            snprintf(call, sizeof call, "cuptiActivityEnable(%d)", enabled_kinds[kinds_on]);
            return refusal(call, r, reason, len);
        }
    }
    /* Optional: without it (another CUPTI), work is summed by time only, not by launch. */
    linking = lib.cuptiActivityPushExternalCorrelationId &&
              lib.cuptiActivityPopExternalCorrelationId &&
              lib.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) == CUPTI_SUCCESS;
    return CUPTI_LOAD_OK;
}

static void release(void)
{
    if (linking) /* kept: the last run's launches were linked (the reports say so) */
        lib.cuptiActivityDisable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
    while (kinds_on > 0)
        lib.cuptiActivityDisable(enabled_kinds[--kinds_on]);
    atomic_store(&context_watcher, NULL);
    if (subscriber)
        lib.cuptiUnsubscribe(subscriber);
    subscriber = NULL;
    cupti_unload(&lib);
}

/* A fork while the drain thread files a buffer would leave the child's copy of
 * table_lock held for good; the child reads the table (its region reports), so the fork
 * waits for the buffer in hand (bounded: one buffer's parse). */
static void fork_prepare(void)
{
    pthread_mutex_lock(&table_lock);
}

static void fork_after(void)
{
    pthread_mutex_unlock(&table_lock);
}

static void register_atfork(void)
{
    pthread_atfork(fork_prepare, fork_after, fork_after);
}

enum cupti_status gpu_activity_start(const char *const *sonames, int n, char *reason, size_t len)
{
    static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
    pthread_mutex_lock(&flush_lock);
    enum cupti_status s = CUPTI_LOAD_OK;
    reason[0] = '\0';
    if (started)
        goto out;
    linking = 0;
    if (!table && !(table = calloc(1, sizeof *table))) {
        snprintf(reason, len, "no GPU activity: no memory for its table (%zu bytes)",
                 sizeof *table);
        s = CUPTI_LOAD_MISSING;
        goto out;
    }
    pthread_mutex_lock(&table_lock);
    gpu_table_clear(table);
    atomic_store(&refused, 0);
    atomic_store(&dropped_records, 0);
    pthread_mutex_unlock(&table_lock);
    s = cupti_load(&lib, sonames, n, reason, len);
    if (s == CUPTI_LOAD_OK)
        s = claim(reason, len);
    if (s == CUPTI_LOAD_OK) {
        pool.stop = 0;
        if (pthread_create(&drain_thread, NULL, drain, NULL) != 0) {
            snprintf(reason, len, "no GPU activity: its drain thread could not start");
            s = CUPTI_LOAD_MISSING;
        }
    }
    if (s != CUPTI_LOAD_OK) {
        if (lib.handle)
            release();
        goto out;
    }
    started = 1;
    if (!atomic_load(&first_start_ns))
        atomic_store(&first_start_ns, mono_clock_ns());
    owner = getpid();
    pthread_once(&atfork_once, register_atfork);
    if (!exit_registered)
        exit_registered = atexit(at_exit) == 0;
out:
    snprintf(last_reason, sizeof last_reason, "%s", reason);
    pthread_mutex_unlock(&flush_lock);
    return s;
}

void gpu_activity_flush(void)
{
    if (getpid() != owner) /* a forked child: flush_lock may have been held at the fork */
        return;
    pthread_mutex_lock(&flush_lock);
    if (started) {
        lib.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        pthread_mutex_lock(&pool.lock);
        while (pool.count > 0 || pool.parsing)
            pthread_cond_wait(&pool.idle, &pool.lock);
        pthread_mutex_unlock(&pool.lock);
    }
    pthread_mutex_unlock(&flush_lock);
}

int gpu_activity_tag_push(uint64_t tag)
{
    int ok = 0;
    if (getpid() != owner)
        return 0;
    pthread_mutex_lock(&flush_lock); /* not while a stop unloads CUPTI */
    if (started && linking)
        ok = lib.cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0,
                                                        tag) == CUPTI_SUCCESS;
    pthread_mutex_unlock(&flush_lock);
    return ok;
}

void gpu_activity_tag_pop(void)
{
    uint64_t last;
    if (getpid() != owner)
        return;
    pthread_mutex_lock(&flush_lock);
    if (started && linking)
        lib.cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
    pthread_mutex_unlock(&flush_lock);
}

int gpu_activity_linking(void)
{
    if (getpid() != owner) /* a forked child: flush_lock may have been held at the fork */
        return linking;
    pthread_mutex_lock(&flush_lock);
    int on = linking;
    pthread_mutex_unlock(&flush_lock);
    return on;
}

void gpu_activity_stop(void)
{
    if (getpid() != owner)
        return;
    gpu_activity_flush();
    pthread_mutex_lock(&flush_lock);
    if (started) {
        release();
        pthread_mutex_lock(&pool.lock);
        pool.stop = 1;
        pthread_cond_signal(&pool.wake);
        pthread_mutex_unlock(&pool.lock);
        pthread_join(drain_thread, NULL);
        started = 0;
    }
    pthread_mutex_unlock(&flush_lock);
}

const struct gpu_table *gpu_activity_lock(void)
{
    pthread_mutex_lock(&table_lock);
    if (table) {
        table->buffers_refused = atomic_load(&refused);
        table->dropped = atomic_load(&dropped_records);
    }
    return table;
}

void gpu_activity_unlock(void)
{
    pthread_mutex_unlock(&table_lock);
}

const char *gpu_activity_reason(void)
{
    return last_reason;
}

const struct cupti_lib *gpu_activity_library(void)
{
    return &lib;
}

int64_t gpu_activity_clock_offset(int *by_callback)
{
    if (by_callback)
        *by_callback = clock_by_callback;
    return clock_offset;
}
