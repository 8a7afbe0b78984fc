/* test_gpu_activity.c: the GPU activity layer (src-c/gpu_activity) on the CUPTI double
 * (cupti_double.c) and, where the machine has one, the real libcupti.
 *   staged FILE     the records FILE stages, flushed: the table exact
 *   reason WORDS STATUS [MORE]  start fails with STATUS; the reason holds WORDS (and
 *                   MORE) and is one line
 *   missing         no libcupti by the sonames given: the reason says so
 *   table           the table's bounds, filled directly (no CUPTI)
 *   snapshot FILE   a region's counts from two snapshots, its busy time by window
 *   fork FILE       a forked child exits at once (its exit flush waits for no drain thread)
 *   beside DIR      DIR/libcudart.so.13 loaded: DIR/libcupti.so.99 found beside it
 *   real            the machine's libcupti: version read, "no NVIDIA device" where none
 *   pool            nine buffers asked for at once: one refused
 *   exit FILE       started, records staged, no flush: the flush at exit files them */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_activity.h"
#include "gpu_snapshot.h"
#include "mono_clock.h"
#include "papi_test.h"

/* The double's own counters, found in it (opened first, so the layer's dlopen of the
 * soname gets the same object). */
static int (*cupti_double_subscribed)(void);
static int (*cupti_double_enabled)(void);

static int open_double(void)
{
    void *h = dlopen("libcupti.so.13", RTLD_NOW | RTLD_LOCAL);
    if (h) {
        *(void **)&cupti_double_subscribed = dlsym(h, "cupti_double_subscribed");
        *(void **)&cupti_double_enabled = dlsym(h, "cupti_double_enabled");
    }
    if (!cupti_double_subscribed || !cupti_double_enabled) {
        fprintf(stderr, "FAIL: the CUPTI double is not first on LD_LIBRARY_PATH (%s)\n",
                h ? "no cupti_double_* in libcupti.so.13" : dlerror());
        return 0;
    }
    return 1;
}

static const char *const double_soname[] = {"libcupti.so.13"};

static int start_double(void)
{
    char why[768];
    enum cupti_status s = gpu_activity_start(double_soname, 1, why, sizeof why);
    if (s != CUPTI_LOAD_OK) {
        fprintf(stderr, "FAIL: start: %s\n", why);
        return 0;
    }
    return 1;
}

static void check_staged_table(const struct gpu_table *t, uint64_t before, uint64_t after,
                               uint64_t slack)
{
    CHECK_EQ_LL(t->records, 10);
    CHECK_EQ_LL(t->incomplete, 1);
    CHECK_EQ_LL(t->dropped, 5);
    CHECK_EQ_LL(t->buffers_refused, 0);
    CHECK_EQ_LL(t->kernels_untabled, 0);
    /* two overlapping kernels [0,1000) and [500,2000), then [3000,3200): 2200 ns busy */
    CHECK_EQ_LL(gpu_table_busy_ns(t, 0), 2200);
    CHECK_EQ_LL(gpu_table_busy_ns(t, 1), 300);
    CHECK_EQ_LL(t->nkernels, 2);
    const struct gpu_kernel_row *k = gpu_table_kernel(t, "square(float*, int)", 0, 7);
    CHECK(k != NULL, "no row for square(float*, int) on device 0 stream 7 (first row: %s)",
          t->kernels[0].name);
    if (k) {
        CHECK_EQ_LL(k->launches, 3);
        CHECK_EQ_LL(k->total_ns, 2700);
        CHECK_EQ_LL(k->min_ns, 200);
        CHECK_EQ_LL(k->max_ns, 1500);
        CHECK_EQ_LL(k->grid[0], 64);
        CHECK_EQ_LL(k->block[0], 256);
    }
    k = gpu_table_kernel(t, "plain_kernel", 1, 2);
    CHECK(k && k->launches == 1 && k->total_ns == 300, "plain_kernel on device 1 stream 2");
    CHECK_EQ_LL(t->copies[CUPTI_MEMCPY_KIND_HTOD].count, 2);
    CHECK_EQ_LL(t->copies[CUPTI_MEMCPY_KIND_HTOD].bytes, 8192);
    CHECK_EQ_LL(t->copies[CUPTI_MEMCPY_KIND_HTOD].ns, 600);
    CHECK_EQ_LL(t->copies[CUPTI_MEMCPY_KIND_DTOH].bytes, 1000);
    CHECK_EQ_LL(t->copies[CUPTI_MEMCPY_KIND_PTOP].bytes, 2048);
    CHECK_EQ_LL(t->copies[CUPTI_MEMCPY_KIND_DTOD].count, 0);
    CHECK_EQ_LL(t->devices[0].memset.bytes, 256);
    CHECK_EQ_LL(t->devices[0].memset.ns, 50);
    CHECK_EQ_LL(t->syncs[CUPTI_SYNC_STREAM_SYNCHRONIZE].count, 1);
    CHECK_EQ_LL(t->syncs[CUPTI_SYNC_STREAM_SYNCHRONIZE].ns, 700);
    /* on the traces' clock: the double's times start at the flush's moment */
    CHECK(t->first_ns + slack >= before && t->first_ns <= after + slack,
          "first record at %llu, not within [%llu, %llu] +- %llu", (unsigned long long)t->first_ns,
          (unsigned long long)before, (unsigned long long)after, (unsigned long long)slack);
    CHECK_EQ_LL(t->last_ns - t->first_ns, 4100);
}

static int staged(void)
{
    if (!start_double())
        return 1;
    int by_callback = 0;
    gpu_activity_clock_offset(&by_callback);
    CHECK_EQ_LL(cupti_double_subscribed(), 1);
    CHECK_EQ_LL(cupti_double_enabled(), 5); /* kernels, memcpy, memset, sync; the launches' links */
    uint64_t before = mono_clock_ns();
    gpu_activity_flush();
    uint64_t after = mono_clock_ns();
    check_staged_table(gpu_activity_lock(), before, after, by_callback ? 0 : 50000);
    gpu_activity_unlock();
    gpu_activity_flush();                            /* delivered once: nothing changes */
    uint64_t records = gpu_activity_lock()->records; /* once: a failed check reads it again */
    gpu_activity_unlock();
    CHECK_EQ_LL(records, 10);
    gpu_activity_stop();
    CHECK_EQ_LL(cupti_double_subscribed(), 0);
    CHECK_EQ_LL(cupti_double_enabled(), 0);
    printf("staged records: table exact (clock: %s)\n",
           by_callback ? "timestamp callback" : "offset");
    return test_failures != 0;
}

static void file_kernel(struct gpu_table *t, const char *name, uint32_t device, uint64_t start,
                        uint64_t end)
{
    cupti_kernel_record k = {.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                             .start = start,
                             .end = end,
                             .device_id = device,
                             .name = name};
    gpu_table_file(t, (const cupti_record_head *)&k, 0);
}

/* The bounds: busy intervals past GPU_BUSY_INTERVALS, kernel rows, devices; odd records. */
static int table_bounds(void)
{
    struct gpu_table *t = calloc(1, sizeof *t);
    if (!t)
        return 1;
    /* 3000 disjoint 10 ns kernels, 100 ns apart: the earliest folded, the sum exact */
    for (uint64_t i = 0; i < 3000; i++)
        file_kernel(t, "spin", 0, 1000 + 100 * i, 1000 + 100 * i + 10);
    CHECK_EQ_LL(gpu_table_busy_ns(t, 0), 30000);
    CHECK(t->devices[0].nbusy < GPU_BUSY_INTERVALS && t->devices[0].settled_ns > 0,
          "%u intervals kept, %llu ns settled", t->devices[0].nbusy,
          (unsigned long long)t->devices[0].settled_ns);
    /* one covering the last ten: they merge into [300000, 300915) */
    file_kernel(t, "spin", 0, 1000 + 100 * 2990, 1000 + 100 * 2999 + 15);
    CHECK_EQ_LL(gpu_table_busy_ns(t, 0), 30000 - 100 + 915);
    /* a record reaching back before the settled part is cut where it ends */
    uint64_t before = gpu_table_busy_ns(t, 0);
    file_kernel(t, "spin", 0, 1, t->devices[0].settled_until + 7);
    CHECK_EQ_LL(gpu_table_busy_ns(t, 0) - before, 7);
    int exact = 1; /* a window reaching into the folded part says it is short */
    /* kept: the 7 ns cut above and kernels 1024 to 1029 */
    CHECK_EQ_LL(gpu_table_busy_between(t, 0, 1000, 1000 + 100 * 1030, &exact), 7 + 60);
    CHECK_EQ_LL(exact, 0);
    const struct gpu_kernel_row *k = gpu_table_kernel(t, "spin", 0, 0);

    CHECK(k && k->launches == 3002 && k->min_ns == 10, "spin's row");
    /* two names alike in their first 300 bytes: two rows, each cut and marked, apart */
    char longer[2][320];
    for (int i = 0; i < 2; i++) {
        memset(longer[i], 'K', 300);
        snprintf(longer[i] + 300, 20, "<%d>", i);
    }
    int rows = t->nkernels;
    file_kernel(t, longer[0], 0, 10, 20);
    file_kernel(t, longer[1], 0, 10, 30);
    file_kernel(t, longer[1], 0, 40, 60);
    CHECK_EQ_LL(t->nkernels, rows + 2);
    const struct gpu_kernel_row *r0 = &t->kernels[rows], *r1 = &t->kernels[rows + 1];
    printf("cut names: %s, %s\n", r0->name + 230, r1->name + 230);
    CHECK(strlen(r0->name) == GPU_KERNEL_NAME_LEN - 1 &&
              strlen(r1->name) == GPU_KERNEL_NAME_LEN - 1,
          "cut names of %zu and %zu bytes", strlen(r0->name), strlen(r1->name));
    CHECK(strncmp(r0->name, longer[0], 235) == 0 && strncmp(r0->name + 235, "...#", 4) == 0 &&
              strspn(r0->name + 239, "0123456789abcdef") == 16,
          "a cut name not marked: %s", r0->name + 230);
    CHECK(strcmp(r0->name, r1->name) != 0, "two kernels' cut names alike: %s", r0->name + 230);
    CHECK(r0->launches == 1 && r1->launches == 2 && r1->total_ns == 40, "the long names' rows");
    CHECK(gpu_table_kernel(t, r1->name, 0, 0) == r1, "the row not found by its cut name");
    /* kernel rows and devices bounded; the rest counted */
    char name[32];
    for (int i = 0; i < GPU_TABLE_KERNELS + 5; i++) {
        snprintf(name, sizeof name, "k%d", i);
        file_kernel(t, name, 1, 10, 20);
    }
    CHECK_EQ_LL(t->nkernels, GPU_TABLE_KERNELS);
    CHECK_EQ_LL(t->kernels_untabled, 8); /* "spin", the long two: k1021 .. k1028 have none */
    for (uint32_t d = 2; d < GPU_TABLE_DEVICES + 3; d++)
        file_kernel(t, "spin", d, 10, 20);
    CHECK_EQ_LL(t->ndevices, GPU_TABLE_DEVICES);
    CHECK_EQ_LL(gpu_table_busy_ns(t, GPU_TABLE_DEVICES + 2), 0);
    /* odd records: no end, an unknown copy kind and sync type, a kind not kept */
    uint64_t records = t->records;
    file_kernel(t, "spin", 0, 50, 40);
    CHECK_EQ_LL(t->incomplete, 1);
    cupti_memcpy_record m = {
        .kind = CUPTI_ACTIVITY_KIND_MEMCPY, .copy_kind = 200, .bytes = 9, .start = 5, .end = 6};
    gpu_table_file(t, (const cupti_record_head *)&m, 0);
    CHECK_EQ_LL(t->copies[CUPTI_MEMCPY_KIND_UNKNOWN].bytes, 9);
    cupti_sync_record y = {
        .kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, .type = 77, .start = 5, .end = 8};
    gpu_table_file(t, (const cupti_record_head *)&y, 0);
    CHECK_EQ_LL(t->syncs[CUPTI_SYNC_UNKNOWN].ns, 3);
    cupti_record_head other = {5};
    gpu_table_file(t, &other, 0);
    CHECK_EQ_LL(t->other_records, 1);
    CHECK(strcmp(gpu_copy_direction(CUPTI_MEMCPY_KIND_HTOD), "HtoD") == 0 &&
              strcmp(gpu_copy_direction(CUPTI_MEMCPY_KIND_PTOP), "PtoP") == 0 &&
              strcmp(gpu_copy_direction(200), "unknown") == 0,
          "copy directions");
    CHECK(strcmp(gpu_sync_type(CUPTI_SYNC_STREAM_SYNCHRONIZE), "stream_synchronize") == 0 &&
              strcmp(gpu_sync_type(77), "unknown") == 0,
          "sync types");
    CHECK_EQ_LL(t->records, records + 2);
    free(t);
    printf("table bounds: busy exact past %d intervals, %d kernel rows, %d devices\n",
           GPU_BUSY_INTERVALS, GPU_TABLE_KERNELS, GPU_TABLE_DEVICES);
    return test_failures != 0;
}

/* A region around the staged records' flush, and windows of the busy intervals: device
 * 0's kernels lie at [0, 2000) and [3000, 3200) after the flush's moment. */
static int region_snapshot(void)
{
    if (!start_double())
        return 1;
    struct gpu_snapshot begin, end, region;
    gpu_snapshot_take(gpu_activity_lock(), &begin);
    gpu_activity_unlock();
    gpu_activity_flush();
    const struct gpu_table *t = gpu_activity_lock();
    gpu_snapshot_take(t, &end);
    gpu_snapshot_diff(&begin, &end, &region);
    CHECK_EQ_LL(region.kernel_launches, 4);
    CHECK_EQ_LL(region.kernel_ns, 3000);
    CHECK_EQ_LL(region.copies[CUPTI_MEMCPY_KIND_HTOD].bytes, 8192);
    CHECK_EQ_LL(region.copies[CUPTI_MEMCPY_KIND_DTOH].bytes, 1000);
    CHECK_EQ_LL(region.memsets.bytes, 256);
    CHECK_EQ_LL(region.syncs.ns, 700);
    CHECK_EQ_LL(region.dropped, 5);
    CHECK_EQ_LL(region.ndevices, 2);
    CHECK_EQ_LL(region.devices[0].busy_ns, 2200);
    CHECK_EQ_LL(region.devices[1].busy_ns, 300);
    uint64_t t0 = t->first_ns; /* device 0's first kernel starts the span */
    int exact = 0;
    CHECK_EQ_LL(gpu_table_busy_between(t, 0, t0 + 1500, t0 + 3100, &exact), 500 + 100);
    CHECK_EQ_LL(exact, 1);
    CHECK_EQ_LL(gpu_table_busy_between(t, 0, t0, t0 + 5000, &exact), 2200);
    CHECK_EQ_LL(gpu_table_busy_between(t, 0, t0 + 2000, t0 + 3000, &exact), 0);
    CHECK_EQ_LL(gpu_table_busy_between(t, 1, t0, t0 + 200, &exact), 100);
    CHECK_EQ_LL(gpu_table_busy_between(t, 9, t0, t0 + 5000, &exact), 0);
    gpu_activity_unlock();
    gpu_activity_stop();
    printf("region snapshot and busy windows exact\n");
    return test_failures != 0;
}

/* A child forked after the start exits through the flush at exit; it must not wait for
 * the parent's drain thread, which the child does not have. */
static int forked_exit(void)
{
    if (!start_double())
        return 1;
    pid_t pid = fork();
    if (pid == 0)
        exit(0); /* runs the layer's flush at exit */
    int status = -1;
    for (int i = 0; i < 500 && waitpid(pid, &status, WNOHANG) == 0; i++)
        usleep(10000);
    if (status == -1) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        CHECK(0, "the forked child still ran after 5 s (its exit flush waits)");
    } else {
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    }
    gpu_activity_flush();                            /* the parent's records are the parent's */
    uint64_t records = gpu_activity_lock()->records; /* once: a failed check reads it again */
    gpu_activity_unlock();
    CHECK_EQ_LL(records, 10);
    gpu_activity_stop();
    printf("a forked child exits at once; the parent files its records\n");
    return test_failures != 0;
}

/* Nine buffers asked for at once of a pool of eight: one refused, the rest come back. */
static int pool_bound(void)
{
    if (!start_double())
        return 1;
    gpu_activity_flush();
    const struct gpu_table *t = gpu_activity_lock();
    CHECK_EQ_LL(t->buffers_refused, 1);
    CHECK_EQ_LL(t->records, 0);
    gpu_activity_unlock();
    gpu_activity_stop();
    printf("pool: %d buffers of %u bytes at most, the next request refused\n", GPU_ACTIVITY_BUFFERS,
           GPU_ACTIVITY_BUFFER_SIZE);
    return test_failures != 0;
}

static int reason(const char *words, enum cupti_status want, const char *more)
{
    char why[768];
    enum cupti_status s = gpu_activity_start(double_soname, 1, why, sizeof why);
    CHECK_EQ_LL(s, want);
    CHECK(strstr(why, words) != NULL, "reason '%s' lacks '%s'", why, words);
    CHECK(!more || strstr(why, more) != NULL, "reason '%s' lacks '%s'", why, more);
    CHECK(strchr(why, '\n') == NULL, "reason of more than one line");
    CHECK(strcmp(gpu_activity_reason(), why) == 0, "gpu_activity_reason differs");
    CHECK_EQ_LL(cupti_double_subscribed(), 0);
    CHECK_EQ_LL(cupti_double_enabled(), 0);
    printf("reason: %s\n", why);
    return test_failures != 0;
}

static int missing(void)
{
    static const char *const absent[] = {"libcupti-absent.so.13", "libcupti-absent.so.12"};
    char why[768];
    CHECK_EQ_LL(gpu_activity_start(absent, 2, why, sizeof why), CUPTI_LOAD_MISSING);
    CHECK(strstr(why, "libcupti not found") && strstr(why, "libcupti-absent.so.12") &&
              strstr(why, "no CUDA runtime (libcudart) loaded"),
          "reason: %s", why);
    printf("reason: %s\n", why);
    return test_failures != 0;
}

static int beside(const char *dir)
{
    char path[600], found[400], why[768];
    snprintf(path, sizeof path, "%s/libcudart.so.13", dir);
    if (!dlopen(path, RTLD_NOW | RTLD_LOCAL)) {
        fprintf(stderr, "FAIL: %s\n", dlerror());
        return 1;
    }
    CHECK(cupti_cudart_dir(found, sizeof found) && strcmp(found, dir) == 0, "runtime in '%s'",
          found);
    static const char *const names[] = {"libcupti.so.99"};
    enum cupti_status s = gpu_activity_start(names, 1, why, sizeof why);
    CHECK_EQ_LL(s, CUPTI_LOAD_OK);
    const char *at = gpu_activity_library()->path;
    CHECK(strncmp(at, dir, strlen(dir)) == 0 && strstr(at, "/libcupti.so.99"), "loaded %s (%s)", at,
          why);
    printf("found beside the CUDA runtime: %s\n", at);
    gpu_activity_stop();
    return test_failures != 0;
}

static int real(void)
{
    struct cupti_lib lib;
    char why[768];
    if (cupti_load(&lib, NULL, 0, why, sizeof why) != CUPTI_LOAD_OK) {
        printf("SKIPPED: no libcupti of CUDA 12 or 13 here: %s\n", why);
        return 77;
    }
    printf("libcupti: %s, version %u\n", lib.path, lib.version);
    CHECK(lib.version >= CUPTI_VERSION_CUDA12_FIRST, "version %u", lib.version);
    cupti_unload(&lib);
    enum cupti_status s = gpu_activity_start(NULL, 0, why, sizeof why);
    printf("start: %s\n", s == CUPTI_LOAD_OK ? "GPU activity on" : why);
    if (s == CUPTI_LOAD_OK) { /* a machine with a GPU: flushing an idle process works */
        gpu_activity_flush();
        uint64_t records = gpu_activity_lock()->records; /* once: a failed check reads it again */
        gpu_activity_unlock();
        CHECK_EQ_LL(records, 0);
        gpu_activity_stop();
    } else {
        CHECK_EQ_LL(s, CUPTI_LOAD_NO_DEVICE);
        CHECK(strstr(why, "no NVIDIA device") && strchr(why, '\n') == NULL, "reason: %s", why);
    }
    return test_failures != 0;
}

/* Registered before the layer's own: runs after its flush at exit. */
static void after_exit_flush(void)
{
    const struct gpu_table *t = gpu_activity_lock();
    printf("at exit: %llu records, busy %llu ns\n", (unsigned long long)t->records,
           (unsigned long long)gpu_table_busy_ns(t, 0));
    gpu_activity_unlock();
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (strcmp(what, "real") == 0)
        return real();
    if (strcmp(what, "table") == 0)
        return table_bounds();
    if (strcmp(what, "beside") == 0 && argc > 2)
        return beside(argv[2]);
    if (!open_double())
        return 1;
    if (strcmp(what, "staged") == 0)
        return staged();
    if (strcmp(what, "reason") == 0 && argc > 3)
        return reason(argv[2], (enum cupti_status)atoi(argv[3]), argc > 4 ? argv[4] : NULL);
    if (strcmp(what, "missing") == 0)
        return missing();
    if (strcmp(what, "snapshot") == 0)
        return region_snapshot();
    if (strcmp(what, "fork") == 0)
        return forked_exit();
    if (strcmp(what, "pool") == 0)
        return pool_bound();
    if (strcmp(what, "exit") == 0) {
        atexit(after_exit_flush);
        return start_double() ? 0 : 1;
    }
    fprintf(stderr, "usage: test_gpu_activity staged|pool|table|snapshot|fork|reason WORDS "
                    "STATUS|missing|beside "
                    "DIR|real|exit\n");
    return 2;
}
