/* sde_recorder.c: recorders, which keep every value a library records. The recorder
 * NAME gives the events NAME (the address of the values, valid until the next record),
 * NAME:CNT (how many), and with a comparator NAME:MIN, :Q1, :MED, :Q3 and :MAX (the
 * address of the value at that rank of the sorted values, as PAPI 7 gives them: a copy
 * valid until the statistic is read again). */
#include <stdlib.h>
#include <string.h>

#include "sde_internal.h"

struct sde_recorder {
    uint32_t magic;
    pthread_mutex_t lock;
    size_t typesize;
    int (*cmp)(const void *, const void *);
    char *data; /* count values of typesize bytes */
    size_t count, cap;
    struct sde_counter *data_counter;
    char *stats; /* 5 values of typesize bytes: the last statistics read */
};

static const char *const stat_suffix[] = {":MIN", ":Q1", ":MED", ":Q3", ":MAX"};

/* The events of r (locked): NAME, NAME:CNT and the statistics. */
static int add_events(struct sde_library *lib, const char *name, struct sde_recorder *r)
{
    char sub[SDE_NAME_MAX];
    struct sde_counter proto = {.kind = SDE_RECORDER_DATA,
                                .mode = PAPI_SDE_INSTANT,
                                .type = PAPI_SDE_long_long,
                                .recorder = r};
    int ret = sde_add_counter(lib, name, &proto, &r->data_counter);
    struct sde_counter *c;
    proto.kind = SDE_RECORDER_COUNT;
    snprintf(sub, sizeof sub, "%s:CNT", name);
    if (ret == SDE_OK)
        ret = sde_add_counter(lib, sub, &proto, &c);
    proto.kind = SDE_RECORDER_STAT;
    for (int s = 0; r->cmp && s < 5 && ret == SDE_OK; s++) {
        proto.stat = s;
        snprintf(sub, sizeof sub, "%s%s", name, stat_suffix[s]);
        ret = sde_add_counter(lib, sub, &proto, &c);
    }
    return ret;
}

int papi_sde_create_recorder(papi_handle_t handle, const char *event_name, size_t typesize,
                             int (*cmpr_func_ptr)(const void *p1, const void *p2),
                             void **record_handle)
{
    if (!record_handle || typesize == 0)
        return sde_fail(SDE_EINVAL, "record_handle is NULL or typesize 0 (%s)",
                        event_name ? event_name : "NULL");
    struct sde_recorder *r = calloc(1, sizeof *r);
    if (!r)
        return sde_fail(SDE_ENOMEM, "no memory for a recorder");
    r->magic = SDE_MAGIC;
    r->typesize = typesize;
    r->cmp = cmpr_func_ptr;
    r->stats = calloc(5, typesize);
    if (!r->stats) {
        free(r);
        return sde_fail(SDE_ENOMEM, "no memory for a recorder");
    }
    pthread_mutex_init(&r->lock, NULL);
    sde_lock();
    struct sde_library *lib = sde_library_checked(handle);
    int ret = lib ? add_events(lib, event_name, r)
                  : sde_fail(SDE_EINVAL, "the handle is not a library's live handle");
    sde_unlock();
    if (ret == SDE_OK)
        *record_handle = r;
    /* On an error, events already added stay as gone ids: r is never freed then. */
    else if (!r->data_counter) {
        free(r->stats);
        free(r);
    }
    return ret;
}

static int recorder_ok(const struct sde_recorder *r)
{
    if (!r || r->magic != SDE_MAGIC)
        return sde_fail(SDE_EINVAL, "the recorder handle is NULL or not a recorder");
    if (!__atomic_load_n(&r->data_counter->alive, __ATOMIC_ACQUIRE))
        return sde_fail(SDE_EINVAL, "the recorder %s was unregistered or its library shut down",
                        r->data_counter->name);
    return SDE_OK;
}

int papi_sde_record(void *record_handle, size_t typesize, const void *value)
{
    struct sde_recorder *r = record_handle;
    int ret = recorder_ok(r);
    if (ret != SDE_OK)
        return ret;
    if (!value || typesize != r->typesize)
        return sde_fail(SDE_EINVAL, "value is NULL or of %zu bytes, not %zu (%s)", typesize,
                        r->typesize, r->data_counter->name);
    pthread_mutex_lock(&r->lock);
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        char *d = realloc(r->data, cap * r->typesize);
        if (!d)
            ret = sde_fail(SDE_ENOMEM, "no memory to record into %s", r->data_counter->name);
        else
            r->data = d, r->cap = cap;
    }
    if (ret == SDE_OK)
        memcpy(r->data + r->count++ * r->typesize, value, r->typesize);
    pthread_mutex_unlock(&r->lock);
    return ret;
}

int papi_sde_reset_recorder(void *record_handle)
{
    struct sde_recorder *r = record_handle;
    int ret = recorder_ok(r);
    if (ret == SDE_OK) {
        pthread_mutex_lock(&r->lock);
        r->count = 0;
        pthread_mutex_unlock(&r->lock);
    }
    return ret;
}

long long sde_recorder_count(struct sde_recorder *r)
{
    pthread_mutex_lock(&r->lock);
    long long n = (long long)r->count;
    pthread_mutex_unlock(&r->lock);
    return n;
}

long long sde_recorder_data(struct sde_recorder *r)
{
    pthread_mutex_lock(&r->lock);
    long long p = (long long)(intptr_t)r->data;
    pthread_mutex_unlock(&r->lock);
    return p;
}

/* The address of the value at rank stat of the sorted values (a copy); with no values,
 * the address of zeros. */
long long sde_recorder_stat(struct sde_recorder *r, int stat)
{
    char *slot = r->stats + (size_t)stat * r->typesize;
    pthread_mutex_lock(&r->lock);
    size_t n = r->count;
    char *sorted = n ? malloc(n * r->typesize) : NULL;
    if (sorted) {
        memcpy(sorted, r->data, n * r->typesize);
        qsort(sorted, n, r->typesize, r->cmp);
        size_t rank = stat == 4 ? n - 1 : (size_t)stat * n / 4;
        memcpy(slot, sorted + rank * r->typesize, r->typesize);
        free(sorted);
    } else {
        memset(slot, 0, r->typesize);
    }
    pthread_mutex_unlock(&r->lock);
    return (long long)(intptr_t)slot;
}

int papi_sde_compare_long_long(const void *p1, const void *p2)
{
    long long a = *(const long long *)p1, b = *(const long long *)p2;
    return (a > b) - (a < b);
}

int papi_sde_compare_int(const void *p1, const void *p2)
{
    int a = *(const int *)p1, b = *(const int *)p2;
    return (a > b) - (a < b);
}

int papi_sde_compare_double(const void *p1, const void *p2)
{
    double a = *(const double *)p1, b = *(const double *)p2;
    return (a > b) - (a < b);
}

int papi_sde_compare_float(const void *p1, const void *p2)
{
    float a = *(const float *)p1, b = *(const float *)p2;
    return (a > b) - (a < b);
}
