/* trace_otf2_defs.c: the global definitions (trace_otf2_defs.h). */
#include "trace_otf2_defs.h"

#ifdef PAPI_HAVE_OTF2
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_otf2_events.h" /* otf2_location */
#include "trace_region_type.h"

struct strings {
    const struct otf2_lib *L;
    OTF2_GlobalDefWriter *g;
    OTF2_StringRef next;
};

static OTF2_StringRef str(struct strings *s, const char *text)
{
    OTF2_StringRef r = s->next++;
    s->L->OTF2_GlobalDefWriter_WriteString(s->g, r, text);
    return r;
}

static const char *host_of(const struct otf2_rank_def *r)
{
    return r->host ? r->host : "?";
}

static const struct otf2_rank_def *sort_ranks;

static int by_host(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    int c = strcmp(host_of(&sort_ranks[x]), host_of(&sort_ranks[y]));
    return c ? c : (x > y) - (x < y);
}

/* node[k]: the index of the first rank on rank k's host (it names the node), by one
 * sort: a job of 100,000 ranks is not compared pairwise. */
static int *host_nodes(const struct otf2_defs *d)
{
    int n = d->nranks > 0 ? d->nranks : 1;
    int *ord = malloc((size_t)n * sizeof *ord), *node = malloc((size_t)n * sizeof *node);
    if (!ord || !node) {
        free(ord);
        free(node);
        return NULL;
    }
    for (int k = 0; k < d->nranks; k++)
        ord[k] = k;
    sort_ranks = d->ranks; /* one writer at a time: the caller serialises */
    qsort(ord, (size_t)d->nranks, sizeof *ord, by_host);
    for (int i = 0; i < d->nranks; i++)
        node[ord[i]] = i && strcmp(host_of(&d->ranks[ord[i]]), host_of(&d->ranks[ord[i - 1]])) == 0
                           ? node[ord[i - 1]]
                           : ord[i];
    free(ord);
    return node;
}

/* The system tree (the job, a node per host), a location group per rank and a location
 * per thread of it. */
static int def_locations(struct strings *s, const struct otf2_defs *d)
{
    const struct otf2_lib *L = s->L;
    char buf[256];
    int *node = host_nodes(d);
    if (!node)
        return -1;
    L->OTF2_GlobalDefWriter_WriteSystemTreeNode(s->g, 0, str(s, "job"), str(s, "job"),
                                                OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_StringRef kind = str(s, "node");
    for (int k = 0; k < d->nranks; k++) {
        const struct otf2_rank_def *r = &d->ranks[k];
        if (node[k] == k)
            L->OTF2_GlobalDefWriter_WriteSystemTreeNode(s->g, (OTF2_SystemTreeNodeRef)k + 1,
                                                        str(s, host_of(r)), kind, 0);
        snprintf(buf, sizeof buf, "rank %d (pid %ld)", r->rank, r->pid);
        /* group refs dense from 0 (readers warn otherwise): rank k of the list */
        L->OTF2_GlobalDefWriter_WriteLocationGroup(
            s->g, (OTF2_LocationGroupRef)k, str(s, buf), OTF2_LOCATION_GROUP_TYPE_PROCESS,
            (OTF2_SystemTreeNodeRef)node[k] + 1, OTF2_UNDEFINED_LOCATION_GROUP);
        for (int t = 0; t < r->nt; t++) {
            char track[64];
            trace_track_name(r->tid[t], r->track, r->ntracks, track, sizeof track);
            snprintf(buf, sizeof buf, "rank %d %s", r->rank, track);
            /* a GPU's stream: OTF2's accelerator stream (2; "GPU" before OTF2 3.0) */
            L->OTF2_GlobalDefWriter_WriteLocation(s->g, otf2_location(r->rank, t), str(s, buf),
                                                  TRACE_IS_GPU_TRACK(r->tid[t])
                                                      ? (OTF2_LocationType)2
                                                      : OTF2_LOCATION_TYPE_CPU_THREAD,
                                                  r->nevents[t], (OTF2_LocationGroupRef)k);
        }
    }
    free(node);
    return 0;
}

/* MPI's locations (rank r: its first thread's location) and, for every communicator
 * used, a group of all ranks: peers are ranks of MPI_COMM_WORLD. 0, or -1. */
static int def_comms(struct strings *s, const struct otf2_defs *d)
{
    const struct otf2_lib *L = s->L;
    char buf[64];
    int nm = d->maxrank + 1;
    uint64_t *m = malloc((size_t)nm * sizeof *m);
    if (!m)
        return -1;
    for (int r = 0; r < nm; r++)
        m[r] = otf2_location(r, 0);
    L->OTF2_GlobalDefWriter_WriteGroup(s->g, 0, str(s, "MPI locations"),
                                       OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                       OTF2_GROUP_FLAG_NONE, (uint32_t)nm, m);
    for (int r = 0; r < nm; r++)
        m[r] = (uint64_t)r;
    L->OTF2_GlobalDefWriter_WriteGroup(s->g, 1, str(s, "MPI_COMM_WORLD's ranks"),
                                       OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                       OTF2_GROUP_FLAG_NONE, (uint32_t)nm, m);
    free(m);
    for (int c = 0; c < d->ncomms; c++) {
        if (d->comm[c] == 0)
            snprintf(buf, sizeof buf, "MPI_COMM_WORLD");
        else
            snprintf(buf, sizeof buf, "communicator %u", (unsigned)d->comm[c]);
        L->OTF2_GlobalDefWriter_WriteComm(s->g, (OTF2_CommRef)c, str(s, buf), 1,
                                          OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    }
    return 0;
}

/* Each counter: a metric member of one value and its asynchronous metric class. */
static void def_metrics(struct strings *s, const struct otf2_defs *d, OTF2_StringRef empty)
{
    for (int i = 0; i < d->ncounters; i++) {
        OTF2_MetricMemberRef mm = (OTF2_MetricMemberRef)i;
        s->L->OTF2_GlobalDefWriter_WriteMetricMember(
            s->g, mm, str(s, d->counter[i]), empty, OTF2_METRIC_TYPE_PAPI,
            OTF2_METRIC_ABSOLUTE_POINT, d->dbl[i] ? OTF2_TYPE_DOUBLE : OTF2_TYPE_INT64,
            OTF2_BASE_DECIMAL, 0, str(s, "#"));
        s->L->OTF2_GlobalDefWriter_WriteMetricClass(
            s->g, (OTF2_MetricRef)i, 1, &mm, OTF2_METRIC_ASYNCHRONOUS, OTF2_RECORDER_KIND_ABSTRACT);
    }
}

/* OTF2's role of each OpenMP role (trace_region_type.h). */
static const OTF2_RegionRole omp_roles[TRACE_OMP_ROLES] = {
    [TRACE_OMP_ROLE_PARALLEL] = OTF2_REGION_ROLE_PARALLEL,
    [TRACE_OMP_ROLE_IMPLICIT_TASK] = OTF2_REGION_ROLE_TASK,
    [TRACE_OMP_ROLE_BARRIER] = OTF2_REGION_ROLE_BARRIER,
    [TRACE_OMP_ROLE_IMPLICIT_BARRIER] = OTF2_REGION_ROLE_IMPLICIT_BARRIER,
    [TRACE_OMP_ROLE_TASKWAIT] = OTF2_REGION_ROLE_TASK_WAIT,
    [TRACE_OMP_ROLE_TASKGROUP] = OTF2_REGION_ROLE_TASK_WAIT,
    [TRACE_OMP_ROLE_TASK] = OTF2_REGION_ROLE_TASK,
    [TRACE_OMP_ROLE_LOOP] = OTF2_REGION_ROLE_LOOP,
    [TRACE_OMP_ROLE_SECTIONS] = OTF2_REGION_ROLE_SECTIONS,
    [TRACE_OMP_ROLE_SINGLE] = OTF2_REGION_ROLE_SINGLE,
    [TRACE_OMP_ROLE_WORKSHARE] = OTF2_REGION_ROLE_WORKSHARE,
    [TRACE_OMP_ROLE_CRITICAL] = OTF2_REGION_ROLE_CRITICAL,
    /* a lock is mutual exclusion as a critical section is; OTF2 has no role of its own */
    [TRACE_OMP_ROLE_LOCK] = OTF2_REGION_ROLE_CRITICAL,
    [TRACE_OMP_ROLE_ORDERED] = OTF2_REGION_ROLE_ORDERED,
    [TRACE_OMP_ROLE_ATOMIC] = OTF2_REGION_ROLE_ATOMIC,
    /* the team's partial results combined: a collective of the team's threads */
    [TRACE_OMP_ROLE_REDUCTION] = OTF2_REGION_ROLE_COLL_OTHER,
    [TRACE_OMP_ROLE_MASKED] = OTF2_REGION_ROLE_MASTER,
    /* offloaded code: OTF2 has no role for it */
    [TRACE_OMP_ROLE_TARGET] = OTF2_REGION_ROLE_CODE,
};

/* A region by its type: an MPI call a function of MPI, an OpenMP slice its role of
 * OpenMP with its parallel region's source file and first line where the name says them (so
 * Vampir filters and colours them), any other the user's code. */
static void def_region(struct strings *s, OTF2_RegionRef ref, const char *name,
                       OTF2_StringRef empty)
{
    struct trace_region_type t = trace_region_type_of(name);
    OTF2_StringRef nm = str(s, name), file = empty;
    OTF2_RegionRole role = OTF2_REGION_ROLE_CODE;
    OTF2_Paradigm paradigm = OTF2_PARADIGM_USER;
    if (t.paradigm == TRACE_REGION_MPI) {
        role = OTF2_REGION_ROLE_FUNCTION;
        paradigm = OTF2_PARADIGM_MPI;
    } else if (t.paradigm == TRACE_REGION_OPENMP) {
        role = omp_roles[t.role];
        paradigm = OTF2_PARADIGM_OPENMP;
        char *path = t.file_len > 0 ? malloc(t.file_len + 1) : NULL;
        if (path) { /* no memory: no file said */
            memcpy(path, t.file, t.file_len);
            path[t.file_len] = '\0';
            file = str(s, path);
            free(path);
        }
    }
    s->L->OTF2_GlobalDefWriter_WriteRegion(s->g, ref, nm, nm, empty, role, paradigm,
                                           OTF2_REGION_FLAG_NONE, file, (uint32_t)t.line,
                                           0 /* the end line: not known */);
}

int otf2_write_global_defs(const struct otf2_lib *L, OTF2_Archive *a, const struct otf2_defs *d)
{
    OTF2_GlobalDefWriter *g = L->OTF2_Archive_GetGlobalDefWriter(a);
    if (!g)
        return -1;
    struct strings s = {L, g, 0};
    L->OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000ULL, d->first, d->last - d->first + 1,
                                                 OTF2_UNDEFINED_TIMESTAMP);
    OTF2_StringRef empty = str(&s, "");
    if (def_locations(&s, d) != 0)
        return -1;
    for (int i = 0; i < d->nregions; i++)
        def_region(&s, (OTF2_RegionRef)i, d->region[i], empty);
    if (d->ncomms > 0 && def_comms(&s, d) < 0)
        return -1;
    def_metrics(&s, d, empty);
    return 0;
}
#endif
