/* sysfs_pmus.c: the kernel's description of its PMUs (sysfs_pmus.h), read once through
 * the one file-access root (fsroot.h), so a recorded machine replays as a live one. */
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_room.h"
#include "fsroot.h"
#include "papi_sdk.h"
#include "sysfs_pmus.h"

static pthread_mutex_t scan_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int scanned; /* 0 not yet, 1 done (pmus[] then read without the lock) */
static struct sysfs_pmu *pmus;
static int npmus;

/* (IBM POWER's core PMU is called "cpu" too; x86's "power" is RAPL, not a core PMU.) */
bool sysfs_is_core_pmu_name(const char *n)
{
    return strcmp(n, "cpu") == 0 || strcmp(n, "cpu_core") == 0 || strcmp(n, "cpu_atom") == 0 ||
           strncmp(n, "armv8", 5) == 0 || strncmp(n, "armv7", 5) == 0 ||
           strncmp(n, "arm_", 4) == 0 || strcmp(n, "cpum_cf") == 0;
}

/* PMUs every kernel has; libpfm4's "perf" table already names their events. */
bool sysfs_is_software_pmu_name(const char *n)
{
    static const char *const soft[] = {"software", "tracepoint", "kprobe", "uprobe", "breakpoint"};
    for (size_t i = 0; i < sizeof soft / sizeof soft[0]; i++)
        if (strcmp(n, soft[i]) == 0)
            return true;
    return false;
}

/* "config:0-7,32-35", "config1:0-63", "config:21": 0 when it parses. */
static int parse_format(const char *text, struct sysfs_format *f)
{
    const char *p = text;
    if (strncmp(p, "config", 6) != 0)
        return -1;
    p += 6;
    f->config = 0;
    if (*p == '1' || *p == '2')
        f->config = *p++ - '0';
    if (*p++ != ':')
        return -1;
    f->nranges = 0;
    while (*p) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p)
            return -1;
        p = end;
        if (*p == '-') {
            hi = strtol(p + 1, &end, 10);
            if (end == p + 1)
                return -1;
            p = end;
        }
        if (lo < 0 || hi > 63 || lo > hi || f->nranges == SYSFS_MAX_RANGES)
            return -1;
        f->lo[f->nranges] = (unsigned char)lo;
        f->hi[f->nranges] = (unsigned char)hi;
        f->nranges++;
        if (*p == ',')
            p++;
        else if (*p)
            return -1;
    }
    return f->nranges ? 0 : -1;
}

static void read_formats(const char *dir, struct sysfs_pmu *pmu)
{
    char path[512];
    snprintf(path, sizeof path, "%s/format", dir);
    DIR *d = fsroot_opendir(path);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)) && pmu->nformats < SYSFS_MAX_FORMATS) {
        char text[128];
        struct sysfs_format *f = &pmu->fmt[pmu->nformats];
        if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof f->name)
            continue;
        snprintf(path, sizeof path, "%s/format/%s", dir, de->d_name);
        if (fsroot_read_line(path, text, sizeof text) != 0 || parse_format(text, f) != 0)
            continue;
        memcpy(f->name, de->d_name, strlen(de->d_name) + 1); /* length checked above */
        pmu->nformats++;
    }
    closedir(d);
}

static int by_event_name(const void *a, const void *b)
{
    return strcmp(((const struct sysfs_event *)a)->name, ((const struct sysfs_event *)b)->name);
}

/* An event's <name>.scale and <name>.unit (both or neither: a unit without a positive,
 * finite scale, or a scale without a unit, is ignored as the kernel never writes one). */
static void read_scale(const char *dir, struct sysfs_event *e)
{
    char path[512], text[64], *end;
    snprintf(path, sizeof path, "%s/events/%s.scale", dir, e->name);
    if (fsroot_read_line(path, text, sizeof text) != 0)
        return;
    double v = strtod(text, &end);
    if (end == text || *end || !(v > 0) || v > 1e300)
        return;
    snprintf(path, sizeof path, "%s/events/%s.unit", dir, e->name);
    if (fsroot_read_line(path, e->unit, sizeof e->unit) != 0 || !e->unit[0]) {
        e->unit[0] = '\0';
        return;
    }
    e->scale = v;
}

/* The scale and unit of each event that has a <name>.scale file in the listing d (read
 * again from its start): only those are opened, none on a PMU without scales. */
static void read_scales(const char *dir, DIR *d, struct sysfs_pmu *pmu)
{
    rewinddir(d);
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *dot = strrchr(de->d_name, '.');
        if (!dot || dot == de->d_name || strcmp(dot, ".scale") != 0 ||
            (size_t)(dot - de->d_name) >= SYSFS_NAME_LEN)
            continue;
        char name[SYSFS_NAME_LEN];
        memcpy(name, de->d_name, (size_t)(dot - de->d_name));
        name[dot - de->d_name] = '\0';
        int idx;
        if (sysfs_pmu_event(pmu, name, &idx))
            read_scale(dir, &pmu->events[idx]);
    }
}

/* Named events: files without a dot (".scale", ".unit", ".per-pkg" describe others). */
static void read_events(const char *dir, struct sysfs_pmu *pmu)
{
    char path[512];
    snprintf(path, sizeof path, "%s/events", dir);
    DIR *d = fsroot_opendir(path);
    if (!d)
        return;
    int cap = 0, scaled = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *dot = strchr(de->d_name, '.');
        scaled += dot && strcmp(dot, ".scale") == 0;
        if (de->d_name[0] == '.' || dot || strlen(de->d_name) >= SYSFS_NAME_LEN)
            continue;
        struct sysfs_event *n = array_room(pmu->events, pmu->nevents, &cap, sizeof *n, 32);
        if (!n)
            break;
        pmu->events = n;
        struct sysfs_event *e = &pmu->events[pmu->nevents];
        snprintf(path, sizeof path, "%s/events/%s", dir, de->d_name);
        if (fsroot_read_line(path, e->spec, sizeof e->spec) != 0 || !e->spec[0])
            continue;
        memcpy(e->name, de->d_name, strlen(de->d_name) + 1); /* length checked above */
        e->scale = 0;
        e->unit[0] = '\0';
        pmu->nevents++;
    }
    if (pmu->nevents > 1)
        qsort(pmu->events, (size_t)pmu->nevents, sizeof *pmu->events, by_event_name);
    if (scaled)
        read_scales(dir, d, pmu);
    closedir(d);
}

static int read_pmu(const char *name, struct sysfs_pmu *pmu)
{
    char dir[256], path[512];
    memset(pmu, 0, sizeof *pmu);
    if (strlen(name) >= sizeof pmu->name)
        return -1;
    snprintf(dir, sizeof dir, SYSFS_PMU_DIR "/%s", name);
    snprintf(path, sizeof path, "%s/type", dir);
    if (fsroot_scan(path, "%d", &pmu->type) != 0 || pmu->type < 0)
        return -1;
    snprintf(pmu->name, sizeof pmu->name, "%s", name);
    snprintf(path, sizeof path, "%s/cpus", dir);
    int has_mask = 0;
    pmu->own_cpus = fsroot_read_line(path, pmu->cpus, sizeof pmu->cpus) == 0;
    if (!pmu->own_cpus) {
        snprintf(path, sizeof path, "%s/cpumask", dir);
        has_mask = fsroot_read_line(path, pmu->cpus, sizeof pmu->cpus) == 0;
    }
    pmu->kind = sysfs_is_core_pmu_name(name)       ? SYSFS_PMU_CORE
                : sysfs_is_software_pmu_name(name) ? SYSFS_PMU_SOFTWARE
                : has_mask                         ? SYSFS_PMU_UNCORE
                                                   : SYSFS_PMU_OTHER;
    return 0;
}

/* Formats and events, read when the PMU is first looked into (PAPI_library_init lists
 * the PMUs only: a server has dozens of uncore PMUs with hundreds of event files). */
static const struct sysfs_pmu *detail(struct sysfs_pmu *pmu)
{
    if (!pmu || atomic_load_explicit(&pmu->detailed, memory_order_acquire))
        return pmu;
    pthread_mutex_lock(&scan_lock);
    if (!atomic_load(&pmu->detailed)) {
        char dir[256];
        snprintf(dir, sizeof dir, SYSFS_PMU_DIR "/%s", pmu->name);
        read_formats(dir, pmu);
        read_events(dir, pmu);
        atomic_store_explicit(&pmu->detailed, 1, memory_order_release);
    }
    pthread_mutex_unlock(&scan_lock);
    return pmu;
}

static int by_pmu_name(const void *a, const void *b)
{
    return strcmp(((const struct sysfs_pmu *)a)->name, ((const struct sysfs_pmu *)b)->name);
}

/* One more entry at the end of pmus[], growing it as needed (a large server lists
 * hundreds of uncore PMUs: none may be dropped). NULL when memory runs out. */
static struct sysfs_pmu *next_slot(int *cap)
{
    struct sysfs_pmu *n = array_room(pmus, npmus, cap, sizeof *n, 64);
    if (!n)
        return NULL;
    pmus = n;
    return &pmus[npmus];
}

/* Every PMU the directory lists; the table moves while it grows, so no pointer into it
 * is handed out before the scan ends. */
static void scan_locked(void)
{
    DIR *d = fsroot_opendir(SYSFS_PMU_DIR);
    if (!d)
        return;
    int cap = 0;
    struct dirent *de;
    struct sysfs_pmu *slot;
    while ((de = readdir(d)) && (slot = next_slot(&cap)))
        if (de->d_name[0] != '.' && read_pmu(de->d_name, slot) == 0)
            npmus++;
    closedir(d);
    if (npmus > 1)
        qsort(pmus, (size_t)npmus, sizeof *pmus, by_pmu_name);
}

int sysfs_pmu_count(void)
{
    if (!atomic_load_explicit(&scanned, memory_order_acquire)) {
        pthread_mutex_lock(&scan_lock);
        if (!atomic_load(&scanned)) {
            scan_locked();
            atomic_store_explicit(&scanned, 1, memory_order_release);
        }
        pthread_mutex_unlock(&scan_lock);
    }
    return npmus;
}

const struct sysfs_pmu *sysfs_pmu_brief(int i)
{
    return i >= 0 && i < sysfs_pmu_count() ? &pmus[i] : NULL;
}

const struct sysfs_pmu *sysfs_pmu_at(int i)
{
    return i >= 0 && i < sysfs_pmu_count() ? detail(&pmus[i]) : NULL;
}

const struct sysfs_pmu *sysfs_pmu_find(const char *name, int *idx)
{
    int n = sysfs_pmu_count();
    for (int i = 0; i < n; i++)
        if (strcmp(pmus[i].name, name) == 0) {
            if (idx)
                *idx = i;
            return detail(&pmus[i]);
        }
    return NULL;
}

const struct sysfs_event *sysfs_pmu_event(const struct sysfs_pmu *pmu, const char *name, int *idx)
{
    struct sysfs_event key;
    if (strlen(name) >= sizeof key.name)
        return NULL;
    snprintf(key.name, sizeof key.name, "%s", name);
    const struct sysfs_event *e =
        pmu->nevents ? bsearch(&key, pmu->events, (size_t)pmu->nevents, sizeof key, by_event_name)
                     : NULL;
    if (e && idx)
        *idx = (int)(e - pmu->events);
    return e;
}

const struct sysfs_format *sysfs_pmu_format(const struct sysfs_pmu *pmu, const char *name)
{
    for (int i = 0; i < pmu->nformats; i++)
        if (strcmp(pmu->fmt[i].name, name) == 0)
            return &pmu->fmt[i];
    return NULL;
}

bool sysfs_pmu_has_cpu(const struct sysfs_pmu *pmu, int cpu)
{
    const char *p = pmu->cpus;
    if (!*p)
        return true;
    while (*p) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p)
            return false; /* not a CPU list */
        if (*end == '-')
            hi = strtol(end + 1, &end, 10);
        if (cpu >= lo && cpu <= hi)
            return true;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return false;
    }
    return false;
}

const struct sysfs_pmu *sysfs_pmu_by_type(int type, int *idx)
{
    int n = sysfs_pmu_count();
    for (int i = 0; i < n; i++)
        if (pmus[i].type == type) {
            if (idx)
                *idx = i;
            return detail(&pmus[i]);
        }
    return NULL;
}

int sysfs_hybrid_pmus(int *idx, int max)
{
    int n = sysfs_pmu_count(), k = 0;
    for (int i = 0; i < n; i++)
        if (pmus[i].kind == SYSFS_PMU_CORE && pmus[i].own_cpus) {
            if (k < max)
                idx[k] = i;
            k++;
        }
    return k >= 2 ? (k < max ? k : max) : 0;
}

void sysfs_pmus_reset(void)
{
    pthread_mutex_lock(&scan_lock);
    for (int i = 0; i < npmus; i++)
        free(pmus[i].events);
    free(pmus);
    pmus = NULL;
    npmus = 0;
    atomic_store(&scanned, 0);
    pthread_mutex_unlock(&scan_lock);
}

int sysfs_pmu_here(int pmu, const char *event)
{
    const struct sysfs_pmu *p = sysfs_pmu_at(pmu);
    if (!p)
        return papi_error(PAPI_ENOEVNT, "native event '%s': its PMU is gone", event);
    if (fsroot_replaying()) {
        /* A recorded machine's PMU types are numbers of that machine's kernel: open an
         * event here only when this kernel has the same PMU under the same type. */
        char path[256], live[32] = "";
        snprintf(path, sizeof path, SYSFS_PMU_DIR "/%s/type", p->name);
        int same = fsroot_read_line_in("", path, live, sizeof live) == 0 && atoi(live) == p->type;
        if (!same)
            return papi_error(PAPI_ENOEVNT,
                              "PMU %s (type %d) is the recorded machine's (%s), not this "
                              "kernel's: '%s' is described but cannot be counted here",
                              p->name, p->type, PAPI_FSROOT_ENV, event);
    }
    return PAPI_OK;
}
