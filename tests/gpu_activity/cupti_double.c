/* cupti_double.c: a stand-in for libcupti (soname libcupti.so.13), compiled against the
 * project's declarations (src-c/gpu_activity/cupti_api.h) so its signatures are the ones
 * the layer calls. It hands the records a test stages to the registered buffers when the
 * layer flushes. The file named by PAPI_TEST_CUPTI_RECORDS holds one record a line, times
 * in ns after the flush's moment (the timestamp callback's clock where one is registered,
 * else this double's own clock, CLOCK_REALTIME as CUPTI's):
 *   kernel DEV STREAM START END NAME      memcpy COPYKIND DEV STREAM BYTES START END
 *   memset DEV STREAM BYTES START END     sync TYPE STREAM START END
 *   incomplete (a kernel without an end)  drop N (records CUPTI says it dropped)
 *   requests K (K buffers asked for at once, then handed back empty)
 * A test program also "launches" a file's records with cupti_double_launch(path): written
 * then, times after that moment, handed back at the next flush; a bench one kernel at a
 * time with cupti_double_launch_kernel(ns).
 * PAPI_TEST_CUPTI_MODE: version=N (cuptiGetVersion's), nodevice (cuptiActivityEnable
 * fails as without a driver), privileges (it fails for want of permission), subscribed
 * (another tool holds CUPTI). Built variants: CUPTI_DOUBLE_NO_FLUSH
 * (no cuptiActivityFlushAll: another version), CUPTI_DOUBLE_NO_TSCB (no timestamp
 * callback: the layer measures the clocks' offset). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cupti_api.h"

#define EXPORT __attribute__((visibility("default")))

static CUpti_BuffersCallbackRequestFunc requested;
static CUpti_BuffersCallbackCompleteFunc completed;
static CUpti_TimestampCallbackFunc timestamp_cb;
static size_t dropped_pending;
static int subscribed, enabled;

/* What the test reads after: calls balanced. */
EXPORT int cupti_double_subscribed(void)
{
    return subscribed;
}
EXPORT int cupti_double_enabled(void)
{
    return enabled;
}

static const char *mode(void)
{
    const char *m = getenv("PAPI_TEST_CUPTI_MODE");
    return m ? m : "";
}

EXPORT CUptiResult cuptiGetVersion(uint32_t *version)
{
    *version = strncmp(mode(), "version=", 8) == 0 ? (uint32_t)atoi(mode() + 8) : 130001;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiGetResultString(CUptiResult result, const char **str)
{
    switch (result) {
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        *str = "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED";
        break;
    case CUPTI_ERROR_NOT_INITIALIZED:
        *str = "CUPTI_ERROR_NOT_INITIALIZED";
        break;
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        *str = "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES";
        break;
    case CUPTI_ERROR_INVALID_DEVICE:
        *str = "CUPTI_ERROR_INVALID_DEVICE";
        break;
    case 17: /* the profiler's CUPTI_ERROR_INVALID_METRIC_NAME (cupti_profiler_api.h) */
        *str = "CUPTI_ERROR_INVALID_METRIC_NAME";
        break;
    case 26: /* the profiler's (cupti_profiler_api.h) */
        *str = "CUPTI_ERROR_HARDWARE_BUSY";
        break;
    default:
        *str = "CUPTI_ERROR_UNKNOWN";
    }
    return CUPTI_SUCCESS;
}

/* The subscriber's callback and which resource callbacks it enabled (cuptiEnableCallback):
 * cupti_double_context calls it as CUPTI does when a context is made or destroyed. */
static CUpti_CallbackFunc subscriber_cb;
static void *subscriber_data;
static int resource_on[3]; /* by callback id: context created, destroy starting */

EXPORT CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *s, CUpti_CallbackFunc cb, void *u)
{
    if (strcmp(mode(), "subscribed") == 0)
        return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    subscribed++;
    subscriber_cb = cb, subscriber_data = u;
    *s = (CUpti_SubscriberHandle)&subscribed;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle s)
{
    (void)s;
    subscribed--;
    subscriber_cb = NULL;
    memset(resource_on, 0, sizeof resource_on);
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle s, int domain,
                                       uint32_t cbid)
{
    if (!subscribed || s != (CUpti_SubscriberHandle)&subscribed ||
        domain != CUPTI_CB_DOMAIN_RESOURCE || cbid == 0 || cbid > 2)
        return CUPTI_ERROR_INVALID_PARAMETER;
    resource_on[cbid] = enable != 0;
    return CUPTI_SUCCESS;
}

/* Contexts are the CUDA driver double's: the device's number plus 0x1000. */
EXPORT CUptiResult cuptiGetDeviceId(CUcontext ctx, uint32_t *device)
{
    if (!ctx || !device || (uintptr_t)ctx < 0x1000)
        return CUPTI_ERROR_INVALID_PARAMETER;
    *device = (uint32_t)((uintptr_t)ctx - 0x1000);
    return CUPTI_SUCCESS;
}

void cupti_double_context_gone(int device);

/* Device's context made (created 1) or about to be destroyed (0): the CUDA driver double
 * calls it; the subscriber's callback runs where it enabled it, on the calling thread. */
EXPORT void cupti_double_context(int device, int created)
{
    uint32_t cbid = created ? CUPTI_CBID_RESOURCE_CONTEXT_CREATED
                            : CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING;
    CUpti_ResourceData data = {.context = (CUcontext)(uintptr_t)(0x1000 + device)};
    if (subscriber_cb && resource_on[cbid])
        subscriber_cb(subscriber_data, CUPTI_CB_DOMAIN_RESOURCE, cbid, &data);
    if (!created)
        cupti_double_context_gone(device); /* the profiler part: cupti_profiler_double.c */
}

EXPORT CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc r,
                                                  CUpti_BuffersCallbackCompleteFunc c)
{
    requested = r;
    completed = c;
    return CUPTI_SUCCESS;
}

#ifndef CUPTI_DOUBLE_NO_TSCB
EXPORT CUptiResult cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc f)
{
    timestamp_cb = f;
    return CUPTI_SUCCESS;
}
#endif

EXPORT CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind)
{
    if (strcmp(mode(), "nodevice") == 0)
        return CUPTI_ERROR_NOT_INITIALIZED;
    if (strcmp(mode(), "privileges") == 0 && kind == CUPTI_ACTIVITY_KIND_MEMSET)
        return CUPTI_ERROR_INSUFFICIENT_PRIVILEGES; /* after two kinds: undone */
    enabled++;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind)
{
    (void)kind;
    enabled--;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiGetTimestamp(uint64_t *timestamp)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    *timestamp = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    return CUPTI_SUCCESS;
}

/* The calling thread's external ids (CUSTOM0 only), as CUPTI keeps them per thread. */
static __thread uint64_t ext_stack[64];
static __thread int ext_depth;

EXPORT CUptiResult cuptiActivityPushExternalCorrelationId(uint32_t kind, uint64_t id)
{
    if (kind != CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0 || ext_depth == 64)
        return CUPTI_ERROR_INVALID_PARAMETER;
    ext_stack[ext_depth++] = id;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiActivityPopExternalCorrelationId(uint32_t kind, uint64_t *last)
{
    if (kind != CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0 || ext_depth == 0)
        return CUPTI_ERROR_INVALID_PARAMETER;
    *last = ext_stack[--ext_depth];
    return CUPTI_SUCCESS;
}

EXPORT int cupti_double_ext_depth(void)
{
    return ext_depth;
}

static size_t record_size(CUpti_ActivityKind kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
        return sizeof(cupti_external_correlation_record);
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        return CUPTI_KERNEL10_SIZE;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        return CUPTI_MEMCPY6_SIZE;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        return CUPTI_MEMSET4_SIZE;
    default:
        return CUPTI_SYNC2_SIZE;
    }
}

EXPORT CUptiResult cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid,
                                              cupti_record_head **record)
{
    uint8_t *next = *record ? (uint8_t *)*record + record_size((*record)->kind) : buffer;
    if (next >= buffer + valid)
        return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = (cupti_record_head *)next;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext ctx, uint32_t stream,
                                                     size_t *dropped)
{
    (void)ctx, (void)stream;
    *dropped = dropped_pending;
    dropped_pending = 0;
    return CUPTI_SUCCESS;
}

#ifndef CUPTI_DOUBLE_NO_FLUSH
static char names[64][128]; /* kernels' names live as long as the "module" */

/* The buffer being filled. */
static struct {
    uint8_t *buf;
    size_t size, used;
} cur;

static void hand_back(void)
{
    if (cur.buf)
        completed(NULL, 0, cur.buf, cur.size, cur.used);
    cur.buf = NULL;
}

/* Room for n bytes: the current buffer, or a new one asked for; NULL when refused (the
 * record is then dropped, as CUPTI drops it). */
static uint8_t *room(size_t n)
{
    if (cur.buf && cur.used + n > cur.size)
        hand_back();
    if (!cur.buf) {
        size_t max = 0;
        requested(&cur.buf, &cur.size, &max);
        cur.used = 0;
        if (!cur.buf || cur.size < n) {
            cur.buf = NULL;
            dropped_pending++;
            return NULL;
        }
    }
    uint8_t *p = cur.buf + cur.used;
    memset(p, 0, n);
    cur.used += n;
    return p;
}

static uint32_t next_cid; /* correlation ids, as CUPTI numbers the launches */

/* A launch's correlation id, and the link CUPTI writes before its record while the
 * launching thread has an external id pushed. */
static uint32_t launch_id(void)
{
    uint32_t cid = ++next_cid;
    if (ext_depth > 0) {
        cupti_external_correlation_record *l = (void *)room(sizeof *l);
        if (l)
            *l = (cupti_external_correlation_record){
                .kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
                .external_kind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0,
                .external_id = ext_stack[ext_depth - 1],
                .correlation_id = cid};
    }
    return cid;
}

static void stage_line(const char *line, uint64_t base)
{
    char name[128];
    unsigned a, b, c;
    unsigned long long x, y, z;
    if (sscanf(line, "kernel %u %u %llu %llu %127s", &a, &b, &x, &y, name) == 5) {
        uint32_t cid = launch_id();
        cupti_kernel_record *k = (void *)room(CUPTI_KERNEL10_SIZE);
        if (!k)
            return;
        static int nnames;
        snprintf(names[nnames % 64], sizeof names[0], "%s", name);
        *k = (cupti_kernel_record){.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                   .start = base + x,
                                   .end = base + y,
                                   .device_id = a,
                                   .stream_id = b,
                                   .grid_x = 64,
                                   .grid_y = 1,
                                   .grid_z = 1,
                                   .block_x = 256,
                                   .block_y = 1,
                                   .block_z = 1,
                                   .correlation_id = cid,
                                   .name = names[nnames++ % 64]};
    } else if (sscanf(line, "memcpy %u %u %u %llu %llu %llu", &a, &b, &c, &z, &x, &y) == 6) {
        uint32_t cid = launch_id();
        cupti_memcpy_record *m = (void *)room(CUPTI_MEMCPY6_SIZE);
        if (m)
            *m = (cupti_memcpy_record){.kind = CUPTI_ACTIVITY_KIND_MEMCPY,
                                       .copy_kind = (uint8_t)a,
                                       .bytes = z,
                                       .start = base + x,
                                       .end = base + y,
                                       .device_id = b,
                                       .stream_id = c,
                                       .correlation_id = cid};
    } else if (sscanf(line, "memset %u %u %llu %llu %llu", &a, &b, &z, &x, &y) == 5) {
        uint32_t cid = launch_id();
        cupti_memset_record *m = (void *)room(CUPTI_MEMSET4_SIZE);
        if (m)
            *m = (cupti_memset_record){.kind = CUPTI_ACTIVITY_KIND_MEMSET,
                                       .bytes = z,
                                       .start = base + x,
                                       .end = base + y,
                                       .device_id = a,
                                       .stream_id = b,
                                       .correlation_id = cid};
    } else if (sscanf(line, "sync %u %u %llu %llu", &a, &b, &x, &y) == 4) {
        cupti_sync_record *s = (void *)room(CUPTI_SYNC2_SIZE);
        if (s)
            *s = (cupti_sync_record){.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
                                     .type = (int32_t)a,
                                     .start = base + x,
                                     .end = base + y,
                                     .stream_id = b};
    } else if (strncmp(line, "incomplete", 10) == 0) {
        cupti_kernel_record *k = (void *)room(CUPTI_KERNEL10_SIZE);
        if (k)
            *k = (cupti_kernel_record){
                .kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, .start = base, .name = "incomplete"};
    } else if (sscanf(line, "drop %llu", &x) == 1) {
        dropped_pending += x;
    } else if (sscanf(line, "requests %u", &a) == 1) { /* K buffers out at once */
        hand_back();
        uint8_t *out[64];
        size_t size[64], max;
        for (unsigned i = 0; i < a && i < 64; i++)
            requested(&out[i], &size[i], &max);
        for (unsigned i = 0; i < a && i < 64; i++)
            if (out[i])
                completed(NULL, 0, out[i], size[i], 0);
    } else {
        fprintf(stderr, "cupti_double: bad line: %s", line);
        abort();
    }
}

static uint64_t last_base; /* the last staged file's moment */

/* The moment the last file's times count from (the traces' clock where the timestamp
 * callback is registered): a test places each staged record exactly. */
EXPORT uint64_t cupti_double_last_base(void)
{
    return last_base;
}

/* The file's records, their times after now, into the buffer being filled: 0, or -1
 * when it cannot be read. */
static int stage_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    uint64_t base = 0;
    if (timestamp_cb)
        base = timestamp_cb();
    else
        cuptiGetTimestamp(&base);
    last_base = base;
    char line[256];
    while (fgets(line, sizeof line, f))
        if (line[0] != '#' && line[0] != '\n')
            stage_line(line, base);
    fclose(f);
    return 0;
}

/* One kernel launch as bench/bench_gpu_launch.c makes them, ns long, 1 us after the last:
 * what CUPTI does on the launching thread, its correlation id taken and, while a tool has
 * registered buffers and enabled records, the record written (a buffer asked for when the
 * current one is full, the full one handed back). */
EXPORT void cupti_double_launch_kernel(uint64_t ns)
{
    static uint64_t t;
    if (!requested || enabled <= 0) {
        ++next_cid;
        return;
    }
    uint32_t cid = launch_id();
    cupti_kernel_record *k = (void *)room(CUPTI_KERNEL10_SIZE);
    if (!k)
        return;
    if (!t && timestamp_cb) /* the first after now, on the clock of staged files */
        t = timestamp_cb();
    else if (!t)
        cuptiGetTimestamp(&t);
    t += 1000;
    *k = (cupti_kernel_record){.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                               .start = t,
                               .end = t + ns,
                               .grid_x = 64,
                               .grid_y = 1,
                               .grid_z = 1,
                               .block_x = 256,
                               .block_y = 1,
                               .block_z = 1,
                               .correlation_id = cid,
                               .name = "bench_kernel"};
}

/* A program "launches" work: the file's records written now, handed back at the next
 * flush (as CUPTI holds a buffer until it is full or flushed). 0, or -1. */
EXPORT int cupti_double_launch(const char *path)
{
    return stage_file(path);
}

EXPORT CUptiResult cuptiActivityFlushAll(uint32_t flag)
{
    static int delivered; /* the file once */
    (void)flag;
    const char *path = getenv("PAPI_TEST_CUPTI_RECORDS");
    if (path && !delivered) {
        stage_file(path);
        delivered = 1;
    }
    hand_back();
    if (dropped_pending) /* CUPTI says so at a buffer's return: an empty one here */
        completed(NULL, 0, NULL, 0, 0);
    return CUPTI_SUCCESS;
}
#endif
