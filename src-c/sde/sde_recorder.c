/* sde_recorder.c: recorders, which keep every value a library records. The recorder
 * NAME gives the events NAME (the address of the values, valid until the next record),
 * NAME:CNT (how many), and with a comparator NAME:MIN, :Q1, :MED, :Q3 and :MAX (the
 * address of the value at that rank of the sorted values, as PAPI 7 gives them: a copy
 * valid until the statistic is read again). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sde_internal.h"

struct sde_recorder {
    struct sde_object obj; /* first: pooled (sde_pool.c); its lock is over the rest */
    size_t typesize;
    int (*cmp)(const void *, const void *);
    char *data; /* count values of typesize bytes */
    size_t count, cap;
    struct sde_counter *data_counter; /* its NAME event, alive while the recorder is */
    char *stats;                      /* 5 values of typesize bytes: the last statistics read */
};

/* A gone recorder's values (o locked). */
static void clear_recorder(struct sde_object *o)
{
    struct sde_recorder *r = (struct sde_recorder *)o;
    free(r->data);
    free(r->stats);
    r->data = r->stats = NULL;
    r->count = r->cap = 0;
    r->data_counter = NULL;
}

static struct sde_pool recorders = {.size = sizeof(struct sde_recorder),
                                    .tag = 0,
                                    .clear = clear_recorder,
                                    .free_head = -1,
                                    .free_tail = -1};

static const char *const stat_suffix[] = {":MIN", ":Q1", ":MED", ":Q3", ":MAX"};

/* The events of r (locked): NAME, NAME:CNT and the statistics; on an error, those added
 * are gone again and so is r. */
static int add_events(struct sde_library *lib, const char *name, struct sde_recorder *r)
{
    char sub[SDE_NAME_MAX];
    struct sde_counter proto = {.kind = SDE_RECORDER_DATA,
                                .mode = PAPI_SDE_INSTANT,
                                .type = PAPI_SDE_long_long,
                                .obj = &r->obj,
                                .obj_gen = r->obj.gen};
    struct sde_counter *added[7];
    int n = 0;
    int ret = sde_add_counter(lib, name, &proto, &added[n]);
    if (ret == SDE_OK)
        r->data_counter = added[n++];
    proto.kind = SDE_RECORDER_COUNT;
    snprintf(sub, sizeof sub, "%s:CNT", name);
    if (ret == SDE_OK && (ret = sde_add_counter(lib, sub, &proto, &added[n])) == SDE_OK)
        n++;
    proto.kind = SDE_RECORDER_STAT;
    for (int s = 0; r->cmp && s < 5 && ret == SDE_OK; s++) {
        proto.stat = s;
        snprintf(sub, sizeof sub, "%s%s", name, stat_suffix[s]);
        if ((ret = sde_add_counter(lib, sub, &proto, &added[n])) == SDE_OK)
            n++;
    }
    while (ret != SDE_OK && n > 0)
        sde_mark_gone(added[--n]); /* the NAME event last: it releases r */
    if (ret != SDE_OK && !r->data_counter)
        sde_object_release(&r->obj, r->obj.gen);
    return ret;
}

int papi_sde_create_recorder(papi_handle_t handle, const char *event_name, size_t typesize,
                             int (*cmpr_func_ptr)(const void *p1, const void *p2),
                             void **record_handle)
{
    if (!record_handle || typesize == 0)
        return sde_fail(SDE_EINVAL, "record_handle is NULL or typesize 0 (%s)",
                        event_name ? event_name : "NULL");
    int ret;
    sde_lock();
    struct sde_library *lib = sde_library_checked(handle);
    struct sde_object *o = lib ? sde_pool_take(&recorders) : NULL;
    struct sde_recorder *r = (struct sde_recorder *)o;
    if (!lib) {
        ret = sde_fail(SDE_EINVAL, "the handle is not a library's live handle");
    } else if (!r || !(r->stats = calloc(5, typesize))) {
        if (r) {
            pthread_mutex_unlock(&o->lock);
            sde_object_release(o, o->gen);
        }
        ret = sde_fail(SDE_ENOMEM, "no memory for a recorder");
    } else {
        r->typesize = typesize;
        r->cmp = cmpr_func_ptr;
        pthread_mutex_unlock(&o->lock);
        ret = add_events(lib, event_name, r);
        if (ret == SDE_OK)
            *record_handle = sde_object_handle(o);
    }
    sde_unlock();
    return ret;
}

/* The live recorder of a handle, locked; NULL with the error in *err. */
static struct sde_recorder *recorder_locked(void *record_handle, int *err)
{
    struct sde_object *o = record_handle ? sde_pool_lock(&recorders, record_handle) : NULL;
    *err = o ? SDE_OK
             : sde_fail(SDE_EINVAL, "the recorder handle is NULL, not a recorder, or its "
                                    "recorder was unregistered or its library shut down");
    return (struct sde_recorder *)o;
}

int papi_sde_record(void *record_handle, size_t typesize, const void *value)
{
    int ret;
    struct sde_recorder *r = recorder_locked(record_handle, &ret);
    if (!r)
        return ret;
    if (!value || typesize != r->typesize) {
        ret = sde_fail(SDE_EINVAL, "value is NULL or of %zu bytes, not %zu (%s)", typesize,
                       r->typesize, r->data_counter->name);
    } else if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        char *d = realloc(r->data, cap * r->typesize);
        if (!d)
            ret = sde_fail(SDE_ENOMEM, "no memory to record into %s", r->data_counter->name);
        else
            r->data = d, r->cap = cap;
    }
    if (ret == SDE_OK)
        memcpy(r->data + r->count++ * r->typesize, value, r->typesize);
    pthread_mutex_unlock(&r->obj.lock);
    return ret;
}

int papi_sde_reset_recorder(void *record_handle)
{
    int ret;
    struct sde_recorder *r = recorder_locked(record_handle, &ret);
    if (r) {
        r->count = 0;
        pthread_mutex_unlock(&r->obj.lock);
    }
    return ret;
}

/* The recorder's count (data: 0) or the address of its values (data: 1), read under its
 * lock. */
static int recorder_read(struct sde_object *o, uint64_t gen, int data, long long *out)
{
    struct sde_recorder *r = (struct sde_recorder *)sde_object_lock(o, gen);
    if (!r)
        return SDE_ENOEVNT;
    *out = data ? (long long)(intptr_t)r->data : (long long)r->count;
    pthread_mutex_unlock(&o->lock);
    return SDE_OK;
}

int sde_recorder_count(struct sde_object *o, uint64_t gen, long long *out)
{
    return recorder_read(o, gen, 0, out);
}

int sde_recorder_data(struct sde_object *o, uint64_t gen, long long *out)
{
    return recorder_read(o, gen, 1, out);
}

/* The address of the value at rank stat of the sorted values (a copy); with no values,
 * the address of zeros. */
int sde_recorder_stat(struct sde_object *o, uint64_t gen, int stat, long long *out)
{
    struct sde_recorder *r = (struct sde_recorder *)sde_object_lock(o, gen);
    if (!r)
        return SDE_ENOEVNT;
    char *slot = r->stats + (size_t)stat * r->typesize;
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
    pthread_mutex_unlock(&o->lock);
    *out = (long long)(intptr_t)slot;
    return SDE_OK;
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
