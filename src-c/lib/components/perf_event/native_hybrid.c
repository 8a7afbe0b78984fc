/* native_hybrid.c: hybrid core PMUs. A machine with several core types (Intel cpu_core
 * and cpu_atom, Arm big.LITTLE pairs) has one core PMU per type, each counting only while
 * a thread runs on its own CPUs. As perf does, an event named without a PMU opens once
 * per core PMU and the counts are summed, so it counts whichever core type runs the
 * thread:
 *   - a sysfs event or raw fields without a PMU ("instructions", "event=0xc0,umask=0x0")
 *     that every core PMU has (ROUTE_HYBRID, made by name);
 *   - libpfm4's generic hardware and cache events (perf::CYCLES, perf::L1-DCACHE-LOADS):
 *     the kernel opens a generic event on the core PMU named in config bits 32-63
 *     (PERF_PMU_TYPE_SHIFT, linux/perf_event.h), on cpu_core when none is named, so each
 *     is opened as "perf::CYCLES@cpu_core" and "perf::CYCLES@cpu_atom".
 * A name with a PMU (cpu_atom::instructions) stays one event.
 *
 * The event sets of such events, whose slots are several events summed, are
 * hybrid_sets.c's. */
#include <perfmon/pfmlib.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native_hybrid.h"
#include "native_pfm.h"
#include "native_sysfs.h"
#include "sysfs_encode.h"
#include "sysfs_pmus.h"

bool native_is_hybrid(void)
{
    int idx[NATIVE_MAX_CORE_TYPES];
    return sysfs_hybrid_pmus(idx, NATIVE_MAX_CORE_TYPES) >= 2;
}

/* The core PMUs a name without one resolves against: the hybrid ones, else the one core
 * PMU sysfs lists (a CPU libpfm4 does not know). */
static int core_pmus(int *idx, int max)
{
    int n = sysfs_hybrid_pmus(idx, max);
    if (n)
        return n;
    for (int i = 0, np = sysfs_pmu_count(); i < np; i++)
        if (sysfs_pmu_brief(i)->kind == SYSFS_PMU_CORE) {
            if (n < max)
                idx[n] = i;
            n++;
        }
    return n == 1 ? 1 : 0;
}

int native_hybrid_name_to_code(const char *name, int *local)
{
    int pmus[NATIVE_MAX_CORE_TYPES], subs[NATIVE_MAX_CORE_TYPES];
    int n = core_pmus(pmus, NATIVE_MAX_CORE_TYPES);
    if (!n)
        return papi_error(PAPI_ENOEVNT,
                          "'%s' names no PMU, and %s lists no core PMU to look "
                          "it up in",
                          name, SYSFS_PMU_DIR);
    char missing[PAPI_HUGE_STR_LEN] = "", why[PAPI_HUGE_STR_LEN] = "";
    int have = 0;
    for (int i = 0; i < n; i++) {
        const struct sysfs_pmu *p = sysfs_pmu_at(pmus[i]);
        char full[PAPI_HUGE_STR_LEN];
        snprintf(full, sizeof full, "%s::%s", p->name, name);
        struct sysfs_encoding enc;
        if (sysfs_encode(full, &enc, why, sizeof why) != 0) {
            size_t l = strlen(missing);
            snprintf(missing + l, sizeof missing - l, "%s%s", l ? ", " : "", p->name);
            continue;
        }
        int ret = native_sysfs_name_to_code(full, "", &subs[have]);
        if (ret != PAPI_OK)
            return ret;
        have++;
    }
    if (have == 0)
        return papi_error(PAPI_ENOEVNT, "'%s' is no event of the core PMU%s %s: %s", name,
                          n > 1 ? "s" : "", missing, why);
    if (have < n)
        return papi_error(PAPI_ENOEVNT,
                          "'%s' is not an event of every core type (core PMU%s %s lack%s it): it "
                          "would count only while the thread runs on the others; name one "
                          "core PMU (<pmu>::%s) to count that type alone",
                          name, strchr(missing, ',') ? "s" : "", missing,
                          strchr(missing, ',') ? "" : "s", name);
    if (n == 1) { /* one core type: the name is that PMU's event */
        *local = subs[0];
        return PAPI_OK;
    }
    int idx = native_intern_hybrid(name, subs, have);
    if (idx < 0)
        return papi_error(idx, "cannot record native event '%s'", name);
    *local = idx;
    return PAPI_OK;
}

static bool generic_hw(const struct perf_event_attr *a)
{
    return (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE) &&
           !(a->config >> PERF_PMU_TYPE_SHIFT);
}

int native_hybrid_pinned_to_code(const char *name, const char *at, int *local)
{
    int pmu;
    const struct sysfs_pmu *p = sysfs_pmu_find(at + 1, &pmu);
    if (!p || p->kind != SYSFS_PMU_CORE)
        return papi_error(PAPI_ENOEVNT, "native event '%s': '%s' is no core PMU under %s", name,
                          at + 1, SYSFS_PMU_DIR);
    char base[PAPI_HUGE_STR_LEN];
    snprintf(base, sizeof base, "%.*s", (int)(at - name), name);
    /* The generic event is libpfm4's (the other routes have none to pin). */
    int code = native_table_find(base), pfm_ret = 0;
    int ret = code >= 0 ? PAPI_OK : native_pfm_init();
    if (ret != PAPI_OK)
        return ret;
    if (code < 0 && (ret = native_pfm_name_to_code(base, &code, &pfm_ret)) != PAPI_OK)
        return pfm_ret == PFM_SUCCESS ? ret /* the reason is said */
                                      : papi_error(PAPI_ENOEVNT,
                                                   "native event '%s': only a generic hardware "
                                                   "or cache event (perf::...) takes '@<core "
                                                   "pmu>' (libpfm4: %s)",
                                                   name, pfm_strerror(pfm_ret));
    struct native_event *e = native_lookup(code);
    struct perf_event_attr attr = e->attr;
    if (e->route != ROUTE_PFM || e->sysfs_pmu >= 0 || e->attr_plm < 0 || !generic_hw(&attr))
        return papi_error(PAPI_ENOEVNT,
                          "native event '%s': only a generic hardware or cache event (perf::...) "
                          "takes '@<core pmu>'; name the PMU's own event (%s::...) instead",
                          name, at + 1);
    attr.config |= (uint64_t)p->type << PERF_PMU_TYPE_SHIFT;
    /* Canonical: the libpfm4 name of the generic event, then the PMU. */
    char canon[PAPI_HUGE_STR_LEN];
    snprintf(canon, sizeof canon, "%s@%s", e->name, p->name);
    int idx = native_intern_pinned(canon, e->pfm_idx, pmu, e->explicit_plm, &attr);
    if (idx < 0)
        return papi_error(idx, "cannot record native event '%s'", name);
    *local = idx;
    return PAPI_OK;
}

int native_hybrid_subs(int local, int *subs, int max)
{
    struct native_event *e = native_lookup(local);
    if (!e)
        return 0;
    pthread_mutex_lock(&e->enc_lock);
    if (!e->hybrid_known && e->route == ROUTE_PFM && e->sysfs_pmu < 0) {
        /* A generic event of libpfm4 is summed over the core types, each pinned. */
        int pmus[NATIVE_MAX_CORE_TYPES];
        int n = sysfs_hybrid_pmus(pmus, NATIVE_MAX_CORE_TYPES);
        struct perf_event_attr a;
        pthread_mutex_unlock(&e->enc_lock);
        int ok = n >= 2 && native_pfm_encode(e, PAPI_DOM_USER, &a) == PAPI_OK && generic_hw(&a);
        int got[NATIVE_MAX_CORE_TYPES], k = 0;
        for (int i = 0; ok && i < n; i++) {
            char pinned[PAPI_HUGE_STR_LEN];
            snprintf(pinned, sizeof pinned, "%s@%s", e->name, sysfs_pmu_brief(pmus[i])->name);
            got[k] = native_table_find(pinned);
            ok = got[k] >= 0 ||
                 native_hybrid_pinned_to_code(pinned, strrchr(pinned, '@'), &got[k]) == PAPI_OK;
            k++;
        }
        pthread_mutex_lock(&e->enc_lock);
        if (!e->hybrid_known) {
            e->nsub = ok ? k : 0;
            memcpy(e->sub, got, (size_t)e->nsub * sizeof *got);
            e->hybrid_known = 1;
        }
    }
    int n = e->nsub <= max ? e->nsub : max;
    memcpy(subs, e->sub, (size_t)n * sizeof *subs);
    pthread_mutex_unlock(&e->enc_lock);
    return n >= 2 ? n : 0;
}

void native_hybrid_describe(int local, char *out, size_t len)
{
    int subs[NATIVE_MAX_CORE_TYPES];
    int n = native_is_hybrid() ? native_hybrid_subs(local, subs, NATIVE_MAX_CORE_TYPES) : 0;
    out[0] = '\0';
    if (!n)
        return;
    size_t l = (size_t)snprintf(out, len, "summed over the core types:");
    for (int i = 0; i < n && l < len; i++) {
        const struct native_event *s = native_lookup(subs[i]);
        const struct sysfs_pmu *p = NULL;
        if (s->route == ROUTE_SYSFS || s->sysfs_pmu >= 0)
            p = sysfs_pmu_brief(s->sysfs_pmu);
        l += (size_t)snprintf(out + l, len - l, "%s %s (CPUs %s)", i ? "," : "", s->name,
                              p && p->cpus[0] ? p->cpus : "?");
    }
}

/* ---- PAPI_start's check on hybrid machines ------------------------------------------- */

int native_target_cpu(pid_t pid, int cpu)
{
    if (cpu >= 0)
        return cpu;
    if (pid == 0)
        return sched_getcpu();
    if (pid < 0)
        return -1;
    /* Field 39 of /proc/<pid>/stat: the CPU the thread last ran on. The command (field
     * 2) may hold spaces and parentheses: count from its closing one. */
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "re");
    size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[got] = '\0';
    char *p = strrchr(buf, ')');
    for (int field = 2; p && field < 39; field++)
        p = strchr(p + 1, ' ');
    return p ? atoi(p + 1) : -1;
}

bool native_core_type_elsewhere(const struct perf_event_attr *attr, int cpu)
{
    int type = (int)attr->type;
    if (attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE)
        type = attr->config >> PERF_PMU_TYPE_SHIFT ? (int)(attr->config >> PERF_PMU_TYPE_SHIFT)
                                                   : PERF_TYPE_RAW; /* the kernel's default */
    const struct sysfs_pmu *p = sysfs_pmu_by_type(type, NULL);
    if (!p || p->kind != SYSFS_PMU_CORE || !p->own_cpus || !native_is_hybrid())
        return false;
    /* Where the thread is cannot be told: not running there is no proof of a conflict. */
    if (cpu < 0)
        return true;
    return !sysfs_pmu_has_cpu(p, cpu);
}
